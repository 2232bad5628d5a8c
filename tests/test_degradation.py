"""Chapter 06-degradation: the block computes λ·x + F(x); over seeds, on a reduced setting, the
deep plain net trains far worse than the shallow one and the identity-shortcut net does not;
at initialization the deep plain net's signals do not vanish; the loss slice around the trained
deep plain net bends downward at far more grid points than around the identity-shortcut net."""

import statistics
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
import torch

from resdoc.data import Split, digits
from resdoc.degradation import (
    depth_sweep,
    filter_normalized_direction,
    loss_surface,
    nonconvex_fraction,
    signal_profile,
)
from resdoc.models import KINDS, MLP, Block, MLPConfig
from resdoc.training import PAPER_RECIPE, evaluate

SEEDS = (0, 1, 2)


@pytest.mark.parametrize("shortcut, scale", [(1.0, 1.0), (0.5, 0.5), (None, 0.0)])
def test_unit_with_zero_branch_leaves_scaled_shortcut(shortcut, scale):
    block = Block(MLPConfig(width=8, shortcut=shortcut))
    torch.nn.init.zeros_(block.linear2.weight)
    x = torch.randn(5, 8)
    assert torch.equal(block(x), scale * x)


def test_net_ends_with_batch_norm_and_relu_before_the_classifier():
    model = MLP(MLPConfig(depth=2, width=8)).eval()
    with torch.no_grad():
        model.norm.bias.fill_(-100.0)  # ReLU(BN(x)) = 0: the classifier sees only zeros
        logits = model(torch.randn(4, 64))
    assert torch.allclose(logits, model.out.bias.expand(4, -1))


@cache
def short_sweep():
    return depth_sweep((2, 16), ("plain", "residual"), SEEDS, replace(PAPER_RECIPE, epochs=10))


def test_deep_plain_trains_worse_identity_shortcut_does_not():
    runs = short_sweep()

    def errors(kind, depth):
        return [r.train_error for r in runs if r.kind == kind and r.depth == depth]

    assert max(errors("plain", 2)) < 0.02 and max(errors("residual", 2)) < 0.02  # shallow: both fit
    assert min(errors("plain", 16)) > max(errors("plain", 2)) + 0.15  # deep plain: degraded
    assert max(errors("residual", 16)) < 0.02  # deep identity shortcut: still fits


def test_deep_plain_signals_do_not_vanish_at_initialization():
    train_set = digits()[0]
    batch = Split(train_set.x[:128], train_set.y[:128])
    growth, stds = [], []
    for seed in SEEDS:
        torch.manual_seed(seed)
        std, grad = signal_profile(MLP(MLPConfig(depth=16, shortcut=KINDS["plain"])), batch)
        stds += std
        growth.append(grad[0] / grad[-1])
    assert min(stds) > 0.5 and max(stds) < 2  # forward: every block's input has a healthy spread
    assert statistics.median(growth) > 10  # backward: larger at the input than at the output


def test_direction_has_each_neurons_weight_norm_and_leaves_biases_and_batch_norm_alone():
    torch.manual_seed(0)
    model = MLP(MLPConfig(depth=2, width=8))
    direction = filter_normalized_direction(model, torch.Generator().manual_seed(0))
    for name, weight in model.named_parameters():
        if weight.dim() == 1:
            assert not direction[name].any(), name
        else:  # every row (a neuron's incoming weights) has the weights' row norm
            torch.testing.assert_close(direction[name].norm(dim=1), weight.norm(dim=1))
            assert not torch.allclose(direction[name], weight)


def test_surface_centre_is_the_trained_nets_eval_loss_and_leaves_the_net_unchanged():
    torch.manual_seed(0)
    model = MLP(MLPConfig(depth=2, width=8))
    model.train()(digits()[0].x[:64])  # move BN's running statistics away from their init
    data = Split(digits()[0].x[:32], digits()[0].y[:32])
    before = {k: v.clone() for k, v in model.state_dict().items()}
    surface = loss_surface(model, data, np.linspace(-1, 1, 5), torch.Generator().manual_seed(0))
    assert surface.shape == (5, 5)
    assert surface[2, 2] == pytest.approx(evaluate(model, data)[0], rel=1e-4)
    assert len({round(v, 4) for v in surface.flat}) > 20  # the points differ
    assert all(torch.equal(v, model.state_dict()[k]) for k, v in before.items())


def test_nonconvex_fraction_of_a_bowl_a_saddle_and_a_ridge():
    a = np.linspace(-1, 1, 11)
    assert nonconvex_fraction(np.add.outer(a**2, 3 * a**2)) == 0  # bowl
    assert nonconvex_fraction(np.add.outer(a**2, -(a**2))) == 1  # saddle
    assert nonconvex_fraction(np.add.outer(np.cos(4 * a), a**2)) == pytest.approx(
        np.mean(np.cos(4 * a[1:-1]) > 0.01), abs=0.15
    )  # negative curvature where cos is positive (up to the differences' error)


@pytest.mark.slow
def test_slice_around_deep_plain_net_bends_down_far_more_often():
    data = Split(digits()[0].x[:128], digits()[0].y[:128])
    coords = np.linspace(-1, 1, 11)
    share = {}
    for kind in ("plain", "residual"):
        nets = [r for r in short_sweep() if r.kind == kind and r.depth == 16]
        share[kind] = [
            nonconvex_fraction(
                loss_surface(r.model, data, coords, torch.Generator().manual_seed(r.seed))
            )
            for r in nets
        ]
    assert min(share["plain"]) > max(share["residual"]) + 0.15, share
