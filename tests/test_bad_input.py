"""Bad input fails the build with a message naming the file, and leaves nothing stale."""

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.sites import build, tiny_site

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built_tiny_site(tmp_path_factory):
    project = tiny_site(tmp_path_factory.mktemp("tiny") / "project")
    result = build(project)
    assert result.returncode == 0, result.stderr
    assert (project / "site" / "figures" / "tiny" / "line.svg").exists()
    return project


@pytest.fixture
def site(built_tiny_site, tmp_path):
    """A copy of the tiny site as its first build left it (site and example cache), for one
    test to break: building it once per module, not once per test, saves a build per test."""
    return shutil.copytree(built_tiny_site, tmp_path / "project", symlinks=True)


def _paragraph(page: Path):
    return BeautifulSoup(page.read_text("utf-8"), "html.parser").select_one("article > p")


def test_tiny_site_builds_with_its_number_claim_and_figure(site):
    zh = _paragraph(site / "site" / "index.html")
    en = _paragraph(site / "site" / "en" / "index.html")
    assert zh.get_text() == "答案是 42。答案 42 是正数。"
    assert en.get_text() == "The answer is 42. the answer, 42, is positive."
    # every filled-in number is focusable and says where it comes from, in the page's language
    for paragraph, words in (
        (zh, "构建时由 examples/tiny.py 测得"),
        (en, "Measured at build time by examples/tiny.py"),
    ):
        numbers = paragraph.select("span.rd-measured")
        assert [n.get_text() for n in numbers] == ["42", "42"]
        for number in numbers:
            assert number["tabindex"] == "0"
            assert number["title"].startswith(words)
            assert "Python 3." in number["title"]


def test_failing_claim_names_file_line_and_words_and_publishes_nothing(site):
    script = site / "examples" / "tiny.py"
    source = script.read_text("utf-8").replace("    ANSWER > 0,", "    ANSWER < 0,")
    script.write_text(source, "utf-8")
    line = source.splitlines().index("publish.claim(") + 1
    result = build(site)
    assert result.returncode != 0
    assert (
        f"examples/tiny.py:{line}: ClaimFailed: claim 'positive' does not hold (answer = 42): "
        "'the answer, {{ answer }}, is positive'" in result.stderr
    )
    outputs = site / ".cache" / "resdoc" / "examples"
    assert not list(outputs.glob("tiny*/figures/*.svg"))
    assert not list(outputs.glob("tiny*/results.json"))


def test_claim_shown_as_a_number_names_the_page(site):
    page = site / "docs" / "index.en.md"
    page.write_text(
        page.read_text("utf-8").replace("claim:tiny/positive", "result:tiny/positive"), "utf-8"
    )
    result = build(site)
    assert result.returncode != 0
    assert (
        "index.en.md: '{{ result:tiny/positive }}' is a claim, not a number: use 'claim:'"
        in result.stderr
    )


def test_failing_example_names_file_line_and_traceback_and_leaves_no_stale_figure(site):
    script = site / "examples" / "tiny.py"
    source = script.read_text("utf-8").replace("ANSWER = 42", "ANSWER = 42 / 0")
    script.write_text(source, "utf-8")
    line = source.splitlines().index("ANSWER = 42 / 0") + 1
    result = build(site)
    assert result.returncode != 0
    assert f"examples/tiny.py:{line}: ZeroDivisionError: division by zero" in result.stderr
    assert "Traceback (most recent call last)" in result.stderr
    assert not list((site / ".cache" / "resdoc" / "examples").glob("tiny*/figures/*.svg"))


def test_unknown_result_key_names_the_page(site):
    page = site / "docs" / "index.en.md"
    page.write_text(page.read_text("utf-8").replace("tiny/answer", "tiny/answr"), "utf-8")
    result = build(site)
    assert result.returncode != 0
    assert (
        "index.en.md: '{{ result:tiny/answr }}': example 'tiny' recorded no result 'answr'"
        in result.stderr
    )


def test_missing_figure_names_the_page(site):
    page = site / "docs" / "index.zh.md"
    page.write_text(page.read_text("utf-8").replace("tiny/line.svg", "tiny/lines.svg"), "utf-8")
    result = build(site)
    assert result.returncode != 0
    assert "index.zh.md" in result.stderr and "figures/tiny/lines.svg" in result.stderr


def test_missing_snippet_names_the_page(site):
    page = site / "docs" / "index.en.md"
    page.write_text(
        page.read_text("utf-8") + '\n```python\n--8<-- "resdoc/models.py:nope"\n```\n', "utf-8"
    )
    result = build(site)
    assert result.returncode != 0
    assert "index.en.md: snippet 'resdoc/models.py:nope' not found" in result.stderr


def test_link_to_a_missing_anchor_names_the_page(site):
    page = site / "docs" / "index.zh.md"
    page.write_text(page.read_text("utf-8") + "\n[下文](#no-such-heading)\n", "utf-8")
    result = build(site)
    assert result.returncode != 0
    assert "index.zh.md" in result.stderr and "no-such-heading" in result.stderr


def test_link_to_a_missing_heading_of_an_example_page_names_the_page(site):
    page = site / "docs" / "index.en.md"
    text = page.read_text("utf-8")
    page.write_text(text + "\n[the example](examples/tiny.ipynb#tiny-example)\n", "utf-8")
    assert build(site).returncode == 0  # the example's title is a heading it can link to
    page.write_text(text + "\n[the example](examples/tiny.ipynb#no-such-part)\n", "utf-8")
    result = build(site)
    assert result.returncode != 0
    assert "index.en.md" in result.stderr and "no-such-part" in result.stderr


def test_page_without_its_twin_names_the_file(site):
    (site / "docs" / "extra.zh.md").write_text("# 只有中文\n", "utf-8")
    result = build(site)
    assert result.returncode != 0
    assert "extra.zh.md: no en twin (expected extra.en.md)" in result.stderr


def test_formula_katex_rejects_names_the_page_and_the_tex(site):
    page = site / "docs" / "index.zh.md"
    text = page.read_text("utf-8")
    page.write_text(text + "\n$\\frac{1}{2}$ 与 $$\\sum_i x_i$$\n", "utf-8")
    assert build(site).returncode == 0
    built = (site / "site" / "index.html").read_text("utf-8")
    assert built.count('class="katex"') == 2 and "katex.min.js" not in built  # typeset at build
    page.write_text(text + "\n一半是 $\\frac{1}{2$。\n", "utf-8")
    result = build(site)
    assert result.returncode != 0
    assert "index.zh.md: KaTeX rejects the inline formula `\\frac{1}{2`" in result.stderr


def test_formula_katex_rejects_in_a_notebook_cell_names_the_example_page(site):
    script = site / "examples" / "tiny.py"
    source = script.read_text("utf-8")
    script.write_text(
        source.replace("# # Tiny example", "# # Tiny example\n#\n# $\\nosuchmacro x$")
    )
    result = build(site)
    assert result.returncode != 0
    assert (
        "examples/tiny.ipynb: KaTeX rejects the inline formula `\\nosuchmacro x`" in result.stderr
    )
