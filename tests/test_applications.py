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
    skip_stream,
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


def test_the_parts_of_the_unrolled_stack_add_up_to_its_output():
    run, rms = skip_stream("rescaled", 8, seed=0), lambda t: t.square().mean().sqrt().item()
    x_0 = run["parts"][0] * 2**4  # x_0 has passed all 8 factors 1/√2
    assert rms(sum(run["parts"])) / rms(x_0) == pytest.approx(run["stream"][-1], rel=1e-5)
    assert run["weights"][-1] == pytest.approx(rms(run["parts"][-1]) / rms(sum(run["parts"])))


def test_rescaling_keeps_a_normalized_stack_level_and_weights_blocks_geometrically():
    rescaled, summed = skip_stream("rescaled", 16, seed=1), skip_stream("sum", 16, seed=1)
    assert max(abs(r - 1) for r in rescaled["stream"]) < 0.3
    assert summed["stream"][-1] == pytest.approx(17**0.5, rel=0.15)  # variances add: 1 + L
    ratios = [
        later / earlier
        for earlier, later in zip(rescaled["weights"], rescaled["weights"][1:], strict=False)
    ]
    assert statistics.median(ratios) == pytest.approx(2**0.5, rel=0.1)  # √2 per block
    assert max(summed["weights"]) < 2 * min(summed["weights"])  # every block weighs alike


def test_without_normalization_the_rescaled_stack_is_the_plain_one_shrunk():
    """A bias-free ReLU branch is homogeneous, F(cx) = cF(x): dividing by √2 after every block
    only rescales the whole stack, and leaves every block's relative weight as it was."""
    plain, rescaled = (skip_stream(r, 12, seed=2, normalize=False) for r in ("sum", "rescaled"))
    for k, (p, r) in enumerate(zip(plain["stream"], rescaled["stream"], strict=True)):
        assert r == pytest.approx(p * 2 ** (-k / 2), rel=1e-4)
    assert rescaled["weights"] == pytest.approx(plain["weights"], rel=1e-4)
