"""Bad input fails the build with a message naming the file, and leaves nothing stale."""

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.sites import build, tiny_site

pytestmark = [pytest.mark.slow, pytest.mark.upstream]


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
    # every filled-in number links to the cell that computed it, saying in words what it is,
    # in the page's language, out of the Tab order; the versions are the page's, not its
    for paragraph, words, page in (
        (zh, "一次运行，不涉及随机种子，由可运行示例 tiny 的“小示例”一节计算", "index.html"),
        (
            en,
            "A single run, no random seed, computed in “Tiny example” of runnable example tiny",
            "en/index.html",
        ),
    ):
        numbers = paragraph.select("a.rd-measured")
        assert [n.get_text() for n in numbers] == ["42", "42"]
        for number in numbers:
            assert number["tabindex"] == "-1"
            assert number["title"] == words
            assert number["href"] == "examples/tiny/#cell-10"
            assert (site / "site" / page).parent.joinpath("examples/tiny/index.html").exists()
        closing = BeautifulSoup((site / "site" / page).read_text("utf-8"), "html.parser")
        assert closing.select_one("section.rd-provenance a")["href"] == "examples/tiny/#cell-10"
        assert "Python 3." in closing.select_one("section.rd-provenance").get_text()


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


def test_a_claim_saying_more_than_its_condition_checks_names_file_line_and_words(site):
    """ "in every seed" needs a condition over every seed, named with every=: the example stops
    at the claim's line, before anything is published."""
    script = site / "examples" / "tiny.py"
    source = script.read_text("utf-8").replace(
        'en="the answer, {{ answer }}, is positive",',
        'en="the answer, {{ answer }}, is positive in every seed",',
    )
    script.write_text(source, "utf-8")
    line = source.splitlines().index("publish.claim(") + 1
    result = build(site)
    assert result.returncode != 0
    assert (
        f"examples/tiny.py:{line}: ClaimOverstates: claim 'positive' says more than its condition "
        "checks (en): 'every seed' speaks of every seed" in result.stderr
    ), result.stderr[-2000:]
    outputs = site / ".cache" / "resdoc" / "examples"
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


def test_unknown_result_key_names_the_page_and_the_closest_key(site):
    page = site / "docs" / "index.en.md"
    page.write_text(page.read_text("utf-8").replace("tiny/answer", "tiny/answr"), "utf-8")
    result = build(site)
    assert result.returncode != 0
    assert (
        "index.en.md: '{{ result:tiny/answr }}': example 'tiny' recorded no result 'answr'; "
        "did you mean 'answer'?" in result.stderr
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
    # the chapter's listing is expanded by resdoc/sitegen/listings.py, which names the page
    assert (
        "index.en.md: Snippet section 'nope' could not be located in resdoc/models.py"
        in result.stderr
    )


def test_citation_of_a_paper_with_no_reference_names_the_page_and_line(site):
    page = site / "docs" / "index.zh.md"
    page.write_text(page.read_text("utf-8") + "\n见《A Paper Nobody Wrote》。\n", "utf-8")
    result = build(site)
    assert result.returncode != 0
    assert (
        "index.zh.md:7: 《A Paper Nobody Wrote》 is not the title of a paper in docs/references.yml"
        in result.stderr
    )


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


CHAPTER = {
    "zh": "# 小章\n\n如 {{ figure:line }} 与 {{ eq:sum }} 所示。\n\n$$ \\label{sum}\ny = x + F(x)\n$$\n\n"
    '![一条线](../figures/tiny/line.svg "一条线：答案 {{ result:tiny/answer }}")\n',
    "en": "# Small chapter\n\nAs {{ figure:line }} and {{ eq:sum }} show.\n\n$$ \\label{sum}\ny = x + F(x)\n$$\n\n"
    '![a line](../figures/tiny/line.svg "A line: the answer {{ result:tiny/answer }}")\n',
}


def _add_chapter(site: Path, replace: tuple[str, str] = ("", "")) -> None:
    """Chapter 1 of the tiny site: a figure with its caption, a labelled formula, references."""
    (site / "docs" / "chapters").mkdir(exist_ok=True)
    for lang, text in CHAPTER.items():
        page = site / "docs" / "chapters" / f"01-tiny.{lang}.md"
        page.write_text(text.replace(*replace) if replace[0] else text, "utf-8")
    config = site / "mkdocs.yml"
    config.write_text(config.read_text("utf-8") + "  - chapters/01-tiny.md\n", "utf-8")


def test_a_chapter_numbers_its_figures_and_formulas_and_links_the_references(site):
    _add_chapter(site)
    result = build(site)
    assert result.returncode == 0, result.stderr
    for prefix, figure, equation in (
        ("", "图 1.1", "式 (1.1)"),
        ("en/", "Figure 1.1", "Eq. (1.1)"),
    ):
        page = BeautifulSoup(
            (site / "site" / prefix / "chapters" / "01-tiny" / "index.html").read_text("utf-8"),
            "html.parser",
        )
        links = {a.get_text(): a["href"] for a in page.select("article p a")}
        assert links == {figure: "#fig-line", equation: "#eq-sum"}
        caption = page.select_one("figure#fig-line figcaption")
        assert caption.select_one(".rd-figure-number").get_text() == figure
        assert caption.select_one(".rd-measured").get_text() == "42"  # a measured number, marked
        assert "(1.1)" in page.select_one("#eq-sum .katex-display").get_text()  # KaTeX's \tag
        assert not page.select("img[title]")  # the caption is not read twice from a title


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (
            ("{{ figure:line }}", "{{ figure:lines }}"),
            "no numbered figure 'lines' here (figures: line)",
        ),
        (("{{ eq:sum }}", "{{ eq:sun }}"), "no formula labelled 'sun' here (labels: sum)"),
        (('line.svg "', 'line.svg)\n\n<!-- "'), "figure 'line' has no caption"),
    ],
)
def test_a_reference_to_an_unknown_figure_or_formula_or_a_missing_caption_names_the_page(
    site, replace, message
):
    _add_chapter(site, replace)
    result = build(site)
    assert result.returncode != 0
    assert "chapters/01-tiny." in result.stderr and message in result.stderr, result.stderr[-2000:]
