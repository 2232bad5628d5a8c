"""Placeholders and snippet includes fail loudly, naming the page."""

import pytest

from resdoc.sitegen.pages import PageError, check_snippets, fill_results, mark_measured, plain_text

RESULTS = {
    "demo": {
        "norm": {"value": 1.5, "text": "1.500", "seeds": [0, 1, 2]},
        "range": {"value": "1 (0–2)", "text": "1 (0–2)", "texts": {"zh": "1（0–2）"}},
        "grows": {
            "claim": {
                "zh": "范数 {{ result:demo/norm }} 变大",
                "en": "the norm, {{ result:demo/norm }}, grows",
            }
        },
    }
}


def test_result_placeholder_is_filled_with_the_recorded_text():
    filled = fill_results("norm = {{ result:demo/norm }}.", "p.md", RESULTS)
    assert plain_text(filled) == "norm = 1.500."


def test_a_text_recorded_per_language_shows_in_the_page_language():
    for lang, shown in (("zh", "1（0–2）"), ("en", "1 (0–2)")):
        assert plain_text(fill_results("{{ result:demo/range }}", "p.md", RESULTS, lang)) == shown


def test_claim_placeholder_shows_the_sentence_in_the_page_language_with_its_numbers():
    for lang, sentence in (("zh", "范数 1.500 变大"), ("en", "the norm, 1.500, grows")):
        filled = fill_results("{{ claim:demo/grows }}.", "p.md", RESULTS, lang)
        assert plain_text(filled) == sentence + "."


def test_measured_numbers_become_focusable_with_provenance_and_plain_in_attributes():
    filled = fill_results("{{ result:demo/norm }}", "p.md", RESULTS)
    html = f'<p><img alt="n = {filled}"> n = {filled}</p>'
    marked = mark_measured(html, lambda ref: f"from {ref} & co", expected=2, page="p.md")
    assert marked == (
        '<p><img alt="n = 1.500"> n = '
        '<span class="rd-measured" tabindex="0" title="from demo/norm &amp; co">1.500</span></p>'
    )


@pytest.mark.parametrize(
    ("markdown", "message"),
    [
        ("{{ result:demo/missing }}", "recorded no result 'missing'"),
        ("{{ result:nodemo/norm }}", "names no example"),
        ("{{ reslt:demo/norm }}", "unknown placeholder kind 'reslt'"),
        ("{{ claim:demo/norm }}", "is a number, not a claim"),
        ("{{ result:demo/grows }}", "is a claim, not a number"),
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


def test_a_measured_text_broken_up_by_code_line_anchors_is_shown_without_markers():
    results = {"demo": {"out": {"value": "a\nb", "text": "a\nb", "seeds": None}}}
    filled = fill_results("{{ result:demo/out }}", "p.md", results)
    lines = filled.replace("\n", '\n<a id="line-2"></a>')  # as pymdownx.highlight numbers lines
    assert mark_measured(f"<code>{lines}</code>", str, 1, "p.md") == (
        '<code>a\n<a id="line-2"></a>b</code>'
    )


def test_a_measured_number_that_markdown_split_or_dropped_fails_the_build():
    filled = fill_results("{{ result:demo/norm }}", "p.md", RESULTS)
    split = filled.replace("\ue001", "</em>\ue001")  # a tag between the marker's parts
    with pytest.raises(PageError, match="p.md: 1 measured number"):
        mark_measured(f"<p><em>{split}</p>", str, expected=1, page="p.md")
    with pytest.raises(PageError, match="p.md: 2 measured number"):
        mark_measured(f"<p>{filled}</p>", str, expected=2, page="p.md")  # one was dropped
