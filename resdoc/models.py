r"""The models that more than one chapter uses, and how to count their parameters.

Each block reads like its formula: a residual block returns ``x + self.branch(x)``,
which is $y = x + \mathcal{F}(x)$. A model only one chapter uses lives in that chapter's module.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


def n_params(module: nn.Module) -> int:
    """The number of parameters of ``module`` (its weights, not its buffers such as
    BatchNorm's running statistics): the count papers report.

    >>> n_params(nn.Linear(4, 16))   # 4·16 weights + 16 biases
    80
    """
    return sum(p.numel() for p in module.parameters())


# --8<-- [start:linear-block]
class LinearBlock(nn.Module):
    """One block of the original notes' demo: $y = x + Wx$ with the shortcut, $y = Wx$ without.

    >>> block = LinearBlock(dim=4, residual=True)
    >>> with torch.no_grad():
    ...     _ = block.linear.weight.zero_()
    >>> x = torch.randn(2, 4)
    >>> torch.equal(block(x), x)   # a zero branch leaves only the shortcut
    True
    """

    def __init__(self, dim: int, residual: bool):
        super().__init__()
        self.residual = residual
        self.linear = nn.Linear(dim, dim, bias=False)  # W, PyTorch's default init

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        branch = self.linear(x)  # F(x) = Wx
        return x + branch if self.residual else branch


# --8<-- [end:linear-block]


# --8<-- [start:linear-stack]
class LinearStack(nn.Module):
    r"""``depth`` LinearBlocks applied one after the other: $x_{l+1} = \text{block}_l(x_l)$."""

    def __init__(self, dim: int, depth: int, residual: bool):
        super().__init__()
        self.blocks = nn.ModuleList(LinearBlock(dim, residual) for _ in range(depth))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return x


# --8<-- [end:linear-stack]


# --8<-- [start:ffn]
class FeedForward(nn.Module):
    r"""$\mathrm{FFN}(x) = \max(0,\, xW_1 + b_1)\,W_2 + b_2$ (Vaswani et al. 2017).

    $W_1$ is $d_\text{model} \times d_\text{ff}$ (expand), $W_2$ is $d_\text{ff} \times d_\text{model}$
    (contract); the original Transformer uses $d_\text{ff} = 4\,d_\text{model}$.

    >>> ffn = FeedForward(d_model=8, d_ff=32)
    >>> tuple(ffn(torch.randn(2, 5, 8)).shape)   # (batch, seq, d_model) → same shape
    (2, 5, 8)
    """

    def __init__(self, d_model: int, d_ff: int):
        super().__init__()
        self.up = nn.Linear(d_model, d_ff)  # W_1, b_1: d_model → d_ff
        self.down = nn.Linear(d_ff, d_model)  # W_2, b_2: d_ff → d_model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = F.relu(self.up(x))  # (..., d_ff): the only non-linearity
        return self.down(hidden)  # (..., d_model)


# --8<-- [end:ffn]


@dataclass
class MLPConfig:
    depth: int = 8  # number of blocks, each with two weight layers
    width: int = 64  # neurons per hidden layer
    shortcut: float | None = 1.0  # None: plain; λ: the block outputs λ·x + F(x)


# --8<-- [start:block]
class Block(nn.Module):
    r"""A pre-activation block: $y = \lambda x + \mathcal{F}(x)$ with
    $\mathcal{F}(x) = W_2\,\mathrm{ReLU}(\mathrm{BN}(W_1\,\mathrm{ReLU}(\mathrm{BN}(x))))$;
    without a shortcut, $y = \mathcal{F}(x)$.

    >>> block = Block(MLPConfig(width=4, shortcut=1.0))
    >>> _ = torch.nn.init.zeros_(block.linear2.weight)
    >>> x = torch.randn(3, 4)
    >>> torch.equal(block(x), x)   # F(x) = 0: only the shortcut is left
    True
    """

    def __init__(self, cfg: MLPConfig):
        super().__init__()
        self.shortcut = cfg.shortcut
        self.norm1 = nn.BatchNorm1d(cfg.width)
        self.linear1 = nn.Linear(cfg.width, cfg.width, bias=False)  # BN follows: no bias needed
        self.norm2 = nn.BatchNorm1d(cfg.width)
        self.linear2 = nn.Linear(cfg.width, cfg.width, bias=False)

    def branch(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width)
        return self.linear2(torch.relu(self.norm2(self.linear1(torch.relu(self.norm1(x))))))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width)
        if self.shortcut is None:
            return self.branch(x)
        return self.shortcut * x + self.branch(x)


# --8<-- [end:block]


class MLP(nn.Module):
    """Input layer (64 pixels → width), ``depth`` blocks, BN-ReLU, classifier (width → 10)."""

    def __init__(self, cfg: MLPConfig, n_in: int = 64, n_out: int = 10):
        super().__init__()
        self.inp = nn.Linear(n_in, cfg.width)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.depth))
        self.norm = nn.BatchNorm1d(cfg.width)  # the final activation of a pre-activation net
        self.out = nn.Linear(cfg.width, n_out)
        for module in [self.inp, *self.blocks.modules()]:
            if isinstance(module, nn.Linear):  # He et al. (2015): variance 2 / fan-in
                nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
                if module.bias is not None:
                    nn.init.zeros_(module.bias)

    def stream(self, x: torch.Tensor) -> list[torch.Tensor]:
        """The input $x_0$ of the first block and the output $x_{i+1}$ of every block."""
        xs = [self.inp(x)]
        for block in self.blocks:
            xs.append(block(xs[-1]))
        return xs

    def head(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width) → (batch, 10)
        return self.out(torch.relu(self.norm(x)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, 64) → (batch, 10)
        return self.head(self.stream(x)[-1])


# The shortcut of each kind of MLP: None (plain), the identity, or λ = 0.5 (He et al. 2016b).
KINDS = {"plain": None, "residual": 1.0, "scaled": 0.5}
