"""Chapter 02-addition: shapes and parameter counts of add and concat."""

import pytest
import torch

from resdoc.addition import (
    AddBlock,
    ConcatBlock,
    ProjectionBlock,
    add_params_formula,
    add_stack,
    concat_params_formula,
    concat_stack,
    growth_table,
    n_params,
)


def test_addition_needs_equal_shapes():
    with pytest.raises(RuntimeError):
        torch.randn(2, 16) + torch.randn(2, 32)


def test_projection_shortcut_changes_the_width():
    torch.manual_seed(0)
    block = ProjectionBlock(dim_in=16, dim_out=32, hidden=8)
    x = torch.randn(5, 16)
    assert block(x).shape == (5, 32)
    assert torch.allclose(block(x), block.branch(x) + x @ block.shortcut.weight.T)
    assert n_params(block.shortcut) == 16 * 32


def test_equal_widths_use_the_identity_shortcut_without_weights():
    block = ProjectionBlock(dim_in=16, dim_out=16, hidden=8)
    assert n_params(block.shortcut) == 0
    x = torch.randn(3, 16)
    assert torch.allclose(block(x), block.branch(x) + x)


def test_add_keeps_the_width_and_concat_grows_it():
    x = torch.randn(2, 6)
    assert AddBlock(6, 8)(x).shape == (2, 6)
    assert ConcatBlock(6, 8, growth=4)(x).shape == (2, 10)
    table = growth_table([1, 2, 3, 4], dim=6, hidden=8, growth=4)
    assert table["add"]["width"] == [6, 6, 6, 6]
    assert table["concat"]["width"] == [10, 14, 18, 22]


def test_concat_parameters_grow_faster_than_linearly():
    params = growth_table([1, 2, 3, 4], dim=6, hidden=8, growth=4)["concat"]["params"]
    steps = [b - a for a, b in zip(params, params[1:], strict=False)]
    assert all(
        later > earlier for earlier, later in zip(steps, steps[1:], strict=False)
    )  # quadratic growth
    added = growth_table([1, 2, 3, 4], dim=6, hidden=8, growth=4)["add"]["params"]
    assert len({b - a for a, b in zip(added, added[1:], strict=False)}) == 1  # linear growth


@pytest.mark.parametrize("depth", [1, 3, 7])
def test_parameter_formulas_match_the_built_models(depth):
    assert n_params(add_stack(depth, 6, 8)) == add_params_formula(depth, 6, 8)
    assert n_params(concat_stack(depth, 6, 8, 4)) == concat_params_formula(depth, 6, 8, 4)
