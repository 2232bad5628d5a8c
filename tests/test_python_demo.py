"""The science behind the Python demo chapter."""

import math
import statistics

import pytest
import torch

from resdoc.gradients import input_jacobian, layer_profile, total_grad_norm
from resdoc.models import LinearBlock, LinearStack
from resdoc.python_demo import (
    independent_backward_gain,
    log_linear_fit,
    measured_gains,
    per_layer_gain,
    seed_demo,
    sgd_losses,
    total_norm_by_depth,
)


@pytest.mark.parametrize("dim", [3, 8])
def test_residual_block_jacobian_is_identity_plus_branch_jacobian(dim):
    torch.manual_seed(dim)
    block = LinearBlock(dim, residual=True)
    x = torch.randn(dim)
    expected = torch.eye(dim) + block.linear.weight  # J_F of F(x) = Wx is W
    assert torch.allclose(input_jacobian(block, x), expected, atol=1e-6)


def test_plain_block_jacobian_is_branch_jacobian_only():
    torch.manual_seed(0)
    block = LinearBlock(5, residual=False)
    assert torch.allclose(input_jacobian(block, torch.randn(5)), block.linear.weight, atol=1e-6)


def test_total_grad_norm_matches_the_norm_of_the_flattened_gradient():
    torch.manual_seed(1)
    net = LinearStack(6, depth=3, residual=True)
    x, target = torch.randn(4, 6), torch.randn(4, 6)
    norm = total_grad_norm(net, x, target)
    flat = torch.cat([p.grad.flatten() for p in net.parameters()])
    assert norm == pytest.approx(flat.norm().item(), rel=1e-6)


def test_layer_profile_agrees_with_autograd_on_the_whole_stack():
    torch.manual_seed(2)
    net = LinearStack(6, depth=4, residual=True)
    x, target = torch.randn(4, 6), torch.randn(4, 6)
    profile = layer_profile(net.blocks, x, target)
    assert len(profile.activations) == len(profile.activation_grads) == 5
    assert len(profile.weight_grads) == 4
    x_leaf = x.clone().requires_grad_(True)
    (net(x_leaf) - target).pow(2).mean().backward()
    assert profile.activation_grads[0] == pytest.approx(x_leaf.grad.norm().item(), rel=1e-5)
    total = math.sqrt(sum(g**2 for g in profile.weight_grads))
    assert total == pytest.approx(total_grad_norm(net, x, target), rel=1e-5)


def test_seed_demo_is_deterministic_and_ordered_like_the_seed():
    first, second = seed_demo(), seed_demo()
    assert [r.line() for r in first] == [r.line() for r in second]
    assert [(r.depth, r.residual) for r in first] == [
        (10, False),
        (10, True),
        (20, False),
        (20, True),
    ]
    assert first[0].line().startswith("depth=10 no_residual grad_norm=")


def test_seed_demo_prints_what_the_seed_printed():
    # deterministic (one manual_seed, PyTorch's CPU generator) and the same on every CPU level
    assert [row.line() for row in seed_demo()] == [
        "depth=10 no_residual grad_norm=0.0203",
        "depth=10 with_residual grad_norm=146.7483",
        "depth=20 no_residual grad_norm=0.0002",
        "depth=20 with_residual grad_norm=4528.3335",
    ]


def test_plain_gradient_vanishes_and_this_residual_gradient_explodes_with_depth():
    norms = total_norm_by_depth([5, 10], seeds=range(5))
    plain = [statistics.median(row) for row in norms["plain"]]
    residual = [statistics.median(row) for row in norms["residual"]]
    assert plain[1] < plain[0] / 5  # (1/3)^(5/2) = 0.064 expected for 5 more blocks
    assert residual[1] > residual[0] * 2  # (4/3)^(5/2) = 2.05 at least


def test_measured_forward_gain_matches_the_variance_argument():
    gains = measured_gains(depth=20, seeds=range(6))
    for kind in ("plain", "residual"):
        predicted = per_layer_gain(kind == "residual")
        assert statistics.median(gains[kind]["forward"]) == pytest.approx(predicted, rel=0.05)


def test_residual_backward_gain_exceeds_the_prediction_only_for_the_demo_gradient():
    demo = statistics.median(measured_gains(depth=20, seeds=range(6))["residual"]["backward"])
    independent = statistics.median(
        independent_backward_gain(20, residual=True, seed=s) for s in range(6)
    )
    predicted = per_layer_gain(residual=True)
    assert independent == pytest.approx(predicted, rel=0.03)
    assert demo > 1.03 * predicted  # the output gradient contains x_L, made by the same weights


def test_sgd_diverges_on_the_residual_stack_and_cannot_move_the_plain_one():
    for seed in range(3):
        residual = sgd_losses(residual=True, steps=10, seed=seed)
        assert not math.isfinite(residual[-1])
        plain = sgd_losses(residual=False, steps=10, seed=seed)
        assert plain[-1] == pytest.approx(plain[0], rel=1e-4)


def test_log_linear_fit_recovers_an_exponential_and_rejects_a_bend():
    factor, r2 = log_linear_fit(range(10), [3 * 0.5**k for k in range(10)])
    assert factor == pytest.approx(0.5) and r2 == pytest.approx(1.0)
    _, bent = log_linear_fit(range(10), [2.0 ** abs(k - 5) for k in range(10)])
    assert bent < 0.5


def test_default_linear_init_has_variance_one_over_three_fan_in():
    torch.manual_seed(0)
    weight = torch.nn.Linear(1024, 256).weight
    assert weight.var().item() * 3 * 1024 == pytest.approx(1.0, abs=0.02)


def test_missing_cjk_font_stops_with_a_message_saying_how_to_get_one(monkeypatch):
    import builtins

    from resdoc import style

    real_import = builtins.__import__

    def no_font_package(name, *args, **kwargs):
        if name == "pylopdf_fonts_zh_cn":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_font_package)
    monkeypatch.setattr(style, "_SYSTEM_CJK_FONTS", ())
    style.cjk_font.cache_clear()
    try:
        with pytest.raises(style.MissingFontError, match="apt-get install fonts-noto-cjk"):
            style.cjk_font()
    finally:
        style.cjk_font.cache_clear()
