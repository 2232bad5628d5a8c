"""Example pages: mkdocs-jupyter's HTML, converted once per change of the notebook, with the
bookkeeping folded, cells anchored by their script line, downloads and how to run them."""

import json

import mkdocs_jupyter.convert
import nbformat
import pygments
import pytest
from bs4 import BeautifulSoup
from mkdocs.structure.toc import get_toc
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from resdoc.sitegen import bookkeeping, example_pages, markup

pytestmark = pytest.mark.upstream


@pytest.fixture
def notebook(tmp_path):
    path = tmp_path / "page.en.ipynb"
    cells = [
        nbformat.v4.new_markdown_cell("# Title\n\nSome prose.\n\n## Part one"),
        nbformat.v4.new_code_cell("x = 1  # a comment, not a heading"),
        nbformat.v4.new_markdown_cell("## Part two"),
    ]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


@pytest.fixture
def conversions(monkeypatch):
    """Every notebook mkdocs-jupyter's converter is asked to render."""
    converted = []
    real = mkdocs_jupyter.convert.nb2html

    def counting(path, **options):
        converted.append(path)
        return real(path, **options)

    monkeypatch.setattr(mkdocs_jupyter.convert, "nb2html", counting)
    return converted


def test_renders_with_mkdocs_jupyter_and_the_markdown_cells_headings(notebook, conversions):
    rendered = example_pages.render(notebook)
    assert 'class="jupyter-wrapper"' in rendered.html and "Some prose." in rendered.html
    assert rendered.title == "Title"
    [title] = rendered.toc_tokens
    assert [part["name"] for part in title["children"]] == ["Part one", "Part two"]
    assert conversions == [str(notebook)]


def test_converts_again_only_when_the_notebook_or_the_options_change(
    notebook, conversions, monkeypatch
):
    first = example_pages.render(notebook)
    assert example_pages.render(notebook) == first
    assert len(conversions) == 1

    edited = nbformat.read(notebook, as_version=4)
    edited.cells[0].source = "# Another title"
    nbformat.write(edited, notebook)
    assert example_pages.render(notebook).title == "Another title"
    assert len(conversions) == 2

    monkeypatch.setitem(example_pages.CONVERTER_OPTIONS, "no_prompt", True)
    example_pages.render(notebook)
    assert len(conversions) == 3


def test_split_styles_keeps_everything_but_the_style_blocks():
    html = '<p>a</p><style type="text/css">\n.x{}\n</style><p>b</p><style>.y{}</style>'
    assert markup.split_styles(html, "p") == ("<p>a</p><p>b</p>", "\n.x{}\n\n.y{}")
    with pytest.raises(markup.MarkupChanged, match="p: nbconvert .* inlined no <style> block"):
        markup.split_styles("<p>no style</p>", "p")


LESSON_AND_BOOKKEEPING = """\
runs = train(seeds=SEEDS)
for kind in KINDS:
    stats[kind] = publish.spread(kind, runs[kind], seeds=SEEDS)
    print(kind, runs[kind])
publish.setting("n_seeds", len(SEEDS), "{:d}")  # a setting: plain text on the page
# one spread per kind, for the prose
bent = {kind: publish.spread(f"bent_{kind}", runs[kind], seeds=SEEDS) for kind in KINDS}
for kind in KINDS:
    publish.number(f"best_{kind}", min(runs[kind]))

ok = publish.claim("fits", max(runs["residual"]) < 1, zh="…", en="…")
publish.figure("runs", lambda tr: draw(runs, tr), alt=("…", "…"))"""


def test_statements_that_only_record_fold_together_and_the_lesson_stays():
    parts = bookkeeping.parts(LESSON_AND_BOOKKEEPING)
    assert [(p.kind, p.lines) for p in parts] == [
        ("lesson", (0, 2)),  # a loop that prints is the lesson's ...
        ("bookkeeping", (2, 3)),  # ... what it records inside is not
        ("lesson", (3, 4)),
        ("bookkeeping", (4, 11)),  # a setting, a commented dict of spreads, a loop, a claim
        ("lesson", (11, 12)),  # publish.figure draws what the page shows
    ]
    folded = parts[3]
    assert folded.numbers and folded.claims and folded.defines == ("bent", "ok")


def test_a_cell_without_bookkeeping_is_one_lesson_part():
    assert [p.kind for p in bookkeeping.parts("x = 1\n\nprint(x)")] == ["lesson"]


def _highlighted(source: str) -> str:
    """The inside of the <pre> Pygments writes for ``source``, as nbconvert's cells have it."""
    html = pygments.highlight(source, PythonLexer(), HtmlFormatter())
    return html.split("<pre>", 1)[1].rsplit("</pre>", 1)[0]


def test_a_folded_cell_shows_every_line_once_in_order_with_the_bookkeeping_collapsed():
    shown = example_pages.folded(
        LESSON_AND_BOOKKEEPING, _highlighted(LESSON_AND_BOOKKEEPING), "en", "p"
    )
    page = BeautifulSoup(shown, "html.parser")
    text = "".join(pre.get_text() for pre in page.find_all("pre"))
    assert text == LESSON_AND_BOOKKEEPING + "\n"  # every line, in order, none twice
    inside_the_loop, fold = page.select("details.rd-bookkeeping")
    assert "open" not in fold.attrs and "open" not in inside_the_loop.attrs
    assert fold.summary.get_text() == (
        "Hands numbers and claims to the site's pages (7 lines); defines bent, ok"
    )
    assert "publish.number" in fold.pre.get_text() and "publish.figure" not in fold.get_text()


def test_a_highlighted_source_of_another_length_stops_the_build():
    with pytest.raises(markup.MarkupChanged, match="p: a code cell's highlighted source has 2"):
        example_pages.folded("a = 1\nb = 2\nc = 3", _highlighted("a = 1\nb = 2"), "en", "p")


@pytest.fixture
def example_notebook(tmp_path):
    """An example page's notebook as the build makes it: cells named by their script line."""
    cells = [
        nbformat.v4.new_markdown_cell("# The degradation problem\n\nIntro."),
        nbformat.v4.new_code_cell(
            'x = 2\nprint(x)\npublish.number("x", x, "{:d}")', outputs=[], execution_count=1
        ),
        nbformat.v4.new_code_cell("y = 3", execution_count=2),
    ]
    for cell, line in zip(cells, (12, 20, 31), strict=True):
        cell.id = f"cell-{line}"
    path = tmp_path / "page.en.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


def _page(notebook, repo_url=None):
    rendered = example_pages.render(notebook)
    html, _ = markup.split_styles(rendered.html, "p")
    toc = get_toc(rendered.toc_tokens)
    body = example_pages.page_body(
        html, toc, "06-degradation", "en", None, "p", json.loads(notebook.read_text()), 6, repo_url
    )
    return BeautifulSoup(body, "html.parser")


def test_code_cells_are_anchored_by_their_script_line_and_copy_buttons_keep_working(
    example_notebook,
):
    page = _page(example_notebook)
    assert [cell["id"] for cell in page.select(".jp-CodeCell[id]")] == ["cell-20", "cell-31"]
    ids = [element["id"] for element in page.select("[id]")]
    assert len(ids) == len(set(ids))
    for button in page.select("clipboard-copy"):
        assert page.find(id=button["for"])["class"] == ["clipboard-copy-txt"]
    first = page.find(id=page.select("clipboard-copy")[0]["for"]).get_text()
    assert first == 'x = 2\nprint(x)\npublish.number("x", x, "{:d}")'  # the whole cell, as it runs


def test_the_title_carries_the_chapter_and_the_downloads_and_how_to_run_them_follow_it(
    example_notebook,
):
    page = _page(example_notebook)
    title = page.h1
    assert title.select_one(".rd-chapter-number").get_text() == "Chapter 6"
    after = title.find_next_siblings()
    assert after[0]["class"] == ["resdoc-downloads"] and "rd-run-it" in after[1]["class"]
    assert "git clone" not in after[1].get_text() and "pip install" in after[1].get_text()
    published = _page(example_notebook, "https://git.example/owner/resdoc")
    box = published.select_one(".rd-run-it")
    assert "git clone https://git.example/owner/resdoc\ncd resdoc\n" in box.get_text()
    assert box.find("a")["href"] == "https://git.example/owner/resdoc"
