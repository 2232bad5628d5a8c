"""Chapter 8: the position-wise feed-forward network of a Transformer block, a gated variant,
and the sublayer beside it, self-attention.

The FFN (``resdoc.models.FeedForward``) acts on every token separately: a (batch, seq, d_model)
tensor goes in and comes out with the same shape, so the block can add it back onto its input.
Self-attention mixes tokens with weights that are themselves computed from the tokens, so it is
not a linear map of its input; stacked without shortcuts it drives every token to the same
vector (Dong et al. 2021).
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn
from torch.nn import functional as F

from resdoc.models import FeedForward, n_params


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


# --8<-- [start:self-attention]
class SelfAttention(nn.Module):
    r"""One head: $A(X) = \mathrm{softmax}\!\big(XW_Q (XW_K)^\top / \sqrt{d}\big)\, X W_V$.

    The weights $P = \mathrm{softmax}(\cdot)$ depend on $X$: each row of $P$ is positive and
    sums to one, so every output token is a weighted average of the value vectors.

    >>> attn = SelfAttention(d_model=8)
    >>> tuple(attn(torch.randn(5, 8)).shape)   # (seq, d_model) in, (seq, d_model) out
    (5, 8)
    """

    def __init__(self, d_model: int):
        super().__init__()
        self.q = nn.Linear(d_model, d_model, bias=False)  # W_Q
        self.k = nn.Linear(d_model, d_model, bias=False)  # W_K
        self.v = nn.Linear(d_model, d_model, bias=False)  # W_V
        for layer in (self.q, self.k, self.v):  # variance 1/d: keeps ||XW|| ≈ ||X||
            nn.init.normal_(layer.weight, std=d_model**-0.5)

    def weights(self, x: torch.Tensor) -> torch.Tensor:  # (seq, d_model) → (seq, seq)
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / x.shape[-1] ** 0.5
        return F.softmax(scores, dim=-1)  # each row sums to 1

    def forward(self, x: torch.Tensor, weights: torch.Tensor | None = None) -> torch.Tensor:
        """``weights`` given: use them instead of recomputing (frozen attention, linear in x)."""
        p = self.weights(x) if weights is None else weights
        return p @ self.v(x)  # (seq, d_model)


# --8<-- [end:self-attention]


# --8<-- [start:linearity-gaps]
def additivity_gap(f: Callable, x: torch.Tensor, y: torch.Tensor) -> float:
    r"""$\lVert f(x+y) - f(x) - f(y) \rVert / \lVert f(x+y) \rVert$: zero for a linear $f$."""
    return ((f(x + y) - f(x) - f(y)).norm() / f(x + y).norm()).item()


def homogeneity_gap(f: Callable, x: torch.Tensor, scale: float = 2.0) -> float:
    r"""$\lVert f(sx) - s f(x) \rVert / \lVert s f(x) \rVert$: zero for a linear $f$.

    >>> w = torch.randn(4, 4)
    >>> homogeneity_gap(lambda x: x @ w, torch.randn(3, 4)) < 1e-6
    True
    """
    return ((f(scale * x) - scale * f(x)).norm() / (scale * f(x)).norm()).item()


# --8<-- [end:linearity-gaps]


MAPS = ("attention", "frozen", "ffn", "ffn_no_bias", "linear")


def linearity_table(d_model=32, seq=16, scales=(0.25, 0.5, 1.0, 2.0, 4.0), seeds=range(10)):
    r"""Additivity and homogeneity gaps of five maps, one row per seed, one column per input
    scale $s$ (inputs $s\,x$, $s\,y$ with $x, y$ standard normal).
    Returns ``{map: {gap: tensor (seeds, scales)}}``.

    Maps: self-attention; the same attention with its weights $P(x)$ frozen (linear in the input
    being varied); a ReLU FFN with biases, and the same FFN without them; a linear map $xW$.
    """
    rows: dict[str, dict[str, list[list[float]]]] = {}
    for seed in seeds:
        torch.manual_seed(seed)
        attn, ffn = SelfAttention(d_model), FeedForward(d_model, 4 * d_model)
        w = torch.randn(d_model, d_model) * d_model**-0.5
        x0, y0 = torch.randn(seq, d_model), torch.randn(seq, d_model)
        frozen = attn.weights(x0).detach()
        maps = {
            "attention": attn,
            "frozen": lambda z, attn=attn, frozen=frozen: attn(z, weights=frozen),
            "ffn": ffn,
            "ffn_no_bias": lambda z, ffn=ffn: F.relu(z @ ffn.up.weight.T) @ ffn.down.weight.T,
            "linear": lambda z, w=w: z @ w,
        }
        with torch.no_grad():
            for name, f in maps.items():
                row = rows.setdefault(name, {"additivity": [], "homogeneity": []})
                row["additivity"].append([additivity_gap(f, s * x0, s * y0) for s in scales])
                row["homogeneity"].append([homogeneity_gap(f, s * x0) for s in scales])
    return {name: {gap: torch.tensor(v) for gap, v in row.items()} for name, row in rows.items()}


def rank1_residual(x: torch.Tensor) -> float:
    r"""$\mathrm{res}(X) = \lVert X - \mathbf{1}\bar{x}^\top \rVert_F / \lVert X \rVert_F$, with $\bar{x}$
    the mean token (the best $\mathbf{1}x^\top$ in Frobenius norm). Zero when all tokens are equal.

    >>> rank1_residual(torch.ones(4, 3) * torch.tensor([1.0, 2.0, 3.0]))
    0.0
    """
    return ((x - x.mean(0, keepdim=True)).norm() / x.norm()).item()


KINDS = ("attention", "attention+shortcut", "attention+ffn+shortcut", "pre-ln")


def _step(kind: str, x: torch.Tensor, attn: SelfAttention, ffn: FeedForward) -> torch.Tensor:
    """One layer of the stack ``kind`` (see :func:`rank_collapse`)."""
    if kind == "attention":
        return attn(x)
    if kind == "pre-ln":
        x = x + attn(F.layer_norm(x, x.shape[-1:]))  # LN without learned scale, as at init
        return x + ffn(F.layer_norm(x, x.shape[-1:]))
    x = x + attn(x)
    return x + ffn(x) if kind == "attention+ffn+shortcut" else x


def _shared_and_differing(x: torch.Tensor) -> tuple[float, float]:
    r"""$\lVert \mathbf{1}\bar{x}^\top \rVert_F$ (what all tokens share) and
    $\lVert X - \mathbf{1}\bar{x}^\top \rVert_F$ (how they differ); orthogonal parts of $X$."""
    mean = x.mean(0, keepdim=True)  # (1, d_model): the mean token x̄
    return mean.norm().item() * len(x) ** 0.5, (x - mean).norm().item()


def rank_collapse(
    depth=48, d_model=32, seq=16, seeds=range(10)
) -> dict[str, dict[str, torch.Tensor]]:
    r"""Four random stacks, followed layer by layer:

    - ``attention``: $X_{l+1} = A_l(X_l)$;
    - ``attention+shortcut``: $X_{l+1} = X_l + A_l(X_l)$;
    - ``attention+ffn+shortcut``: $H = X_l + A_l(X_l)$, $X_{l+1} = H + \mathrm{FFN}_l(H)$;
    - ``pre-ln``: as the last, with each branch reading $\mathrm{LN}(\cdot)$ of the stream.

    Every stack of one seed uses the same layers and the same input. Returns per stack
    ``{"shared": …, "differing": …, "res": …}``, each a tensor (seeds, depth + 1):
    $\lVert \mathbf{1}\bar{x}^\top \rVert_F$, $\lVert X_l - \mathbf{1}\bar{x}^\top \rVert_F$ and
    $\mathrm{res}(X_l)$, the second over $\lVert X_l \rVert_F$ (the two parts are orthogonal).
    """
    rows: dict[str, list[list[tuple[float, float]]]] = {kind: [] for kind in KINDS}
    for seed in seeds:
        torch.manual_seed(seed)
        x0 = torch.randn(seq, d_model)  # (seq, d_model)
        layers = [(SelfAttention(d_model), FeedForward(d_model, 4 * d_model)) for _ in range(depth)]
        with torch.no_grad():
            for kind in KINDS:
                x, curve = x0, [_shared_and_differing(x0)]
                for attn, ffn in layers:
                    x = _step(kind, x, attn, ffn)
                    curve.append(_shared_and_differing(x))
                rows[kind].append(curve)
    result = {}
    for kind, curves in rows.items():
        shared, differing = torch.tensor(curves, dtype=torch.float64).unbind(-1)
        res = differing / (shared.square() + differing.square()).sqrt()
        result[kind] = {"shared": shared, "differing": differing, "res": res}
    return result
