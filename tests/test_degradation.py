"""Chapter 06-degradation: the block computes λ·x + F(x); over seeds, on a reduced setting, the
deep plain net trains far worse than the shallow one and the identity-shortcut net does not;
at initialization the deep plain net's signals do not vanish."""

import statistics
from dataclasses import replace

import pytest
import torch

from resdoc.data import Split, digits
from resdoc.degradation import depth_sweep, signal_profile
from resdoc.models import KINDS, MLP, Block, MLPConfig
from resdoc.training import PAPER_RECIPE

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


def test_deep_plain_trains_worse_identity_shortcut_does_not():
    runs = depth_sweep((2, 16), ("plain", "residual"), SEEDS, replace(PAPER_RECIPE, epochs=10))

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
