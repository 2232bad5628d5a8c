"""Chapter 03-gradient-flow: what the shortcut does to the backward pass.

For $y = x + \\mathcal{F}(x)$ the chain rule gives
$\\partial L/\\partial x = \\partial L/\\partial y\\,(I + \\partial \\mathcal{F}/\\partial x)$:
the identity term passes the gradient on unchanged, whatever the branch does.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from resdoc.gradients import input_jacobian, layer_profile
from resdoc.shortcut import make_block


# --8<-- [start:jacobian]
def residual_jacobian(block: nn.Module, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The Jacobian of ``block`` at ``x`` from autograd, and $I + \\partial\\mathcal{F}/\\partial x$.

    >>> _ = torch.manual_seed(0)
    >>> from resdoc.shortcut import ResidualBlock
    >>> autograd, formula = residual_jacobian(ResidualBlock(dim=3, hidden=8), torch.randn(3))
    >>> torch.allclose(autograd, formula)
    True
    """
    whole = input_jacobian(block, x)  # d block(x) / dx
    branch = input_jacobian(block.branch, x)  # dF/dx
    return whole, torch.eye(len(x)) + branch


# --8<-- [end:jacobian]


# --8<-- [start:init]
def init_block(block: nn.Module, init: str, depth: int = 1) -> nn.Module:
    """Re-initialise the branch ``Linear -> ReLU -> Linear`` of ``block``.

    ``"default"``: PyTorch's own, weight variance $1/(3n)$.
    ``"he"``: He et al. (2015), variance $2/n$ before the ReLU and $1/n$ after it, so a plain
    block keeps $\\mathbb{E}\\lVert x \\rVert^2$. ``"he-scaled"``: as ``"he"`` with the last layer
    also multiplied by $1/\\sqrt{\\text{depth}}$, so that $L$ residual blocks add up to a bounded variance.
    Biases are set to zero for ``"he"`` and ``"he-scaled"``.
    """
    if init == "default":
        return block
    first, last = block.branch[0], block.branch[-1]
    scale = 1 / math.sqrt(depth) if init == "he-scaled" else 1.0
    with torch.no_grad():
        nn.init.normal_(first.weight, std=math.sqrt(2 / first.in_features))
        nn.init.normal_(last.weight, std=scale * math.sqrt(1 / last.in_features))
        first.bias.zero_()
        last.bias.zero_()
    return block


# --8<-- [end:init]


def make_stack(depth: int, dim: int, hidden: int, residual: bool, init: str) -> nn.ModuleList:
    """``depth`` blocks $x_{l+1} = x_l + \\mathcal{F}_l(x_l)$ (or $\\mathcal{F}_l(x_l)$ when plain)."""
    return nn.ModuleList(
        init_block(make_block(dim, hidden, residual), init, depth) for _ in range(depth)
    )


def gradient_profiles(depth=50, dim=64, hidden=64, init="default", scaled=False, seed=0):
    """$\\lVert \\partial L/\\partial x_l \\rVert$ for $l = 0 \\dots L$ of a plain and a residual stack.

    All stacks see the same input and target (MSE loss, batch 32). With ``scaled`` a third
    stack, ``"residual-scaled"``, uses the ``"he-scaled"`` init. The pass runs in float64 so a
    vanishing gradient is measured instead of underflowing to zero.
    """
    variants = {"plain": (False, init), "residual": (True, init)}
    if scaled:
        variants["residual-scaled"] = (True, "he-scaled")
    profiles = {}
    for kind, (residual, variant_init) in variants.items():
        torch.manual_seed(seed)
        x, target = torch.randn(32, dim).double(), torch.randn(32, dim).double()
        blocks = make_stack(depth, dim, hidden, residual, variant_init).double()
        profiles[kind] = layer_profile(blocks, x, target).activation_grads
    return profiles


# --8<-- [start:shattered]
def input_gradients(
    net: nn.Module, n_points=256, low=-2.0, high=2.0
) -> tuple[torch.Tensor, torch.Tensor]:
    """$\\mathrm{d}f/\\mathrm{d}x$ of a net $f: \\mathbb{R} \\to \\mathbb{R}$ at ``n_points`` evenly spaced inputs."""
    x = torch.linspace(low, high, n_points).unsqueeze(1).requires_grad_(True)  # (n, 1)
    (grad,) = torch.autograd.grad(net(x).sum(), x)  # each output depends on its own input only
    return x.detach().squeeze(1), grad.squeeze(1)


def neighbour_correlation(grads: torch.Tensor) -> float:
    """Pearson correlation of the gradients at neighbouring inputs, $\\mathrm{corr}(g_i, g_{i+1})$."""
    return torch.corrcoef(torch.stack([grads[:-1], grads[1:]]))[0, 1].item()


# --8<-- [end:shattered]


def scalar_net(depth: int, residual: bool, width=128, init="he", seed=0) -> nn.Sequential:
    """$\\mathbb{R} \\to \\mathbb{R}$: a linear layer to ``width``, ``depth`` blocks, a linear layer back to 1.

    The first layer has a bias drawn from $\\mathcal{N}(0, 1)$ so different inputs switch
    different ReLUs on, as in Balduzzi et al. (2017).
    """
    torch.manual_seed(seed)
    first = nn.Linear(1, width)
    with torch.no_grad():
        nn.init.normal_(first.weight, std=1.0)
        nn.init.normal_(first.bias, std=1.0)
    blocks = make_stack(depth, width, width, residual, init)
    return nn.Sequential(first, *blocks, nn.Linear(width, 1))


def shattering(depths, residual: bool, seeds=range(5), init="he", width=128) -> list[list[float]]:
    """:func:`neighbour_correlation` for each depth (rows) and seed (columns)."""
    return [
        [
            neighbour_correlation(input_gradients(scalar_net(d, residual, width, init, s))[1])
            for s in seeds
        ]
        for d in depths
    ]
