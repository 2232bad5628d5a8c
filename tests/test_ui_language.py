"""The site's own words in the page's language: 404 pages, permalinks, footer, notebooks."""

from __future__ import annotations

import re

import pytest

from resdoc.sitegen import markup
from resdoc.sitegen.markup import MarkupChanged

FOOTER = (
    '<div class="md-copyright">\n    Made with\n    <a href="https://squidfunk.github.io/mkdocs-material/"'
    ' target="_blank" rel="noopener">\n      Material for MkDocs\n    </a>\n</div>'
)
HEADING = '<h2 id="x">X<a class="headerlink" href="#x" title="Permanent link">&para;</a></h2>'


def test_chinese_pages_get_chinese_permalinks_and_credit_english_pages_keep_theirs():
    page = HEADING + HEADING + FOOTER
    zh = markup.in_language(page, "zh", "p.md")
    assert zh.count('title="本节链接"') == 2 and "Permanent link" not in zh
    assert "本站使用" in zh and "Made with" not in zh and "Material for MkDocs\n    </a> 构建" in zh
    assert markup.in_language(page, "en", "p.md") == page


def test_a_changed_footer_fails_loudly():
    with pytest.raises(MarkupChanged, match="footer's credit"):
        markup.in_language(HEADING + "<footer>Built with Material</footer>", "zh", "p.md")


def test_notebook_prompts_and_copy_buttons_in_chinese_one_per_code_cell():
    cell = (
        '<div class="jp-InputPrompt jp-InputArea-prompt">In\xa0[3]:</div>'
        '<clipboard-copy for="cell-3", aria-label="Copy to Clipboard"><div>'
        '<span class="notice" hidden>Copied!</span></div></clipboard-copy>'
        '<div class="highlight-ipynb hl-python">x = 1</div>'
    )
    zh = markup.notebook_in_language(cell * 2, "zh", "ex.ipynb")
    assert zh.count(">[3]:<") == 2 and zh.count("复制到剪贴板") == 2 and zh.count(">已复制<") == 2
    assert markup.notebook_in_language(cell, "en", "ex.ipynb") == cell
    with pytest.raises(MarkupChanged, match="input prompts"):  # a prompt nbconvert renamed
        markup.notebook_in_language(cell.replace("In\xa0", "Input "), "zh", "ex.ipynb")


def test_the_404_heading_is_replaced_with_a_way_home():
    links = "".join(
        f'<link rel="alternate" href="/examples/x/" hreflang="{lang}">'
        f'<a href="/examples/x/" hreflang="{lang}" class="md-select__link">{lang}</a>'
        for lang in ("zh", "en")
    )
    page = links + "<article><h1>404 - Not found</h1></article>" + FOOTER
    homes = {"zh": "/", "en": "/en/"}
    zh = markup.not_found_page(page, "zh", homes)
    assert "找不到这个页面" in zh and '<a href="/">首页</a>' in zh and "本站使用" in zh
    assert (
        '<a href="/" hreflang="zh"' in zh
        and '<link rel="alternate" href="/en/" hreflang="en">' in zh
    )
    en = markup.not_found_page(page, "en", homes)
    assert "page not found" in en and '<a href="/en/">home page</a>' in en
    assert "/examples/x/" not in en
    with pytest.raises(MarkupChanged):
        markup.not_found_page("<h1>Not here</h1>", "en", homes)


def _html(site, path):
    return (site / path).read_text("utf-8")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "lang", "heading"), [("404.html", "zh", "找不到"), ("en/404.html", "en", "not found")]
)
def test_a_404_page_per_language_whose_switcher_leads_home(site, path, lang, heading):
    page = _html(site, path)
    assert f'<html lang="{lang}"' in page and heading in page
    switcher = dict(re.findall(r'href="([^"]*)" hreflang="(\w+)" class="md-select__link"', page))
    assert sorted(switcher.values()) == ["en", "zh"]
    assert {lang: href.rstrip("/").rsplit("/", 1)[-1] for href, lang in switcher.items()} == {
        "zh": "",
        "en": "en",
    }


@pytest.mark.slow
def test_no_english_ui_text_on_chinese_pages(site):
    english = re.compile(
        r'title="Permanent link"|Made with|In\xa0\[|aria-label="Copy to Clipboard"|>Copied!<'
    )
    found = {}
    for page in sorted(site.rglob("*.html")):
        where = page.relative_to(site).as_posix()
        if where.startswith("en/"):
            continue
        hits = english.findall(page.read_text("utf-8"))
        if hits:
            found[where] = hits[:3]
    assert found == {}
