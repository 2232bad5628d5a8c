"""Chapter 01-shortcut: the claims its page makes, checked on small fast settings."""

import statistics

import torch

from resdoc.shortcut import PlainBlock, ResidualBlock, fit_identity, identity_fits, zero_branch


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
