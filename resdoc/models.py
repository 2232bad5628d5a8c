r"""The small models the site experiments on.

Each block reads like its formula: a residual block returns ``x + self.branch(x)``,
which is $y = x + \mathcal{F}(x)$.
"""

from __future__ import annotations

import torch
from torch import nn


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
