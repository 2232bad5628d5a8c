"""Chapter 10-applications: what the initialization schemes and branch scalings do, on small fast
settings."""

import math
import statistics

import pytest
import torch

from resdoc.applications import (
    Block,
    DeepMLP,
    deepnorm_constants,
    growth_at_init,
    one_step,
    scaled_growth,
    scaled_stream,
    train_scheme,
)


def test_rezero_and_fixup_blocks_start_as_the_identity():
    torch.manual_seed(0)
    x = torch.randn(4, 8)
    assert torch.equal(Block(8, "rezero", depth=16)(x), x)
    assert torch.equal(Block(8, "fixup", depth=16)(x), x)
    assert not torch.allclose(Block(8, "residual", depth=16)(x), x)


def test_rezero_alpha_is_learned():
    torch.manual_seed(0)
    block = Block(8, "rezero", depth=4)
    block(torch.randn(4, 8)).pow(2).sum().backward()
    assert block.alpha.grad is not None and block.alpha.grad != 0


@torch.no_grad()
def test_plain_residual_stack_explodes_at_init_and_rezero_does_not():
    torch.manual_seed(0)
    x = torch.randn(16, 64)
    assert DeepMLP(64, "residual")(x).abs().max() > 1e8
    assert DeepMLP(64, "rezero")(x).abs().max() < 10


def test_rezero_trains_where_the_plain_residual_stack_breaks():
    seeds = range(3)
    residual = [train_scheme("residual", depth=64, epochs=1, seed=seed) for seed in seeds]
    rezero = [train_scheme("rezero", depth=64, epochs=4, seed=seed) for seed in seeds]
    assert all(not math.isfinite(run.loss[-1]) and len(run.loss) <= 3 for run in residual)
    assert statistics.median(run.loss[-1] / run.loss[0] for run in rezero) < 0.5
    assert max(run.test_error for run in rezero) < 0.5


def test_a_he_initialized_residual_block_triples_the_squared_norm():
    stats = [growth_at_init(depth=16, seed=seed) for seed in range(3)]
    assert 1.6 < statistics.median(s["branch"] for s in stats) < 2.5  # |F(x)|² ≈ 2|x|²
    assert max(abs(s["cosine"]) for s in stats) < 0.15  # F(x) is nearly uncorrelated with x
    assert 2.5 < statistics.median(s["growth"] for s in stats) < 3.5  # so |x + F(x)|² ≈ 3|x|²
    assert (
        min(s["stream"] for s in stats) > 500
    )  # 16 blocks: of the order of 3^8 in root mean square


def test_deepnorm_grows_the_shortcut_and_shrinks_the_branch_with_depth():
    small, large = deepnorm_constants(6), deepnorm_constants(600)
    assert 1 < small["alpha"] < large["alpha"]
    assert 1 > small["beta"] > large["beta"]


@pytest.mark.parametrize("n", [6, 12, 100, 1000])
def test_deepnorms_branch_weighs_beta_squared_over_alpha_which_falls_like_n_to_minus_three_quarters(
    n,
):
    """Chapter 10: both matrices of a branch carry beta, so its weight relative to the shortcut is beta²/alpha."""
    constants = deepnorm_constants(n)
    ratio = constants["beta"] ** 2 / constants["alpha"]
    assert ratio == pytest.approx(2**-1.75 * n**-0.75)
    sixteen_times_deeper = deepnorm_constants(16 * n)
    shrinks = sixteen_times_deeper["beta"] ** 2 / sixteen_times_deeper["alpha"] / ratio
    assert 1 / 16 < shrinks < 1 / 4  # faster than 1/√N (1/4), slower than 1/N (1/16): 16^(-3/4)


@torch.no_grad()
def test_scaled_stream_with_scale_one_is_the_residual_stack():
    torch.manual_seed(0)
    model, x = DeepMLP(6, "residual"), torch.randn(5, 64)
    assert torch.allclose(model.head(scaled_stream(model, x, 1.0)[-1]), model(x))
    assert torch.equal(scaled_stream(model, x, 0.0)[-1], model.embed(x))  # s = 0: identity blocks


def test_sqrt_scaling_keeps_the_stream_bounded_and_none_does_not():
    for depth in (16, 64):
        assert 1.5 < scaled_growth(depth, "sqrt") < 5
        assert abs(scaled_growth(depth, "linear") - 1) < 0.2
    assert scaled_growth(64, "none") > 1e10


def test_one_step_under_linear_scaling_shrinks_with_depth_and_under_sqrt_does_not():
    ratio_linear = one_step(64, "linear", 0.01) / one_step(8, "linear", 0.01)
    ratio_sqrt = one_step(64, "sqrt", 0.01) / one_step(8, "sqrt", 0.01)
    assert ratio_linear < 0.25  # 1/L predicts 1/8
    assert 0.3 < ratio_sqrt < 3
