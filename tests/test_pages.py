"""Placeholders and snippet includes fail loudly, naming the page."""

import pytest

from resdoc.build.pages import PageError, check_snippets, fill_results

RESULTS = {"demo": {"norm": {"value": 1.5, "text": "1.500"}}}


def test_result_placeholder_is_filled_with_the_recorded_text():
    assert fill_results("norm = {{ result:demo/norm }}.", "p.md", RESULTS) == "norm = 1.500."


@pytest.mark.parametrize(
    ("markdown", "message"),
    [
        ("{{ result:demo/missing }}", "recorded no result 'missing'"),
        ("{{ result:nodemo/norm }}", "names no example"),
        ("{{ reslt:demo/norm }}", "unknown placeholder kind 'reslt'"),
    ],
)
def test_bad_placeholder_names_the_page(markdown, message):
    with pytest.raises(PageError, match=message) as error:
        fill_results(markdown, "chapters/x.en.md", RESULTS)
    assert str(error.value).startswith("chapters/x.en.md: ")


def test_snippet_checks(tmp_path):
    (tmp_path / "code.py").write_text("# --8<-- [start:part]\nx = 1\n# --8<-- [end:part]\n")
    check_snippets('```python\n--8<-- "code.py:part"\n```', "p.md", tmp_path)
    with pytest.raises(PageError, match="p.md: snippet 'code.py:other' not found"):
        check_snippets('--8<-- "code.py:other"', "p.md", tmp_path)
    with pytest.raises(PageError, match="p.md: snippet 'gone.py' not found"):
        check_snippets('--8<-- "gone.py"', "p.md", tmp_path)
