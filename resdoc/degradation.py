r"""Chapter 06: the degradation problem. Deeper plain nets reach a *higher training error* than
shallower ones (He et al. 2016a); with identity shortcuts they do not, and a shortcut scaled by
$\lambda = 0.5$ trains worse (He et al. 2016b).

The nets follow "Identity Mappings in Deep Residual Networks" (He et al. 2016b) with linear
layers in place of convolutions: pre-activation blocks BN-ReLU-weight-BN-ReLU-weight, He
(Kaiming) initialization, and BN-ReLU before the classifier. The plain nets are the same blocks
without the shortcut, still with batch normalization, as in He et al. (2016a)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from torch.nn import functional as F

from resdoc.data import Split, digits
from resdoc.models import MLP
from resdoc.training import PAPER_RECIPE, TrainConfig, evaluate, train_net


@dataclass
class Run:
    kind: str  # "plain", "residual" or "scaled"
    depth: int
    seed: int
    train_loss: float
    train_error: float
    test_error: float
    history: list[float]  # training loss per epoch


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
