"""Chapter 01-shortcut: the claims its page makes, checked on small fast settings."""

import statistics

import torch
from torch import nn

from resdoc.gradient_flow import init_block
from resdoc.shortcut import (
    PlainBlock,
    ResidualBlock,
    fit_identity,
    identity_fits,
    make_block,
    zero_branch,
)


def test_zero_branch_residual_block_is_exactly_the_identity():
    torch.manual_seed(0)
    block = zero_branch(ResidualBlock(dim=8, hidden=16))
    x = torch.randn(32, 8)
    assert torch.equal(block(x), x)


def test_zero_branch_plain_block_is_not_the_identity():
    torch.manual_seed(0)
    block = zero_branch(PlainBlock(dim=8, hidden=16))
    x = torch.randn(32, 8)
    assert torch.equal(block(x), torch.zeros_like(x))  # a plain block with F = 0 outputs zero


def test_residual_block_adds_its_input_to_the_branch():
    torch.manual_seed(0)
    block = ResidualBlock(dim=8, hidden=16)
    x = torch.randn(4, 8)
    assert torch.allclose(block(x), x + block.branch(x))
    assert not torch.allclose(block(x), block.branch(x))


def test_identity_is_learned_faster_with_the_shortcut():
    seeds = range(3)
    plain = [fit_identity(residual=False, depth=4, steps=60, seed=s) for s in seeds]
    residual = [fit_identity(residual=True, depth=4, steps=60, seed=s) for s in seeds]
    # every residual run starts closer to the identity than every plain run
    assert max(run[0] for run in residual) < min(run[0] for run in plain)
    # and the median ends an order of magnitude closer
    median_end = {
        kind: statistics.median(run[-1] for run in runs)
        for kind, runs in (("plain", plain), ("residual", residual))
    }
    assert median_end["residual"] < median_end["plain"] / 10


def test_identity_fits_run_every_seed_for_both_kinds():
    fits = identity_fits(depths=(1, 2), steps=3, seeds=range(2))
    assert set(fits) == {1, 2}
    for fit in fits.values():
        assert fit.steps == [1, 2, 3]
        assert {kind: len(runs) for kind, runs in fit.losses.items()} == {"plain": 2, "residual": 2}


def test_fit_identity_is_deterministic():
    assert fit_identity(True, depth=2, steps=5, seed=1) == fit_identity(
        True, depth=2, steps=5, seed=1
    )


def test_init_re_initializes_every_block_and_keeps_the_data():
    # He init draws random numbers; the data must not change with it. Zeroed plain blocks
    # output 0, so the first loss is the mean of x² for exactly the default run's x.
    def he_then_zero(block):
        return zero_branch(init_block(block, "he"))

    torch.manual_seed(3)
    nn.Sequential(*(make_block(16, 64, False) for _ in range(2)))  # what fit_identity draws first
    x = torch.randn(256, 16)
    first = fit_identity(False, depth=2, steps=1, seed=3, init=he_then_zero)[0]
    assert first == x.pow(2).mean().item()
    # a zeroed residual stack is the identity: loss exactly 0, so every block got the init
    assert fit_identity(True, depth=3, steps=1, seed=0, init=zero_branch) == [0.0]


def test_he_init_wakes_the_plain_stack_that_default_init_silences():
    # default init: 8 plain blocks output ≈ 0, loss ≈ E x² = 1; He keeps the signal's size
    default = [fit_identity(False, depth=8, steps=1, seed=s)[0] for s in range(3)]
    he = [
        fit_identity(False, 8, steps=1, seed=s, init=lambda b: init_block(b, "he"))[0]
        for s in range(3)
    ]
    assert all(0.8 < loss < 1.1 for loss in default)
    assert min(he) > max(default)
