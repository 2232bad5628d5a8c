"""Chapter 07: the position-wise feed-forward network of a Transformer block, and a gated variant.

Both act on every token separately: a (batch, seq, d_model) tensor goes in and comes out with
the same shape, so the block can add it back onto its input.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


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


# --8<-- [start:swiglu]
class SwiGLU(nn.Module):
    r"""$\mathrm{FFN}_\text{SwiGLU}(x) = \big(\mathrm{Swish}(xW) \odot xV\big)\,W_2$ (Shazeer 2020),
    with $\mathrm{Swish}(z) = z\,\sigma(z)$ (PyTorch's ``silu``); no biases.

    Three matrices instead of two: to keep the parameter count of a ReLU FFN with
    $d_\text{ff} = 4d$, the paper shrinks the hidden width to $\tfrac{2}{3} \cdot 4d$.

    >>> tuple(SwiGLU(d_model=8, d_ff=16)(torch.randn(3, 8)).shape)
    (3, 8)
    """

    def __init__(self, d_model: int, d_ff: int):
        super().__init__()
        self.gate = nn.Linear(d_model, d_ff, bias=False)  # W: decides how much passes
        self.up = nn.Linear(d_model, d_ff, bias=False)  # V: what passes
        self.down = nn.Linear(d_ff, d_model, bias=False)  # W_2: back to d_model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(F.silu(self.gate(x)) * self.up(x))


# --8<-- [end:swiglu]


def n_params(module: nn.Module) -> int:
    """Number of trainable numbers in ``module``.

    >>> n_params(FeedForward(d_model=4, d_ff=16))   # 4·16 + 16 + 16·4 + 4
    148
    """
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


def swiglu_width(d_model: int) -> int:
    r"""Hidden width of a SwiGLU FFN with as many weights as a ReLU FFN of width $4d$:
    $3 d\,d_\text{ff} = 2 \cdot d \cdot 4d \Rightarrow d_\text{ff} = \tfrac{8}{3} d$ (rounded).

    >>> swiglu_width(768)
    2048
    """
    return round(8 * d_model / 3)


def parameter_counts(d_model: int = 512, n_head: int = 8) -> dict[str, int]:
    """Trainable parameters of the pieces of one Transformer layer at width ``d_model``,
    counted by building the modules (PyTorch's ``MultiheadAttention`` for attention:
    $W_Q, W_K, W_V, W_O$ with biases)."""
    d_ff = 4 * d_model
    return {
        "attention": n_params(nn.MultiheadAttention(d_model, n_head)),
        "ffn": n_params(FeedForward(d_model, d_ff)),
        "ffn_w1": n_params(nn.Linear(d_model, d_ff)),
        "swiglu": n_params(SwiGLU(d_model, swiglu_width(d_model))),
        "layer_norm": n_params(nn.LayerNorm(d_model)),
    }
