"""Chapter 9: the reference Transformer block — an encoder layer and a decoder layer, each
sublayer wrapped in its own shortcut, in the Post-LN (Vaswani et al. 2017) or Pre-LN arrangement.

Dropout is left out: it changes nothing about the shapes or the shortcuts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import torch
from torch import nn
from torch.nn import functional as F

from resdoc.data import reversal_batch
from resdoc.models import FeedForward


# --8<-- [start:config]
@dataclass
class BlockConfig:
    d_model: int = 64  # width of the residual stream: every sublayer reads and writes this size
    n_head: int = 4  # attention heads, each of width d_model / n_head
    d_ff: int = 256  # hidden width of the FFN (4 × d_model in the original Transformer)
    pre_ln: bool = False  # False: Post-LN, x ← LN(x + F(x)); True: Pre-LN, x ← x + F(LN(x))


# --8<-- [end:config]


# --8<-- [start:attention]
class MultiHeadAttention(nn.Module):
    r"""$\mathrm{MHA}(X, C) = \mathrm{concat}_h\big(\mathrm{softmax}(Q_h K_h^\top/\sqrt{d_h} + M)\, V_h\big) W_O$
    with $Q = XW_Q$, $K = CW_K$, $V = CW_V$: self-attention when the context $C$ is $X$,
    cross-attention when $C$ is the encoder's output. The causal mask $M$ puts $-\infty$ above
    the diagonal, so position $t$ only sees positions $\le t$."""

    def __init__(self, cfg: BlockConfig):
        super().__init__()
        assert cfg.d_model % cfg.n_head == 0, "d_model must be a multiple of n_head"
        self.n_head = cfg.n_head
        self.q, self.k, self.v, self.o = (nn.Linear(cfg.d_model, cfg.d_model) for _ in range(4))

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        r"""Cut the last axis into ``n_head`` heads of width $d_h = d_\text{model} / h$."""
        batch, seq, d_model = x.shape  # → (batch, head, seq, d_head)
        return x.view(batch, seq, self.n_head, d_model // self.n_head).transpose(1, 2)

    def forward(self, x, context=None, causal=False):  # x: (batch, seq, d_model)
        context = x if context is None else context  # (batch, seq_c, d_model)
        q, k, v = self._split(self.q(x)), self._split(self.k(context)), self._split(self.v(context))
        scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5  # (batch, head, seq, seq_c)
        if causal:
            future = torch.ones(scores.shape[-2:], dtype=torch.bool).triu(1)
            scores = scores.masked_fill(future, float("-inf"))
        out = F.softmax(scores, dim=-1) @ v  # (batch, head, seq, d_head)
        out = out.transpose(1, 2).flatten(2)  # (batch, seq, d_model): heads side by side
        return self.o(out)


# --8<-- [end:attention]


# --8<-- [start:encoder-layer]
class EncoderLayer(nn.Module):
    """Self-attention → Add & Norm → FFN → Add & Norm (Post-LN), or the Pre-LN order."""

    def __init__(self, cfg: BlockConfig):
        super().__init__()
        self.pre_ln = cfg.pre_ln
        self.attn = MultiHeadAttention(cfg)
        self.ffn = FeedForward(cfg.d_model, cfg.d_ff)
        self.ln_1, self.ln_2 = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, seq, d_model)
        if self.pre_ln:
            x = x + self.attn(self.ln_1(x))  # x + MHA(LN(x))
            x = x + self.ffn(self.ln_2(x))  # x + FFN(LN(x))
        else:
            x = self.ln_1(x + self.attn(x))  # LN(x + MHA(x))
            x = self.ln_2(x + self.ffn(x))  # LN(x + FFN(x))
        return x  # (batch, seq, d_model)


# --8<-- [end:encoder-layer]


# --8<-- [start:decoder-layer]
class DecoderLayer(nn.Module):
    """Masked self-attention, cross-attention to the encoder output ``memory``, FFN:
    three sublayers, three shortcuts."""

    def __init__(self, cfg: BlockConfig):
        super().__init__()
        self.pre_ln = cfg.pre_ln
        self.attn = MultiHeadAttention(cfg)  # over the target so far
        self.cross = MultiHeadAttention(cfg)  # queries from x, keys and values from memory
        self.ffn = FeedForward(cfg.d_model, cfg.d_ff)
        self.ln_1, self.ln_2, self.ln_3 = (nn.LayerNorm(cfg.d_model) for _ in range(3))

    def forward(self, x: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
        # x: (batch, seq, d_model), memory: (batch, seq_src, d_model)
        if self.pre_ln:
            x = x + self.attn(self.ln_1(x), causal=True)
            x = x + self.cross(self.ln_2(x), memory)
            x = x + self.ffn(self.ln_3(x))
        else:
            x = self.ln_1(x + self.attn(x, causal=True))
            x = self.ln_2(x + self.cross(x, memory))
            x = self.ln_3(x + self.ffn(x))
        return x  # (batch, seq, d_model)


# --8<-- [end:decoder-layer]


def sublayer_params(cfg: BlockConfig) -> dict[str, int]:
    """Trainable parameters per sublayer (its LayerNorm included) of one encoder and one
    decoder layer, counted from the modules.

    >>> sublayer_params(BlockConfig(d_model=8, n_head=2, d_ff=32))["encoder"]
    872
    """

    def count(*modules: nn.Module) -> int:
        return sum(p.numel() for m in modules for p in m.parameters())

    enc, dec = EncoderLayer(cfg), DecoderLayer(cfg)
    return {
        "attention": count(enc.attn, enc.ln_1),
        "ffn": count(enc.ffn, enc.ln_2),
        "encoder": count(enc),
        "decoder": count(dec),
    }


@torch.no_grad()
def zero_branch_change(pre_ln: bool, seeds=range(5), cfg: BlockConfig | None = None) -> float:
    r"""Largest $\lvert \mathrm{layer}(x) - x \rvert$ over ``seeds`` for an encoder layer whose
    branches end in zero (the last linear layer of attention and FFN set to 0): exactly 0 for
    Pre-LN, whose shortcut is the identity; not for Post-LN, whose output passes a LayerNorm.

    >>> zero_branch_change(pre_ln=True), zero_branch_change(pre_ln=False) > 0.1
    (0.0, True)
    """
    cfg = cfg or BlockConfig()
    largest = 0.0
    for seed in seeds:
        torch.manual_seed(seed)
        layer = EncoderLayer(BlockConfig(cfg.d_model, cfg.n_head, cfg.d_ff, pre_ln))
        for linear in (layer.attn.o, layer.ffn.down):  # the last layer of each branch
            linear.weight.zero_()
            linear.bias.zero_()
        x = torch.randn(2, 7, cfg.d_model)  # (batch, seq, d_model)
        largest = max(largest, (layer(x) - x).abs().max().item())
    return largest


class PreLNStack(nn.Module):
    """Token and position embeddings $x_0$, ``n_layers`` Pre-LN encoder layers, a final LN and a
    classifier per position: the smallest whole model built from this chapter's layer."""

    def __init__(self, cfg: BlockConfig, n_layers: int, vocab: int, length: int):
        super().__init__()
        self.tok = nn.Embedding(vocab, cfg.d_model)
        self.pos = nn.Parameter(torch.randn(length, cfg.d_model))  # learned positions
        self.layers = nn.ModuleList(
            EncoderLayer(replace(cfg, pre_ln=True)) for _ in range(n_layers)
        )
        self.ln_f, self.head = nn.LayerNorm(cfg.d_model), nn.Linear(cfg.d_model, vocab)

    def embed(self, tokens: torch.Tensor) -> torch.Tensor:  # (batch, seq) → (batch, seq, d_model)
        return self.tok(tokens) + self.pos

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:  # → (batch, seq, vocab)
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x)
        return self.head(self.ln_f(x))


# --8<-- [start:residual-stream]
def stream_writes(layers, x: torch.Tensor) -> list[torch.Tensor]:
    r"""Every write into the stream, in order: $\mathrm{MHA}_1$, $\mathrm{FFN}_1$, $\mathrm{MHA}_2$, ….
    Each sublayer reads the stream through its LayerNorm and adds what it computes."""
    writes = []
    for layer in layers:
        for read, sublayer in ((layer.ln_1, layer.attn), (layer.ln_2, layer.ffn)):
            writes.append(sublayer(read(x)))  # read: LN, then the sublayer's projections
            x = x + writes[-1]  # write: by addition, nothing else touches x
    return writes  # the stream after all layers is x_0 + sum(writes)


# --8<-- [end:residual-stream]


@torch.no_grad()
def decompose(model: PreLNStack, tokens: torch.Tensor) -> dict:
    r"""$x_L = x_0 + \sum_k w_k$ for one batch: ``error``, the largest gap between that sum and the
    model's own forward pass relative to the largest entry of $x_L$; ``shares``, each term's
    $\langle \cdot, x_L \rangle / \lVert x_L \rVert^2$ summed over tokens — the embedding's first,
    then one per sublayer. The shares add up to 1."""
    x0 = model.embed(tokens)
    x = x0
    for layer in model.layers:
        x = layer(x)  # the ordinary forward pass
    terms = [x0, *stream_writes(model.layers, x0)]
    total = torch.stack(terms).sum(0)
    squared = x.pow(2).sum()
    return {
        "error": ((total - x).abs().max() / x.abs().max()).item(),
        "shares": [((term * x).sum() / squared).item() for term in terms],
    }


def train_stack(cfg: BlockConfig, n_layers: int, seed: int, steps: int, lr: float = 3e-3):
    """A ``PreLNStack`` trained with Adam to reverse sequences of 8 tokens from a vocabulary of 10
    (the task of chapter 4); ``steps = 0`` leaves it at initialization. Returns the model and its
    token accuracy on a held-out batch."""
    torch.manual_seed(seed)
    model = PreLNStack(cfg, n_layers, vocab=10, length=8)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, foreach=True)
    data = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        tokens, targets = reversal_batch(64, 8, 10, data)
        loss = F.cross_entropy(model(tokens).flatten(0, 1), targets.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    tokens, targets = reversal_batch(512, 8, 10, torch.Generator().manual_seed(10_000))
    with torch.no_grad():
        accuracy = (model(tokens).argmax(-1) == targets).float().mean().item()
    return model, accuracy


# --8<-- [start:gpt2-init]
@torch.no_grad()
def scale_output_projections(layers, n_residual: int) -> None:
    r"""GPT-2's initialization: multiply the output projection of every branch (attention's
    $W_O$, the FFN's $W_2$) by $1/\sqrt{N}$, $N$ = ``n_residual`` residual layers. The bias
    too: GPT-2 starts its biases at zero, PyTorch's default does not, and only with both
    scaled is every write exactly $1/\sqrt{N}$ times the unscaled one."""
    for layer in layers:
        for projection in (layer.attn.o, layer.ffn.down):  # the last linear map of each branch
            projection.weight.mul_(n_residual**-0.5)
            projection.bias.mul_(n_residual**-0.5)


# --8<-- [end:gpt2-init]


@torch.no_grad()
def stream_growth(cfg: BlockConfig, n_layers: int, seed: int, scaled: bool) -> dict:
    r"""A Pre-LN stack of ``n_layers`` encoder layers ($N = 2 \cdot$ ``n_layers`` residual
    layers) at initialization, on a random input $x_0$ of 16 sequences of 16 tokens. ``stream``:
    $\mathrm{RMS}(x_k)/\mathrm{RMS}(x_0)$ after each residual layer, $k = 0 \dots N$;
    ``writes``: each write's $\mathrm{RMS}(w_k)^2/\mathrm{RMS}(x_0)^2$. ``scaled``: with
    :func:`scale_output_projections`. The same ``seed`` draws the same weights and $x_0$ either way.

    >>> cfg = BlockConfig(d_model=16, n_head=2, d_ff=32)
    >>> len(stream_growth(cfg, 3, seed=0, scaled=False)["stream"])  # x_0 and N = 6 layers
    7
    """
    torch.manual_seed(seed)
    layers = [EncoderLayer(replace(cfg, pre_ln=True)) for _ in range(n_layers)]
    if scaled:
        scale_output_projections(layers, 2 * n_layers)
    x = x0 = torch.randn(16, 16, cfg.d_model)  # (batch, seq, d_model)
    rms = x0.pow(2).mean().sqrt()
    stream, writes = [1.0], []
    for write in stream_writes(layers, x0):
        x = x + write
        stream.append((x.pow(2).mean().sqrt() / rms).item())
        writes.append((write.pow(2).mean() / rms**2).item())
    return {"stream": stream, "writes": writes}
