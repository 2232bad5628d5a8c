"""Chapter 05-going-deeper: the path decomposition is exact, and over seeds a lesion hurts a
plain net far more than a residual one."""

import itertools
import math
import statistics
from dataclasses import replace

import torch
from torch.nn import functional as F

from resdoc.data import Split, digits
from resdoc.going_deeper import (
    BranchJacobians,
    calibrate,
    covering_length,
    gradient_share,
    lesion_study,
    path_counts,
    stream_growth,
    train_pair,
)
from resdoc.models import MLP, MLPConfig
from resdoc.training import PAPER_RECIPE


def test_path_counts_are_binomial():
    counts = path_counts(12)
    assert sum(counts) == 2**12
    assert counts == [math.comb(12, k) for k in range(13)]


def _small_net_and_data(depth=3):
    torch.manual_seed(0)
    model = calibrate(MLP(MLPConfig(depth=depth, width=16)), Split(torch.randn(32, 64), None))
    with torch.no_grad():  # move BatchNorm's affine parameters away from (1, 0)
        for name, p in model.named_parameters():
            if "norm" in name:
                p.add_(0.3 * torch.randn_like(p))
    return model, Split(torch.randn(8, 64), torch.randint(10, (8,)))


def test_all_paths_sum_to_the_true_gradient():
    model, data = _small_net_and_data(depth=3)
    jac = BranchJacobians(model, data)
    total = torch.zeros_like(jac.g, dtype=torch.float64)
    for k in range(4):  # every one of the 2^3 paths, explicitly
        for chosen in itertools.combinations(range(3), k):
            v = jac.g.double()
            for i in reversed(chosen):  # the last block's factor first
                v = jac.pull(v, i)
            total += v
    x0 = model.inp(data.x).detach().requires_grad_(True)
    x = x0
    for block in model.blocks:
        x = block(x)
    F.cross_entropy(model.head(x), data.y, reduction="sum").backward()
    assert torch.allclose(total.float(), x0.grad, atol=1e-5)


def test_calibrated_net_normalizes_in_eval_mode_as_in_training():
    torch.manual_seed(0)
    data = digits()[0]
    model = calibrate(MLP(MLPConfig(depth=4)), data)
    with torch.no_grad():
        in_eval = model(data.x)
        in_training = model.train()(data.x)
    # running_var is the unbiased variance, so the two differ by ~0.1 % per normalization
    assert (in_eval - in_training).abs().max() < 0.01 * in_training.abs().max()


def test_residual_stream_grows_with_depth_at_initialization():
    data = digits()[0]
    growth = {}
    for depth in (2, 16):
        torch.manual_seed(0)
        growth[depth] = stream_growth(calibrate(MLP(MLPConfig(depth=depth)), data), data)
    assert 1 < growth[2] < growth[16]


def test_gradient_share_and_covering_length():
    share = gradient_share([1, 3, 3, 1], [1.0, 1.0, 0.0, 0.0])
    assert share == [0.25, 0.75, 0.0, 0.0]
    assert covering_length(share, 0.9) == 1


def test_lesion_hurts_plain_far_more_than_residual():
    test_set = digits()[1]
    cfg = replace(PAPER_RECIPE, epochs=10)
    runs = [lesion_study(train_pair(6, seed, cfg), test_set) for seed in (0, 1, 2)]

    def drop(kind):  # per seed: intact accuracy minus the mean over deleted blocks
        return [run[kind][0] - statistics.mean(run[kind][1:]) for run in runs]

    assert min(run[kind][0] for run in runs for kind in run) > 0.8  # both nets learned
    assert max(drop("residual")) < 0.05
    assert min(drop("plain")) > 0.4
