"""What keeps pages light: the notebook CSS a page uses, formulas typeset at build time with
the fonts they need preloaded (one search index per language: tests/test_search.py)."""

import re

import pytest

from resdoc.sitegen import math, notebook_css
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


def test_notebook_css_is_parsed_as_css_not_split_at_braces_inside_strings(tmp_path):
    # nbconvert's template ends its styles with a Python list of Pygments' CSS, a string a
    # browser never applies: neither a rule, nor reaching a custom property
    css = ":root { --only-in-string: red; /* a; comment } */ --kept: 1px; }\n"
    css += ".jp-Cell { margin: var(--kept) /* } */; }\n"
    css += "['pre { color: var(--only-in-string); }\\n.c { x: y }']\n"
    page = '<div class="jp-Cell">'
    kept = notebook_css.prune(css, page, tmp_path / "cache")
    assert kept == ":root{--kept: 1px}\n.jp-Cell{margin: var(--kept)}\n"
    assert notebook_css.prune(css, page, tmp_path / "cache") == kept  # from the cache
    assert len(list((tmp_path / "cache").iterdir())) == 1


@pytest.mark.skipif(not (ROOT / "node_modules" / "katex").is_dir(), reason="npm ci first")
def test_formulas_typeset_and_their_fonts_preloaded():
    page = (
        "<head></head><body>"
        '<span class="arithmatex">\\(\\mathcal{F}(x) &lt; 1\\)</span>'
        '<div class="arithmatex">\\[\nI + J_i\n\\]</div>'
        '<div class="jp-RenderedMarkdown"><p>$x_l$ and <code>$not math$</code></p></div>'
        "</body>"
    )
    html = math.typeset(page, "p.md", ROOT, "../", markdown_cells=1)
    assert html.count('class="katex"') == 3 and "\\(" not in html and "$x_l$" not in html
    assert "<code>$not math$</code>" in html
    # a wide formula scrolls in a box the keyboard reaches, named in the page's language
    assert '<span class="katex-display" tabindex="0" role="group" aria-label="公式">' in html
    assert "&lt;" in html  # the TeX was unescaped for KaTeX, its output escaped again
    # HTML only, hidden from screen readers, each formula named by how it is read instead
    assert "katex-mathml" not in html and "<math" not in html
    assert '<span class="katex" role="math" aria-label="F(x) &lt; 1">' in html
    assert html.count('role="math"') == 3 and html.count('aria-hidden="true"') >= 3
    head = html.partition("</head>")[0]
    for font in ("Main-Regular", "Math-Italic", "Caligraphic-Regular"):
        assert f'href="../assets/katex/fonts/KaTeX_{font}.woff2" as="font"' in head
    assert "AMS" not in head
    with pytest.raises(
        math.KatexError, match=r"p.md: KaTeX rejects the inline formula `\\frac\{1`"
    ):
        math.typeset('<span class="arithmatex">\\(\\frac{1\\)</span>', "p.md", ROOT, "")


@pytest.mark.skipif(not (ROOT / "node_modules" / "katex").is_dir(), reason="npm ci first")
def test_punctuation_after_an_inline_formula_is_kept_on_its_line():
    """A browser may break a line after an in-line formula, so a line could start with the
    comma that follows it; the formula and the comma go in one span that does not wrap."""
    page = (
        '<p><span class="arithmatex">\\(x\\)</span>，且 <span class="arithmatex">\\(y\\)</span>. '
        '<span class="arithmatex">\\(z\\)</span> 与</p>'
        '<div class="jp-RenderedMarkdown"><p>$a$, $b$ and $c = d$; so</p></div>'
    )
    html = math.typeset(page, "p.md", ROOT, "", markdown_cells=1)
    # "，", "." and the cell's "," move into the span, once; not " 与" or " and"
    assert html.count('<span class="rd-nobreak">') == 3
    # c = d may break after its "=" (kept whole, a long one would overflow a phone): its ";"
    # joins its last piece instead, and its name, since its HTML is hidden from screen readers
    assert '<span class="rd-mark">;</span>' in html and 'aria-label="c = d;"' in html
    assert "; so" not in html and " so" in html
    for kept in ("，</span>且", ".</span> <", ",</span> <"):
        assert kept in html
    assert html.count("，") == 1 and html.count(",") == 1 and "rd-kept" not in html


@pytest.mark.skipif(not (ROOT / "node_modules" / "katex").is_dir(), reason="npm ci first")
def test_only_the_first_screens_formula_fonts_are_preloaded_the_others_prefetched():
    later = "".join(f"<p>{i}</p>" for i in range(math.FIRST_SCREEN_PARAGRAPHS))
    page = (
        "<head></head><body><article><h1>T</h1>"
        '<p><span class="arithmatex">\\(\\mathcal{F}(x)\\)</span></p>'
        f'{later}<p><span class="arithmatex">\\(\\mathbb{{R}}^d\\)</span></p>'
        '<h2>S</h2><p><span class="arithmatex">\\(\\mathbf{x}\\)</span></p></article></body>'
    )
    head = math.typeset(page, "p.md", ROOT, "../").partition("</head>")[0]
    found = re.findall(r'<link rel="(\w+)" href="[^"]*KaTeX_([\w-]+)\.woff2"', head)
    links = {font: rel for rel, font in found}
    assert links == {
        "Main-Regular": "preload",
        "Caligraphic-Regular": "preload",  # \mathcal, in the first paragraph
        "Math-Italic": "preload",  # its x
        "AMS-Regular": "prefetch",  # \mathbb, after the first screen's paragraphs
        "Main-Bold": "prefetch",  # \mathbf, after the first section heading
    }, links
