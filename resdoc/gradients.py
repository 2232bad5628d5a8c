"""Measurements of how a gradient travels through a stack of blocks."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn


# --8<-- [start:total-grad-norm]
def total_grad_norm(model: nn.Module, x: torch.Tensor, target: torch.Tensor) -> float:
    r"""The original notes' single number: $\sqrt{\sum_p \lVert \partial L / \partial p \rVert^2}$
    for the MSE loss $L$ of ``model(x)`` against ``target``."""
    model.zero_grad()
    loss = (model(x) - target).pow(2).mean()
    loss.backward()
    squares = sum(p.grad.norm().item() ** 2 for p in model.parameters() if p.grad is not None)
    return math.sqrt(squares)


# --8<-- [end:total-grad-norm]


@dataclass
class LayerProfile:
    """Per-layer norms of one forward and backward pass through a stack of blocks.

    Index ``l`` of ``activations`` and ``activation_grads`` is $x_l$, the input of
    block ``l`` (``l = depth`` is the output); index ``l`` of ``weight_grads`` is the
    gradient of block ``l``'s parameters.
    """

    activations: list[float]  # ||x_l||
    activation_grads: list[float]  # ||dL/dx_l||
    weight_grads: list[float]  # ||dL/dW_l||


def layer_profile(blocks: nn.ModuleList, x: torch.Tensor, target: torch.Tensor) -> LayerProfile:
    """Run ``x`` through ``blocks`` with an MSE loss and record the norms of every layer."""
    xs = [x.detach().requires_grad_(True)]
    for block in blocks:
        xs.append(block(xs[-1]))
        xs[-1].retain_grad()
    blocks.zero_grad()
    (xs[-1] - target).pow(2).mean().backward()
    return LayerProfile(
        activations=[t.norm().item() for t in xs],
        activation_grads=[t.grad.norm().item() for t in xs],
        weight_grads=[
            math.sqrt(sum(p.grad.norm().item() ** 2 for p in block.parameters()))
            for block in blocks
        ],
    )


def input_jacobian(block: nn.Module, x: torch.Tensor) -> torch.Tensor:
    r"""$\partial\,\text{block}(x) / \partial x$ for one input vector ``x`` of shape (dim,)."""
    return torch.autograd.functional.jacobian(block, x)
