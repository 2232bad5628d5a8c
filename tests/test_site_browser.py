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

from tests.audit import DESKTOP, PHONE, Visit, page_urls, twin
from tests.browser import PageWatch

pytestmark = pytest.mark.slow


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


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_no_serious_accessibility_violation(visit, screen):
    """axe-core on every page at both screen sizes (the phone's: the same load, the window
    resized, so layout, contrast and overlaps follow the phone's width)."""
    url, found = visit
    assert found.axe[screen] == [], f"{url} ({screen}): {found.axe[screen]}"


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
