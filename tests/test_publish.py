"""What an example hands to the site: numbers with their seeds, spreads and checked claims."""

import ast
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from resdoc import publish


@pytest.fixture(autouse=True)
def output(tmp_path, monkeypatch):
    monkeypatch.setenv("RESDOC_OUTPUT_DIR", str(tmp_path))
    monkeypatch.setenv("RESDOC_EXAMPLE", "ex")
    return tmp_path


def recorded(output):
    return json.loads((output / "results.json").read_text("utf-8"))


def test_spread_records_median_range_and_seeds(output):
    measured = publish.spread("err", [0.3, 0.1, 0.2], seeds=range(3), fmt="{:.1f}")
    assert (measured.median, measured.low, measured.high) == (0.2, 0.1, 0.3)
    results = recorded(output)
    assert results["err_spread"]["text"] == "0.2 (0.1–0.3)"
    assert results["err_max"]["seeds"] == [0, 1, 2]


def test_spread_reads_naturally_in_each_language_and_with_negative_numbers(output):
    publish.spread("corr", [-0.3, -0.1, 0.2], seeds=range(3), fmt="{:.1f}")
    publish.spread("err", [0.3, 0.1, 0.2], seeds=range(3), fmt="{:.1f}")
    results = json.loads((output / "results.json").read_text("utf-8"))
    # a dash between two negative numbers reads as a minus sign: say "to" instead
    assert results["corr_spread"]["text"] == "−0.1 (−0.3 to 0.2)"
    assert results["corr_spread"]["texts"]["zh"] == "−0.1（−0.3 至 0.2）"
    assert results["err_spread"]["texts"]["zh"] == "0.2（0.1–0.3）"  # full-width brackets


def test_numbers_are_typeset_for_prose_powers_of_ten_and_one_minus_sign(output):
    assert publish.number("tiny", 4.8e-32, "{:.1e}") == "4.8\u00a0×\u00a010⁻³²"
    assert publish.number("huge", 2.4e8, "{:.1e}") == "2.4\u00a0×\u00a010⁸"
    assert publish.setting("lr", 1e-5) == "10⁻⁵"
    assert publish.number("shift", -0.25, "{:.2f}") == "\u22120.25"  # U+2212, not "-"
    assert recorded(output)["tiny"]["text"] == "4.8\u00a0×\u00a010⁻³²"


def test_a_range_is_written_only_when_the_seeds_differ(output):
    publish.spread("acc", [100.0, 100.0, 100.0], seeds=range(3), fmt="{:.0f}%")
    record = recorded(output)["acc_spread"]
    assert (record["text"], record["texts"]["zh"]) == ("100%", "100%")  # not "100% (100%–100%)"
    assert record["same"] is True  # the mark's tooltip says every seed gave it


def test_a_spread_inside_a_parenthesis_has_no_brackets_of_its_own(output):
    publish.spread("gain", [1.04, 1.06, 1.06], seeds=range(3), fmt="{:.3g}")
    record = recorded(output)["gain_spread"]
    assert publish.shown_text(record, "en") == "1.06 (1.04–1.06)"
    assert publish.shown_text(record, "zh", inside_brackets=True) == "1.06，范围 1.04–1.06"
    assert publish.shown_text(record, "en", inside_brackets=True) == "1.06, range 1.04–1.06"


def test_a_setting_is_recorded_apart_from_a_result_with_the_line_that_recorded_it(output):
    publish.setting("width", 64, "{:d}")
    publish.number("err", 0.25, "{:.2f}", seeds=[0, 1])
    results = recorded(output)
    assert results["width"]["kind"] == "setting" and results["err"]["kind"] == "result"
    with pytest.raises(ValueError, match="kind 'guess'"):
        publish.text("shape", "56×56", kind="guess")


def test_spread_needs_one_value_per_seed():
    with pytest.raises(ValueError, match="2 values for 3 seeds"):
        publish.spread("err", [0.1, 0.2], seeds=range(3))


def test_a_claim_that_holds_is_recorded_with_its_numbers(output):
    publish.number("x", 2.0, "{:.1f}")
    plain = publish.claim("big", np.float64(2.0) > 1, zh="x = {{ x }} 大于 1", en="x = {{ x }} > 1")
    assert plain == ("x = 2.0 大于 1", "x = 2.0 > 1")
    assert recorded(output)["big"]["claim"]["en"] == "x = {{ result:ex/x }} > 1"


def test_a_claim_that_does_not_hold_raises_with_its_words_and_evidence(output):
    with pytest.raises(
        publish.ClaimFailed, match=r"claim 'small' does not hold \(x = 2\): 'x is small'"
    ):
        publish.claim(
            "small", torch.tensor(2.0) < 1, zh="x 很小", en="x is small", evidence="x = 2"
        )
    assert not (output / "results.json").exists()


def test_a_claim_needs_a_boolean_condition():
    with pytest.raises(TypeError, match="must be a bool"):
        publish.claim("vague", (False,), zh="?", en="?")


def test_a_claim_shows_only_numbers_already_recorded():
    with pytest.raises(KeyError, match="not recorded yet"):
        publish.claim("early", True, zh="{{ later }}", en="{{ later }}")


def test_a_number_records_the_script_line_its_page_mark_links_to(output, monkeypatch):
    monkeypatch.setenv("RESDOC_EXAMPLE", "test_publish")  # this file plays the example script
    publish.number("err", 0.25, "{:.2f}")
    line = recorded(output)["err"]["line"]
    assert 'publish.number("err"' in Path(__file__).read_text("utf-8").splitlines()[line - 1]


def _chosen_by_the_author(value: ast.expr) -> bool:
    """A value the script sets rather than measures: a literal, a CONSTANT, a config's field
    (``cfg.d_model``, ``PAPER_RECIPE.lr``), or ``len(SEEDS)``."""
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Name):
        return value.id.isupper()
    if isinstance(value, ast.Attribute):
        root = value
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and (root.id.isupper() or root.id == "cfg")
    if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "len":
        return len(value.args) == 1 and _chosen_by_the_author(value.args[0])
    return False


def test_every_number_the_author_chose_is_recorded_as_a_setting():
    """A seed count, a width or a learning rate recorded with publish.number would be marked
    'measured' on the page, with a link to a cell that only typed it in."""
    misfiled = []
    for script in sorted(Path("examples").glob("*.py")):
        for node in ast.walk(ast.parse(script.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "number"
                and getattr(node.func.value, "id", "") == "publish"
                and len(node.args) >= 2
                and _chosen_by_the_author(node.args[1])
            ):
                misfiled.append(f"{script}:{node.lineno}")
    assert not misfiled, f"record these with publish.setting: {misfiled}"


def test_a_number_recorded_by_a_helper_links_to_the_line_that_called_it(output, monkeypatch):
    monkeypatch.setenv("RESDOC_EXAMPLE", "test_publish")

    def helper():
        return publish.number("gain", 2.0, "{:.1f}")

    helper()  # the cell's statement: its page links here, not to the helper's body
    line = recorded(output)["gain"]["line"]
    assert Path(__file__).read_text("utf-8").splitlines()[line - 1].strip().startswith("helper()")
