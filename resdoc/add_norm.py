"""Chapter 4: Add & Norm. Where the LayerNorm sits relative to the addition decides how the
gradient is spread over the layers at initialization (Xiong et al. 2020) and whether a
tiny Transformer trains without learning-rate warm-up."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from resdoc.data import reversal_batch


# --8<-- [start:layer-norm]
def layer_norm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5):
    r"""$\mathrm{LN}(x) = \gamma \odot (x - \mu)/\sqrt{\sigma^2 + \epsilon} + \beta$, with $\mu$ and
    $\sigma^2$ the mean and (biased) variance over the last axis: the features of one token.

    >>> x = torch.randn(2, 3, 8)
    >>> ln = nn.LayerNorm(8)
    >>> torch.allclose(layer_norm(x, ln.weight, ln.bias), ln(x), atol=1e-6)
    True
    """
    mu = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return gamma * (x - mu) / torch.sqrt(var + eps) + beta


# --8<-- [end:layer-norm]


# --8<-- [start:rms-norm]
class RMSNorm(nn.Module):
    r"""$\mathrm{RMSNorm}(x) = x / \sqrt{\tfrac1d \sum_i x_i^2 + \epsilon} \odot g$ (Zhang & Sennrich
    2019): layer normalization without the mean and without the bias $\beta$.

    >>> x = torch.randn(2, 3, 8)
    >>> torch.allclose(RMSNorm(8)(x), nn.RMSNorm(8, eps=1e-6)(x), atol=1e-6)
    True
    """

    def __init__(self, d: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))  # g, the only learned vector

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (..., d)
        mean_square = x.pow(2).mean(-1, keepdim=True)  # one pass over the features, no mean
        return x / torch.sqrt(mean_square + self.eps) * self.weight


# --8<-- [end:rms-norm]


@torch.no_grad()
def rms_vs_layer_norm(shift: float, seed: int, d: int = 32, tokens: int = 1000) -> float:
    r"""Largest $\lvert \mathrm{RMSNorm}(x) - \mathrm{LN}(x) \rvert$ (gains 1, no bias, same
    $\epsilon$) over ``tokens`` random tokens whose features have mean exactly ``shift``.

    >>> rms_vs_layer_norm(0.0, seed=0) < 1e-5, rms_vs_layer_norm(1.0, seed=0) > 0.1
    (True, True)
    """
    torch.manual_seed(seed)
    z = torch.randn(tokens, d)
    x = z - z.mean(-1, keepdim=True) + shift  # each token's mean is now exactly `shift`
    rms = RMSNorm(d, eps=1e-5)(x)
    return (rms - layer_norm(x, torch.ones(d), torch.zeros(d))).abs().max().item()


@dataclass
class TransformerConfig:
    vocab: int = 10  # tokens 0..vocab-1
    length: int = 8  # sequence length
    d_model: int = 32  # width of the residual stream
    n_head: int = 2  # attention heads
    n_layer: int = 3  # Transformer blocks
    pre_ln: bool = True  # True: x + F(LN(x)), plus a final LN; False: LN(x + F(x))
    final_ln: bool = True  # Pre-LN only: normalize the stream once more before the head


# --8<-- [start:block]
class Block(nn.Module):
    """One encoder block: self-attention, then a two-layer MLP, each with a shortcut."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.pre_ln = cfg.pre_ln
        self.ln_1, self.ln_2 = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)
        self.attention = nn.MultiheadAttention(cfg.d_model, cfg.n_head, batch_first=True)
        self.mlp = nn.Sequential(
            nn.Linear(cfg.d_model, 4 * cfg.d_model),
            nn.ReLU(),
            nn.Linear(4 * cfg.d_model, cfg.d_model),
        )

    def attn(self, x: torch.Tensor) -> torch.Tensor:
        return self.attention(x, x, x, need_weights=False)[0]

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, seq, d_model)
        if self.pre_ln:  # Pre-LN: the shortcut carries x untouched
            x = x + self.attn(self.ln_1(x))
            x = x + self.mlp(self.ln_2(x))
        else:  # Post-LN (the original Transformer): normalize after the addition
            x = self.ln_1(x + self.attn(x))
            x = self.ln_2(x + self.mlp(x))
        return x


# --8<-- [end:block]


class Encoder(nn.Module):
    """Token + position embeddings, ``n_layer`` blocks, (Pre-LN with ``final_ln``) a final LN,
    a classifier."""

    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab, cfg.d_model)
        self.pos = nn.Parameter(torch.randn(cfg.length, cfg.d_model))  # learned positions
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        final = cfg.pre_ln and cfg.final_ln  # Post-LN's stream already ends in an LN
        self.ln_f = nn.LayerNorm(cfg.d_model) if final else nn.Identity()
        self.head = nn.Linear(cfg.d_model, cfg.vocab)
        for module in self.modules():  # Glorot (Xavier) uniform, as in tensor2tensor
            if isinstance(module, nn.Linear):
                nn.init.xavier_uniform_(module.weight)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:  # (batch, seq) → (batch, seq, vocab)
        x = self.tok(tokens) + self.pos
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def loss_on(model: Encoder, tokens: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(model(tokens).flatten(0, 1), targets.flatten())


def init_grad_profile(
    n_layer: int, pre_ln: bool, seed: int, batches: int = 4, cfg: TransformerConfig | None = None
) -> list[float]:
    r"""One initialization (``seed``): $\lVert \partial \ell/\partial W_2^{(l)} \rVert$ of each block's
    second MLP weight, averaged over ``batches`` batches of the reversal task.

    The LayerNorms start at $\gamma = 1, \beta = 0$, so Post-LN and Pre-LN with the same seed
    have the same weights and see the same batches: they differ only in where the LN sits.
    """
    cfg = replace(cfg or TransformerConfig(), n_layer=n_layer, pre_ln=pre_ln)
    torch.manual_seed(seed)
    model = Encoder(cfg)
    data = torch.Generator().manual_seed(seed)
    norms = torch.zeros(n_layer)
    for _ in range(batches):
        model.zero_grad()
        loss_on(model, *reversal_batch(128, cfg.length, cfg.vocab, data)).backward()
        norms += torch.tensor([block.mlp[2].weight.grad.norm().item() for block in model.blocks])
    return (norms / batches).tolist()


@torch.no_grad()
def stream_growth(n_layer: int, seed: int = 0, cfg: TransformerConfig | None = None) -> float:
    r"""Pre-LN at initialization: mean per-token $\lVert x_L \rVert / \lVert x_0 \rVert$ of the residual
    stream, the size the final LN divides by."""
    cfg = replace(cfg or TransformerConfig(), n_layer=n_layer, pre_ln=True)
    torch.manual_seed(seed)
    model = Encoder(cfg)
    tokens, _ = reversal_batch(128, cfg.length, cfg.vocab, torch.Generator().manual_seed(seed))
    x = x0 = model.tok(tokens) + model.pos  # (batch, seq, d_model)
    for block in model.blocks:
        x = block(x)
    return (x.norm(dim=-1) / x0.norm(dim=-1)).mean().item()


def _rms(x: torch.Tensor) -> float:
    r"""Root mean square over tokens of the per-token norm: $\sqrt{E\lVert x \rVert^2}$."""
    return x.pow(2).sum(-1).mean().sqrt().item()


@torch.no_grad()
def stream_profile(n_layer: int, seed: int, cfg: TransformerConfig | None = None) -> dict:
    r"""One Pre-LN encoder at initialization, forward only. Per depth $l = 0..L$: ``stream``
    $\lVert x_l \rVert$, ``head_in`` $\lVert \mathrm{LN}(x_l) \rVert$ (what the head would see behind
    a final LN if the stack ended at $l$), ``writes`` $\lVert x_l - x_0 \rVert$ (all blocks' writes
    so far); per block: ``relative`` $\lVert F_l \rVert / \lVert x_l \rVert$, ``branch``
    $\lVert F_l \rVert^2$ and ``cross`` $2\langle x_l, F_l \rangle$, the two parts of
    $\lVert x_{l+1} \rVert^2 - \lVert x_l \rVert^2$.
    Norms are root mean squares over tokens."""
    cfg = replace(cfg or TransformerConfig(), n_layer=n_layer, pre_ln=True, final_ln=True)
    torch.manual_seed(seed)
    model = Encoder(cfg)
    tokens, _ = reversal_batch(128, cfg.length, cfg.vocab, torch.Generator().manual_seed(seed))
    xs = [model.tok(tokens) + model.pos]  # x_0: (batch, seq, d_model)
    for block in model.blocks:
        xs.append(block(xs[-1]))
    writes = [after - before for before, after in zip(xs, xs[1:], strict=False)]  # F_l
    stream = xs[:-1]  # x_l, the stream F_l is added to
    return {
        "stream": np.array([_rms(x) for x in xs]),
        "head_in": np.array([_rms(model.ln_f(x)) for x in xs]),
        "writes": np.array([_rms(x - xs[0]) for x in xs]),
        "relative": np.array([_rms(f) / _rms(x) for f, x in zip(writes, stream, strict=True)]),
        "branch": np.array([_rms(f) ** 2 for f in writes]),  # E||F_l||^2
        "cross": np.array(
            [2 * (f * x).sum(-1).mean().item() for f, x in zip(writes, stream, strict=True)]
        ),
    }


def power_fit(x, y) -> float:
    r"""The exponent $p$ of the least-squares fit $y \approx c\, x^p$ on log-log axes.

    >>> round(power_fit([1, 4, 9, 16], [2, 4, 6, 8]), 6)
    0.5
    """
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def init_study(depths, seeds, batches: int = 4) -> dict[int, dict[str, np.ndarray]]:
    """For each depth: ``post`` and ``pre`` per-layer gradient profiles, shape (seeds, L), and
    ``growth``, the Pre-LN stream's growth per seed."""
    return {
        L: {
            "post": np.array([init_grad_profile(L, False, s, batches) for s in seeds]),
            "pre": np.array([init_grad_profile(L, True, s, batches) for s in seeds]),
            "growth": np.array([stream_growth(L, s) for s in seeds]),
        }
        for L in depths
    }


def warmup_factor(step: int, warmup: int) -> float:
    """Linear warm-up: the learning rate grows from lr/warmup to lr over ``warmup`` steps.

    >>> [warmup_factor(s, 4) for s in range(6)]
    [0.25, 0.5, 0.75, 1.0, 1.0, 1.0]
    """
    return min(1.0, (step + 1) / warmup) if warmup > 0 else 1.0


def train_reversal(
    pre_ln: bool,
    warmup: int,
    lr: float = 1e-3,
    steps: int = 400,
    cfg: TransformerConfig | None = None,
    seed: int = 0,
) -> dict[str, list[float]]:
    """Train an encoder to reverse sequences with Adam at peak learning rate ``lr``; return the
    training loss per step and the token accuracy on a fixed held-out batch every 20 steps
    and after the last one."""
    cfg = replace(cfg or TransformerConfig(), pre_ln=pre_ln)
    torch.manual_seed(seed)
    model = Encoder(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.98), foreach=True)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: warmup_factor(s, warmup))
    data = torch.Generator().manual_seed(seed)
    test_x, test_y = reversal_batch(
        512, cfg.length, cfg.vocab, torch.Generator().manual_seed(10_000)
    )
    losses, accuracy = [], []
    for step in range(steps):
        loss = loss_on(model, *reversal_batch(64, cfg.length, cfg.vocab, data))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
        if (step + 1) % 20 == 0 or step + 1 == steps:
            with torch.no_grad():
                accuracy.append((model(test_x).argmax(-1) == test_y).float().mean().item())
    return {"loss": losses, "accuracy": accuracy}


def adaptive_step_spread(steps, beta2: float = 0.98, seed: int = 0, n: int = 20_000) -> list[float]:
    r"""Adam's adaptive step size $1/\sqrt{\hat v_t}$ for ``n`` coordinates whose gradients are
    independent $N(0, 1)$ draws: the ratio of its 90th to its 10th percentile after each step
    in ``steps`` (counted from 1). $\hat v_t$ is the bias-corrected moving average of $g^2$."""
    grads = np.random.default_rng(seed).standard_normal((max(steps), n))
    v, spread = np.zeros(n), []
    for t, g in enumerate(grads, start=1):
        v = beta2 * v + (1 - beta2) * g**2
        if t in steps:
            step_size = 1 / np.sqrt(v / (1 - beta2**t))  # bias-corrected, as in Adam
            low, high = np.percentile(step_size, [10, 90])
            spread.append(high / low)
    return spread


TORCH_RADAM_THRESHOLD = 5.0
"""``torch.optim.RAdam`` takes adaptive steps only once $\rho_t > 5$; the paper's bound is 4."""


def radam_rectifier(t: int, beta2: float, threshold: float = 4.0) -> float:
    r"""RAdam's factor $r_t$ (Liu et al. 2020) at step $t$: 0 while the moving average holds too
    few gradients ($\rho_t \le 4$, the paper's bound, where its approximation of the adaptive
    step's variance diverges; ``threshold=TORCH_RADAM_THRESHOLD`` for PyTorch's RAdam).

    >>> [round(radam_rectifier(t, 0.98), 2) for t in (4, 5, 50, 1000)]
    [0.0, 0.08, 0.62, 1.0]
    >>> [round(radam_rectifier(t, 0.98, TORCH_RADAM_THRESHOLD), 2) for t in (5, 6)]
    [0.0, 0.12]
    """
    rho_inf = 2 / (1 - beta2) - 1  # length of the simple average the moving average resembles
    rho = rho_inf - 2 * t * beta2**t / (1 - beta2**t)  # the same after t steps
    if rho <= threshold:
        return 0.0
    return float(np.sqrt((rho - 4) * (rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho)))


SETTINGS = {"post": (False, False), "post_warmup": (False, True), "pre": (True, False)}
"""Setting name: (Pre-LN?, warm-up?)."""


def lr_sweep(seeds_per_lr: dict[float, range], steps: int = 150, warmup: int = 50):
    """``{setting: {lr: [final held-out accuracy per seed]}}``, plus ``{setting: [loss curve per
    seed]}`` at the learning rate listed first, for the three settings."""
    accuracy = {name: {} for name in SETTINGS}
    curves = {}
    for index, (lr, seeds) in enumerate(seeds_per_lr.items()):
        for name, (pre_ln, warm) in SETTINGS.items():
            runs = [train_reversal(pre_ln, warmup if warm else 0, lr, steps, seed=s) for s in seeds]
            accuracy[name][lr] = [run["accuracy"][-1] for run in runs]
            if index == 0:
                curves[name] = np.array([run["loss"] for run in runs])
    return accuracy, curves
