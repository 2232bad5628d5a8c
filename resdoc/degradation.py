r"""Chapter 6: the degradation problem. Deeper plain nets reach a *higher training error* than
shallower ones (He et al. 2016a); with identity shortcuts they do not, and a shortcut scaled by
$\lambda = 0.5$ trains worse (He et al. 2016b).

The nets follow "Identity Mappings in Deep Residual Networks" (He et al. 2016b) with linear
layers in place of convolutions: pre-activation blocks BN-ReLU-weight-BN-ReLU-weight, He
(Kaiming) initialization, and BN-ReLU before the classifier. The plain nets are the same blocks
without the shortcut, still with batch normalization, as in He et al. (2016a).

Around a trained net, a 2-D slice of the training loss along two filter-normalized random
directions ("Visualizing the Loss Landscape of Neural Nets", Li et al. 2018) shows how the
loss surface looks near the minimum the optimizer found."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np
import torch
from torch.func import functional_call, vmap
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
    model: MLP = field(repr=False)  # the trained net, kept for the loss-landscape slice


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
                runs.append(Run(kind, depth, seed, loss, error, test_error, history.loss, model))
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


# --8<-- [start:direction]
def filter_normalized_direction(model: MLP, generator: torch.Generator) -> dict:
    """A random direction, one Gaussian tensor per parameter, each filter rescaled to
    the norm of the same filter of the weights (Li et al. 2018). Biases and BN's
    parameters (1-D) get zero, as in the paper."""
    direction = {}
    for name, weight in model.named_parameters():
        if weight.dim() == 1:  # a bias or a BN scale/shift: held fixed
            direction[name] = torch.zeros_like(weight)
        else:  # (out, in): a filter is a row, one neuron's incoming weights
            d = torch.randn(weight.shape, generator=generator)
            scale = weight.norm(dim=1, keepdim=True) / d.norm(dim=1, keepdim=True)
            direction[name] = d * scale
    return direction


@torch.no_grad()
def loss_surface(model: MLP, data: Split, coords, generator) -> np.ndarray:
    """The loss at θ* + α·δ + β·η for every α (rows), β (columns) in ``coords``.
    Eval mode: BN uses its running statistics, so each point is one fixed function."""
    model = copy.deepcopy(model).eval()
    delta = filter_normalized_direction(model, generator)
    eta = filter_normalized_direction(model, generator)
    theta = dict(model.named_parameters())
    buffers = dict(model.named_buffers())

    def loss(params):  # one point of the grid
        logits = functional_call(model, (params, buffers), (data.x,))
        return F.cross_entropy(logits, data.y)

    coords = torch.as_tensor(coords, dtype=torch.float32)
    alpha, beta = torch.meshgrid(coords, coords, indexing="ij")
    losses = []
    for a, b in zip(alpha.flatten().split(64), beta.flatten().split(64), strict=True):
        a, b = a.view(-1, 1, 1), b.view(-1, 1, 1)  # 64 points at a time, batched by vmap
        grid = {  # (points, *shape) per parameter; 1-D ones have a zero direction
            k: w + (a * delta[k] + b * eta[k]).view(len(a), *w.shape) for k, w in theta.items()
        }
        losses.append(vmap(loss)(grid))
    return torch.cat(losses).view(alpha.shape).double().numpy()


# --8<-- [end:direction]


# --8<-- [start:curvature]
def nonconvex_fraction(surface: np.ndarray) -> float:
    """The share of inner grid points where the slice's 2-D Hessian (central
    differences) has a negative eigenvalue: the slice bends down there.

    >>> a = np.linspace(-1, 1, 5)
    >>> bowl, saddle = np.add.outer(a**2, a**2), np.add.outer(a**2, -(a**2))
    >>> nonconvex_fraction(bowl), nonconvex_fraction(saddle)
    (0.0, 1.0)
    """
    s = surface
    d_aa = s[2:, 1:-1] - 2 * s[1:-1, 1:-1] + s[:-2, 1:-1]
    d_bb = s[1:-1, 2:] - 2 * s[1:-1, 1:-1] + s[1:-1, :-2]
    d_ab = (s[2:, 2:] - s[2:, :-2] - s[:-2, 2:] + s[:-2, :-2]) / 4
    # the smaller eigenvalue of [[d_aa, d_ab], [d_ab, d_bb]]
    smaller = (d_aa + d_bb) / 2 - np.sqrt(((d_aa - d_bb) / 2) ** 2 + d_ab**2)
    return float((smaller < 0).mean())


# --8<-- [end:curvature]
