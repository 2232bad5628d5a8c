"""The seed's Python demo, reproduced faithfully, and the per-layer view behind it.

The seed builds a plain and a residual stack of bias-free ``Linear(32, 32)`` blocks
for depths 10 and 20 after a single ``torch.manual_seed(42)``, feeds each net a fresh
``randn(4, 32)`` input and target, and prints the total gradient norm of the MSE loss.
Random numbers are drawn in exactly the seed's order, so the printed lines match.
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
    """Total gradient norm of a plain and a residual stack per depth, as the seed prints it.

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


def per_layer_gain(residual: bool) -> float:
    """Expected growth of $\\lVert x \\rVert$ per block under PyTorch's default init.

    ``nn.Linear`` draws $W_{ij} \\sim U(-1/\\sqrt{n}, 1/\\sqrt{n})$, variance $1/(3n)$, so
    $\\mathbb{E}\\lVert Wx \\rVert^2 = \\lVert x \\rVert^2 / 3$: a plain block scales the squared
    norm by $1/3$, a residual block by $1 + 1/3$ (the cross term has mean zero).

    >>> round(per_layer_gain(residual=False) ** 2, 6), round(per_layer_gain(residual=True) ** 2, 6)
    (0.333333, 1.333333)
    """
    branch_variance = 1 / 3
    return (1 + branch_variance) ** 0.5 if residual else branch_variance**0.5


def measured_gains(depth: int = 20, seeds=range(20)) -> dict[str, dict[str, float]]:
    """Median per-block growth factor of $\\lVert x_l \\rVert$ (forward) and of
    $\\lVert \\partial L/\\partial x_l \\rVert$ (backward, towards the input) over ``seeds``."""
    rates: dict[str, dict[str, list[float]]] = {}
    for seed in seeds:
        for kind, profile in depth_profiles(depth, seed=seed).items():
            acts, grads = profile.activations, profile.activation_grads
            rate = rates.setdefault(kind, {"forward": [], "backward": []})
            rate["forward"].append((acts[-1] / acts[0]) ** (1 / depth))
            rate["backward"].append((grads[0] / grads[-1]) ** (1 / depth))
    return {
        kind: {
            direction: float(torch.tensor(values).median()) for direction, values in rate.items()
        }
        for kind, rate in rates.items()
    }


def total_norm_by_depth(depths, seeds=range(10), dim=DIM) -> dict[str, list[list[float]]]:
    """The seed's total gradient norm for each depth and seed: ``{kind: [[per seed] per depth]}``."""
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
