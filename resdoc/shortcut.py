r"""Chapter 01-shortcut: the identity shortcut $y = x + \mathcal{F}(x)$.

A plain block must produce the whole mapping $\mathcal{H}(x)$ itself; a residual block
only produces the residual $\mathcal{F}(x) = \mathcal{H}(x) - x$ and adds the input back.
The blocks here are reused by the later chapters.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


# --8<-- [start:blocks]
def branch(dim: int, hidden: int) -> nn.Sequential:
    r"""The layers of one block, $\mathcal{F}(x) = W_2\,\mathrm{ReLU}(W_1 x + b_1) + b_2$."""
    return nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, dim))


class PlainBlock(nn.Module):
    r"""$y = \mathcal{H}(x)$: the layers must produce the whole output."""

    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.branch = branch(dim, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.branch(x)


class ResidualBlock(nn.Module):
    r"""$y = x + \mathcal{F}(x)$: the layers produce only the change to $x$."""

    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.branch = branch(dim, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.branch(x)


# --8<-- [end:blocks]


def make_block(dim: int, hidden: int, residual: bool) -> nn.Module:
    """A :class:`ResidualBlock` if ``residual`` else a :class:`PlainBlock`."""
    return ResidualBlock(dim, hidden) if residual else PlainBlock(dim, hidden)


# --8<-- [start:zero-branch]
def zero_branch(block: nn.Module) -> nn.Module:
    r"""Set the last layer of the branch to zero, so $\mathcal{F}(x) = 0$ for every $x$.

    >>> block = zero_branch(ResidualBlock(dim=3, hidden=8))
    >>> x = torch.randn(5, 3)
    >>> torch.equal(block(x), x)
    True
    """
    last = block.branch[-1]
    with torch.no_grad():
        last.weight.zero_()
        last.bias.zero_()
    return block


# --8<-- [end:zero-branch]


@dataclass
class IdentityFit:
    r"""Loss curves of stacks trained to reproduce their input, $\mathcal{H}(x) = x$."""

    steps: list[int]
    losses: dict[str, list[list[float]]]  # "plain" / "residual" -> [loss per step] per seed


# --8<-- [start:fit-identity]
def fit_identity(
    residual: bool, depth: int, dim=16, hidden=64, steps=300, lr=1e-2, seed=0, init=None
):
    r"""Train ``depth`` blocks with Adam to map random $x$ to itself; return the loss per step.

    The data are 256 fixed vectors $x \sim \mathcal{N}(0, I)$ and the target is $x$. The loss
    is PyTorch's MSE: the mean over all $256 \times 16$ entries of $(y - x)^2$. ``init``: a
    function that re-initializes one block (None keeps PyTorch's default).
    """
    torch.manual_seed(seed)
    net = nn.Sequential(*(make_block(dim, hidden, residual) for _ in range(depth)))
    x = torch.randn(256, dim)
    if init is not None:  # after drawing x, so that both initializations see the same data
        for block in net:
            init(block)
    # foreach: one update for all tensors; on a CPU the default loops over them, one by one
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, foreach=True)
    losses = []
    for _ in range(steps):
        loss = (net(x) - x).pow(2).mean()  # target = input: learn the identity
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


# --8<-- [end:fit-identity]


def identity_fits(depths=(1, 8), steps=300, seeds=range(5), init=None) -> dict[int, IdentityFit]:
    """:func:`fit_identity` for a plain and a residual stack at each depth, once per seed."""
    return {
        depth: IdentityFit(
            steps=list(range(1, steps + 1)),
            losses={
                kind: [
                    fit_identity(kind == "residual", depth, steps=steps, seed=s, init=init)
                    for s in seeds
                ]
                for kind in ("plain", "residual")
            },
        )
        for depth in depths
    }
