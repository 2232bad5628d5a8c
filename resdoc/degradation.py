"""Chapter 06: the degradation problem. Deeper plain MLPs reach a *higher training error*
than shallower ones; the same MLPs with identity shortcuts do not, and a shortcut scaled
by $\\lambda = 0.5$ brings the problem back (He et al. 2016a, 2016b)."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from resdoc.data import digits
from resdoc.training import TrainConfig, evaluate, train


@dataclass
class MLPConfig:
    depth: int = 8  # number of hidden blocks
    width: int = 64  # units per hidden layer
    shortcut: float | None = 1.0  # None: plain; λ: block output λ·x + F(x)
    batch_norm: bool = True  # BatchNorm → ReLU → Linear in each block (He et al. 2016b)


# --8<-- [start:block]
class Block(nn.Module):
    """$y = \\lambda x + \\mathcal{F}(x)$ with $\\mathcal{F}(x) = W\\,\\mathrm{ReLU}(\\mathrm{BN}(x)) + b$;
    without a shortcut, $y = \\mathcal{F}(x)$.

    >>> block = Block(MLPConfig(width=4, shortcut=1.0, batch_norm=False))
    >>> with torch.no_grad():
    ...     _ = block.linear.weight.zero_(), block.linear.bias.zero_()
    >>> x = torch.randn(3, 4)
    >>> torch.equal(block(x), x)   # F(x) = 0: only the shortcut is left
    True
    """

    def __init__(self, cfg: MLPConfig):
        super().__init__()
        self.shortcut = cfg.shortcut
        self.linear = nn.Linear(cfg.width, cfg.width)
        self.norm = nn.BatchNorm1d(cfg.width) if cfg.batch_norm else nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width)
        branch = self.linear(torch.relu(self.norm(x)))  # F(x)
        if self.shortcut is None:
            return branch
        return self.shortcut * x + branch


# --8<-- [end:block]


class MLP(nn.Module):
    """Input layer (64 pixels → width), ``depth`` blocks, output layer (width → 10 classes)."""

    def __init__(self, cfg: MLPConfig, n_in: int = 64, n_out: int = 10):
        super().__init__()
        self.inp = nn.Linear(n_in, cfg.width)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.depth))
        self.out = nn.Linear(cfg.width, n_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, 64) → (batch, 10)
        x = torch.relu(self.inp(x))
        for block in self.blocks:
            x = block(x)
        return self.out(x)


@dataclass
class Run:
    kind: str  # "plain", "residual" or "scaled"
    depth: int
    train_loss: float
    train_error: float
    test_error: float
    history: list[float]  # training loss per epoch


KINDS = {"plain": None, "residual": 1.0, "scaled": 0.5}


def depth_sweep(
    depths=(2, 8, 16, 32),
    kinds=("plain", "residual"),
    cfg: TrainConfig | None = None,
    width=64,
    seed=0,
) -> list[Run]:
    """Train every (kind, depth) from the same seed with the same optimiser and schedule;
    return the final training loss/error and the test error of each."""
    cfg = cfg or TrainConfig()
    train_set, test_set = digits()
    runs = []
    for kind in kinds:
        for depth in depths:
            torch.manual_seed(seed)
            model = MLP(MLPConfig(depth=depth, width=width, shortcut=KINDS[kind]))
            history = train(model, train_set, cfg)
            runs.append(
                Run(
                    kind,
                    depth,
                    history.loss[-1],
                    history.error[-1],
                    evaluate(model, test_set)[1],
                    history.loss,
                )
            )
    return runs
