r"""Chapter 06: the degradation problem. Deeper plain nets reach a *higher training error* than
shallower ones (He et al. 2016a); with identity shortcuts they do not, and a shortcut scaled by
$\lambda = 0.5$ trains worse (He et al. 2016b).

The nets follow "Identity Mappings in Deep Residual Networks" (He et al. 2016b) with linear
layers in place of convolutions: pre-activation blocks BN-ReLU-weight-BN-ReLU-weight, He
(Kaiming) initialization, and BN-ReLU before the classifier. The plain nets are the same blocks
without the shortcut, still with batch normalization, as in He et al. (2016a)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace

import torch
from torch import nn
from torch.nn import functional as F

from resdoc.data import Split, digits
from resdoc.training import History, TrainConfig, evaluate, train


@dataclass
class MLPConfig:
    depth: int = 8  # number of blocks, each with two weight layers
    width: int = 64  # neurons per hidden layer
    shortcut: float | None = 1.0  # None: plain; λ: the block outputs λ·x + F(x)


# --8<-- [start:block]
class Block(nn.Module):
    r"""A pre-activation block: $y = \lambda x + \mathcal{F}(x)$ with
    $\mathcal{F}(x) = W_2\,\mathrm{ReLU}(\mathrm{BN}(W_1\,\mathrm{ReLU}(\mathrm{BN}(x))))$;
    without a shortcut, $y = \mathcal{F}(x)$.

    >>> block = Block(MLPConfig(width=4, shortcut=1.0))
    >>> _ = torch.nn.init.zeros_(block.linear2.weight)
    >>> x = torch.randn(3, 4)
    >>> torch.equal(block(x), x)   # F(x) = 0: only the shortcut is left
    True
    """

    def __init__(self, cfg: MLPConfig):
        super().__init__()
        self.shortcut = cfg.shortcut
        self.norm1 = nn.BatchNorm1d(cfg.width)
        self.linear1 = nn.Linear(cfg.width, cfg.width, bias=False)  # BN follows: no bias needed
        self.norm2 = nn.BatchNorm1d(cfg.width)
        self.linear2 = nn.Linear(cfg.width, cfg.width, bias=False)

    def branch(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width)
        return self.linear2(torch.relu(self.norm2(self.linear1(torch.relu(self.norm1(x))))))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width)
        if self.shortcut is None:
            return self.branch(x)
        return self.shortcut * x + self.branch(x)


# --8<-- [end:block]


class MLP(nn.Module):
    """Input layer (64 pixels → width), ``depth`` blocks, BN-ReLU, classifier (width → 10)."""

    def __init__(self, cfg: MLPConfig, n_in: int = 64, n_out: int = 10):
        super().__init__()
        self.inp = nn.Linear(n_in, cfg.width)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.depth))
        self.norm = nn.BatchNorm1d(cfg.width)  # the final activation of a pre-activation net
        self.out = nn.Linear(cfg.width, n_out)
        for module in [self.inp, *self.blocks.modules()]:
            if isinstance(module, nn.Linear):  # He et al. (2015): variance 2 / fan-in
                nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
                if module.bias is not None:
                    nn.init.zeros_(module.bias)

    def stream(self, x: torch.Tensor) -> list[torch.Tensor]:
        """The input $x_0$ of the first block and the output $x_{i+1}$ of every block."""
        xs = [self.inp(x)]
        for block in self.blocks:
            xs.append(block(xs[-1]))
        return xs

    def head(self, x: torch.Tensor) -> torch.Tensor:  # (batch, width) → (batch, 10)
        return self.out(torch.relu(self.norm(x)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (batch, 64) → (batch, 10)
        return self.head(self.stream(x)[-1])


KINDS = {"plain": None, "residual": 1.0, "scaled": 0.5}

# He et al. (2016a), CIFAR-10: SGD, momentum 0.9, weight decay 1e-4, learning rate 0.1 divided
# by 10 at 50 % and 75 % of training, mini-batches of 128. Only the length is ours (see the page).
PAPER_RECIPE = TrainConfig(
    epochs=20, batch_size=128, lr=0.1, momentum=0.9, weight_decay=1e-4, lr_drops=(0.5, 0.75)
)


@dataclass
class Run:
    kind: str  # "plain", "residual" or "scaled"
    depth: int
    seed: int
    train_loss: float
    train_error: float
    test_error: float
    history: list[float]  # training loss per epoch


def train_net(
    kind: str, depth: int, seed: int, cfg: TrainConfig = PAPER_RECIPE, width: int = 64
) -> tuple[MLP, History]:
    """One net of ``kind`` trained with ``cfg``; ``seed`` sets its initialization and data order."""
    torch.manual_seed(seed)
    model = MLP(MLPConfig(depth=depth, width=width, shortcut=KINDS[kind]))
    return model, train(model, digits()[0], replace(cfg, seed=seed))


def depth_sweep(depths, kinds, seeds, cfg: TrainConfig = PAPER_RECIPE) -> list[Run]:
    """Train every (kind, depth, seed) with the same recipe; return each final training
    loss and error (eval mode, whole training set) and test error."""
    train_set, test_set = digits()
    runs = []
    for kind in kinds:
        for depth in depths:
            for seed in seeds:
                model, history = train_net(kind, depth, seed, cfg)
                loss, error = evaluate(model, train_set)
                test_error = evaluate(model, test_set)[1]
                runs.append(Run(kind, depth, seed, loss, error, test_error, history.loss))
    return runs


# --8<-- [start:signals]
def signal_profile(model: MLP, data: Split) -> tuple[list[float], list[float]]:
    r"""The check of He et al. (2016a) on a batch in train mode: the standard deviation of
    every block's input $x_i$ (forward) and the norm of $\partial\ell/\partial x_i$ (backward),
    for $i = 0, \dots, L$. Runs on a copy, so BatchNorm's running statistics stay as they are."""
    model = copy.deepcopy(model).train()
    xs = model.stream(data.x)
    for x in xs:
        x.retain_grad()
    F.cross_entropy(model.head(xs[-1]), data.y).backward()
    return [x.std().item() for x in xs], [x.grad.norm().item() for x in xs]


# --8<-- [end:signals]
