"""Every page of a built site, in both languages, as a reader's browser gets it: what it
shows (formulas, images, the language switcher), what went wrong (console errors, failed
requests, requests that left the site) and axe-core's serious violations at a desktop and a
phone width. The tests of tests/test_site_browser.py read the findings.

Run as its own process, so the test session starts it the moment the site is built and goes
on with other tests while it works (tests/conftest.py)::

    python -m tests.audit SITE FINDINGS.json
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tests.browser import PageWatch, chromium, serve
from tests.sites import ROOT, Background

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


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

READER = """() => {
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
    };
}"""

# Figures load lazily (resdoc/sitegen/figures.py): load every one, as a reader who scrolls
# through the page would, before READER checks that each loaded.
LOAD_LAZY_IMAGES = """async () => {
    const images = [...document.querySelectorAll('.md-content img')];
    images.forEach(image => { image.loading = 'eager'; });
    const loaded = images.map(image => image.complete ? null : new Promise(done => {
        image.addEventListener('load', done); image.addEventListener('error', done); }));
    await Promise.race([Promise.all(loaded), new Promise(done => setTimeout(done, 15000))]);
}"""

# Started, not awaited: the page's renderer works on it while the other lane's page loads.
# First the layout settles: the transitions a resize starts (Material's drawer) run out, or
# axe-core would measure colours half-way through them.
START_AXE = """() => { window.__axe = (async () => {
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    const finite = document.getAnimations()
        .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map(a => a.finished.catch(() => null)));
    const result = await axe.run(document, {resultTypes: ['violations']});
    return result.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v =>
        `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
})(); }"""


@dataclass
class Visit:
    """What one page did and showed when a reader's browser loaded it."""

    errors: list[str] = field(default_factory=list)  # console errors, failed requests
    outside: list[str] = field(default_factory=list)  # requests that left the site
    reader: dict = field(default_factory=dict)  # READER's findings
    axe: dict[str, list[str]] = field(default_factory=dict)  # screen: serious violations
    failed: str = ""  # the visit itself broke (a timeout, a script error)


class Lane:
    """One browser tab that visits pages one after another, as a reader following links
    would: its cache and compiled scripts carry over (a fresh context per page cost three
    times the CPU), while each page's DOM, errors and requests are its own."""

    def __init__(self, browser, server: str):
        self.context = browser.new_context(**DESKTOP)
        self.context.add_init_script(path=str(AXE))  # axe-core in every page, before it runs
        self.page = self.context.new_page()
        self.watch = PageWatch(self.page, server)
        self.server = server

    def visit(self, url: str, visit: Visit):
        """One page, in steps: the generator yields whenever the browser has work to do on
        its own (loading, axe-core), so the caller can step another lane meanwhile."""
        page = self.page
        try:
            page.goto("about:blank")  # what the last page still did is reported with it
            self.watch.errors, self.watch.outside = visit.errors, visit.outside
            page.set_viewport_size(DESKTOP["viewport"])
            page.goto(self.server + url, wait_until="commit")
            yield
            page.wait_for_load_state("networkidle")
            page.evaluate(LOAD_LAZY_IMAGES)
            visit.reader = page.evaluate(READER)
            for screen, viewport in SCREENS.items():
                page.set_viewport_size(viewport)  # the same load, laid out for a phone's width
                page.evaluate(START_AXE)
                yield
                visit.axe[screen] = page.evaluate("() => window.__axe")
        except Exception as error:  # noqa: BLE001 - reported by every test of the page
            visit.failed = f"{type(error).__name__}: {error}"


LANES = 2  # pages in flight: each lane has its own renderer process, so both cores work


def audit(browser, server: str) -> dict[str, Visit]:
    """Every page loaded once, on a desktop screen: what the reader gets, then axe-core on
    that screen and again with the window resized to a phone's. LANES pages at a time,
    stepped in turn from this one thread."""
    found = {url: Visit() for url in page_urls()}
    waiting = list(found)
    idle = [Lane(browser, server) for _ in range(LANES)]
    busy: list[tuple[Lane, object]] = []
    try:
        while waiting or busy:
            while waiting and idle:
                lane, url = idle.pop(), waiting.pop(0)
                busy.append((lane, lane.visit(url, found[url])))
            for lane, steps in list(busy):
                if next(steps, StopIteration) is StopIteration:
                    busy.remove((lane, steps))
                    idle.append(lane)
    finally:
        for lane in idle + [lane for lane, _ in busy]:
            lane.context.close()
    return found


class BackgroundAudit(Background):
    """``python -m tests.audit site`` started now; ``findings()`` waits for them."""

    def __init__(self, site: Path, folder: Path):
        self.found = folder / "findings.json"
        command = [sys.executable, "-m", "tests.audit", str(site), str(self.found)]
        super().__init__(command, folder / "audit.log", cwd=ROOT)

    def findings(self) -> dict[str, Visit] | str:
        """The findings per page, or why there are none (no Chromium: the tests skip)."""
        ran = self.result()
        assert ran.returncode == 0, ran.stdout[-5000:]
        found = json.loads(self.found.read_text("utf-8"))
        return found if isinstance(found, str) else {u: Visit(**v) for u, v in found.items()}


def main(site: Path, findings: Path) -> None:
    if shutil.which("chromium") is None:
        found = "Debian's chromium is not installed (apt-get install chromium; .ci/run does it)"
    else:
        with serve(site) as server, chromium() as browser:
            found = {url: asdict(visit) for url, visit in audit(browser, server).items()}
        for visit in found.values():  # the server's address was this process's own
            switcher = visit["reader"].get("switcher", "")
            visit["reader"]["switcher"] = switcher.removeprefix(server)
    findings.write_text(json.dumps(found, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
