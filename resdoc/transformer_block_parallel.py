r"""Chapter 9: the parallel block of GPT-J and PaLM, $x + \mathrm{MHA}(\mathrm{LN}(x)) +
\mathrm{FFN}(\mathrm{LN}(x))$, beside the serial Pre-LN layer of :mod:`resdoc.transformer_block`,
and what changes between the two at initialization when they share their weights.
"""

from __future__ import annotations

from dataclasses import replace

import torch
from torch import nn

from resdoc.models import FeedForward
from resdoc.transformer_block import BlockConfig, EncoderLayer, MultiHeadAttention


# --8<-- [start:parallel-layer]
class ParallelLayer(nn.Module):
    r"""$x + \mathrm{MHA}(\mathrm{LN}(x)) + \mathrm{FFN}(\mathrm{LN}(x))$: the serial layer's two
    sublayers, both reading one normalized input, their writes added to the stream together."""

    def __init__(self, attn: MultiHeadAttention, ffn: FeedForward, ln: nn.LayerNorm):
        super().__init__()
        self.attn, self.ffn, self.ln = attn, ffn, ln

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, seq, d_model)
        h = self.ln(x)  # one LayerNorm, read by both branches
        return x + self.attn(h) + self.ffn(h)  # x + MHA(LN(x)) + FFN(LN(x))


def parallel_twin(layer: EncoderLayer) -> ParallelLayer:
    """``layer``'s own attention, FFN and first LayerNorm (the same modules, so the same
    weights), wired in parallel. The second LayerNorm is left out: at initialization it equals
    the first (weight 1, bias 0), so the twin differs from ``layer`` only in what its FFN reads."""
    return ParallelLayer(layer.attn, layer.ffn, layer.ln_1)


# --8<-- [end:parallel-layer]


def _rms(t: torch.Tensor) -> float:
    return t.pow(2).mean().sqrt().item()


@torch.no_grad()
def serial_vs_parallel(cfg: BlockConfig, n_layers: int, seed: int) -> dict:
    r"""A stack of ``n_layers`` serial Pre-LN encoder layers at initialization and its parallel
    twin (:func:`parallel_twin`, the same weights), on a random input $x_0$ of 16 sequences of 16
    tokens: the weights and $x_0$ of :func:`~resdoc.transformer_block.stream_growth`'s unscaled
    stack for the same ``seed``. At each layer $l$, on the serial stack's stream $x_{l-1}$:

    - ``difference``: $\mathrm{RMS}(w^\text{ser}_l - w^\text{par}_l)/\mathrm{RMS}(w^\text{ser}_l)$,
      $w_l$ being all the layer adds to the stream;
    - ``attention``: $\mathrm{RMS}(\mathrm{MHA}_l)/\mathrm{RMS}(x_{l-1})$, how far the attention's
      write moves what the serial FFN reads.

    ``serial``, ``parallel``: $\mathrm{RMS}(x_l)/\mathrm{RMS}(x_0)$ along each stack, $l = 0 \dots L$;
    ``final``: $\mathrm{RMS}(x^\text{par}_L - x^\text{ser}_L)/\mathrm{RMS}(x^\text{ser}_L - x_0)$, the
    gap after the whole stack relative to all the serial stack wrote.

    >>> run = serial_vs_parallel(BlockConfig(d_model=16, n_head=2, d_ff=32), 3, seed=0)
    >>> len(run["difference"]), len(run["serial"])  # one per layer; x_0 and one per layer
    (3, 4)
    """
    torch.manual_seed(seed)
    layers = [EncoderLayer(replace(cfg, pre_ln=True)) for _ in range(n_layers)]
    twins = [parallel_twin(layer) for layer in layers]
    x = par = x0 = torch.randn(16, 16, cfg.d_model)  # (batch, seq, d_model)
    run = {"difference": [], "attention": [], "serial": [1.0], "parallel": [1.0]}
    for layer, twin in zip(layers, twins, strict=True):
        serial_write, parallel_write = layer(x) - x, twin(x) - x  # the same input x_{l-1}
        run["difference"].append(_rms(serial_write - parallel_write) / _rms(serial_write))
        run["attention"].append(_rms(layer.attn(layer.ln_1(x))) / _rms(x))
        x, par = x + serial_write, twin(par)
        run["serial"].append(_rms(x) / _rms(x0))
        run["parallel"].append(_rms(par) / _rms(x0))
    run["final"] = _rms(par - x) / _rms(x - x0)
    return run
