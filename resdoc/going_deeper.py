"""Chapter 05: going deeper. Unrolled, $x_L = x_0 + \\sum_{i=0}^{L-1} \\mathcal{F}_i(x_i)$ is a
sum over $2^L$ paths (Veit et al. 2016). Two experiments on ``load_digits``: delete one block
at test time (a lesion), and measure how much gradient flows along paths of each length."""

from __future__ import annotations

import math

import torch
from torch.nn import functional as F

from resdoc.data import Split, digits
from resdoc.degradation import MLP, MLPConfig
from resdoc.training import TrainConfig, train


# --8<-- [start:path-counts]
def path_counts(n_blocks: int) -> list[int]:
    """How many of the $2^n$ paths pass through exactly $k$ residual branches: $\\binom{n}{k}$.

    >>> path_counts(3), sum(path_counts(10)) == 2**10
    ([1, 3, 3, 1], True)
    """
    return [math.comb(n_blocks, k) for k in range(n_blocks + 1)]


# --8<-- [end:path-counts]


def train_pair(depth: int = 10, cfg: TrainConfig | None = None, seed: int = 0) -> dict[str, MLP]:
    """A plain and a residual MLP of the same depth, trained identically on the digits."""
    train_set, _ = digits()
    models = {}
    for kind, shortcut in (("plain", None), ("residual", 1.0)):
        torch.manual_seed(seed)
        models[kind] = MLP(MLPConfig(depth=depth, shortcut=shortcut))
        train(models[kind], train_set, cfg or TrainConfig())
        models[kind].eval()
    return models


# --8<-- [start:lesion]
@torch.no_grad()
def accuracy_without(model: MLP, data: Split, deleted: int | None) -> float:
    """Test accuracy when block ``deleted`` is replaced by the identity (None: the intact net).

    In a residual net this removes one branch, $x_{i+1} = x_i$; in a plain net it removes
    the whole layer, so the next layer receives an input it has never seen.
    """
    x = torch.relu(model.inp(data.x))
    for i, block in enumerate(model.blocks):
        if i != deleted:
            x = block(x)
    return (model.out(x).argmax(1) == data.y).float().mean().item()


# --8<-- [end:lesion]


def lesion_study(models: dict[str, MLP]) -> dict[str, list[float]]:
    """For each net: test accuracy intact (index 0) and with block i deleted (index i + 1)."""
    _, test_set = digits()
    return {
        kind: [accuracy_without(m, test_set, None)]
        + [accuracy_without(m, test_set, i) for i in range(len(m.blocks))]
        for kind, m in models.items()
    }


def branch_jacobians(model: MLP, data: Split) -> tuple[list[torch.Tensor], torch.Tensor]:
    """Per example, the Jacobian $J_i = \\partial \\mathcal{F}_i/\\partial x_i$ of every residual
    branch (eval mode: BatchNorm is a fixed affine map) and $g = \\partial L/\\partial x_L$."""
    model.eval()
    x = torch.relu(model.inp(data.x))
    jacobians = []
    for block in model.blocks:
        bn = block.norm
        scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)  # (width,)
        active = (bn(x) > 0).float()  # (batch, width): ReLU's derivative
        # J = W · diag(active · scale), one (width, width) matrix per example
        jacobians.append(block.linear.weight.detach() * (active * scale.detach())[:, None, :])
        x = block(x)
    with torch.enable_grad():
        x = x.detach().requires_grad_(True)
        F.cross_entropy(model.out(x), data.y, reduction="sum").backward()
    return [j.detach() for j in jacobians], x.grad  # list of (batch, width, width), (batch, width)


@torch.no_grad()
def gradient_by_path_length(
    model: MLP, data: Split, samples: int = 20, seed: int = 0
) -> list[float]:
    """Mean norm of the gradient reaching $x_0$ along a single path of length $k$, for every
    $k$: a path through branches $S$ carries $g^\\top \\prod_{i \\in S} J_i$ (linearised at the
    real activations), estimated from ``samples`` random paths per length."""
    jacobians, g = branch_jacobians(model, data)
    jacobians, g = [j.double() for j in jacobians], g.double()  # float32 underflows on long paths
    n = len(jacobians)
    generator = torch.Generator().manual_seed(seed)
    means = []
    for k in range(n + 1):
        norms = []
        for _ in range(samples if 0 < k < n else 1):
            chosen = sorted(torch.randperm(n, generator=generator)[:k].tolist(), reverse=True)
            v = g.clone()  # (batch, width), travels from the output towards the input
            for i in chosen:
                v = torch.einsum("bj,bjk->bk", v, jacobians[i])
            norms.append(v.norm(dim=1).mean().item())
        means.append(sum(norms) / len(norms))
    return means


def gradient_share(counts: list[int], per_path: list[float]) -> list[float]:
    """Share of the total gradient carried by each path length: $\\binom{n}{k} g_k / \\sum_j \\binom{n}{j} g_j$.

    >>> gradient_share([1, 2, 1], [1.0, 0.5, 0.0])
    [0.5, 0.5, 0.0]
    """
    totals = [c * g for c, g in zip(counts, per_path, strict=True)]
    return [t / sum(totals) for t in totals]


def covering_length(share: list[float], fraction: float = 0.9) -> int:
    """The smallest $k$ such that paths of length $\\le k$ carry ``fraction`` of the gradient."""
    running = 0.0
    for k, s in enumerate(share):
        running += s
        if running >= fraction:
            return k
    return len(share) - 1
