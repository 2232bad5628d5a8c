"""Chapter 01-shortcut: the claims its page makes, checked on small fast settings."""

import torch

from resdoc.shortcut import PlainBlock, ResidualBlock, fit_identity, zero_branch


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
    plain = fit_identity(residual=False, depth=4, steps=60, seed=0)
    residual = fit_identity(residual=True, depth=4, steps=60, seed=0)
    assert residual[0] < plain[0]  # the residual stack starts closer to the identity
    assert residual[-1] < plain[-1] / 10  # and ends an order of magnitude closer


def test_fit_identity_is_deterministic():
    assert fit_identity(True, depth=2, steps=5, seed=1) == fit_identity(
        True, depth=2, steps=5, seed=1
    )
