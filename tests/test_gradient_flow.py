"""Chapter 03-gradient-flow: the Jacobian formula and the measured gradient behaviour."""

import statistics

import torch
import torch.nn.functional as F

from resdoc.gradient_flow import (
    FixedBatchNorm,
    gradient_profiles,
    input_gradients,
    jacobian_spectrum,
    make_stack,
    mean_field_gain,
    neighbour_correlation,
    residual_jacobian,
    scalar_net,
    shattering,
)
from resdoc.shortcut import ResidualBlock

SEEDS = range(4)


def test_residual_jacobian_is_identity_plus_branch_jacobian():
    torch.manual_seed(0)
    block = ResidualBlock(dim=5, hidden=7)
    autograd, formula = residual_jacobian(block, torch.randn(5))
    assert torch.allclose(autograd, formula, atol=1e-6)
    assert not torch.allclose(autograd, formula - torch.eye(5), atol=1e-3)  # the I matters


def input_to_output_ratios(init: str, scaled=False, depth=20) -> dict[str, list[float]]:
    """||dl/dx_0|| / ||dl/dx_L|| per kind of stack, one value per seed."""
    ratios = {}
    for seed in SEEDS:
        profiles = gradient_profiles(depth, dim=16, hidden=16, init=init, scaled=scaled, seed=seed)
        for kind, grads in profiles.items():
            ratios.setdefault(kind, []).append(grads[0] / grads[-1])
    return ratios


def test_default_init_gradient_vanishes_without_shortcuts_only():
    ratios = input_to_output_ratios("default")
    assert max(ratios["plain"]) < 1e-6
    assert min(ratios["residual"]) > 1.0


def test_he_init_residual_explodes_unless_scaled():
    ratios = input_to_output_ratios("he", scaled=True)
    assert 0.05 < statistics.median(ratios["plain"]) < 20
    assert min(ratios["residual"]) > 100
    assert max(ratios["residual-scaled"]) < 10


def test_fixed_batch_norm_matches_batch_statistics_then_holds_them():
    torch.manual_seed(0)
    x = 3 * torch.randn(64, 5) + 1
    norm = FixedBatchNorm()
    assert torch.allclose(norm(x), F.batch_norm(x, None, None, training=True), atol=1e-5)
    assert torch.allclose(norm(x[:3]), norm(x)[:3])  # a smaller batch is normalized the same way


def test_input_gradients_are_each_points_own_derivative():
    net = scalar_net(depth=3, residual=True, width=16, seed=0)
    x, grads = input_gradients(net)  # sets the batch-norm statistics from the grid
    net, h = net.double(), 1e-3
    with torch.no_grad():  # one point at a time: the statistics stay those of the grid
        point = x[100:101].unsqueeze(1).double()
        numeric = (net(point + h) - net(point - h)) / (2 * h)
    assert abs(numeric.item() - grads[100].item()) < 1e-3 * max(1.0, abs(numeric.item()))


def test_neighbour_correlation_of_smooth_and_of_noise():
    x = torch.linspace(-2, 2, 256)
    assert neighbour_correlation(torch.sin(x)) > 0.99
    torch.manual_seed(0)
    assert abs(neighbour_correlation(torch.randn(256))) < 0.2


def median_correlation(depth: int, **net) -> float:
    return statistics.median(shattering([depth], seeds=SEEDS, **net)[0][0])


def test_batch_normalized_plain_net_shatters_and_residual_net_does_not():
    shallow = median_correlation(2, residual=False)
    plain = median_correlation(24, residual=False)
    residual = median_correlation(24, residual=True)
    assert shallow > 0.8
    assert abs(plain) < 0.3  # neighbouring gradients all but uncorrelated
    assert residual > plain + 0.4


def test_without_batch_norm_the_plain_net_shatters_more_slowly():
    with_norm = median_correlation(24, residual=False)
    without = median_correlation(24, residual=False, norm=False)
    assert without > with_norm + 0.4


def test_batch_normalized_plain_net_gradient_grows_with_depth_instead_of_vanishing():
    sizes = {d: shattering([d], seeds=SEEDS, residual=False)[1][0] for d in (2, 16)}
    assert min(sizes[16]) > 5 * max(sizes[2])


def test_spectrum_of_one_residual_block_is_that_of_identity_plus_branch_jacobian():
    torch.manual_seed(3)  # jacobian_spectrum draws the block, then x_0, from this seed
    (block,) = make_stack(1, 6, 6, residual=True, init="he").double()
    x0 = torch.randn(6, dtype=torch.float64)
    _, formula = residual_jacobian(block, x0)
    expected = torch.linalg.svdvals(formula)
    assert torch.allclose(jacobian_spectrum(1, "residual", seed=3, width=6), expected)


def test_plain_jacobian_loses_directions_and_residual_ones_keep_them():
    for seed in SEEDS:
        plain, residual = (
            jacobian_spectrum(4, kind, seed, width=16) for kind in ("plain", "residual")
        )
        assert (plain > 1e-10 * plain[0]).sum() < 16  # ReLU zeroes the inactive units' directions
        assert residual[-1] > 1e-10 * residual[0]


def test_mean_squared_singular_value_follows_mean_field_and_scaling_bounds_the_spread():
    def mean_square(kind):
        return statistics.mean(
            (jacobian_spectrum(8, kind, s, width=32) ** 2).mean().item() for s in SEEDS
        )

    assert 0.5 < mean_square("residual") / mean_field_gain("residual", 8) < 2  # 2^8 = 256
    assert abs(mean_square("residual-scaled") / mean_field_gain("residual-scaled", 8) - 1) < 0.15
    for seed in SEEDS:
        scaled = jacobian_spectrum(8, "residual-scaled", seed, width=32)
        assert scaled[0] / scaled[-1] < 100  # unscaled: > 1e3 already at depth 4
