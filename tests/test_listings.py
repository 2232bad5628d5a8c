"""Code shown in a chapter: no raw TeX in it, and a line saying where the whole file is."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from resdoc.sitegen.conventions import SNIPPET
from resdoc.sitegen.listings import expand, readable_code, section_lines, source_note
from tests.sites import ROOT

pytestmark = pytest.mark.upstream  # one test reads the built site (the others are fast)

# TeX a reader would see typed out: a formula command, or arithmatex's \( \[ delimiters
RAW_TEX = re.compile(
    r"\\(?:[tdc]?frac|sqrt|math[a-z]+|text|operatorname|[lr]Vert|odot|cdot|partial|sum|prod|"
    r"top|binom|approx|infty|[bB]igg?|left|right|alpha|beta|gamma|epsilon|lambda|sigma|mu|"
    r"ell|quad|qquad|le|ge|to|sim)(?![A-Za-z])|\\[(\[]"
)


def test_docstrings_and_comments_read_in_plain_characters_and_code_stays_as_it_runs():
    code = (
        "class Block:\n"
        '    r"""$y = x + \\mathcal{F}(x)$, scaled by $1/\\sqrt{L}$."""\n'
        "\n"
        "    def forward(self, x):  # $\\lVert x \\rVert$ grows\n"
        '        claim("name", zh="$\\\\sqrt{d}$", en=r"$\\sqrt{d}$")\n'
        '        pattern = r"\\$\\frac"\n'
        "        return x\n"
    )
    shown = readable_code(code)
    assert '"""y = x + F(x), scaled by 1/√L."""' in shown
    assert "# ‖x‖ grows" in shown
    # strings that are data, not documentation, are the code: left exactly as they run
    assert 'claim("name", zh="$\\\\sqrt{d}$", en=r"$\\sqrt{d}$")' in shown
    assert 'pattern = r"\\$\\frac"' in shown
    assert readable_code("def f(:\n    # $\\alpha$\n") == "def f(:\n    # α\n"  # a fragment


def test_a_docstring_shows_its_first_paragraph_the_details_and_doctests_are_the_files():
    code = 'def f(x):\n    """Twice ``x``.\n\n    >>> f(2)\n    4\n    """\n    return 2 * x\n'
    assert readable_code(code) == 'def f(x):\n    """Twice ``x``."""\n    return 2 * x\n'
    one = 'def g():\n    r"""One paragraph,\n    two lines."""\n'
    assert readable_code(one) == one


def test_includes_are_expanded_readable_with_the_source_under_the_block(tmp_path):
    (tmp_path / "m.py").write_text(
        "import torch\n"
        "# --8<-- [start:f]\n"
        "def f(x):\n"
        '    """$\\sqrt{x}$."""\n'
        "    # --8<-- [start:inner]\n"
        "    return x\n"
        "    # --8<-- [end:inner]\n"
        "# --8<-- [end:f]\n",
        "utf-8",
    )
    page = (
        'Text.\n\n=== "Tab"\n\n    ```python\n    --8<-- "m.py:f"\n    ```\n\n'
        '```python\n;--8<-- "m.py:f"\n```\n'
    )
    seen = []
    out = expand(page, tmp_path, lambda shown: seen.append(shown) or "NOTE")
    assert (
        '    ```python\n    def f(x):\n        """√x."""\n        return x\n    ```\n\n    NOTE\n'
        in out
    )
    assert seen == [[("m.py", 3, 7)]]  # the section's lines in the file
    assert '```python\n;--8<-- "m.py:f"\n```' in out  # commented out: left to pymdownx
    assert section_lines(tmp_path, "m.py:inner")[1:] == (6, 6)


def test_the_source_note_names_file_and_lines_and_links_the_repository_and_the_example():
    shown = [("resdoc/m.py", 3, 6)]
    zh = source_note(shown, "zh", "../examples/03-x.ipynb", None)
    assert zh.startswith(
        "完整代码：`resdoc/m.py` 第 3–6 行；[可运行示例](../examples/03-x.ipynb)用到它。"
    )
    en = source_note(shown, "en", None, "https://github.com/o/r/")
    assert en.startswith(
        "Whole file: [`resdoc/m.py`](https://github.com/o/r/blob/HEAD/resdoc/m.py#L3-L6), lines 3–6."
    )


def _included_sections() -> list[str]:
    return sorted(
        {
            m["target"]
            for page in (ROOT / "docs").rglob("*.md")
            for m in SNIPPET.finditer(page.read_text("utf-8"))
        }
    )


@pytest.mark.parametrize("target", _included_sections())
def test_every_section_a_page_shows_reads_without_raw_tex(target):
    """What each page's include shows (the fast form of the built-site check below)."""
    code = readable_code(section_lines(ROOT, target)[0])
    assert not RAW_TEX.search(code), f"{target}: {RAW_TEX.findall(code)[:5]}"


_FOLDED = re.compile(r'<details class="[^"]*\brd-bookkeeping\b.*?</details>', re.S)
_PRE = re.compile(r"<pre\b.*?</pre>", re.S)
_TAG = re.compile(r"<[^>]+>")


def shown_code_blocks(page: Path) -> list[str]:
    """The text of each code block a reader sees on a built page: the folded bookkeeping of
    an example page (the claims' sentences, as the build reads them) is not shown. (Regular
    expressions, not an HTML parser: this reads every page in a second rather than a minute.)"""
    body = _FOLDED.sub("", page.read_text("utf-8"))
    return [html.unescape(_TAG.sub("", block)) for block in _PRE.findall(body)]


def raw_tex_in_code(site: Path) -> dict[str, list[str]]:
    found = {}
    for page in sorted(site.rglob("index.html")):
        hits = [hit for text in shown_code_blocks(page) for hit in RAW_TEX.findall(text)]
        if hits:
            found[page.relative_to(site).parent.as_posix()] = hits[:5]
    return found


@pytest.mark.slow
def test_no_shown_code_block_on_a_built_page_has_raw_tex(site):
    assert raw_tex_in_code(site) == {}


def test_the_built_site_check_finds_raw_tex_in_a_shown_block_and_not_in_folded_bookkeeping(
    tmp_path,
):
    page = tmp_path / "chapters" / "x" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(
        '<div class="md-content"><details class="rd-bookkeeping"><pre>claim(zh="$\\sqrt{d}$")</pre>'
        '</details><pre>r"""$\\mathcal{F}(x)$"""</pre></div>',
        "utf-8",
    )
    assert raw_tex_in_code(tmp_path) == {"chapters/x": ["\\mathcal"]}
