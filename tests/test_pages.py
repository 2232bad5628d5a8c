"""Placeholders and snippet includes fail loudly, naming the page."""

import re

import pytest

from resdoc.sitegen.pages import (
    MEASURED,
    PageError,
    fill_results,
    mark_measured,
    plain_text,
)

RESULTS = {
    "demo": {
        "norm": {"value": 1.5, "text": "1.500", "seeds": [0, 1, 2]},
        "range": {
            "value": "1 (0–2)",
            "text": "1 (0–2)",
            "texts": {"zh": "1（0–2）"},
            "inside": {"en": "1, range 0–2", "zh": "1，范围 0–2"},
        },
        "width": {"value": 64.0, "text": "64", "seeds": None, "kind": "setting"},
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


def test_measured_numbers_link_to_their_cell_out_of_the_tab_order_plain_in_attributes():
    filled = fill_results("{{ result:demo/norm }}", "p.md", RESULTS)
    html = f'<p><img alt="n = {filled}"> n = {filled}</p>'
    marked = mark_measured(
        html, lambda ref: (f"from {ref} & co", "../ex/#cell-3"), expected=2, page="p.md"
    )
    assert marked == (
        '<p><img alt="n = 1.500"> n = <a class="rd-measured" href="../ex/#cell-3" '
        'tabindex="-1" title="from demo/norm &amp; co">1.500</a></p>'
    )


def test_a_setting_is_plain_text_and_a_result_is_marked():
    filled = fill_results("{{ result:demo/width }} wide: {{ result:demo/norm }}", "p.md", RESULTS)
    assert filled.count(MEASURED) == 1
    assert filled.startswith("64 wide: ")


@pytest.mark.parametrize(
    ("markdown", "lang", "shown"),
    [
        ("spread {{ result:demo/range }}", "en", "spread 1 (0–2)"),
        ("(spread {{ result:demo/range }})", "en", "(spread 1, range 0–2)"),
        ("（见上文，{{ result:demo/range }}）", "zh", "（见上文，1，范围 0–2）"),
        ("(closed) then {{ result:demo/range }}", "en", "(closed) then 1 (0–2)"),
        ("(a\n\nnew paragraph {{ result:demo/range }}", "en", "(a\n\nnew paragraph 1 (0–2)"),
    ],
)
def test_a_spread_inside_brackets_is_written_without_brackets_of_its_own(markdown, lang, shown):
    assert plain_text(fill_results(markdown, "p.md", RESULTS, lang)) == shown


def test_a_claim_inside_brackets_writes_its_spreads_without_brackets():
    results = {"demo": RESULTS["demo"] | {"c": {"claim": {"en": "x {{ result:demo/range }}"}}}}
    assert plain_text(fill_results("({{ claim:demo/c }})", "p.md", results)) == "(x 1, range 0–2)"


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


@pytest.mark.parametrize(
    ("markdown", "hint"),
    [
        ("{{ result:demo/nrom }}", "recorded no result 'nrom'; did you mean 'norm'?"),
        ("{{ claim:demo/grow }}", "recorded no claim 'grow'; did you mean 'grows'?"),
        ("{{ result:dmo/norm }}", "names no example (did you mean 'demo'?)"),
        # a claim is not offered for a result: none of the results is close
        ("{{ result:demo/grow }}", "none of its 3 results is close (examples/demo.py records"),
        ("{{ result:nothing/norm }}", "names no example (examples: demo)"),
    ],
)
def test_a_mistyped_name_is_answered_with_the_closest_few(markdown, hint):
    with pytest.raises(PageError, match=re.escape(hint)):
        fill_results(markdown, "chapters/x.en.md", RESULTS)


def test_an_example_with_hundreds_of_keys_is_not_listed_in_full():
    recorded = {f"layer_{i}_grad_norm": {"value": i, "text": str(i)} for i in range(250)}
    with pytest.raises(PageError) as error:
        fill_results("{{ result:big/layer_12_grad_nrom }}", "p.md", {"big": recorded})
    assert str(error.value) == (
        "p.md: '{{ result:big/layer_12_grad_nrom }}': example 'big' recorded no result "
        "'layer_12_grad_nrom'; did you mean 'layer_12_grad_norm' or 'layer_212_grad_norm' or "
        "'layer_192_grad_norm'?"
    )


def test_snippet_includes_expand_as_pymdownx_expands_them_and_a_missing_one_fails():
    # one parser of the include syntax, the site's own (pymdownx.snippets with check_paths):
    # a section, a line range; a missing section or file raises
    from pymdownx.snippets import SnippetMissingError

    from conftest import expand_includes

    assert (
        expand_includes('--8<-- "resdoc/addition.py:1:1"')
        == 'r"""Chapter 02-addition: merging the shortcut by element-wise addition.'
    )
    with pytest.raises(SnippetMissingError, match="Snippet section 'nope' could not be located"):
        expand_includes('--8<-- "resdoc/models.py:nope"')
    with pytest.raises(SnippetMissingError, match="could not be found"):
        expand_includes('--8<-- "resdoc/gone.py"')


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
        mark_measured(f"<p><em>{split}</p>", lambda ref: (ref, "#"), expected=1, page="p.md")
    with pytest.raises(PageError, match="p.md: 2 measured number"):
        mark_measured(
            f"<p>{filled}</p>", lambda ref: (ref, "#"), expected=2, page="p.md"
        )  # one was dropped
