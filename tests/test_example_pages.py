"""Example pages: mkdocs-jupyter's HTML, converted once per change of the notebook."""

import mkdocs_jupyter.convert
import nbformat
import pytest

from resdoc.sitegen import example_pages, markup


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
