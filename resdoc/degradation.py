r"""Chapter 06: the degradation problem. Deeper plain nets reach a *higher training error* than
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
    """A random direction $d$ in weight space, one Gaussian tensor per parameter, with each
    *filter* rescaled to the norm of the matching filter of the weights:
    $d_{j} \\leftarrow d_{j}\\,\\|\\theta_{j}\\| / \\|d_{j}\\|$ (Li et al. 2018). In a linear layer
    a filter is one row of the weight matrix: the incoming weights of one neuron. Biases and
    batch normalization's parameters (the 1-D tensors) get a zero direction, as in the paper.

    >>> from resdoc.models import MLPConfig
    >>> _ = torch.manual_seed(0)
    >>> net = MLP(MLPConfig(depth=1, width=4))
    >>> d = filter_normalized_direction(net, torch.Generator().manual_seed(1))
    >>> w = net.blocks[0].linear1.weight
    >>> torch.allclose(d["blocks.0.linear1.weight"].norm(dim=1), w.norm(dim=1))
    True
    >>> float(d["blocks.0.norm1.weight"].abs().sum()), float(d["inp.bias"].abs().sum())
    (0.0, 0.0)
    """
    direction = {}
    for name, weight in model.named_parameters():
        if weight.dim() == 1:  # a bias or a BN scale/shift: held fixed
            direction[name] = torch.zeros_like(weight)
        else:  # (out, in): one row per neuron
            d = torch.randn(weight.shape, generator=generator)
            direction[name] = d * weight.norm(dim=1, keepdim=True) / d.norm(dim=1, keepdim=True)
    return direction


@torch.no_grad()
def loss_surface(model: MLP, data: Split, coords, generator: torch.Generator) -> np.ndarray:
    """The loss $\\ell(\\theta^* + \\alpha\\,\\delta + \\beta\\,\\eta)$ for every $\\alpha, \\beta$ in
    ``coords``: rows are $\\alpha$, columns $\\beta$. Eval mode: BN uses its running statistics,
    so every point is one fixed function of the input. Forward passes only."""
    model = copy.deepcopy(model).eval()
    delta = filter_normalized_direction(model, generator)
    eta = filter_normalized_direction(model, generator)
    theta = dict(model.named_parameters())
    buffers = dict(model.named_buffers())

    def loss(params):  # one point of the grid
        return F.cross_entropy(functional_call(model, (params, buffers), (data.x,)), data.y)

    coords = torch.as_tensor(coords, dtype=torch.float32)
    alpha, beta = torch.meshgrid(coords, coords, indexing="ij")
    losses = []
    for a, b in zip(alpha.flatten().split(64), beta.flatten().split(64), strict=True):
        grid = {  # 64 points at a time, batched by vmap: (points, *shape) per parameter
            k: w + a.view(-1, *[1] * w.dim()) * delta[k] + b.view(-1, *[1] * w.dim()) * eta[k]
            for k, w in theta.items()
        }
        losses.append(vmap(loss)(grid))
    return torch.cat(losses).view(alpha.shape).double().numpy()


# --8<-- [end:direction]


# --8<-- [start:curvature]
def nonconvex_fraction(surface: np.ndarray) -> float:
    """The share of the grid's inner points where the 2-D Hessian of the slice, from central
    differences, has a negative eigenvalue: there the slice bends down along some line, and so
    does the loss itself, whose Hessian $H$ then has a negative eigenvalue too (the slice's
    Hessian is $P^\\top H P$, $P$ the two directions), up to the error of the differences.

    >>> a = np.linspace(-1, 1, 5)
    >>> nonconvex_fraction(np.add.outer(a**2, a**2)), nonconvex_fraction(np.add.outer(a**2, -a**2))
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
