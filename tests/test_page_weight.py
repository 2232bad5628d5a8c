"""What keeps pages light: the notebook CSS a page uses, one search index per language,
formulas typeset at build time with the fonts they need preloaded."""

import json

import pytest

from resdoc.sitegen import math, notebook_css, search
from tests.sites import ROOT

CSS = """@charset "UTF-8";
:root { --used: red; --via: var(--used); --unused: blue; }
pre { line-height: 125%; }
.jp-Cell { color: var(--via); }
.jp-Toolbar { color: var(--unused); }
.jp-Cell:not(.jp-mod-active) .jp-Prompt { margin: 0; }
@media print { .jp-Cell { display: block; } .jp-Dialog { display: none; } }
@media print { .jp-Dialog { display: none; } }
.icon { background: url("data:image/svg+xml;utf8,<svg>a;b</svg>"); }
"""


def test_notebook_css_keeps_only_what_the_page_can_use():
    kept = notebook_css.prune(CSS, '<div class="jp-Cell"><div class="jp-Prompt icon">')
    assert "pre{line-height: 125%}" in kept  # names no class: may match anything
    assert ".jp-Cell{color: var(--via)}" in kept
    assert ".jp-Cell:not(.jp-mod-active) .jp-Prompt" in kept  # :not() requires nothing
    assert "@media print{.jp-Cell{display: block}}" in kept
    assert "jp-Toolbar" not in kept and "jp-Dialog" not in kept
    assert "--used: red" in kept and "--via" in kept and "--unused" not in kept
    assert 'url("data:image/svg+xml;utf8,<svg>a;b</svg>")' in kept
    assert "@charset" not in kept


def test_search_index_split_by_language(tmp_path):
    docs = [
        {"location": "", "text": "首页"},
        {"location": "en/", "text": "Home"},
        {"location": "en/chapters/a/#x", "text": "x"},
        {"location": "chapters/a/", "text": "甲"},
    ]
    config = {"lang": ["zh", "en"], "separator": "[\\\\s]+"}
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(
        json.dumps({"config": config, "docs": docs})
    )
    search.split_index(tmp_path, {"zh": "", "en": "en/"})
    zh = json.loads((tmp_path / "search" / "search_index.json").read_text("utf-8"))
    en = json.loads((tmp_path / "en" / "search" / "search_index.json").read_text("utf-8"))
    assert [d["location"] for d in zh["docs"]] == ["", "chapters/a/"] and zh["config"] == config
    assert [d["location"] for d in en["docs"]] == ["", "chapters/a/#x"]
    assert en["config"]["lang"] == ["en"]


def test_a_page_of_another_language_finds_its_own_index():
    page = (
        '<head><script id="__config" type="application/json">{"annotate": null, '
        '"base": "../..", "features": []}</script></head><body></body>'
    )
    assert '"base": "../../en/"' in search.for_page(page, "en/")
    assert '"base": "../.."' in search.for_page(page, "")
    assert "search_index" in search.for_page(page, "")  # fetched once search is opened


@pytest.mark.skipif(not (ROOT / "node_modules" / "katex").is_dir(), reason="npm ci first")
def test_formulas_typeset_and_their_fonts_preloaded():
    page = (
        "<head></head><body>"
        '<span class="arithmatex">\\(\\mathcal{F}(x) &lt; 1\\)</span>'
        '<div class="arithmatex">\\[\nI + J_i\n\\]</div>'
        '<div class="jp-RenderedMarkdown"><p>$x_l$ and <code>$not math$</code></p></div>'
        "</body>"
    )
    html = math.typeset(page, "p.md", ROOT, "../")
    assert html.count('class="katex"') == 3 and "\\(" not in html and "$x_l$" not in html
    assert "<code>$not math$</code>" in html
    assert '<span class="katex-display" tabindex="0">' in html  # a wide formula scrolls
    assert "&lt;" in html  # the TeX was unescaped for KaTeX, its output escaped again
    head = html.partition("</head>")[0]
    for font in ("Main-Regular", "Math-Italic", "Caligraphic-Regular"):
        assert f'href="../assets/katex/fonts/KaTeX_{font}.woff2" as="font"' in head
    assert "AMS" not in head
    with pytest.raises(
        math.KatexError, match=r"p.md: KaTeX rejects the inline formula `\\frac\{1`"
    ):
        math.typeset('<span class="arithmatex">\\(\\frac{1\\)</span>', "p.md", ROOT, "")
