r"""Chapter 02-addition: merging the shortcut by element-wise addition.

Addition needs $x$ and $\mathcal{F}(x)$ to have the same shape; when they do not, a
projection shortcut $W_s x$ fixes the shape. Concatenation, the alternative used by
DenseNet and U-Net, needs no equal shapes but makes every later layer wider.
"""

from __future__ import annotations

import torch
from torch import nn

from resdoc.models import n_params
from resdoc.shortcut import branch


# --8<-- [start:projection]
class ProjectionBlock(nn.Module):
    r"""$y = \mathcal{F}(x) + W_s x$ for an input of width ``dim_in`` and an output of width ``dim_out``.

    $W_s$ is a bias-free linear map; when the widths agree it is the identity and has no weights.
    """

    def __init__(self, dim_in: int, dim_out: int, hidden: int):
        super().__init__()
        self.branch = nn.Sequential(
            nn.Linear(dim_in, hidden), nn.ReLU(), nn.Linear(hidden, dim_out)
        )
        same = dim_in == dim_out
        self.shortcut = nn.Identity() if same else nn.Linear(dim_in, dim_out, bias=False)  # W_s

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.branch(x) + self.shortcut(x)


# --8<-- [end:projection]


# --8<-- [start:add-concat]
class AddBlock(nn.Module):
    r"""$y = x + \mathcal{F}(x)$: the width stays ``dim``."""

    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.branch = branch(dim, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.branch(x)


class ConcatBlock(nn.Module):
    r"""$y = [x;\, \mathcal{F}(x)]$: the width grows from ``dim`` to ``dim + growth``."""

    def __init__(self, dim: int, hidden: int, growth: int):
        super().__init__()
        self.branch = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, growth))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cat([x, self.branch(x)], dim=-1)


# --8<-- [end:add-concat]


def add_stack(depth: int, dim: int, hidden: int) -> nn.Sequential:
    """``depth`` :class:`AddBlock` s of width ``dim``."""
    return nn.Sequential(*(AddBlock(dim, hidden) for _ in range(depth)))


def concat_stack(depth: int, dim: int, hidden: int, growth: int) -> nn.Sequential:
    """``depth`` :class:`ConcatBlock` s; block ``i`` reads width ``dim + i * growth``."""
    return nn.Sequential(*(ConcatBlock(dim + i * growth, hidden, growth) for i in range(depth)))


# --8<-- [start:growth-table]
def growth_table(depths, dim=64, hidden=64, growth=64) -> dict[str, dict[str, list[int]]]:
    """Output width and parameter count of add and concat stacks, measured by building them.

    >>> table = growth_table([1, 2, 3], dim=4, hidden=8, growth=4)
    >>> table["add"]["width"], table["concat"]["width"]
    ([4, 4, 4], [8, 12, 16])
    """
    table = {kind: {"width": [], "params": []} for kind in ("add", "concat")}
    x = torch.zeros(1, dim)
    for depth in depths:
        for kind, net in (
            ("add", add_stack(depth, dim, hidden)),
            ("concat", concat_stack(depth, dim, hidden, growth)),
        ):
            table[kind]["width"].append(net(x).shape[-1])  # run it: the shape is measured
            table[kind]["params"].append(n_params(net))
    return table


# --8<-- [end:growth-table]


def concat_params_formula(depth: int, dim: int, hidden: int, growth: int) -> int:
    r"""$\sum_{i<L} \big[(d + i k + 1) h + (h + 1) k\big]$: quadratic in the depth $L$."""
    return sum((dim + i * growth + 1) * hidden + (hidden + 1) * growth for i in range(depth))


def add_params_formula(depth: int, dim: int, hidden: int) -> int:
    r"""$L \big[(d + 1) h + (h + 1) d\big]$: linear in the depth $L$."""
    return depth * ((dim + 1) * hidden + (hidden + 1) * dim)
