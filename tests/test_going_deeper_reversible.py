"""Chapter 05-going-deeper, reversible blocks: the inverse undoes the block, the backward pass
that reconstructs gives ordinary autograd's gradients and keeps only the output, and the byte
count sees what each stack keeps."""

import pytest
import torch

from resdoc.going_deeper_reversible import (
    ResidualStack,
    ReversibleBlock,
    activation_memory,
    gradient_gap,
    reconstruction,
    saved_bytes,
)


@torch.no_grad()
def test_inverse_undoes_one_block_and_a_plain_residual_block_is_not_undone_by_subtraction():
    torch.manual_seed(0)
    block = ReversibleBlock(8).double()
    x1, x2 = torch.randn(4, 8, dtype=torch.float64), torch.randn(4, 8, dtype=torch.float64)
    r1, r2 = block.inverse(*block(x1, x2))
    assert torch.allclose(r1, x1, atol=1e-12) and torch.allclose(r2, x2, atol=1e-12)
    # y = x + F(x) gives only y: subtracting F(y) instead of the unknown F(x) misses x
    f = block.f
    y = x1 + f(x1)
    assert (y - f(y) - x1).abs().max() > 1e-3


def test_float64_reconstructs_far_better_than_float32_and_the_error_grows_with_depth():
    shallow = reconstruction(1, seed=0, dtype=torch.float32)
    deep = reconstruction(16, seed=0, dtype=torch.float32)
    exact = reconstruction(16, seed=0, dtype=torch.float64)
    assert 0 < exact["error"] < 1e-6 * deep["error"]
    assert deep["error"] > 2 * shallow["error"]
    assert deep["growth"] == pytest.approx(exact["growth"], rel=1e-5)  # same weights and input


def test_reconstructing_backward_gives_autograds_gradients():
    assert gradient_gap(8, seed=0) < 1e-5


def test_checkpointed_stack_gives_the_same_gradients_as_the_plain_one():
    grads = []
    for checkpointed in (False, True):
        torch.manual_seed(0)
        stack = ResidualStack(4, 3, checkpointed)
        x = torch.randn(5, 8, requires_grad=True)
        stack(x).pow(2).sum().backward()
        grads.append([x.grad, *(p.grad for p in stack.parameters())])
    for plain, kept in zip(*grads, strict=True):
        assert torch.allclose(plain, kept, atol=1e-6)


def test_saved_bytes_counts_each_storage_once_and_leaves_parameters_out():
    lin = torch.nn.Linear(8, 8)
    x = torch.randn(4, 8, requires_grad=True)
    # ReLU saves its output and the Linear after it saves the same tensor as its input
    assert saved_bytes(lambda: lin(torch.relu(lin(x))), lin.parameters()) == 2 * 4 * 8 * 4


def test_only_the_reversible_stack_keeps_the_same_bytes_at_every_depth():
    one = 64 * 32 * 4  # one activation: batch 64, width 2 × 16, float32
    for depth in (1, 5):
        assert activation_memory(depth, "residual") == 2 * one * depth
        assert activation_memory(depth, "checkpointed") == one * depth
        assert activation_memory(depth, "reversible") == one
