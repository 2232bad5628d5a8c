r"""Chapter 5, iterative refinement (Greff et al. 2017; Jastrzębski et al. 2018): in a trained
residual net each block writes a small change, $x_{l+1} = x_l + \mathcal{F}_l(x_l)$, and the
later blocks refine what the earlier ones made. Two measurements on a trained net: how large each
block's write is against the stream it writes to, and how well the net's own classifier head
reads every intermediate $x_l$."""

from __future__ import annotations

import torch

from resdoc.data import Split
from resdoc.models import MLP


# --8<-- [start:refinement]
@torch.no_grad()
def write_sizes(model: MLP, data: Split) -> list[float]:
    r"""Per block $l$: $\lVert \mathcal{F}_l(x_l) \rVert / \lVert x_l \rVert$, the size of its
    write against the stream it is added to, averaged over the examples (eval mode)."""
    xs = model.eval().stream(data.x)  # x_0 … x_L, each (batch, width)
    return [
        (block.branch(x).norm(dim=1) / x.norm(dim=1)).mean().item()
        for block, x in zip(model.blocks, xs, strict=False)  # x_L feeds no block
    ]


@torch.no_grad()
def readout_accuracy(model: MLP, data: Split) -> list[float]:
    r"""The net's own head (its final BN–ReLU and classifier) applied to every $x_l$,
    $l = 0, \dots, L$: accuracy on ``data``. The head was trained on $x_L$ alone; if the blocks
    refine one estimate, it reads the earlier $x_l$ too, only less well."""
    logits = [model.head(x) for x in model.eval().stream(data.x)]
    return [(z.argmax(1) == data.y).float().mean().item() for z in logits]


# --8<-- [end:refinement]
