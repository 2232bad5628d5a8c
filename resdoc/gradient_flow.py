r"""Chapter 03-gradient-flow: what the shortcut does to the backward pass.

For $y = x + \mathcal{F}(x)$ the chain rule gives, with gradients as row vectors,
$\partial \ell/\partial x = \partial \ell/\partial y\,(I + \partial \mathcal{F}/\partial x)$:
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
    r"""The Jacobian of ``block`` at ``x`` from autograd, and $I + \partial\mathcal{F}/\partial x$.

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
    r"""Re-initialize the branch ``Linear -> ReLU -> Linear`` of ``block``.

    ``"default"``: PyTorch's own, weight variance $1/(3n)$.
    ``"he"``: He et al. (2015), variance $2/n$ before the ReLU and $1/n$ after it, so a plain
    block keeps $\mathbb{E}\lVert x \rVert^2$. ``"he-scaled"``: as ``"he"`` with the last layer
    also multiplied by $1/\sqrt{\text{depth}}$, so that $L$ residual blocks add up to a bounded variance.
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
    r"""``depth`` blocks $x_{l+1} = x_l + \mathcal{F}_l(x_l)$ (or $\mathcal{F}_l(x_l)$ when plain)."""
    return nn.ModuleList(
        init_block(make_block(dim, hidden, residual), init, depth) for _ in range(depth)
    )


def gradient_profiles(depth=50, dim=64, hidden=64, init="default", scaled=False, seed=0):
    r"""$\lVert \partial \ell/\partial x_l \rVert$ for $l = 0 \dots L$ of a plain and a residual stack.

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


# --8<-- [start:spectrum]
def jacobian_spectrum(depth: int, kind: str, seed: int, width=64) -> torch.Tensor:
    r"""Singular values, largest first, of the input–output Jacobian $\partial x_L/\partial x_0$
    of ``depth`` blocks at initialization, at one random input $x_0$. ``kind``: ``"plain"``
    ($x_{l+1} = \mathcal{F}_l(x_l)$) or ``"residual"`` ($x_{l+1} = x_l + \mathcal{F}_l(x_l)$),
    He init, or ``"residual-scaled"`` (the branch's last layer also times $1/\sqrt{L}$).
    In float64, so that a tiny singular value is measured rather than lost to rounding.

    >>> sigma = jacobian_spectrum(3, "residual", seed=0, width=8)
    >>> sigma.shape, bool((sigma[:-1] >= sigma[1:]).all())
    (torch.Size([8]), True)
    """
    torch.manual_seed(seed)
    init = "he-scaled" if kind == "residual-scaled" else "he"
    stack = nn.Sequential(*make_stack(depth, width, width, kind != "plain", init)).double()
    x0 = torch.randn(width, dtype=torch.float64)
    jacobian = torch.autograd.functional.jacobian(stack, x0, vectorize=True)  # (width, width)
    return torch.linalg.svdvals(jacobian)


# --8<-- [end:spectrum]


def mean_field_gain(kind: str, depth: int) -> float:
    r"""What mean-field theory predicts for the mean squared singular value,
    $\mathbb{E}\,\lVert J \rVert_F^2 / n = \chi^L$. Each block multiplies it by $\chi$: the
    branch's gain, 1 with He init or $1/L$ with the last layer times $1/\sqrt{L}$, plus 1 for a
    shortcut (the cross term has mean zero). Exact in expectation, at any width.

    >>> [mean_field_gain(kind, 4) for kind in ("plain", "residual", "residual-scaled")]
    [1.0, 16.0, 2.44140625]
    """
    chi = {"plain": 1.0, "residual": 2.0, "residual-scaled": 1.0 + 1.0 / depth}[kind]
    return chi**depth


# --8<-- [start:normalized]
class FixedBatchNorm(nn.Module):
    r"""Batch normalization (no affine part, as at initialization) whose statistics are held fixed.

    The first batch it sees sets the mean and variance of every unit; from then on they are
    constants, as in eval mode. On that batch the output equals training-mode batch
    normalization, and $\mathrm{d}f/\mathrm{d}x$ at a point is the derivative of $f$ at that
    point alone: no point's gradient mixes in the other points' share of the statistics.
    """

    def __init__(self, eps: float = 1e-5):
        super().__init__()
        self.eps, self.mean, self.std = eps, None, None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.mean is None:  # the batch of grid points sets the statistics, once
            batch = x.detach()
            self.mean = batch.mean(0)
            self.std = (batch.var(0, unbiased=False) + self.eps).sqrt()
        return (x - self.mean) / self.std


def layer(width: int, norm: bool) -> nn.Sequential:
    r"""One layer $W\,\mathrm{ReLU}(\mathrm{BN}(x))$ (He init, zero bias); without ``norm``, no BN."""
    linear = nn.Linear(width, width)
    with torch.no_grad():
        nn.init.normal_(linear.weight, std=math.sqrt(2 / width))
        linear.bias.zero_()
    return nn.Sequential(*([FixedBatchNorm()] if norm else []), nn.ReLU(), linear)


class Shortcut(nn.Module):
    r"""$x_{l+1} = x_l + \mathcal{F}_l(x_l)$: the identity shortcut around a branch of one or more layers."""

    def __init__(self, branch: nn.Module):
        super().__init__()
        self.branch = branch

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.branch(x)


# --8<-- [end:normalized]


def scalar_net(
    depth: int, residual: bool, norm=True, width=200, seed=0, block_layers=1
) -> nn.Sequential:
    r"""$f: \mathbb{R} \to \mathbb{R}$: a linear layer to ``width``, ``depth`` layers, then
    (BN-)ReLU and a linear layer back to 1. With ``residual``, a shortcut goes around every
    ``block_layers`` consecutive layers.

    The first layer's weights and bias are drawn from $\mathcal{N}(0, 1)$, so different inputs
    switch different ReLUs on.
    """
    torch.manual_seed(seed)
    first = nn.Linear(1, width)
    with torch.no_grad():
        nn.init.normal_(first.weight, std=1.0)
        nn.init.normal_(first.bias, std=1.0)
    layers = [layer(width, norm) for _ in range(depth)]
    if residual:
        groups = range(0, depth, block_layers)
        layers = [Shortcut(nn.Sequential(*layers[i : i + block_layers])) for i in groups]
    head = [FixedBatchNorm()] if norm else []
    return nn.Sequential(first, *layers, *head, nn.ReLU(), nn.Linear(width, 1))


# --8<-- [start:shattered]
def input_gradients(
    net: nn.Module, n_points=256, low=-2.0, high=2.0
) -> tuple[torch.Tensor, torch.Tensor]:
    r"""$\mathrm{d}f/\mathrm{d}x$ of a net $f: \mathbb{R} \to \mathbb{R}$ at ``n_points`` evenly spaced inputs."""
    x = torch.linspace(low, high, n_points).unsqueeze(1).requires_grad_(True)  # (n, 1)
    # With the BN statistics constant, output i depends on input i only, so the gradient of the
    # sum is every point's own df/dx.
    (grad,) = torch.autograd.grad(net(x).sum(), x)
    return x.detach().squeeze(1), grad.squeeze(1)


def neighbour_correlation(grads: torch.Tensor) -> float:
    r"""Pearson correlation of the gradients at neighbouring inputs, $\mathrm{corr}(g_i, g_{i+1})$."""
    return torch.corrcoef(torch.stack([grads[:-1], grads[1:]]))[0, 1].item()


# --8<-- [end:shattered]


def shattering(depths, seeds=range(5), **net) -> tuple[list[list[float]], list[list[float]]]:
    r"""For each depth (rows) and seed (columns): :func:`neighbour_correlation` of the input
    gradients, and their size, the root mean square of $\mathrm{d}f/\mathrm{d}x$ over the grid.
    ``net`` holds the other arguments of :func:`scalar_net`."""
    correlations, sizes = [], []
    for depth in depths:
        grads = [input_gradients(scalar_net(depth, seed=s, **net))[1] for s in seeds]
        correlations.append([neighbour_correlation(g) for g in grads])
        sizes.append([g.pow(2).mean().sqrt().item() for g in grads])
    return correlations, sizes
