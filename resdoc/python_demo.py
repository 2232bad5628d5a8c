"""The Python demo of the original notes, reproduced faithfully, and the per-layer view behind it.

The seed builds a plain and a residual stack of bias-free ``Linear(32, 32)`` blocks
for depths 10 and 20 after a single ``torch.manual_seed(42)``, feeds each net a fresh
``randn(4, 32)`` input and target, and prints the total gradient norm of the MSE loss.
Random numbers are drawn in exactly the notes' order, so the printed lines match.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from resdoc.gradients import LayerProfile, layer_profile, total_grad_norm
from resdoc.models import LinearStack

DIM = 32
BATCH = 4


@dataclass
class DemoRow:
    depth: int
    residual: bool
    grad_norm: float

    def line(self) -> str:
        name = "with_residual" if self.residual else "no_residual"
        return f"depth={self.depth} {name} grad_norm={self.grad_norm:.4f}"


# --8<-- [start:seed-demo]
def seed_demo(depths=(10, 20), dim=DIM, seed=42) -> list[DemoRow]:
    """Total gradient norm of a plain and a residual stack per depth, as the original notes print it.

    >>> [row.line() for row in seed_demo(depths=(2,), dim=4)]  # doctest: +ELLIPSIS
    ['depth=2 no_residual grad_norm=...', 'depth=2 with_residual grad_norm=...']
    """
    torch.manual_seed(seed)  # once: both nets of a depth start from the same RNG stream
    rows = []
    for depth in depths:
        plain = LinearStack(dim, depth, residual=False)
        residual = LinearStack(dim, depth, residual=True)
        for net in (plain, residual):
            x, target = torch.randn(BATCH, dim), torch.randn(BATCH, dim)  # fresh per net
            rows.append(DemoRow(depth, net.blocks[0].residual, total_grad_norm(net, x, target)))
    return rows


# --8<-- [end:seed-demo]


def depth_profiles(depth: int, dim=DIM, seed=0) -> dict[str, LayerProfile]:
    """Per-layer norms of a plain and a residual stack that share one input and target."""
    torch.manual_seed(seed)
    x, target = torch.randn(BATCH, dim), torch.randn(BATCH, dim)
    profiles = {}
    for residual in (False, True):
        net = LinearStack(dim, depth, residual)
        profiles["residual" if residual else "plain"] = layer_profile(net.blocks, x, target)
    return profiles


def seed_profiles(depth: int, seeds, dim=DIM) -> dict[str, list[LayerProfile]]:
    """:func:`depth_profiles` for every seed: ``{kind: [profile per seed]}``."""
    profiles: dict[str, list[LayerProfile]] = {"plain": [], "residual": []}
    for seed in seeds:
        for kind, profile in depth_profiles(depth, dim, seed).items():
            profiles[kind].append(profile)
    return profiles


def per_layer_gain(residual: bool) -> float:
    r"""Expected growth of $\lVert x \rVert$ per block under PyTorch's default init.

    ``nn.Linear`` draws $W_{ij} \sim U(-1/\sqrt{n}, 1/\sqrt{n})$, variance $1/(3n)$, so
    $\mathbb{E}\lVert Wx \rVert^2 = \lVert x \rVert^2 / 3$: a plain block scales the squared
    norm by $1/3$, a residual block by $1 + 1/3$ (the cross term has mean zero).

    >>> round(per_layer_gain(residual=False) ** 2, 6), round(per_layer_gain(residual=True) ** 2, 6)
    (0.333333, 1.333333)
    """
    branch_variance = 1 / 3
    return (1 + branch_variance) ** 0.5 if residual else branch_variance**0.5


def growth_rates(profiles: list[LayerProfile]) -> dict[str, list[float]]:
    r"""Per-block growth factor of $\lVert x_l \rVert$ (forward) and of
    $\lVert \partial L/\partial x_l \rVert$ (backward, towards the input), one per profile."""
    rates: dict[str, list[float]] = {"forward": [], "backward": []}
    for profile in profiles:
        acts, grads = profile.activations, profile.activation_grads
        depth = len(acts) - 1
        rates["forward"].append((acts[-1] / acts[0]) ** (1 / depth))
        rates["backward"].append((grads[0] / grads[-1]) ** (1 / depth))
    return rates


def measured_gains(depth: int = 20, seeds=range(20)) -> dict[str, dict[str, list[float]]]:
    """:func:`growth_rates` of both stacks over ``seeds``: ``{kind: {direction: [per seed]}}``."""
    return {kind: growth_rates(ps) for kind, ps in seed_profiles(depth, seeds).items()}


def independent_backward_gain(depth: int, residual: bool, seed: int, dim=DIM) -> float:
    r"""Per-block growth of an output gradient that does not depend on the weights.

    A random row vector $g$ is pulled back through the stack, $g\,(I + W_{L-1})\cdots(I + W_0)$
    (without the $I$ for a plain stack): what the variance argument assumes. In the demo the
    output gradient contains $x_L$, which the same weights produced.
    """
    torch.manual_seed(seed)
    net = LinearStack(dim, depth, residual)
    x = torch.randn(BATCH, dim, requires_grad=True)
    g = torch.randn(BATCH, dim)  # independent of the weights
    net(x).backward(g)
    return (x.grad.norm() / g.norm()).item() ** (1 / depth)


def log_linear_fit(xs, ys) -> tuple[float, float]:
    r"""Fit $\log y = a + b x$: return the factor $e^b$ per unit of $x$ and the fit's $R^2$.

    An exponential is a straight line on a log scale; $R^2$ near 1 says the curve is one.

    >>> factor, r2 = log_linear_fit([0, 1, 2, 3], [1, 2, 4, 8])
    >>> round(factor, 6), round(r2, 6)
    (2.0, 1.0)
    """
    x = torch.tensor([float(v) for v in xs], dtype=torch.float64)
    y = torch.tensor([float(v) for v in ys], dtype=torch.float64).log()
    slope = ((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum()
    residuals = y - y.mean() - slope * (x - x.mean())
    r2 = 1 - (residuals**2).sum() / ((y - y.mean()) ** 2).sum()
    return float(slope.exp()), float(r2)


def total_norm_by_depth(depths, seeds=range(10), dim=DIM) -> dict[str, list[list[float]]]:
    """The notes' total gradient norm for each depth and seed: ``{kind: [[per seed] per depth]}``."""
    norms: dict[str, list[list[float]]] = {"plain": [], "residual": []}
    for depth in depths:
        for kind in norms:
            row = []
            for seed in seeds:
                torch.manual_seed(seed)
                net = LinearStack(dim, depth, residual=kind == "residual")
                row.append(total_grad_norm(net, torch.randn(BATCH, dim), torch.randn(BATCH, dim)))
            norms[kind].append(row)
    return norms


# --8<-- [start:sgd-losses]
def sgd_losses(residual: bool, depth=20, lr=0.01, steps=20, seed=0, dim=DIM) -> list[float]:
    """Train the demo's stack with plain SGD on its own input and target; the loss per step.

    The loss is the demo's MSE; once a run overflows, its losses are ``inf`` or ``nan``.
    """
    torch.manual_seed(seed)
    net = LinearStack(dim, depth, residual)
    x, target = torch.randn(BATCH, dim), torch.randn(BATCH, dim)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        loss = (net(x) - target).pow(2).mean()
        losses.append(loss.item())  # the loss before this step's update
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return losses


# --8<-- [end:sgd-losses]
