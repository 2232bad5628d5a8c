"""A measured number's tooltip says in words what was measured; its link is the cell."""

from resdoc.sitegen import provenance

SCRIPT = '''"""Title."""

# %% [markdown] lang="zh"
# ## 训练误差

# %% [markdown] lang="en"
# ## Training error

# %%
SEEDS = (0, 1, 2)
err = run(SEEDS)

# %%
publish.spread("err", err, SEEDS)
'''

RECORDED = {
    "err": {"seeds": [0, 1, 2], "line": 14},
    "err_min": {"seeds": [0, 1, 2], "line": 14},
    "err_spread": {"seeds": [0, 1, 2], "line": 14, "same": False},
    "acc": {"seeds": [0, 1, 2], "line": 14},
    "acc_spread": {"seeds": [0, 1, 2], "line": 14, "same": True},
    "params": {"seeds": None, "line": 10},
}


def test_a_line_belongs_to_the_code_cell_it_is_in_with_that_cells_section(tmp_path):
    script = tmp_path / "06-demo.py"
    script.write_text(SCRIPT, "utf-8")
    cell = provenance.cell_of(script, 14)
    assert cell.anchor == "cell-14"
    assert cell.heading == {"zh": "训练误差", "en": "Training error"}
    assert provenance.cell_of(script, 11).anchor == "cell-10"


def test_a_heading_with_a_formula_is_said_in_plain_characters(tmp_path):
    """A tooltip shows text, not typeset TeX: "$1/\\sqrt{N}$" in a heading reads 1/√N."""
    script = tmp_path / "09-demo.py"
    script.write_text(
        SCRIPT.replace("## Training error", "## Projections times $1/\\sqrt{N}$"), "utf-8"
    )
    assert provenance.cell_of(script, 14).heading["en"] == "Projections times 1/√N"


def test_the_tooltip_says_what_kind_of_number_over_which_seeds_in_plain_words():
    assert provenance.what("err", RECORDED, "en") == "Median of 3 seeds (0–2)"
    assert provenance.what("err_min", RECORDED, "en") == "Lowest of 3 seeds (0–2)"
    assert provenance.what("acc", RECORDED, "en") == "The same in all 3 seeds (0–2)"
    assert provenance.what("params", RECORDED, "zh") == "一次运行，不涉及随机种子"


def test_the_tooltip_has_no_build_jargon_and_the_link_is_the_cell(tmp_path):
    script = tmp_path / "06-demo.py"
    script.write_text(SCRIPT, "utf-8")
    tip, cell = provenance.describe(
        "06-demo/err_spread", {"06-demo": RECORDED}, {"06-demo": script}, "en"
    )
    assert (
        tip
        == "Median and range over 3 seeds (0–2), computed in “Training error” of runnable example 6"
    )
    assert "torch" not in tip and "CPU" not in tip
    assert provenance.link("06-demo", cell.anchor, "en/chapters/06-demo/", "en/") == (
        "../../examples/06-demo/#cell-14"
    )


def test_the_closing_section_lists_each_cell_once_with_how_many_numbers_it_gave():
    cell = provenance.Cell("cell-14", {"en": "Training error"})
    html = provenance.section(
        [("06-demo", cell), ("06-demo", cell)], "Python 3.11", "en", lambda e, a: f"x/{e}#{a}"
    )
    assert html.count("<li>") == 1
    assert '<a href="x/06-demo#cell-14">6 · Training error</a>: 2 numbers' in html
    assert "Python 3.11" in html


def test_two_cells_under_one_heading_are_told_apart_in_the_closing_section():
    first = provenance.Cell("cell-14", {"en": "Training error"})
    second = provenance.Cell("cell-20", {"en": "Training error"})
    other = provenance.Cell("cell-30", {"en": "Test error"})
    used = [("06-demo", first), ("06-demo", second), ("06-demo", other)]
    html = provenance.section(used, "", "en", lambda e, a: f"x/{e}#{a}")
    assert ">6 · Training error (code cell 1)</a>" in html
    assert ">6 · Training error (code cell 2)</a>" in html
    assert ">6 · Test error</a>" in html
