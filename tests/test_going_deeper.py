"""Chapter 05-going-deeper: the path decomposition is exact, and over seeds a lesion hurts a
plain net far more than a residual one; stochastic depth drops branches as often as it says and
scales them at test time."""

import itertools
import math
import statistics
from dataclasses import replace

import pytest
import torch
from torch.nn import functional as F

from resdoc.data import Split, digits
from resdoc.going_deeper import (
    BranchJacobians,
    StochasticDepth,
    calibrate,
    covering_length,
    drop_probabilities,
    expected_depth,
    gradient_share,
    lesion_drops,
    lesion_study,
    path_counts,
    stream_growth,
    train_pair,
)
from resdoc.models import MLP, Block, MLPConfig
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


def test_lesion_drops_names_the_costliest_block_which_a_mean_hides():
    # one harmless lesion per run but one costly one: the mean stays small, the worst does not
    runs = [[0.9, 0.9, 0.6, 0.9, 0.9], [0.8, 0.8, 0.8, 0.8, 0.4]]
    means, worst, where = lesion_drops(runs)
    assert [round(m, 3) for m in means] == [0.075, 0.1]
    assert [round(w, 3) for w in worst] == [0.3, 0.4]
    assert where == [1, 3]
    # a lesion that helps is a negative drop, never the worst
    assert lesion_drops([[0.5, 0.7, 0.4]])[2] == [1]


def test_linear_decay_drops_the_last_block_with_p_last_and_expected_depth_adds_up():
    probs = drop_probabilities(10, 0.5)
    assert probs[-1] == 0.5 and probs[0] == 0.05
    assert all(a < b for a, b in zip(probs, probs[1:], strict=False))
    assert math.isclose(expected_depth(10, 0.5), 10 - 0.5 * 11 / 2)


def test_stochastic_depth_drops_as_often_as_its_probability_and_scales_at_test_time():
    torch.manual_seed(0)
    block = Block(MLPConfig(width=8))
    wrapped = StochasticDepth(block, 0.3, torch.Generator().manual_seed(0))
    x = torch.randn(16, 8)
    wrapped.train()
    dropped = sum(torch.equal(wrapped(x), x) for _ in range(2000))
    assert 0.25 < dropped / 2000 < 0.35  # binomial: 600 ± 20 standard deviations of 20
    wrapped.eval(), block.eval()
    with torch.no_grad():
        expected = x + 0.7 * block.branch(x)
    assert torch.allclose(wrapped(x), expected)
    assert not torch.allclose(wrapped(x), block(x))  # not the training-time block


@pytest.mark.slow
def test_stochastic_depth_nets_learn_and_lose_little_to_a_lesion():
    from resdoc.going_deeper import train_stochastic

    test_set = digits()[1]
    cfg = replace(PAPER_RECIPE, epochs=10)
    runs = [
        lesion_study({"sd": train_stochastic(6, seed, 0.5, cfg)}, test_set)["sd"]
        for seed in (0, 1, 2)
    ]
    assert min(run[0] for run in runs) > 0.8
    assert max(run[0] - statistics.mean(run[1:]) for run in runs) < 0.05
