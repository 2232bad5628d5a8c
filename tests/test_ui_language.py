"""The site's own words in the page's language: 404 pages, permalinks, footer, notebooks."""

from __future__ import annotations

import re

import pytest

from resdoc.sitegen import markup, ui_text
from resdoc.sitegen.conventions import LANGUAGES, read_config
from resdoc.sitegen.markup import MarkupChanged
from tests.sites import ROOT

pytestmark = pytest.mark.upstream

HEADING = '<h2 id="x">X<a class="headerlink" href="#x" title="Permanent link">&para;</a></h2>'


def test_chinese_pages_get_chinese_permalinks_english_pages_keep_theirs():
    page = HEADING + HEADING
    zh = markup.in_language(page, "zh", "p.md", permalinks=2)
    assert zh.count('title="本节链接"') == 2 and "Permanent link" not in zh
    assert markup.in_language(page, "en", "p.md", permalinks=2) == page


def test_every_ui_text_is_in_every_language_or_replaces_upstreams_english():
    tables = {
        name: value
        for name, value in vars(ui_text).items()
        if name.isupper() and isinstance(value, dict)
    }
    assert {name for name, t in tables.items() if set(t) != set(LANGUAGES)} == set(
        ui_text.UPSTREAM_ENGLISH
    )
    assert all(set(tables[name]) < set(LANGUAGES) for name in ui_text.UPSTREAM_ENGLISH)


def test_the_footer_credit_is_the_copyright_lines_in_each_language_not_materials():
    # extra.generator: false turns Material's English "Made with" off; each language's
    # copyright line gives the credit instead
    config = read_config(ROOT / "mkdocs.yml")
    assert config["extra"]["generator"] is False
    [i18n] = [p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p]
    english = next(lang for lang in i18n["languages"] if lang["locale"] == "en")
    assert "本站使用" in config["copyright"] and "Made with" in english["copyright"]
    assert (
        "Material for MkDocs" in config["copyright"]
        and "Material for MkDocs" in english["copyright"]
    )


def test_permalinks_are_counted_against_the_table_of_contents_not_their_own_markup():
    # Python-Markdown renaming its permalink class: the page's one heading has no permalink
    # the patch can find (counting the patch's own markup gave 0 = 0, and passed)
    renamed = HEADING.replace('class="headerlink"', 'class="toclink"')
    with pytest.raises(MarkupChanged, match="permalink title"):
        markup.in_language(renamed, "zh", "p.md", permalinks=1)


def test_notebook_prompts_and_copy_buttons_in_chinese_one_per_code_cell():
    cell = (
        '<div class="jp-InputPrompt jp-InputArea-prompt">In\xa0[3]:</div>'
        '<clipboard-copy for="cell-3", aria-label="Copy to Clipboard"><div>'
        '<span class="notice" hidden>Copied!</span></div></clipboard-copy>'
        '<div class="highlight-ipynb hl-python">x = 1</div>'
    )
    zh = markup.notebook_in_language(cell * 2, "zh", "ex.ipynb", code_cells=2)
    assert zh.count(">[3]:<") == 2 and zh.count("复制到剪贴板") == 2 and zh.count(">已复制<") == 2
    assert markup.notebook_in_language(cell, "en", "ex.ipynb", code_cells=1) == cell
    with pytest.raises(MarkupChanged, match="input prompts"):  # a prompt nbconvert renamed
        markup.notebook_in_language(cell.replace("In\xa0", "Input "), "zh", "ex.ipynb", 1)
    # the code cells' class renamed as well: counted against the notebook's code cells, the
    # patches still expect one each (counting that class gave 0 = 0, and passed)
    renamed = cell.replace("In\xa0", "Input ").replace("highlight-ipynb", "jp-Code")
    with pytest.raises(MarkupChanged, match="input prompts"):
        markup.notebook_in_language(renamed, "zh", "ex.ipynb", code_cells=1)


def test_the_404_heading_is_replaced_with_a_way_home():
    links = "".join(
        f'<link rel="alternate" href="/examples/x/" hreflang="{lang}">'
        f'<a href="/examples/x/" hreflang="{lang}" class="md-select__link">{lang}</a>'
        for lang in ("zh", "en")
    )
    page = links + "<article><h1>404 - Not found</h1></article>"
    homes = {"zh": "/", "en": "/en/"}
    zh = markup.not_found_page(page, "zh", homes)
    assert "找不到这个页面" in zh and '<a href="/">首页</a>' in zh
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
    ("path", "lang", "heading"),
    [("404.html", "zh-CN", "找不到"), ("en/404.html", "en", "not found")],
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


def test_chinese_pages_name_their_script():
    page = '<!doctype html>\n<html lang="zh" class="no-js">'
    assert markup.language_tag(page, "p.md") == '<!doctype html>\n<html lang="zh-CN" class="no-js">'
    assert markup.language_tag(page.replace('"zh"', '"en"'), "p.md") == page.replace('"zh"', '"en"')
    with pytest.raises(MarkupChanged):
        markup.language_tag("<html>", "p.md")


@pytest.mark.slow
def test_every_built_page_names_its_language(built_site):
    """zh pages (the site's root) say zh-CN, English ones (under en/) en; 404 pages too."""
    for page in built_site.rglob("*.html"):
        head = page.read_text("utf-8")[:400]
        wanted = "en" if page.relative_to(built_site).parts[0] == "en" else "zh-CN"
        if "<html" not in head:  # a redirect page of an old address
            continue
        found = re.search(r'<html lang="([^"]+)"', head)
        assert found and found[1] == wanted, (
            f"{page.relative_to(built_site)}: lang {found and found[1]}"
        )
