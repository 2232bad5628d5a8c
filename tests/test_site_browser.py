"""Every page of the built site, in both languages, as a reader's browser gets it.

No console error or failed request, nothing requested from outside the site, every formula
typeset by KaTeX, every image loaded with alt text, a language switcher that leads to the
same page in the other language, Chinese drawn with glyphs; on a phone's screen, figures that
fit the column with legible text and display formulas never cut without showing it. Of each
pair of twins one page, alternating between the languages (tests/audit.py's ``fully``), is
also checked on a desktop's screen, in the dark palette and by axe-core (of the example pages,
axe-core checks one per language). And a search that finds Chinese words from the middle of a
sentence.
"""

from __future__ import annotations

import re

import pytest

from tests.audit import PHONE, Visit, axe_screens, figure_views, page_urls, screens, twin
from tests.browser import PageWatch
from tests.sites import figure_records, variant_of

pytestmark = [pytest.mark.slow, pytest.mark.upstream]


@pytest.fixture(params=page_urls())
def visit(request, visits) -> tuple[str, Visit]:
    """One page's findings (tests/audit.py; the session starts the audit as soon as the site
    is built, see tests/conftest.py)."""
    url, found = request.param, visits[request.param]
    assert not found.failed, f"{url}: {found.failed}"
    return url, found


@pytest.fixture
def open_page(browser, server):
    """A fresh load of a page, in a context of its own (for tests that click, type or need
    a phone's touch screen)."""
    contexts = []

    def open_(url: str, **options):
        context = browser.new_context(**options)
        contexts.append(context)
        page = context.new_page()
        watch = PageWatch(page, server)
        page.goto(server + url, wait_until="networkidle")
        return page, watch

    yield open_
    for context in contexts:
        context.close()


def test_page_as_a_reader_gets_it(visit, server):
    url, found = visit
    assert found.errors == [], url
    assert found.outside == [], f"{url} requested outside the site"

    # formulas: every arithmatex span typeset, no KaTeX error, no raw TeX left visible
    reader = found.reader
    assert reader["typeset"] == reader["spans"] and reader["katex_errors"] == [], url
    raw = re.findall(r"\$\$|\\\(|\\\[|\\frac|\\mathcal|(?<![\w$])\$[^$\s][^$]*\$", reader["text"])
    assert raw == [], f"{url}: raw TeX visible: {raw[:5]}"

    # images: loaded, non-zero size, alt text
    for image in reader["images"]:
        assert image["ok"], f"{url}: image did not load: {image['src']}"
        assert image["alt"].strip(), f"{url}: image without alt text: {image['src']}"

    # the language switcher leads to the same page in the other language
    assert reader["switcher"] == twin(url), url


def _alt_language(url: str) -> str:
    return "en" if url.startswith("en/") else "zh"


def test_figures_have_alt_text_in_their_own_language(visit):
    url, found = visit
    for alt in (image["alt"] for image in found.reader["images"]):
        has_han = bool(re.search(r"[\u4e00-\u9fff]", alt))
        assert has_han == (_alt_language(url) == "zh"), (
            f"{url}: alt text in the wrong language: {alt!r}"
        )


def test_no_serious_accessibility_violation(visit):
    """axe-core with a phone's screen (the same load, the window resized, so layout, contrast
    and overlaps follow the phone's width) on each page of a pair of twins the audit looks at
    fully (tests/audit.py's ``fully``), but of the example pages on one per language
    (AXE_EXAMPLES); with a desktop's on one page of each kind (AXE_ON_DESKTOP)."""
    url, found = visit
    assert set(found.axe) == axe_screens(url), f"{url}: axe-core ran on {sorted(found.axe)}"
    for screen, violations in found.axe.items():
        assert violations == [], f"{url or 'home'} ({screen}): {violations}"


@pytest.mark.parametrize(("url", "screen"), [(u, s) for u in page_urls() for s in screens(u)])
def test_no_display_formula_is_cut_without_showing_it(visits, url, screen):
    """Every display formula at 390 px, and at 1280 px on a page the audit looks at fully
    (tests/audit.py's ``screens``): its box inside the text column, and a formula wider than
    its box scrolls there with a shadow at the cut edge, in a box the keyboard reaches and a
    screen reader names; a numbered formula's number stands clear of it (KaTeX pins the number
    to the box's right edge). On the desktop every formula fits: a wide one is broken into
    lines (aligned), as a reader of a book expects."""
    found = visits[url]
    assert not found.failed, f"{url}: {found.failed}"
    for formula in found.formulas[screen]:
        where = f"{url} ({screen}) {formula['tex']!r}, {formula['width']} px in {formula['shown']}"
        assert formula["in_column"], f"{where}: its box leaves the column"
        assert formula["tag_clear"], f"{where}: its number is drawn over the formula"
        if not formula["overflows"]:
            continue
        assert screen == "phone", f"{where}: wider than the desktop column, break it into lines"
        assert formula["scrolls"], f"{where}: cut, it does not scroll"
        assert formula["shadow"], f"{where}: cut with no shadow showing that it goes on"
        assert formula["focusable"] and formula["name"], f"{where}: the keyboard cannot scroll it"


@pytest.mark.parametrize(
    ("url", "query", "expected"),
    [
        ("", "交叉项", "chapters/00-python-demo/"),  # a word from the middle of a Chinese sentence
        ("", "雅可比矩阵", "chapters/03-gradient-flow/"),
        ("en/", "shortcut", "en/chapters/01-shortcut/"),
    ],
)
def test_search_finds_words(open_page, server, url, query, expected):
    page, watch = open_page(url)
    page.focus("input.md-search__input")
    page.fill("input.md-search__input", query)
    page.press("input.md-search__input", "End")  # Material's search reacts to key-up
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    page.wait_for_timeout(500)  # let the result list settle
    links = page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")
    assert any(link.startswith(server + expected) for link in links), links[:10]
    assert watch.errors == []


@pytest.mark.parametrize(
    ("url", "index"), [("", "search/"), ("en/chapters/01-shortcut/", "en/search/")]
)
def test_search_index_of_the_pages_language_only_once_search_is_opened(
    open_page, server, url, index
):
    page, _ = open_page(url)
    page.wait_for_timeout(300)
    fetched = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    assert fetched and not [u for u in fetched if "search_index" in u], "fetched before search"
    with page.expect_request(lambda request: "search_index" in request.url) as request:
        page.focus("input.md-search__input")
    assert request.value.url == f"{server}{index}search_index.json"


@pytest.mark.parametrize(("url", "shown"), [(u, v) for u in page_urls() for v in figure_views(u)])
def test_figures_fit_their_column_in_the_screens_variant_with_text_of_at_least_9_px(
    visits, site, url, shown
):
    """What the audit saw of each figure (tests/audit.py's ``figure_views``: on a phone in the
    light palette, and on a page it looks at fully on a desktop and in the dark too): inside
    the text column, nothing around it scrolling, the page not scrolling sideways; the variant
    of the screen's width and the palette's scheme (Material's dark one under
    prefers-color-scheme: dark); and, at the width it is shown, its smallest text (recorded
    when it was drawn) at least 9 CSS px."""
    found = visits[url]
    assert not found.failed, f"{url}: {found.failed}"
    assert set(found.figures) == set(figure_views(url)), f"{url}: seen {sorted(found.figures)}"
    seen = found.figures[shown]
    assert not seen["page_scrolls"], f"{url} ({shown}): the page scrolls sideways"
    assert len(seen["shown"]) * 2 == seen["pictures"], f"{url} ({shown}): one picture per figure"
    records = figure_records(site)
    for figure in seen["shown"]:
        lang, example, name, variant = variant_of(figure["src"])
        where = f"{url} ({shown}) {figure['src']}"
        assert variant == _expected_variant(shown), where
        assert figure["left"] >= -0.5 and figure["right"] >= -0.5, f"{where} leaves the column"
        assert not figure["scrolls"], f"{where} scrolls"
        size = records[example, name][lang][variant]
        px = size["min_font_pt"] * figure["width"] / size["width_pt"]
        # an example page shows a figure inside a notebook cell, whose padding leaves it about
        # 318 of a phone's 358 px and 650 of a desktop's 688 (its prompt is hidden: extra.css)
        least = 8 if "examples/" in url else 9
        assert px >= least, f"{where}: smallest text {px:.1f} CSS px"


def _expected_variant(shown: str) -> str:
    screen, scheme = shown.split("-")
    return f"{'narrow' if screen == 'phone' else 'wide'}-{scheme}"


SHOWN_FIGURES_LOADED = """() => [...document.querySelectorAll('figure.rd-figure picture img')]
    .filter(image => getComputedStyle(image).display !== 'none')
    .every(image => image.complete && image.naturalWidth > 0)"""


def test_a_reader_downloads_only_the_figures_variant_the_screen_shows(open_page, server):
    """On a phone in the light palette, scrolled to the end of a chapter: each figure's narrow,
    light SVG, and no other variant (hidden pictures load lazily, that is never)."""
    page, _ = open_page("chapters/03-gradient-flow/", **PHONE)
    for figure in page.query_selector_all("figure.rd-figure"):
        figure.scroll_into_view_if_needed()
        page.wait_for_timeout(200)  # the lazy image starts loading once it nears the screen
    page.wait_for_function(SHOWN_FIGURES_LOADED)
    page.wait_for_timeout(300)  # anything else that would still start loading
    fetched = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    svgs = [url.removeprefix(server) for url in fetched if "/figures/" in url]
    assert svgs and all(".narrow.svg" in url and ".dark." not in url for url in svgs), svgs


def _typeset(page) -> dict:
    return page.evaluate(
        """() => ({spans: document.querySelectorAll('.arithmatex').length,
                   typeset: document.querySelectorAll('.arithmatex .katex').length})"""
    )


def test_following_links_keeps_math_the_explorer_and_the_language_switch_working(open_page, server):
    """Pages reached by following links (Material's instant navigation, when it is on, swaps
    the page without reloading it) are typeset, run the explorer, and switch language."""
    page, watch = open_page("chapters/00-python-demo/")
    page.click('a.md-nav__link[href$="03-gradient-flow/"]')
    page.wait_for_url(server + "chapters/03-gradient-flow/")
    page.wait_for_function("() => document.querySelectorAll('.arithmatex .katex').length > 0")
    math = _typeset(page)
    assert math["spans"] > 0 and math["typeset"] == math["spans"]
    page.wait_for_load_state("networkidle")  # leaving a page cancels what it still loads
    page.click('a.md-nav__link[href$="explorer/"]')
    page.wait_for_url(server + "explorer/")
    page.wait_for_selector("#explorer svg")  # the explorer drew its chart
    page.wait_for_load_state("networkidle")
    page.hover(".md-header .md-select")  # the language menu opens on hover
    page.click('a.md-select__link[hreflang="en"]')
    page.wait_for_url(server + "en/explorer/")
    page.wait_for_selector("#explorer svg")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert watch.errors == []


EXAMPLE_ON_A_PHONE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const code = [...document.querySelectorAll('.jp-CodeCell .highlight-ipynb')].filter(
    (el) => !el.closest('details'));
  const printed = [...document.querySelectorAll('.jp-OutputArea .jp-RenderedText')];
  const lineHeight = (el) => parseFloat(getComputedStyle(el).lineHeight);
  return {
    viewport: window.innerWidth,
    code: code.map((el) => box(el).width),
    prompts: [...document.querySelectorAll('.jp-InputPrompt, .jp-OutputPrompt')].filter(
      (el) => box(el).width > 0).length,
    printed: printed.map((el) => ({
      lines: el.textContent.trim().split('\\n').length,
      shown: Math.round(el.querySelector('pre').clientHeight / lineHeight(el.querySelector('pre'))),
      scrolls: el.scrollWidth > el.clientWidth,
      overflowX: getComputedStyle(el).overflowX,
      focusable: el.tabIndex === 0,
    })),
    title: document.querySelector('h1').nextElementSibling.className,
  };
}"""


@pytest.mark.parametrize("url", ["examples/06-degradation/", "en/examples/06-degradation/"])
def test_example_pages_give_code_and_printed_tables_the_phone_width(open_page, url):
    page, watch = open_page(url, **PHONE)
    found = page.evaluate(EXAMPLE_ON_A_PHONE)
    assert found["prompts"] == 0  # no "[3]:" column
    assert found["code"] and min(found["code"]) >= 0.85 * found["viewport"], found["code"]
    assert found["title"] == "resdoc-downloads"  # the title first, then the downloads
    for printed in found["printed"]:  # every printed line on one line: tables stay tables
        assert printed["shown"] <= printed["lines"] + 1 and printed["overflowX"] == "auto", printed
        assert printed["focusable"], printed  # a keyboard scrolls it too
    assert any(p["scrolls"] for p in found["printed"])  # the per-seed table scrolls sideways
    assert watch.errors == []


def test_chinese_text_is_drawn_with_glyphs(visit):
    """No Chinese character of the page's text is an empty box (tests/audit.py's TOFU): the
    test browser has a CJK font (tests/browser.py), as a reader's device has."""
    url, found = visit
    assert found.reader["tofu"] == [], (
        f"{url}: drawn as empty boxes: {''.join(found.reader['tofu'])}"
    )


def test_printed_pages_keep_text_and_link_addresses(visits):
    """Print media (tests/audit.py's PRINTED, on its WALKED pages): measured numbers without
    their screen underline, no copy buttons, every link to another site printing its address,
    the chapter number above the title."""
    from tests.audit import WALKED

    for url in WALKED:
        printed = visits[url].printed
        assert printed, f"{url}: not laid out for print ({visits[url].failed})"
        assert printed["underlined"] == 0, (
            f"{url or 'home'}: {printed['underlined']} measured marks underlined"
        )
        assert printed["copy_buttons"] == 0, f"{url}: copy buttons print"
        assert printed["links_without_address"] == [], url
        assert printed["chapter_label"] is not False, f"{url}: the chapter number does not print"
    assert any(visits[url].printed["links_out"] for url in WALKED)  # the address rule was tried


def test_every_tab_stop_is_seen_with_a_ring(visits):
    """The keyboard walk (tests/audit.py's FOCUSED after each of TAB_STOPS Tabs, on its WALKED
    pages, read once what Tab set moving has come to rest): each stop is on screen and not
    transparent, and shows an outline or a shadow."""
    from tests.audit import TAB_STOPS, WALKED

    for url in WALKED:
        stops = visits[url].focus
        assert len(stops) == TAB_STOPS, f"{url or 'home'}: walked {len(stops)} stops"
        hidden = [stop for stop in stops if stop and not stop["shown"]]
        unmarked = [stop for stop in stops if stop and not stop["ring"]]
        assert hidden == [], f"{url or 'home'}: Tab lands where the reader cannot see: {hidden}"
        assert unmarked == [], f"{url or 'home'}: focus without an outline: {unmarked}"


FIRST_SCREEN = """() => {
    const content = document.querySelector('.md-content');
    const buttons = [...content.querySelectorAll('a.md-button')].map(a => ({
        href: a.getAttribute('href'), bottom: a.getBoundingClientRect().bottom,
    }));
    const figure = content.querySelector('picture, img');
    return {buttons, figure_top: figure ? figure.getBoundingClientRect().top : null,
            height: innerHeight};
}"""


@pytest.mark.parametrize("url", ["", "en/"])
def test_the_home_pages_first_phone_screen_says_where_to_start(open_page, url):
    """At 390×844 the home page's first screen, before any scrolling, holds a start-here link
    to chapter 0 and the interview path; the results figure comes after them."""
    page, _ = open_page(url, **PHONE)
    found = page.evaluate(FIRST_SCREEN)
    targets = {button["href"]: button["bottom"] for button in found["buttons"]}
    assert "chapters/00-python-demo/" in targets and "#interview-path" in targets, found
    assert max(targets.values()) <= found["height"], (
        f"{url}: a button is below the first screen: {found}"
    )
    assert found["figure_top"] > max(targets.values()), f"{url}: the figure comes first: {found}"
