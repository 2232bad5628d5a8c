"""One small training loop shared by the chapters: mini-batch SGD or Adam on a
classification loss, with fixed seeds so two runs give the same numbers."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import torch
from torch import nn
from torch.nn import functional as F

from resdoc.data import Split, digits
from resdoc.models import KINDS, MLP, MLPConfig


@dataclass
class TrainConfig:
    epochs: int = 30  # passes over the training set
    batch_size: int = 64  # examples per step
    lr: float = 0.05  # learning rate
    momentum: float = 0.9  # SGD momentum
    weight_decay: float = 0.0  # L2 penalty, as SGD's weight_decay
    lr_drops: tuple[float, ...] = ()  # fractions of training after which lr is divided by 10
    seed: int = 0  # seeds the shuffling order


@dataclass
class History:
    """Per epoch, the training loss and error averaged over that epoch's mini-batches (in train
    mode, as the weights move; free to record, unlike a second pass over the training set)."""

    loss: list[float] = field(default_factory=list)
    error: list[float] = field(default_factory=list)


@torch.no_grad()
def evaluate(model: nn.Module, data: Split) -> tuple[float, float]:
    """(mean cross-entropy, error rate) of ``model`` on ``data``, in eval mode."""
    was_training = model.training
    model.eval()
    logits = model(data.x)
    model.train(was_training)
    loss = F.cross_entropy(logits, data.y).item()
    error = (logits.argmax(1) != data.y).float().mean().item()
    return loss, error


def train(model: nn.Module, data: Split, cfg: TrainConfig) -> History:
    """Train ``model`` on ``data`` with SGD + momentum; return the per-epoch history."""
    optimizer = torch.optim.SGD(
        model.parameters(),
        lr=cfg.lr,
        momentum=cfg.momentum,
        weight_decay=cfg.weight_decay,
        foreach=True,  # one call per step for all parameters, not one per tensor: deep nets are faster
    )
    generator = torch.Generator().manual_seed(cfg.seed)
    drops = [round(fraction * cfg.epochs) for fraction in cfg.lr_drops]
    history = History()
    for epoch in range(cfg.epochs):
        for group in optimizer.param_groups:  # step schedule: lr / 10 at every drop passed
            group["lr"] = cfg.lr * 0.1 ** sum(epoch >= drop for drop in drops)
        model.train()
        total_loss = total_wrong = 0.0
        for idx in torch.randperm(len(data.y), generator=generator).split(cfg.batch_size):
            logits = model(data.x[idx])
            loss = F.cross_entropy(logits, data.y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item() * len(idx)
            total_wrong += (logits.argmax(1) != data.y[idx]).sum().item()
        history.loss.append(total_loss / len(data.y))
        history.error.append(total_wrong / len(data.y))
    return history


# He et al. (2016a), CIFAR-10: SGD, momentum 0.9, weight decay 1e-4, learning rate 0.1 divided
# by 10 at 50 % and 75 % of training, mini-batches of 128. Only the length is ours (see the page).
PAPER_RECIPE = TrainConfig(
    epochs=20, batch_size=128, lr=0.1, momentum=0.9, weight_decay=1e-4, lr_drops=(0.5, 0.75)
)


def train_net(
    kind: str, depth: int, seed: int, cfg: TrainConfig = PAPER_RECIPE, width: int = 64
) -> tuple[MLP, History]:
    """One net of ``kind`` trained with ``cfg``; ``seed`` sets its initialization and data order."""
    torch.manual_seed(seed)
    model = MLP(MLPConfig(depth=depth, width=width, shortcut=KINDS[kind]))
    return model, train(model, digits()[0], replace(cfg, seed=seed))
