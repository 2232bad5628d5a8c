r"""Chapter 10: what deep residual stacks do to their shortcut at initialization.

A deep un-normalized residual MLP on ``load_digits``, its branches initialized four ways:
no shortcut at all, plain $x + \\mathcal{F}(x)$, ReZero (Bachlechner et al. 2020) and the
Fixup rule (Zhang et al. 2019), all trained with the same optimizer and learning rate; and
each branch scaled by $1/\\sqrt{L}$ or $1/L$: the stream at initialization and one SGD step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch
from torch import nn
from torch.nn import functional as F

from resdoc.data import digits

SCHEMES = ("plain", "residual", "rezero", "fixup")
WIDTH = 32  # of the residual stream


# --8<-- [start:block]
class Block(nn.Module):
    r"""$\mathcal{F}(x) = W_2\,\mathrm{ReLU}(W_1 x + b_1) + b_2$ with He initialization, wrapped by ``scheme``:

    - ``plain``: $\mathrm{ReLU}(\mathcal{F}(x))$, no shortcut;
    - ``residual``: $x + \mathcal{F}(x)$;
    - ``rezero``: $x + \alpha\,\mathcal{F}(x)$ with a learned scalar $\alpha$ that starts at $0$;
    - ``fixup``: $x + \mathcal{F}(x)$ with $W_2 = 0$ and $W_1$ scaled by $L^{-1/2}$ ($L$ blocks of
      $m = 2$ layers: Fixup's $L^{-1/(2m-2)}$; its scalar biases and multiplier are left out).

    At initialization the last three start as the identity only if the branch adds nothing:

    >>> x = torch.randn(3, 8)
    >>> [torch.equal(Block(8, s, depth=4)(x), x) for s in ("residual", "rezero", "fixup")]
    [False, True, True]
    """

    def __init__(self, width: int, scheme: str, depth: int):
        super().__init__()
        self.scheme = scheme
        self.fc_1, self.fc_2 = nn.Linear(width, width), nn.Linear(width, width)
        for layer in (self.fc_1, self.fc_2):  # He init, as for ResNets: Var(W) = 2 / width
            nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")
            nn.init.zeros_(layer.bias)
        self.alpha = nn.Parameter(torch.zeros(())) if scheme == "rezero" else None
        if scheme == "fixup":
            with torch.no_grad():
                self.fc_1.weight.mul_(depth**-0.5)
                self.fc_2.weight.zero_()

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width)
        branch = self.fc_2(F.relu(self.fc_1(x)))  # F(x)
        if self.scheme == "plain":
            return F.relu(branch)
        if self.scheme == "rezero":
            return x + self.alpha * branch  # x + α·F(x), α = 0 at init
        return x + branch  # residual and fixup


# --8<-- [end:block]


class DeepMLP(nn.Module):
    r"""Input layer $64 \to$ ``width``, ``depth`` blocks, a linear classifier; no normalization."""

    def __init__(self, depth: int, scheme: str, width: int = WIDTH):
        super().__init__()
        self.embed = nn.Linear(64, width)
        self.blocks = nn.Sequential(*(Block(width, scheme, depth) for _ in range(depth)))
        self.head = nn.Linear(width, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, 64) → (batch, 10)
        return self.head(self.blocks(self.embed(x)))


@dataclass
class Run:
    """Training loss per step (it stops at the first non-finite loss: a NaN network learns
    nothing more), the logits' size (root mean square) and the norm of the whole gradient at
    initialization, and the final test error (NaN for a run that diverged)."""

    scheme: str
    seed: int
    loss: list[float] = field(default_factory=list)
    init_logit_rms: float = 0.0
    init_grad_norm: float = 0.0
    test_error: float = float("nan")


def train_scheme(scheme: str, depth=64, lr=0.01, epochs=10, batch=128, seed=0) -> Run:
    """Train ``DeepMLP(depth, scheme)`` on the digits with SGD (momentum 0.9) at rate ``lr``."""
    train, test = digits()
    torch.manual_seed(seed)
    model = DeepMLP(depth, scheme)
    run = Run(scheme, seed)
    with torch.no_grad():
        run.init_logit_rms = model(train.x).pow(2).mean().sqrt().item()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, foreach=True)
    order = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for idx in torch.randperm(len(train.y), generator=order).split(batch):
            loss = F.cross_entropy(model(train.x[idx]), train.y[idx])
            run.loss.append(loss.item())
            if not math.isfinite(run.loss[-1]):
                return run
            optimizer.zero_grad()
            loss.backward()
            if len(run.loss) == 1:  # float64: the squares of a huge gradient overflow float32
                grads = [p.grad.double().square().sum() for p in model.parameters()]
                run.init_grad_norm = torch.stack(grads).sum().sqrt().item()
            optimizer.step()
    with torch.no_grad():
        run.test_error = (model(test.x).argmax(1) != test.y).float().mean().item()
    return run


@torch.no_grad()
def growth_at_init(depth=64, seed=0) -> dict[str, float]:
    r"""What one plain residual block does to the stream at initialization, averaged over the
    ``depth`` blocks of ``DeepMLP(depth, "residual")`` fed the training digits:
    ``branch`` $= \lVert \mathcal{F}(x) \rVert^2 / \lVert x \rVert^2$, ``cosine`` between $x$ and
    $\mathcal{F}(x)$, and ``growth`` $= \lVert x + \mathcal{F}(x) \rVert^2 / \lVert x \rVert^2$
    $= 1 + 2\cos \cdot \sqrt{\text{branch}} + \text{branch}$; and ``stream``, how many times
    larger the stream's root mean square is after the last block than before the first."""
    torch.manual_seed(seed)
    model = DeepMLP(depth, "residual")
    x = model.embed(digits()[0].x)  # (n, width): the stream entering the first block
    stats, start = {"branch": [], "cosine": [], "growth": []}, x.square().mean().sqrt()
    for block in model.blocks:
        branch = block.fc_2(F.relu(block.fc_1(x)))  # F(x)
        stats["branch"].append((branch.square().sum() / x.square().sum()).item())
        stats["cosine"].append(F.cosine_similarity(x.flatten(), branch.flatten(), dim=0).item())
        stats["growth"].append(((x + branch).square().sum() / x.square().sum()).item())
        x = x + branch
    averages = {key: sum(values) / depth for key, values in stats.items()}
    return averages | {"stream": (x.square().mean().sqrt() / start).item()}


def deepnorm_constants(n_layers: int) -> dict[str, float]:
    r"""DeepNorm for an encoder-only (or decoder-only) stack of ``n_layers`` blocks
    (Wang et al. 2022): $x_{l+1} = \mathrm{LN}(\alpha x_l + \mathcal{F}(x_l))$ with
    $\alpha = (2N)^{1/4}$, and the branch weights initialized with gain $\beta = (8N)^{-1/4}$.

    >>> {k: round(v, 3) for k, v in deepnorm_constants(1000).items()}
    {'alpha': 6.687, 'beta': 0.106}
    """
    return {"alpha": (2 * n_layers) ** 0.25, "beta": (8 * n_layers) ** -0.25}


# The constant each branch is multiplied by, as a function of the depth L.
SCALINGS = {
    "none": lambda depth: 1.0,
    "sqrt": lambda depth: depth**-0.5,
    "linear": lambda depth: 1 / depth,
}


# --8<-- [start:branch-scaling]
def scaled_stream(model: DeepMLP, x: torch.Tensor, scale: float) -> list[torch.Tensor]:
    r"""The stream $x_0, \dots, x_L$ of ``model``'s residual blocks with every branch scaled:
    $x_{l+1} = x_l + s\,\mathcal{F}_l(x_l)$."""
    xs = [model.embed(x)]  # (batch, width)
    for block in model.blocks:
        branch = block.fc_2(F.relu(block.fc_1(xs[-1])))  # F_l(x_l)
        xs.append(xs[-1] + scale * branch)
    return xs


# --8<-- [end:branch-scaling]


def _rms(x: torch.Tensor) -> float:
    return x.square().mean().sqrt().item()


@torch.no_grad()
def scaled_growth(depth: int, scaling: str, seed: int = 0) -> float:
    """How many times larger the stream's RMS is after ``depth`` He-initialized blocks with
    branches scaled by ``SCALINGS[scaling]`` than before the first (float64: $3^{128}$ fits)."""
    torch.manual_seed(seed)
    model = DeepMLP(depth, "residual").double()
    xs = scaled_stream(model, digits()[0].x[:256].double(), SCALINGS[scaling](depth))
    return _rms(xs[-1]) / _rms(xs[0])


def one_step(depth: int, scaling: str, lr: float, seed: int = 0) -> float:
    """One plain SGD step (no momentum) at rate ``lr`` on the blocks' weights only, on 256
    training digits: how much $x_L$ moved (RMS of the change over the RMS of $x_0$). The embedding
    and the classifier are held fixed, so all of the change is the blocks'."""
    torch.manual_seed(seed)
    model = DeepMLP(depth, "residual").double()
    data = digits()[0]
    x, y, scale = data.x[:256].double(), data.y[:256], SCALINGS[scaling](depth)
    before = scaled_stream(model, x, scale)[-1]
    F.cross_entropy(model.head(before), y).backward()
    with torch.no_grad():
        for p in model.blocks.parameters():
            p -= lr * p.grad
        after = scaled_stream(model, x, scale)[-1]
        return _rms(after - before) / _rms(model.embed(x))


# How each rule joins the shortcut and the branch: x_{l+1} = a·(x_l + s·F_l(x_l)), as (a, s);
# s = None means 1/√L, the branch scaling of the section above.
SKIP_RULES = {
    "sum": (1.0, 1.0),  # x + F(x)
    "rescaled": (2**-0.5, 1.0),  # (x + F(x))/√2: NCSN++'s skip_rescale, StyleGAN2's resnet D
    "scaled_0.3": (1.0, 0.3),  # x + 0.3·F(x): the top of Inception-ResNet's 0.1–0.3
    "scaled_0.1": (1.0, 0.1),  # x + 0.1·F(x): EDSR's residual scaling
    "sqrt": (1.0, None),  # x + F(x)/√L
}


# --8<-- [start:skip-rescale]
@torch.no_grad()
def skip_stream(rule: str, depth: int, seed: int, normalize: bool = True, width: int = 128) -> dict:
    r"""A stack of ``depth`` residual blocks $x_{l+1} = a\,(x_l + s\,\mathcal{F}_l(x_l))$ at
    initialization, $(a, s)$ = ``SKIP_RULES[rule]``, on 256 random inputs $x_0$. The branch
    $\mathcal{F}_l(x) = W_2\,\mathrm{ReLU}(W_1 \hat{x})$ reads $\hat{x} = x/\mathrm{RMS}(x)$
    (``normalize=False``: $\hat{x} = x$), with $\mathrm{Var}(W_1) = 2/n$ and $\mathrm{Var}(W_2) = 1/n$,
    so that $\mathrm{RMS}(\mathcal{F}_l) \approx \mathrm{RMS}(\hat{x})$: a branch as large as a unit input.

    ``stream``: $\mathrm{RMS}(x_l)/\mathrm{RMS}(x_0)$, $l = 0 \dots L$; ``weights``: how large block
    $l$'s write is in $x_L$, $\mathrm{RMS}(a^{L-l} s\,\mathcal{F}_l(x_l))/\mathrm{RMS}(x_L)$; ``parts``:
    $x_0$ and every write as they appear in $x_L$ (they add up to it). One ``seed`` draws the same
    weights and $x_0$ under every rule.

    >>> run = skip_stream("rescaled", 4, seed=0)
    >>> len(run["stream"]), len(run["weights"])
    (5, 4)
    """
    a, s = SKIP_RULES[rule]
    s = depth**-0.5 if s is None else s
    gen = torch.Generator().manual_seed(seed)
    x = x_0 = torch.randn(256, width, generator=gen)  # (batch, width)
    stream, parts = [1.0], [x_0]  # parts: x_0 and each write, times every later block's a
    for _ in range(depth):
        w_1 = torch.randn(width, width, generator=gen) * (2 / width) ** 0.5  # ReLU keeps half
        w_2 = torch.randn(width, width, generator=gen) * (1 / width) ** 0.5
        x_hat = x / x.square().mean(-1, keepdim=True).sqrt() if normalize else x
        branch = F.relu(x_hat @ w_1.T) @ w_2.T  # F_l(x_l)
        x = a * (x + s * branch)
        parts = [a * part for part in parts] + [a * s * branch]
        stream.append(_rms(x) / _rms(x_0))
    return {"stream": stream, "weights": [_rms(p) / _rms(x) for p in parts[1:]], "parts": parts}


# --8<-- [end:skip-rescale]
