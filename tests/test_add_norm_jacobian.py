"""Chapter 04-add-norm, the LayerNorm Jacobian: the formula is autograd's, and what the
LayerNorms of an encoder at initialization do to a gradient holds on other seeds than the
page uses."""

import numpy as np
import torch

from resdoc.add_norm_jacobian import (
    layer_norm_jacobian,
    layer_norm_jacobian_check,
    ln_gradient_profile,
)


def test_layer_norm_jacobian_matches_autograd_and_has_rank_d_minus_2():
    generator = torch.Generator().manual_seed(5)
    for d in (4, 16, 64):
        x = -1 + 4 * torch.randn(d, generator=generator, dtype=torch.float64)
        norm = torch.nn.LayerNorm(d).double()
        with torch.no_grad():
            norm.weight.copy_(0.5 + torch.rand(d, generator=generator, dtype=torch.float64))
        ours = layer_norm_jacobian(x, norm.weight.detach())
        theirs = torch.autograd.functional.jacobian(norm, x)
        assert torch.allclose(ours, theirs, atol=1e-10)
        plain = layer_norm_jacobian(x, torch.ones(d, dtype=torch.float64))
        sigma = torch.sqrt(x.var(unbiased=False) + 1e-5)
        singular = torch.linalg.svdvals(plain) * sigma
        assert torch.linalg.matrix_rank(plain, rtol=1e-4) == d - 2
        assert torch.allclose(singular[: d - 2], torch.ones(d - 2, dtype=torch.float64))
        assert singular[d - 2 :].max() < 1e-4  # the mean and x-hat directions
        ones = torch.ones(d, dtype=torch.float64)
        x_hat = (x - x.mean()) / sigma
        assert (ones @ plain).abs().max() < 1e-10  # no gradient along 1 passes back
        assert (x_hat @ plain).abs().max() < 1e-4  # nor along x-hat (exactly 0 when eps = 0)
    check = layer_norm_jacobian_check(seed=11)
    assert check["max_difference"] < 1e-5 and (check["at_one"], check["at_zero"]) == (30, 2)


def test_pre_ln_branches_pass_back_less_as_the_stream_grows():
    pre = [ln_gradient_profile(16, seed, True, probe_blocks=(1, 16)) for seed in (30, 31)]
    post = ln_gradient_profile(16, 30, False)
    for p in pre:
        assert p["off"] < 1e-5  # ||J||_2 = 1/sigma, measured
        assert p["sigma_1"][-1] > 1.5 * p["sigma_1"][0]  # the stream grows
        assert p["branch"][-1] < 0.75 * p["branch"][0]  # the branches pass back less
        steady = p["branch"] * p["sigma_1"]
        assert steady.max() < 1.5 * steady.min()  # ... by about the LayerNorm's division
    sigmas = np.concatenate([post["sigma_1"], post["sigma_2"]])
    assert sigmas.min() > 0.5 and sigmas.max() < 2  # Post-LN: of order one
