"""Every page of the built site, in both languages, as a reader's browser gets it.

No console error or failed request, nothing requested from outside the site, every formula
typeset by KaTeX, every image loaded with alt text, a language switcher that leads to the
same page in the other language, no serious accessibility violation (axe-core) on a desktop
or a phone screen, two-panel figures legible on a phone, and a search that finds Chinese words
from the middle of a sentence.
"""

from __future__ import annotations

import re

import pytest

from tests.browser import PageWatch, chromium, serve
from tests.sites import ROOT

pytestmark = pytest.mark.slow
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


@pytest.fixture(scope="module")
def server(site):
    with serve(site) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def open_page(browser, server):
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


@pytest.mark.parametrize("url", page_urls())
def test_page_as_a_reader_gets_it(open_page, server, url):
    page, watch = open_page(url)
    assert watch.errors == [], url
    assert watch.outside == [], f"{url} requested outside the site"

    # formulas: every arithmatex span typeset, no KaTeX error, no raw TeX left visible
    math = page.evaluate(
        """() => ({
            spans: document.querySelectorAll('.arithmatex').length,
            typeset: document.querySelectorAll('.arithmatex .katex').length,
            errors: [...document.querySelectorAll('.katex-error')].map(e => e.textContent),
        })"""
    )
    assert math["typeset"] == math["spans"] and math["errors"] == [], url
    text = page.evaluate(
        """() => { const c = document.querySelector('.md-content').cloneNode(true);
                   c.querySelectorAll('pre, code, .clipboard-copy-txt, .katex, script, style').forEach(e => e.remove());
                   return c.innerText; }"""
    )
    raw = re.findall(r"\$\$|\\\(|\\\[|\\frac|\\mathcal|(?<![\w$])\$[^$\s][^$]*\$", text)
    assert raw == [], f"{url}: raw TeX visible: {raw[:5]}"

    # images: loaded, non-zero size, alt text
    images = page.evaluate(
        """() => [...document.querySelectorAll('.md-content img')].map(i =>
            ({src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0, alt: i.alt.trim()}))"""
    )
    for image in images:
        assert image["ok"], f"{url}: image did not load: {image['src']}"
        assert image["alt"], f"{url}: image without alt text: {image['src']}"

    # the language switcher leads to the same page in the other language
    lang = "en" if url.startswith("en/") else "zh"
    other = "zh" if lang == "en" else "en"
    href = page.evaluate(
        f"() => document.querySelector('a.md-select__link[hreflang=\"{other}\"]').href"
    )
    assert href == server + twin(url), url


def _alt_language(url: str) -> str:
    return "en" if url.startswith("en/") else "zh"


@pytest.mark.parametrize("url", page_urls())
def test_figures_have_alt_text_in_their_own_language(open_page, url):
    page, _ = open_page(url)
    alts = page.evaluate("() => [...document.querySelectorAll('.md-content img')].map(i => i.alt)")
    for alt in alts:
        has_han = bool(re.search(r"[\u4e00-\u9fff]", alt))
        assert has_han == (_alt_language(url) == "zh"), (
            f"{url}: alt text in the wrong language: {alt!r}"
        )


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("screen", ["desktop", "phone"])
@pytest.mark.parametrize("url", page_urls())
def test_no_serious_accessibility_violation(open_page, url, screen):
    page, _ = open_page(url, **(PHONE if screen == "phone" else DESKTOP))
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .filter(v => ['serious', 'critical'].includes(v.impact))
            .map(v => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`)"""
    )
    assert violations == [], f"{url}: {violations}"


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


WIDE_FIGURES = """() => [...document.querySelectorAll('.md-content img.resdoc-wide')].map(img => [
    img.getBoundingClientRect().width, img.parentElement.clientWidth, img.parentElement.scrollWidth])"""


@pytest.mark.parametrize("url", ["chapters/03-gradient-flow/", "en/examples/03-gradient-flow/"])
def test_two_panel_figures_scroll_on_a_phone_and_fit_on_a_desktop(open_page, url):
    page, _ = open_page(url, **PHONE)
    on_phone = page.evaluate(WIDE_FIGURES)
    assert on_phone, f"{url}: no wide figure"
    for width, shown, scrolls in on_phone:
        assert width >= 600 and scrolls > shown  # readable width, the rest a swipe away
    page, _ = open_page(url, **DESKTOP)
    for width, shown, scrolls in page.evaluate(WIDE_FIGURES):
        assert width <= shown and scrolls <= shown


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
