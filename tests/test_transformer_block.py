"""Chapter 08-transformer-block: the reference block matches PyTorch's and keeps its promises."""

import pytest
import torch
from torch import nn

from resdoc.transformer_block import (
    BlockConfig,
    DecoderLayer,
    EncoderLayer,
    sublayer_params,
    zero_branch_change,
)

CFG = dict(d_model=16, n_head=4, d_ff=32)


def _copy_attention(ours, theirs):
    theirs.in_proj_weight.copy_(torch.cat([ours.q.weight, ours.k.weight, ours.v.weight]))
    theirs.in_proj_bias.copy_(torch.cat([ours.q.bias, ours.k.bias, ours.v.bias]))
    theirs.out_proj.weight.copy_(ours.o.weight)
    theirs.out_proj.bias.copy_(ours.o.bias)


def _copy_common(ours, theirs, lns):
    _copy_attention(ours.attn, theirs.self_attn)
    for mine, name in ((ours.ffn.up, "linear1"), (ours.ffn.down, "linear2")):
        getattr(theirs, name).load_state_dict(mine.state_dict())
    for mine, name in lns:
        getattr(theirs, name).load_state_dict(mine.state_dict())


@pytest.mark.parametrize("pre_ln", [False, True])
@torch.no_grad()
def test_encoder_layer_matches_pytorch(pre_ln):
    torch.manual_seed(0)
    ours = EncoderLayer(BlockConfig(**CFG, pre_ln=pre_ln))
    theirs = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True, norm_first=pre_ln)
    _copy_common(ours, theirs, [(ours.ln_1, "norm1"), (ours.ln_2, "norm2")])
    theirs.eval()
    x = torch.randn(2, 7, 16)
    assert torch.allclose(ours(x), theirs(x), atol=1e-5)


@pytest.mark.parametrize("pre_ln", [False, True])
@torch.no_grad()
def test_decoder_layer_matches_pytorch(pre_ln):
    torch.manual_seed(0)
    ours = DecoderLayer(BlockConfig(**CFG, pre_ln=pre_ln))
    theirs = nn.TransformerDecoderLayer(16, 4, 32, dropout=0.0, batch_first=True, norm_first=pre_ln)
    _copy_common(ours, theirs, [(ours.ln_1, "norm1"), (ours.ln_2, "norm2"), (ours.ln_3, "norm3")])
    _copy_attention(ours.cross, theirs.multihead_attn)
    theirs.eval()
    x, memory = torch.randn(2, 5, 16), torch.randn(2, 9, 16)
    mask = nn.Transformer.generate_square_subsequent_mask(5)
    assert torch.allclose(ours(x, memory), theirs(x, memory, tgt_mask=mask), atol=1e-5)


@torch.no_grad()
def test_decoder_does_not_look_ahead():
    torch.manual_seed(0)
    layer = DecoderLayer(BlockConfig(**CFG))
    x, memory = torch.randn(1, 6, 16), torch.randn(1, 4, 16)
    changed = x.clone()
    changed[:, 4:] = torch.randn(1, 2, 16)
    assert torch.allclose(layer(x, memory)[:, :4], layer(changed, memory)[:, :4], atol=1e-6)
    assert not torch.allclose(layer(x, memory)[:, 4:], layer(changed, memory)[:, 4:])


@torch.no_grad()
def test_zero_branches_make_pre_ln_the_identity_but_not_post_ln():
    torch.manual_seed(0)
    x = torch.randn(2, 5, 16)
    for pre_ln, identity in ((True, True), (False, False)):
        layer = EncoderLayer(BlockConfig(**CFG, pre_ln=pre_ln))
        for linear in (layer.attn.o, layer.ffn.down):  # the last layer of each branch
            linear.weight.zero_()
            linear.bias.zero_()
        assert torch.allclose(layer(x), x) is identity


def test_parameter_counts_add_up():
    counts = sublayer_params(BlockConfig(d_model=512, n_head=8, d_ff=2048))
    assert counts["encoder"] == counts["attention"] + counts["ffn"]
    assert counts["decoder"] == counts["encoder"] + counts["attention"]  # plus cross-attention


def test_zero_branch_change_over_seeds_is_zero_for_pre_ln_only():
    assert zero_branch_change(pre_ln=True, seeds=range(3)) == 0.0
    assert zero_branch_change(pre_ln=False, seeds=range(3)) > 0.1
