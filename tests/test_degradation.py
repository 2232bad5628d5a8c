"""Chapter 06-degradation: the block computes λ·x + F(x), and on a reduced setting the deep
plain net trains much worse than the shallow one, the residual net far less so."""

import pytest
import torch

from resdoc.degradation import Block, MLPConfig, depth_sweep
from resdoc.training import TrainConfig


@pytest.mark.parametrize("shortcut, scale", [(1.0, 1.0), (0.5, 0.5), (None, 0.0)])
def test_block_with_zero_branch_leaves_scaled_shortcut(shortcut, scale):
    block = Block(MLPConfig(width=8, shortcut=shortcut, batch_norm=False))
    with torch.no_grad():
        block.linear.weight.zero_()
        block.linear.bias.zero_()
    x = torch.randn(5, 8)
    assert torch.equal(block(x), scale * x)


def test_deep_plain_trains_worse_residual_does_not():
    runs = depth_sweep(
        depths=(2, 24), kinds=("plain", "residual"), cfg=TrainConfig(epochs=5), seed=1
    )
    error = {(r.kind, r.depth): r.train_error for r in runs}
    assert error[("plain", 2)] < 0.02 and error[("residual", 2)] < 0.02  # shallow: both fit
    assert error[("plain", 24)] > 0.25  # deep plain: degraded
    assert error[("residual", 24)] < error[("plain", 24)] / 2  # deep residual: far less so
