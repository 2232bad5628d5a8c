r"""Chapter 5: going deeper. Unrolled, $x_L = x_0 + \sum_{i=0}^{L-1} \mathcal{F}_i(x_i)$ is a
sum over $2^L$ paths (Veit et al. 2016). Experiments on ``load_digits``: delete one block at test
time (a lesion), also of nets trained with stochastic depth (Huang et al. 2016), and measure how
much gradient flows along paths of each length."""

from __future__ import annotations

import math
from dataclasses import replace

import torch
from torch import nn
from torch.nn import functional as F

from resdoc.data import Split, digits
from resdoc.models import MLP, MLPConfig
from resdoc.training import PAPER_RECIPE, TrainConfig, train, train_net


# --8<-- [start:path-counts]
def path_counts(n_blocks: int) -> list[int]:
    r"""How many of the $2^n$ paths pass through exactly $k$ residual branches: $\binom{n}{k}$.

    >>> path_counts(3), sum(path_counts(10)) == 2**10
    ([1, 3, 3, 1], True)
    """
    return [math.comb(n_blocks, k) for k in range(n_blocks + 1)]


# --8<-- [end:path-counts]


def train_pair(depth: int, seed: int, cfg: TrainConfig = PAPER_RECIPE) -> dict[str, MLP]:
    """A plain and a residual net of the same depth (chapter 6's), trained identically."""
    return {kind: train_net(kind, depth, seed, cfg)[0].eval() for kind in ("plain", "residual")}


# --8<-- [start:lesion]
@torch.no_grad()
def accuracy_without(model: MLP, data: Split, deleted: int | None) -> float:
    """Test accuracy when block ``deleted`` is replaced by the identity (None: the intact net).

    In a residual net this removes one branch, $x_{i+1} = x_i$; in a plain net it removes
    the whole block, so the next block receives an input it has never seen.
    """
    x = model.inp(data.x)
    for i, block in enumerate(model.blocks):
        if i != deleted:
            x = block(x)
    return (model.head(x).argmax(1) == data.y).float().mean().item()


# --8<-- [end:lesion]


# --8<-- [start:stochastic-depth]
def drop_probabilities(depth: int, p_last: float) -> list[float]:
    r"""The linear decay rule of Huang et al. (2016): block $l = 1, \dots, L$ is dropped with
    probability $p_l = \tfrac{l}{L}\,p_L$, so the first blocks, which every later one builds on,
    are dropped least.

    >>> drop_probabilities(4, 0.5)
    [0.125, 0.25, 0.375, 0.5]
    """
    return [i / depth * p_last for i in range(1, depth + 1)]


class StochasticDepth(nn.Module):
    r"""A residual block $x + \mathcal{F}(x)$ whose branch is dropped in training: for each
    mini-batch, with probability $p$ the block is the identity; at test time the branch is
    scaled by its survival probability, $x + (1 - p)\,\mathcal{F}(x)$, its expected size in training."""

    def __init__(self, block: nn.Module, drop: float, generator: torch.Generator):
        super().__init__()
        self.block, self.drop, self.generator = block, drop, generator

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width)
        if not self.training:
            return x + (1 - self.drop) * self.block.branch(x)
        if torch.rand((), generator=self.generator).item() < self.drop:
            return x  # dropped: the shortcut alone, and no branch to compute or train
        return x + self.block.branch(x)


# --8<-- [end:stochastic-depth]


def expected_depth(depth: int, p_last: float) -> float:
    r"""How many branches a mini-batch passes through on average: $\sum_l (1 - p_l) = L - p_L (L+1)/2$.

    >>> expected_depth(4, 0.5)
    2.75
    """
    return sum(1 - p for p in drop_probabilities(depth, p_last))


def train_stochastic(depth: int, seed: int, p_last: float, cfg: TrainConfig = PAPER_RECIPE) -> MLP:
    """Chapter 6's residual net trained like ``train_pair``'s (same initialization and data order
    for the same seed), with every block wrapped in ``StochasticDepth``; returned in eval mode."""
    torch.manual_seed(seed)
    model = MLP(MLPConfig(depth=depth))
    coin = torch.Generator().manual_seed(seed)  # the drops, apart from the data order's generator
    model.blocks = nn.ModuleList(
        StochasticDepth(block, p, coin)
        for block, p in zip(model.blocks, drop_probabilities(depth, p_last), strict=True)
    )
    train(model, digits()[0], replace(cfg, seed=seed))
    return model.eval()


def lesion_study(models: dict[str, MLP], data: Split) -> dict[str, list[float]]:
    """For each net: accuracy on ``data`` intact (index 0) and with block i deleted (index i + 1)."""
    return {
        kind: [accuracy_without(m, data, None)]
        + [accuracy_without(m, data, i) for i in range(len(m.blocks))]
        for kind, m in models.items()
    }


def lesion_drops(accuracy: list[list[float]]) -> tuple[list[float], list[float], list[int]]:
    """Per run (one row of :func:`lesion_study`'s lists each): the mean drop in accuracy over the
    deleted blocks, the largest drop, and which block causes it. A mean alone hides one costly
    block among many harmless ones, so a page that says "a typical block" also names the worst.

    >>> lesion_drops([[1.0, 0.5, 1.0, 0.75], [1.0, 1.0, 1.0, 0.5]])
    ([0.25, 0.1666...], [0.5, 0.5], [0, 2])
    """
    means, worst, where = [], [], []
    for intact, *deleted in accuracy:
        drops = [intact - a for a in deleted]
        means.append(sum(drops) / len(drops))
        worst.append(max(drops))
        where.append(drops.index(max(drops)))
    return means, worst, where


@torch.no_grad()
def calibrate(model: MLP, data: Split) -> MLP:
    """Set every BatchNorm's running statistics to the statistics of ``data``, so that an
    untrained net in eval mode normalizes as it would in training (the defaults 0 and 1 do not)."""
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm1d)]
    for norm in norms:
        norm.reset_running_stats()
        norm.momentum = None  # a cumulative average: after one batch, that batch's statistics
    model.train()(data.x)
    for norm in norms:
        norm.momentum = 0.1
    return model.eval()


@torch.no_grad()
def stream_growth(model: MLP, data: Split) -> float:
    r"""$\lVert x_L \rVert / \lVert x_0 \rVert$ over ``data`` (eval mode): how much larger the
    residual stream leaving the last block is than the stream entering the first."""
    xs = model.eval().stream(data.x)
    return (xs[-1].norm() / xs[0].norm()).item()


class BranchJacobians:
    r"""Every branch's Jacobian $J_i = \partial \mathcal{F}_i/\partial x_i$ at the real activations,
    per example, and $g = \partial \ell/\partial x_L$ (summed cross-entropy). In eval mode
    BatchNorm is a fixed affine map, so $J_i = W_2 D_2 W_1 D_1$ with diagonal
    $D = \mathrm{ReLU}'(\mathrm{BN}(\cdot))\,\gamma/\sqrt{\sigma^2 + \epsilon}$: kept as factors, not matrices."""

    def __init__(self, model: MLP, data: Split):
        model.eval()
        self.factors = []  # per block: (W1, d1, W2, d2); d's are (batch, width)
        x = model.inp(data.x).detach()
        for block in model.blocks:
            h = block.linear1(torch.relu(block.norm1(x)))
            self.factors.append(
                (
                    block.linear1.weight,
                    _diagonal(block.norm1, x),
                    block.linear2.weight,
                    _diagonal(block.norm2, h),
                )
            )
            x = block(x)
        x = x.detach().requires_grad_(True)
        F.cross_entropy(model.head(x), data.y, reduction="sum").backward()
        self.g = x.grad  # (batch, width)
        self.factors = [tuple(f.detach().double() for f in fs) for fs in self.factors]

    def __len__(self) -> int:
        return len(self.factors)

    def pull(self, v: torch.Tensor, i: int) -> torch.Tensor:
        r"""The row vector $v J_i$ for every example: $((v W_2) D_2\, W_1) D_1$."""
        w1, d1, w2, d2 = self.factors[i]
        return ((v @ w2) * d2 @ w1) * d1


def _diagonal(bn: torch.nn.BatchNorm1d, x: torch.Tensor) -> torch.Tensor:
    r"""ReLU'(BN(x)) times BN's scale $\gamma/\sqrt{\sigma^2 + \epsilon}$, per example (eval mode)."""
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    return (bn(x) > 0).float() * scale


@torch.no_grad()
def gradient_by_path_length(
    model: MLP, data: Split, samples: int = 20, seed: int = 0
) -> list[float]:
    r"""Mean norm of the gradient reaching $x_0$ along a single path of length $k$, for every
    $k$: a path through branches $S$ carries $g \prod_{i \in S} J_i$ (row vector; the factors
    in decreasing $i$, linearized at the real activations), from ``samples`` random paths per length."""
    with torch.enable_grad():
        jac = BranchJacobians(model, data)
    g = jac.g.double()  # float32 underflows on long paths
    n = len(jac)
    generator = torch.Generator().manual_seed(seed)
    means = []
    for k in range(n + 1):
        norms = []
        for _ in range(samples if 0 < k < n else 1):
            chosen = sorted(torch.randperm(n, generator=generator)[:k].tolist(), reverse=True)
            v = g.clone()  # (batch, width), travels from the output towards the input
            for i in chosen:
                v = jac.pull(v, i)
            norms.append(v.norm(dim=1).mean().item())
        means.append(sum(norms) / len(norms))
    return means


def gradient_share(counts: list[int], per_path: list[float]) -> list[float]:
    r"""Share of the total gradient carried by each path length: $\binom{n}{k} g_k / \sum_j \binom{n}{j} g_j$.

    >>> gradient_share([1, 2, 1], [1.0, 0.5, 0.0])
    [0.5, 0.5, 0.0]
    """
    totals = [c * g for c, g in zip(counts, per_path, strict=True)]
    return [t / sum(totals) for t in totals]


def covering_length(share: list[float], fraction: float = 0.9) -> int:
    r"""The smallest $k$ such that paths of length $\le k$ carry ``fraction`` of the gradient."""
    running = 0.0
    for k, s in enumerate(share):
        running += s
        if running >= fraction:
            return k
    return len(share) - 1
