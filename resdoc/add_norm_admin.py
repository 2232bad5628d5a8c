r"""Chapter 04-add-norm, the amplification of "Understanding the Difficulty of Training
Transformers" (Liu et al., 2020): how much a small random change $\delta$ of the parameters
moves an encoder's output at initialization, $\lVert F(x, \theta + \delta) - F(x, \theta)\rVert$,
in Post-LN, Pre-LN and Post-LN with Admin's shortcut weights $\omega$.

Admin (adaptive model initialization) keeps Post-LN's block but weighs the shortcut,
$x_{i} = \mathrm{LN}(\omega_i \odot x_{i-1} + f_i(x_{i-1}))$, with $\omega_i$ chosen at
initialization so that, as in Pre-LN, block $i$'s output depends on its own branch only about
as much as on all earlier ones together: $\omega_i^2 = \sum_{j<i} \mathrm{Var}[f_j]$, the
summed variances of the earlier branches' outputs. Here the input $x_0$'s variance counts as
the first term of that sum (it is what a Pre-LN stream starts from).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import torch

from resdoc.add_norm import Encoder, TransformerConfig
from resdoc.data import reversal_batch

KINDS = ("post", "pre", "admin")  # Post-LN, Pre-LN, Post-LN with Admin's omega


# --8<-- [start:admin-forward]
def post_ln_stream(model: Encoder, x: torch.Tensor, omegas=None) -> torch.Tensor:
    """Post-LN blocks with the shortcut weighed by ``omegas`` (one per residual layer, two per
    block; ``None``: every omega 1, the original Transformer)."""
    omegas = omegas or [1.0] * (2 * len(model.blocks))
    for block, w_attn, w_mlp in zip(model.blocks, omegas[::2], omegas[1::2], strict=True):
        x = block.ln_1(w_attn * x + block.attn(x))
        x = block.ln_2(w_mlp * x + block.mlp(x))
    return x


@torch.no_grad()
def admin_omegas(model: Encoder, x: torch.Tensor) -> list[float]:
    r"""Admin's profiling pass: $\omega_i = \sqrt{\sum_{j<i} \mathrm{Var}[f_j]}$, each branch's
    output variance measured on the stream the weighed blocks before it produce."""
    summed, omegas = x.var().item(), []  # x_0's variance is the first term
    for block in model.blocks:
        for norm, branch in ((block.ln_1, block.attn), (block.ln_2, block.mlp)):
            f = branch(x)
            omegas.append(summed**0.5)
            x = norm(omegas[-1] * x + f)
            summed += f.var().item()
    return omegas


# --8<-- [end:admin-forward]


def _output(model: Encoder, kind: str, x0: torch.Tensor, omegas) -> torch.Tensor:
    """What the head reads: Post-LN's last LN, or Pre-LN's final LN of the stream."""
    if kind == "pre":
        x = x0
        for block in model.blocks:
            x = block(x)
        return model.ln_f(x)
    return post_ln_stream(model, x0, omegas if kind == "admin" else None)


@torch.no_grad()
def output_change(n_layer: int, seed: int, kind: str, eps: float = 1e-3, batch: int = 16) -> dict:
    r"""One encoder at initialization: $\lVert F(\theta + \delta) - F(\theta)\rVert / \lVert
    F(\theta)\rVert$ divided by ``eps``, where $\delta$ changes every weight matrix and bias of
    the blocks by ``eps`` of its own norm in a random direction. Embeddings, the LN gains (all 1)
    and Admin's omegas (constants set before) stay fixed. The same seed gives all three kinds the
    same weights, input and $\delta$. Norms are root mean squares over tokens."""
    cfg = replace(TransformerConfig(), n_layer=n_layer, pre_ln=kind == "pre")
    torch.manual_seed(seed)
    model = Encoder(cfg).eval()
    tokens, _ = reversal_batch(batch, cfg.length, cfg.vocab, torch.Generator().manual_seed(seed))
    x0 = model.tok(tokens) + model.pos  # (batch, seq, d_model)
    omegas = admin_omegas(model, x0) if kind == "admin" else None
    before = _output(model, kind, x0, omegas)
    noise = torch.Generator().manual_seed(10_000 + seed)
    for name, p in model.blocks.named_parameters():
        if "ln_" not in name and p.norm() > 0:
            direction = torch.randn(p.shape, generator=noise)
            p += eps * p.norm() * direction / direction.norm()
    change = _output(model, kind, x0, omegas) - before
    rms = lambda t: t.pow(2).sum(-1).mean().sqrt().item()  # noqa: E731
    return {"change": rms(change) / rms(before) / eps, "omegas": omegas}


def amplification_study(depths, seeds, eps: float = 1e-3) -> dict:
    """``change[kind]``: (seeds, depths) relative output change per relative parameter change;
    ``omegas``: (seeds, 2 * max depth) Admin's omegas of the deepest stack."""
    change = {kind: np.zeros((len(seeds), len(depths))) for kind in KINDS}
    omegas = []
    for s, seed in enumerate(seeds):
        for d, n_layer in enumerate(depths):
            for kind in KINDS:
                result = output_change(n_layer, seed, kind, eps)
                change[kind][s, d] = result["change"]
                if kind == "admin" and n_layer == max(depths):
                    omegas.append(result["omegas"])
    return {"change": change, "omegas": np.array(omegas)}
