"""Chapter 04-add-norm, Admin: the weighed Post-LN stack is the chapter's Post-LN block when every
omega is 1, omega follows the summed branch variances, and the page's amplification claims hold
on seeds the page does not use."""

import numpy as np
import torch

from resdoc.add_norm import Encoder, TransformerConfig
from resdoc.add_norm_admin import admin_omegas, output_change, post_ln_stream


def _post_ln(n_layer: int, seed: int):
    torch.manual_seed(seed)
    model = Encoder(TransformerConfig(n_layer=n_layer, pre_ln=False)).eval()
    x0 = model.tok(torch.randint(0, 10, (4, 8))) + model.pos
    return model, x0


@torch.no_grad()
def test_omegas_of_one_give_the_chapters_post_ln_blocks():
    model, x = _post_ln(3, seed=7)
    expected = x
    for block in model.blocks:
        expected = block(expected)
    assert torch.allclose(post_ln_stream(model, x), expected, atol=1e-6)
    assert not torch.allclose(post_ln_stream(model, x, [2.0] * 6), expected, atol=1e-3)


@torch.no_grad()
def test_omega_squared_is_the_input_variance_plus_the_earlier_branches_variances():
    model, x0 = _post_ln(2, seed=8)
    omegas = admin_omegas(model, x0)
    summed, x = x0.var().item(), x0
    for i, block in enumerate(model.blocks):
        for j, (norm, branch) in enumerate(((block.ln_1, block.attn), (block.ln_2, block.mlp))):
            assert np.isclose(omegas[2 * i + j] ** 2, summed, rtol=1e-5)
            f = branch(x)
            x = norm(omegas[2 * i + j] * x + f)
            summed += f.var().item()
    assert all(b > a for a, b in zip(omegas, omegas[1:], strict=False))


def test_post_ln_amplifies_more_than_pre_ln_and_admin_on_held_out_seeds():
    for seed in (5, 6):
        change = {
            kind: output_change(12, seed, kind)["change"] for kind in ("post", "pre", "admin")
        }
        assert change["post"] > 1.2 * change["pre"] and change["post"] > 1.2 * change["admin"]
        assert 0.75 < change["admin"] / change["pre"] < 1.1
