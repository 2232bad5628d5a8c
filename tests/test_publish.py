"""What an example hands to the site: numbers with their seeds, spreads and checked claims."""

import json

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
    assert results["corr_spread"]["text"] == "-0.1 (-0.3 to 0.2)"
    assert results["corr_spread"]["texts"]["zh"] == "-0.1（-0.3 至 0.2）"
    assert results["err_spread"]["texts"]["zh"] == "0.2（0.1–0.3）"  # full-width brackets


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
