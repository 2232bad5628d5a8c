"""Chapter 03-gradient-flow: the Jacobian formula and the measured gradient behaviour."""

import statistics

import torch

from resdoc.gradient_flow import (
    gradient_profiles,
    input_gradients,
    neighbour_correlation,
    residual_jacobian,
    scalar_net,
    shattering,
)
from resdoc.shortcut import ResidualBlock


def test_residual_jacobian_is_identity_plus_branch_jacobian():
    torch.manual_seed(0)
    block = ResidualBlock(dim=5, hidden=7)
    autograd, formula = residual_jacobian(block, torch.randn(5))
    assert torch.allclose(autograd, formula, atol=1e-6)
    assert not torch.allclose(autograd, formula - torch.eye(5), atol=1e-3)  # the I matters


def test_default_init_gradient_vanishes_without_shortcuts_only():
    profiles = gradient_profiles(depth=20, dim=16, hidden=16, init="default", seed=0)
    plain, residual = profiles["plain"], profiles["residual"]
    assert plain[0] / plain[-1] < 1e-6
    assert residual[0] / residual[-1] > 1.0


def test_he_init_residual_explodes_unless_scaled():
    profiles = gradient_profiles(depth=20, dim=16, hidden=16, init="he", scaled=True, seed=0)
    ratio = {kind: grads[0] / grads[-1] for kind, grads in profiles.items()}
    assert 0.1 < ratio["plain"] < 10
    assert ratio["residual"] > 100
    assert ratio["residual-scaled"] < 10


def test_neighbour_correlation_of_smooth_and_of_noise():
    x = torch.linspace(-2, 2, 256)
    assert neighbour_correlation(torch.sin(x)) > 0.99
    torch.manual_seed(0)
    assert abs(neighbour_correlation(torch.randn(256))) < 0.2


def test_input_gradients_match_finite_differences():
    net = scalar_net(depth=3, residual=True, width=16, seed=0)
    x, grads = input_gradients(net)
    net = net.double()
    h = 1e-4
    with torch.no_grad():
        point = x[100:101].double().unsqueeze(1)
        numeric = (net(point + h) - net(point - h)) / (2 * h)
    assert abs(numeric.item() - grads[100].item()) < 1e-3 * max(1.0, abs(numeric.item()))


def test_shortcuts_keep_gradients_of_neighbouring_inputs_correlated():
    depths, seeds = [30], range(4)
    plain = statistics.median(
        shattering(depths, residual=False, seeds=seeds, init="he", width=64)[0]
    )
    scaled = statistics.median(
        shattering(depths, residual=True, seeds=seeds, init="he-scaled", width=64)[0]
    )
    shallow = statistics.median(
        shattering([1], residual=False, seeds=seeds, init="he", width=64)[0]
    )
    assert plain < shallow - 0.05  # depth shatters the plain net's gradients
    assert scaled > plain + 0.05  # shortcuts keep them correlated
