"""Chapter 04-add-norm: the two block orders do what their formulas say, and the claims
the page makes hold on small, fast settings (other seeds than the page uses)."""

import torch

from resdoc.add_norm import (
    Block,
    Encoder,
    TransformerConfig,
    init_grad_norms,
    layer_norm,
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


def test_post_ln_gradient_grows_towards_the_output_pre_ln_does_not():
    post = init_grad_norms(12, pre_ln=False, seeds=range(10, 13))
    pre = init_grad_norms(12, pre_ln=True, seeds=range(10, 13))
    assert post[-1] / post[0] > 1.2
    assert pre[-1] / pre[0] < 1.0


def test_post_ln_needs_warmup_at_a_high_learning_rate():
    final = {
        (pre_ln, warmup): train_reversal(pre_ln, warmup, lr=3e-2, steps=100, seed=1)["accuracy"][-1]
        for pre_ln, warmup in ((False, 0), (False, 50), (True, 0))
    }
    assert final[(False, 0)] < 0.2  # chance is 0.1
    assert final[(False, 50)] > 0.9
    assert final[(True, 0)] > 0.9
