"""Chapter 05-going-deeper: the path decomposition is exact, and a lesion hurts a plain
net far more than a residual one."""

import itertools
import math

import torch
from torch.nn import functional as F

from resdoc.data import Split
from resdoc.degradation import MLP, MLPConfig
from resdoc.going_deeper import (
    branch_jacobians,
    covering_length,
    gradient_share,
    lesion_study,
    path_counts,
    train_pair,
)
from resdoc.training import TrainConfig


def test_path_counts_are_binomial():
    counts = path_counts(12)
    assert sum(counts) == 2**12
    assert counts == [math.comb(12, k) for k in range(13)]


def _small_net_and_data(depth=3):
    torch.manual_seed(0)
    model = MLP(MLPConfig(depth=depth, width=16))
    model.train()
    x = torch.randn(32, 64)
    model(x)  # one pass in train mode: BatchNorm running statistics move away from (0, 1)
    model.eval()
    return model, Split(torch.randn(8, 64), torch.randint(10, (8,)))


def test_all_paths_sum_to_the_true_gradient():
    model, data = _small_net_and_data(depth=3)
    jacobians, g = branch_jacobians(model, data)
    total = torch.zeros_like(g)
    for k in range(4):  # every one of the 2^3 paths, explicitly
        for chosen in itertools.combinations(range(3), k):
            v = g
            for i in reversed(chosen):
                v = torch.einsum("bj,bjk->bk", v, jacobians[i])
            total += v
    x0 = torch.relu(model.inp(data.x)).detach().requires_grad_(True)
    x = x0
    for block in model.blocks:
        x = block(x)
    F.cross_entropy(model.out(x), data.y, reduction="sum").backward()
    assert torch.allclose(total, x0.grad, atol=1e-5)


def test_gradient_share_and_covering_length():
    share = gradient_share([1, 3, 3, 1], [1.0, 1.0, 0.0, 0.0])
    assert share == [0.25, 0.75, 0.0, 0.0]
    assert covering_length(share, 0.9) == 1


def test_lesion_hurts_plain_far_more_than_residual():
    accuracy = lesion_study(train_pair(depth=6, cfg=TrainConfig(epochs=4), seed=1))
    mean = {kind: sum(values[1:]) / len(values[1:]) for kind, values in accuracy.items()}
    assert accuracy["plain"][0] > 0.8 and accuracy["residual"][0] > 0.8  # both nets learned
    assert accuracy["residual"][0] - mean["residual"] < 0.05
    assert accuracy["plain"][0] - mean["plain"] > 0.5
