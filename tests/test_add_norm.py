"""Chapter 04-add-norm: the two block orders do what their formulas say, and the claims
the page makes hold on other seeds than the page uses (medians and ranges, with margins)."""

from functools import cache

import numpy as np
import torch

from resdoc.add_norm import (
    Block,
    Encoder,
    RMSNorm,
    TransformerConfig,
    adaptive_step_spread,
    init_grad_profile,
    layer_norm,
    power_fit,
    radam_rectifier,
    rms_vs_layer_norm,
    stream_profile,
    train_reversal,
)


def test_layer_norm_normalises_each_token():
    x = 3 + 5 * torch.randn(4, 6, 16)
    y = layer_norm(x, torch.ones(16), torch.zeros(16))
    assert torch.allclose(y.mean(-1), torch.zeros(4, 6), atol=1e-5)
    assert torch.allclose(y.var(-1, unbiased=False), torch.ones(4, 6), atol=1e-3)


def test_pre_ln_block_adds_sublayer_of_normalised_input():
    torch.manual_seed(0)
    block = Block(TransformerConfig(pre_ln=True))
    x = torch.randn(2, 8, 32)
    h = x + block.attn(block.ln_1(x))
    assert torch.allclose(block(x), h + block.mlp(block.ln_2(h)), atol=1e-6)


def test_post_ln_block_normalises_after_the_addition():
    torch.manual_seed(0)
    block = Block(TransformerConfig(pre_ln=False))
    x = torch.randn(2, 8, 32)
    h = block.ln_1(x + block.attn(x))
    out = block(x)
    assert torch.allclose(out, block.ln_2(h + block.mlp(h)), atol=1e-6)
    assert torch.allclose(out.mean(-1), torch.zeros(2, 8), atol=1e-5)  # LN came last


def test_only_pre_ln_has_a_final_layer_norm():
    assert isinstance(Encoder(TransformerConfig(pre_ln=True)).ln_f, torch.nn.LayerNorm)
    assert not isinstance(Encoder(TransformerConfig(pre_ln=False)).ln_f, torch.nn.LayerNorm)


def test_post_and_pre_ln_share_their_weights_for_one_seed():
    torch.manual_seed(3)
    post = Encoder(TransformerConfig(pre_ln=False)).state_dict()
    torch.manual_seed(3)
    pre = Encoder(TransformerConfig(pre_ln=True)).state_dict()
    assert all(torch.equal(post[name], pre[name]) for name in post)


SEEDS = range(10, 16)  # not the page's seeds


@cache  # both tests below read the 24-layer profiles: computed once
def _profiles(n_layer: int, pre_ln: bool) -> np.ndarray:
    return np.array([init_grad_profile(n_layer, pre_ln, seed, batches=2) for seed in SEEDS])


def test_gradient_profiles_post_ln_towards_the_output_pre_ln_towards_the_input():
    post, pre = _profiles(24, pre_ln=False), _profiles(24, pre_ln=True)
    assert np.median(post[:, -1] / post[:, 0]) > 1.3  # the page's seeds: about 2
    assert (pre[:, -1] / pre[:, 0]).max() < 0.9  # the page's seeds: at most about 0.7


def test_post_over_pre_last_layer_ratio_grows_with_depth():
    ratio = {L: _profiles(L, False)[:, -1] / _profiles(L, True)[:, -1] for L in (3, 24)}
    assert np.median(ratio[24]) > 1.5 * np.median(ratio[3])  # the page's seeds: about 2.1x
    assert ratio[3].min() > 1.0  # Post-LN's last layer is larger at every depth


def test_post_ln_needs_warmup_at_a_high_learning_rate():
    final = {
        setting: [
            train_reversal(pre_ln, warmup, lr=3e-2, steps=150, seed=seed)["accuracy"][-1]
            for seed in (10, 11)  # two held-out seeds; the page's claims check five
        ]
        for setting, (pre_ln, warmup) in {
            "post": (False, 0),
            "post_warmup": (False, 50),
            "pre": (True, 0),
        }.items()
    }
    assert max(final["post"]) < 0.2  # chance is 0.1
    assert min(final["post_warmup"]) > 0.8
    assert min(final["pre"]) > 0.8


def test_rms_norm_matches_the_formula_and_pytorch():
    torch.manual_seed(0)
    norm = RMSNorm(16)
    with torch.no_grad():
        norm.weight.copy_(torch.rand(16) + 0.5)  # a gain other than 1
    x = 3 + 2 * torch.randn(4, 5, 16)
    reference = x / torch.sqrt((x**2).mean(-1, keepdim=True) + 1e-6) * norm.weight
    assert torch.allclose(norm(x), reference, atol=1e-6)
    theirs = torch.nn.RMSNorm(16, eps=1e-6)
    with torch.no_grad():
        theirs.weight.copy_(norm.weight)
    assert torch.allclose(norm(x), theirs(x), atol=1e-6)


def test_rms_norm_ignores_scale_but_not_shift():
    torch.manual_seed(0)
    x, norm = torch.randn(3, 16), RMSNorm(16)
    assert torch.allclose(norm(7 * x), norm(x), atol=1e-5)
    assert not torch.allclose(norm(x + 1), norm(x), atol=0.1)
    assert rms_vs_layer_norm(0.0, seed=7) < 1e-5 < 0.5 < rms_vs_layer_norm(1.0, seed=7)


def test_final_ln_is_an_option_that_changes_no_weight():
    assert isinstance(Encoder(TransformerConfig(final_ln=False)).ln_f, torch.nn.Identity)
    torch.manual_seed(1)
    with_ln = Encoder(TransformerConfig()).state_dict()
    torch.manual_seed(1)
    without = Encoder(TransformerConfig(final_ln=False)).state_dict()
    assert all(torch.equal(without[name], with_ln[name]) for name in without)


def test_stream_profile_adds_up_and_grows_about_like_sqrt():
    profiles = [stream_profile(32, seed) for seed in (20, 21, 22)]  # not the page's seeds
    blocks = np.arange(1, 33)
    for p in profiles:
        # ||x_L||^2 - ||x_0||^2 is exactly the sum of the branch and cross terms
        growth = p["stream"][-1] ** 2 - p["stream"][0] ** 2
        assert abs(growth - p["branch"].sum() - p["cross"].sum()) < 1e-3 * growth
        assert np.allclose(p["head_in"], np.sqrt(32), rtol=1e-4)  # the final LN fixes the scale
        assert p["relative"][-1] < 0.6 * p["relative"][0]
    exponents = [power_fit(blocks, p["writes"][1:]) for p in profiles]
    assert 0.4 < np.median(exponents) < 0.75  # the page: about 0.57 over 64 blocks


def test_adams_adaptive_step_settles_and_radam_waits():
    first, tenth, fiftieth = adaptive_step_spread((1, 10, 50), beta2=0.98, seed=3)
    assert first > 5 * fiftieth and first > tenth > fiftieth > 1
    r = [radam_rectifier(t, 0.98) for t in range(1, 2000)]
    assert r[0] == 0.0 and r[-1] > 0.99
    assert all(b >= a - 1e-9 for a, b in zip(r, r[1:], strict=False))  # r_t never falls
