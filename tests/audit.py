"""Every page of a built site, in both languages, as a reader's browser gets it: what it
shows (formulas, images, the language switcher), what went wrong (console errors, failed
requests, requests that left the site) and axe-core's serious violations at a desktop and a
phone width; and what the site's search answers to a reader's queries (``SEARCHES``). The
tests of tests/test_site_browser.py and tests/test_search.py read the findings.

Run as PARTS processes of its own, each auditing its share of the pages, so the test session
starts them the moment the site is built and goes on with other tests while they work
(tests/conftest.py, ``BackgroundAudit``)::

    python -m tests.audit SITE FINDINGS.json PART   # part 0 writes FINDINGS.search.json too
"""

from __future__ import annotations

import functools
import json
import shutil
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tests.browser import PageWatch, chromium, serve
from tests.sites import ROOT, Background

AXE_CORE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@functools.cache
def page_urls() -> list[str]:
    """The site's pages in zh (root) and en (/en/), from the sources."""
    paths = []
    for source in sorted((ROOT / "docs").rglob("*.zh.md")):
        stem = source.relative_to(ROOT / "docs").as_posix().removesuffix(".zh.md")
        paths.append("" if stem == "index" else f"{stem}/")
    paths += [f"examples/{script.stem}/" for script in sorted((ROOT / "examples").glob("*.py"))]
    return [prefix + path for path in paths for prefix in ("", "en/")]


def twin(url: str) -> str:
    return url.removeprefix("en/") if url.startswith("en/") else f"en/{url}"


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SCREENS = {"desktop": DESKTOP["viewport"], "phone": PHONE["viewport"]}

# Chinese characters the browser draws as empty boxes ("tofu"): each distinct Han character of
# the text (up to 40) drawn on a canvas in the text's own font, compared pixel for pixel with a
# code point no font has (U+10FFFD, private use): a character drawn exactly as that one had no
# glyph. Without a CJK font every character is that box.
TOFU = """const tofu = (text) => {
    const family = getComputedStyle(document.querySelector('.md-typeset')).fontFamily;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 64;
    const pen = canvas.getContext('2d', {willReadFrequently: true});
    const drawn = (character) => {
        pen.clearRect(0, 0, 64, 64);
        pen.font = `40px ${family}`;
        pen.fillText(character, 4, 48);
        return pen.getImageData(0, 0, 64, 64).data.join(',');
    };
    const missing = drawn('\\u{10FFFD}');
    const han = [...new Set(text.match(/\\p{Script=Han}/gu) || [])].slice(0, 40);
    return han.filter(character => drawn(character) === missing);
};"""

READER = (
    """() => {
"""
    + TOFU
    + """
    const content = document.querySelector('.md-content').cloneNode(true);
    content.querySelectorAll('pre, code, .clipboard-copy-txt, .katex, script, style')
        .forEach(e => e.remove());
    const other = document.documentElement.lang === 'en' ? 'zh' : 'en';
    return {
        spans: document.querySelectorAll('.arithmatex').length,
        typeset: document.querySelectorAll('.arithmatex .katex').length,
        katex_errors: [...document.querySelectorAll('.katex-error')].map(e => e.textContent),
        text: content.innerText,
        images: [...document.querySelectorAll('.md-content img')].map(i => ({
            src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0, alt: i.alt})),
        switcher: document.querySelector(`a.md-select__link[hreflang="${other}"]`).href,
        tofu: tofu(content.innerText),
    };
}"""
)

# Figures load lazily (resdoc/sitegen/figures.py): load every one, as a reader who scrolls
# through the page would, before READER checks that each loaded. The waits below end on the
# images' own load and error events; their deadline only stops a hang. It is long because CI
# shares its machine: with two pages loading at once, one of ch 4's figures once took > 30 s.
DEADLINE_MS = 180_000
LOAD_LAZY_IMAGES = f"""async () => {{
    const images = [...document.querySelectorAll('.md-content img')];
    images.forEach(image => {{ image.loading = 'eager'; }});
    const loaded = images.map(image => image.complete ? null : new Promise(done => {{
        image.addEventListener('load', done); image.addEventListener('error', done); }}));
    await Promise.race([Promise.all(loaded),
                        new Promise(done => setTimeout(done, {DEADLINE_MS}))]);
}}"""

# Every block laid out and painted, as each is once the reader scrolls to it: a chapter's blocks
# after the first screen wait until then (content-visibility: auto, extra.css), and in such a
# block axe-core cannot see colours (it reported contrast failures that are not there), nor
# this audit a figure's place in its column, and an animation there never ends (SETTLED hung).
RENDER_ALL = ".md-content__inner > * { content-visibility: visible !important; }"

# The layout come to rest: two frames (the page's own handlers have run), then every animation
# that ends has ended (an endless one, a spinner, never would). axe-core and the focus walk
# wait for it: the transitions a resize starts (Material's drawer) would have them measure
# colours half-way through.
SETTLED = """const settled = async () => {
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    const finite = document.getAnimations()
        .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map(a => a.finished.catch(() => null)));
};"""

AXE = (
    """async () => {
"""
    + SETTLED
    + """
    await settled();
    const result = await axe.run(document, {resultTypes: ['violations'],
                                            runOnly: {type: 'rule', values: SERIOUS_RULES()}});
    return result.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v =>
        `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
}"""
)

# The rules axe-core runs by default that can report a serious or critical violation, read
# from axe-core's own metadata: a rule's impact is the highest of the checks it failed, so a
# rule whose every check is minor or moderate never reports what the audit keeps. Running
# only these gives the same findings for about a seventh less of axe-core's time (its rules
# such as region, heading-order and the landmark rules are moderate at most).
SERIOUS_RULES = """() => {
    const rank = {minor: 1, moderate: 2, serious: 3, critical: 4};
    const checks = axe._audit.data.checks;
    const worst = rule => Math.max(rank[rule.impact] || 0, ...[...rule.any, ...rule.all, ...rule.none]
        .map(check => rank[(checks[typeof check === 'string' ? check : check.id] || {}).impact] || 0));
    const rules = axe._audit.rules.filter(rule => rule.enabled
        && !(rule.tags || []).includes('experimental') && worst(rule) >= rank.serious);
    if (!rules.some(rule => rule.id === 'color-contrast')) {
        throw new Error('axe-core metadata changed: no serious rule found (tests/audit.py)');
    }
    return rules.map(rule => rule.id);
}"""
AXE = AXE.replace("SERIOUS_RULES()", f"({SERIOUS_RULES})()")


# axe-core runs on every page with a phone's screen, where most readers read; on a desktop's
# only on one page of each kind, in both languages: what the desktop adds (the nav sidebar,
# the table of contents, the header's search field) is the template's, the same on every page
# of a kind, while the text is checked at the phone's width. axe-core is most of the audit's
# CPU (seconds a run on a chapter), and the test command has a budget of 6 minutes.
# The example pages are the exception: each is one converter's rendering (mkdocs-jupyter) of
# the same kinds of cells (Markdown, code, printed text, figures) in the same template, so
# axe-core checks one of them per language, the largest, at both widths; the audit still
# loads every example page and checks its errors, formulas, figures and glyphs.
AXE_EXAMPLES = ("examples/04-add-norm/", "en/examples/04-add-norm/")
AXE_ON_DESKTOP = tuple(
    prefix + path
    for path in (
        "",
        "chapters/04-add-norm/",
        "examples/04-add-norm/",
        "explorer/",
        "references/",
        "glossary/",
    )
    for prefix in ("", "en/")
)


def axe_on_phone(url: str) -> bool:
    """Whether axe-core checks ``url`` at a phone's width, if the audit looks at it fully
    (``fully``): every page but the example pages other than AXE_EXAMPLES."""
    return "examples/" not in url or url in AXE_EXAMPLES


# A page and its twin in the other language are the same markup around text in two languages.
# The audit looks at both as a reader gets them (errors, requests, formulas typeset, images and
# their alt text, the language switch, Chinese glyphs) and on a phone's screen (formulas and
# figures in the column, nothing scrolling sideways); the desktop's width, the dark palette and
# axe-core at one of the two, alternating between the languages from one pair to the next,
# and at both for AXE_ON_DESKTOP's pages. So each language has about half the pages looked at
# fully, and each page's text is looked at fully in one language.
def fully(url: str) -> bool:
    """Whether the audit looks at ``url`` at both widths, in the dark and with axe-core."""
    if url in AXE_ON_DESKTOP:
        return True
    pairs = sorted(dict.fromkeys(u.removeprefix("en/") for u in page_urls()))
    return pairs.index(url.removeprefix("en/")) % 2 == url.startswith("en/")


def screens(url: str) -> tuple[str, ...]:
    """The screens the audit lays ``url`` out for (its formulas and figures are checked at each)."""
    return tuple(SCREENS) if fully(url) else ("phone",)


def figure_views(url: str) -> tuple[str, ...]:
    """The screens and palettes the audit checks ``url``'s figures in."""
    return (*(f"{screen}-light" for screen in screens(url)), *(("phone-dark",) * fully(url)))


def axe_screens(url: str) -> set[str]:
    """The screens axe-core checks ``url`` at."""
    phone = {"phone"} if fully(url) and axe_on_phone(url) else set()
    return phone | ({"desktop"} if url in AXE_ON_DESKTOP else set())


# Queries a reader types, per language's home page; tests/test_search.py says what each must find.
SEARCHES = {
    "": [
        "残差",
        "梯度消失",
        "预热",
        "层归一化",
        "残差连接",
        "退化",
        "Post-LN",
        "warmup",
        "warm-up",
        "gradient",
        "layer norm",
        "shattered",
        "bottleneck",
        "pre-ln",
    ],
    "en/": [
        "残差",
        "residual",
        "vanishing gradient",
        "warmup",
        "warm-up",
        "Post-LN",
        "pre-ln",
        "Pre-LN",
        "gradient",
        "layer norm",
        "shattered",
        "bottleneck",
        "degradation",
    ],
}
SHOWN = 10  # result groups kept per query (a group: one page, its best-matching entry first)

# Material's own search worker, set up as Material sets it up (its index, the setup message)
# and asked each query as the search field asks it: results as the reader's list shows them.
SEARCH = """async ([queries, shown]) => {
    const config = JSON.parse(document.getElementById('__config').textContent);
    const base = new URL(config.base, location.href);
    const index = await (await fetch(new URL('search/search_index.json', base))).json();
    const worker = new Worker(new URL(config.search, location.href));
    const ask = (message) => new Promise(done => {
        worker.onmessage = event => done(event.data); worker.postMessage(message); });
    await ask({type: 0, data: {config: index.config, docs: index.docs, options: {suggest: false}}});
    const results = {};
    for (const query of queries) {
        const answer = await ask({type: 2, data: query});
        results[query] = answer.data.items.slice(0, shown).map(group => group.map(item => ({
            location: item.location, title: item.title, text: item.text})));
    }
    worker.terminate();
    return results;
}"""


# The figures the reader sees (resdoc/sitegen/figures.py): each shown <img> once its picture has
# picked the variant for this screen and scheme and loaded it (as long as LOAD_LAZY_IMAGES
# waits), where it lies in the text column, whether anything around it scrolls, and whether
# the page scrolls sideways.
FIGURES = """async ({narrow, dark}) => {
    const DEADLINE = DEADLINE_MS;
    const shown = () => [...document.querySelectorAll('.md-content picture img')]
        .filter(image => getComputedStyle(image).display !== 'none');
    // settled: the variant this screen selects has loaded, or an image failed (the checks
    // below report it); a resize or a palette change starts the new variant's load
    const settled = image => image.complete && (image.naturalWidth === 0 || (
        image.currentSrc.includes('.narrow.') === narrow
        && image.currentSrc.includes('.dark.') === dark));
    const deadline = performance.now() + DEADLINE;
    while (performance.now() < deadline && !shown().every(settled)) {
        await new Promise(done => setTimeout(done, 100));
    }
    const article = document.querySelector('.md-content article') || document.querySelector('.md-content');
    const box = article.getBoundingClientRect(), style = getComputedStyle(article);
    const left = box.left + parseFloat(style.paddingLeft), right = box.right - parseFloat(style.paddingRight);
    return {
        page_scrolls: document.scrollingElement.scrollWidth > window.innerWidth,
        pictures: document.querySelectorAll('.md-content picture').length,
        shown: shown().map(image => {
            const r = image.getBoundingClientRect();
            let scrolls = false;
            for (let e = image.parentElement; e && e !== article; e = e.parentElement) {
                scrolls ||= e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible';
            }
            return {src: new URL(image.currentSrc || image.src).pathname, width: r.width,
                    left: r.left - left, right: right - r.right, scrolls};
        }),
    };
}""".replace("DEADLINE_MS", str(DEADLINE_MS))


# Each display formula as the reader sees it on this screen: whether it is wider than its box
# and, if so, whether the box shows that (it scrolls, a shadow at the cut edge), lets the
# keyboard in and has a name; and whether the box itself stays in the content area (on a
# phone a formula's box may take the screen's width, past the text's margins); and, for a
# numbered formula, whether its number stands clear of the formula (right of its last part).
FORMULAS = """() => {
    const area = document.querySelector('.md-content').getBoundingClientRect();
    return [...document.querySelectorAll('.md-content .katex-display')].map(display => {
        const look = getComputedStyle(display), r = display.getBoundingClientRect();
        const tex = display.querySelector('annotation');
        const tag = display.querySelector('.katex-tag');
        const parts = [...display.querySelectorAll('.katex-html > .katex-base')];
        const end = Math.max(...parts.map(part => part.getBoundingClientRect().right));
        // cut by code point: 𝓕 is two UTF-16 units, and half of one is no JSON Python writes
        return {
            tex: [...(tex ? tex.textContent : display.textContent).trim()].slice(0, 80).join(''),
            width: display.scrollWidth, shown: display.clientWidth,
            overflows: display.scrollWidth > display.clientWidth + 1,
            scrolls: ['auto', 'scroll'].includes(look.overflowX),
            shadow: (look.backgroundImage.match(/gradient/g) || []).length >= 4,
            focusable: display.tabIndex === 0,
            name: display.getAttribute('aria-label') || '',
            in_column: r.left >= area.left - 0.5 && r.right <= area.right + 0.5,
            tag_clear: !tag || tag.getBoundingClientRect().left >= end - 0.5,
        };
    });
}"""


# Pages walked with the keyboard and printed: a home page, chapter 4 (its formulas, code,
# measured numbers) and the references (links to other sites), in both languages between
# them. The focus ring and the print rules are the site's CSS, the same in each language; a
# walk costs about as much CPU as five other pages.
WALKED = ("", "en/chapters/04-add-norm/", "references/")
TAB_STOPS = 60  # the header, the nav and the start of the text

# Where Tab's focus is: what it is, whether a reader sees it (on screen, not transparent or
# hidden) and whether it shows it has focus (an outline or a shadow of at least 1 px).
FOCUSED = (
    """async () => {
"""
    + SETTLED
    + """
    // what Tab set moving (Material's search opening, a drawer sliding) is read at rest; the
    // frames after the animations let a handler the animation's end started run too
    await settled();
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    // a control drawn by the label after it (Material's palette toggle: a 0×0 radio, then the
    // icon that switches to the other scheme) shows focus on that label, as Material styles it
    const next = e.nextElementSibling;
    const drawn = e.getBoundingClientRect().width === 0 && next && next.matches('label')
        ? next : e;
    const r = drawn.getBoundingClientRect(), style = getComputedStyle(drawn);
    let shown = r.width > 0 && r.height > 0 && style.visibility === 'visible'
        && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
    for (let a = drawn; a && shown; a = a.parentElement) {
        shown = parseFloat(getComputedStyle(a).opacity) > 0.1;
    }
    const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1)
        || style.boxShadow !== 'none';
    const name = typeof e.className === 'string' && e.className.trim()
        ? '.' + e.className.trim().split(/\\s+/).join('.') : '';
    return {element: e.tagName.toLowerCase() + name, text: [...(e.innerText || e.ariaLabel || '')].slice(0, 40).join(''),
            shown, ring};
}"""
)

# The page as print media lays it out (page.emulate_media): what would still look like the
# screen's controls on paper, and whether links to other sites print their address.
PRINTED = """() => {
    const seen = e => getComputedStyle(e).display !== 'none';
    const measured = [...document.querySelectorAll('.md-typeset .rd-measured')];
    const copy = [...document.querySelectorAll(
        '.md-typeset .md-clipboard, .md-typeset .md-code__button, .md-typeset .md-code__nav')];
    const outside = [...document.querySelectorAll('.md-content a[href^="http"]')]
        .filter(a => !a.classList.contains('md-button'));
    const label = document.querySelector('.md-content h1 .rd-chapter-number');
    return {
        measured: measured.length,
        underlined: measured.filter(e => getComputedStyle(e).textDecorationLine !== 'none').length,
        copy_buttons: copy.filter(seen).length,
        links_out: outside.length,
        links_without_address: outside.filter(a => !getComputedStyle(a, '::after').content
            .includes(a.getAttribute('href'))).map(a => a.href),
        chapter_label: label ? seen(label) && label.getBoundingClientRect().height > 0 : null,
    };
}"""


@dataclass
class Visit:
    """What one page did and showed when a reader's browser loaded it."""

    errors: list[str] = field(default_factory=list)  # console errors, failed requests
    outside: list[str] = field(default_factory=list)  # requests that left the site
    reader: dict = field(default_factory=dict)  # READER's findings
    axe: dict[str, list[str]] = field(default_factory=dict)  # screen: serious violations
    figures: dict[str, dict] = field(default_factory=dict)  # "phone-dark" etc.: FIGURES' findings
    formulas: dict[str, list] = field(default_factory=dict)  # screen: FORMULAS' findings
    focus: list[dict] = field(default_factory=list)  # WALKED pages: FOCUSED after each Tab
    printed: dict = field(default_factory=dict)  # WALKED pages: PRINTED
    failed: str = ""  # the visit itself broke (a timeout, a script error)


class Reader:
    """One browser tab that visits pages one after another, as a reader following links
    would: its cache and compiled scripts carry over (a fresh context per page cost three
    times the CPU), while each page's DOM, errors and requests are its own."""

    def __init__(self, browser, server: str):
        self.context = browser.new_context(**DESKTOP)
        # Playwright's 30 s for a load or a click only stops a hang; CI shares its machine,
        # where three audits, the site tests and a second build may run at once
        self.context.set_default_timeout(DEADLINE_MS)
        self.context.add_init_script(path=str(AXE_CORE))  # axe-core in every page, before it runs
        self.page = self.context.new_page()
        self.watch = PageWatch(self.page, server)
        self.server = server

    def visit(self, url: str) -> Visit:
        """One page: what the reader gets, then at each of its ``screens`` (the desktop's, then
        the phone's) axe-core, the formulas and the figures; if the audit looks at it
        ``fully``, the Tab walk and print on WALKED pages and the figures in the dark."""
        page, visit = self.page, Visit()
        try:
            page.goto("about:blank")  # what the last page still did is reported with it
            self.watch.errors, self.watch.outside = visit.errors, visit.outside
            laid_out = screens(url)
            page.set_viewport_size(SCREENS[laid_out[0]])
            page.goto(self.server + url, wait_until="networkidle")
            page.add_style_tag(content=RENDER_ALL)
            page.evaluate(LOAD_LAZY_IMAGES)
            visit.reader = page.evaluate(READER)
            for screen in laid_out:
                page.set_viewport_size(SCREENS[screen])  # the same load, laid out again
                if screen in axe_screens(url):
                    visit.axe[screen] = page.evaluate(AXE)
                visit.formulas[screen] = page.evaluate(FORMULAS)
                shown = {"narrow": screen == "phone", "dark": False}
                visit.figures[f"{screen}-light"] = page.evaluate(FIGURES, shown)
            if not fully(url):
                return visit
            if url in WALKED:
                self.walk_and_print(visit)
                page.set_viewport_size(
                    PHONE["viewport"]
                )  # the walk is on a desktop; dark is checked narrow
            # the dark palette, chosen with Material's toggle (prefers-color-scheme only picks
            # the palette of a first visit: the screenshots' fresh browsers check that path)
            page.click("form[data-md-component=palette] label[for=__palette_1]")
            try:
                page.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
                visit.figures["phone-dark"] = page.evaluate(FIGURES, {"narrow": True, "dark": True})
            finally:
                page.evaluate("() => localStorage.clear()")  # the next page starts light
        except Exception as error:  # noqa: BLE001 - reported by every test of the page
            visit.failed = f"{type(error).__name__}: {error}"
        return visit

    def walk_and_print(self, visit: Visit) -> None:
        """Tab through the page's first TAB_STOPS stops on a desktop screen, then lay it out
        for print."""
        page = self.page
        page.set_viewport_size(DESKTOP["viewport"])
        page.evaluate("() => window.scrollTo(0, 0)")
        for _ in range(TAB_STOPS):
            page.keyboard.press("Tab")
            visit.focus.append(page.evaluate(FOCUSED))
        page.keyboard.press("Escape")  # a search the walk opened closes
        page.emulate_media(media="print")
        try:
            visit.printed = page.evaluate(PRINTED)
        finally:
            page.emulate_media(media="screen")


# The audit runs as PARTS processes, each with its own Chromium and one tab: a page's waits
# (its load, settling layouts, the Tab walk's transitions) hold up only its own process while
# the others keep both cores busy (one page at a time took 201 s, two processes 135 s, three
# 108 s, on 2 idle cores). A walked page costs about five others.
PARTS = 3


def share(urls: list[str], part: int) -> list[str]:
    """The pages part ``part`` audits: dealt, dearest first, to the part with least to do."""
    load, mine = [0] * PARTS, []
    for url in sorted(urls, key=lambda url: url not in WALKED):  # stable: walked ones first
        least = load.index(min(load))
        load[least] += 5 if url in WALKED else 1
        if least == part:
            mine.append(url)
    return mine


def audit(browser, server: str, urls: list[str]) -> dict[str, Visit]:
    """Each of ``urls`` loaded once, one after another, in one tab."""
    reader = Reader(browser, server)
    try:
        return {url: reader.visit(url) for url in urls}
    finally:
        reader.context.close()


def search_results(browser, server: str) -> dict[str, dict[str, list]]:
    """Each language's queries (``SEARCHES``) answered by the site's search, from its home page."""
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        results = {}
        for home, queries in SEARCHES.items():
            page.goto(server + home, wait_until="load")
            results[home] = page.evaluate(SEARCH, [queries, SHOWN])
        return results
    finally:
        context.close()


def searches_file(findings: Path) -> Path:
    return findings.with_suffix(".search.json")


class BackgroundAudit:
    """``python -m tests.audit site findings part`` started now for every part;
    ``findings()`` and ``searches()`` wait for them (part 0 asks the searches too)."""

    def __init__(self, site: Path, folder: Path):
        self.found = [folder / f"findings-{part}.json" for part in range(PARTS)]
        self.parts = [
            Background(
                [sys.executable, "-m", "tests.audit", str(site), str(found), str(part)],
                folder / f"audit-{part}.log",
                cwd=ROOT,
            )
            for part, found in enumerate(self.found)
        ]

    def stop(self) -> None:
        for part in self.parts:
            part.stop()

    def findings(self) -> dict[str, Visit] | str:
        """The findings per page, or why there are none (no Chromium: the tests skip)."""
        merged: dict[str, Visit] = {}
        for part, found_file in zip(self.parts, self.found, strict=True):
            ran = part.result()
            assert ran.returncode == 0, ran.stdout[-5000:]
            found = json.loads(found_file.read_text("utf-8"))
            if isinstance(found, str):
                return found
            merged |= {u: Visit(**v) for u, v in found.items()}
        return merged

    def searches(self) -> dict[str, dict[str, list]] | str:
        """Each language's results per query (``SEARCHES``), or why there are none."""
        found = self.findings()
        if isinstance(found, str):
            return found
        return json.loads(searches_file(self.found[0]).read_text("utf-8"))


def main(site: Path, findings: Path, part: int) -> None:
    if shutil.which("chromium") is None:
        found = "Debian's chromium is not installed (apt-get install chromium; .ci/run does it)"
    else:
        with serve(site) as server, chromium() as browser:
            visits = audit(browser, server, share(page_urls(), part))
            found = {url: asdict(visit) for url, visit in visits.items()}
            if part == 0:
                searched = search_results(browser, server)
                searches_file(findings).write_text(
                    json.dumps(searched, ensure_ascii=False), "utf-8"
                )
        for visit in found.values():  # the server's address was this process's own
            switcher = visit["reader"].get("switcher", "")
            visit["reader"]["switcher"] = switcher.removeprefix(server)
    findings.write_text(json.dumps(found, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
