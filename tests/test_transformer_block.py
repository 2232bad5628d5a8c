"""Chapter 09-transformer-block: the reference block matches PyTorch's and keeps its promises."""

import pytest
import torch
from torch import nn

from resdoc.data import reversal_batch
from resdoc.transformer_block import (
    BlockConfig,
    DecoderLayer,
    EncoderLayer,
    PreLNStack,
    decompose,
    scale_output_projections,
    stream_growth,
    stream_writes,
    sublayer_params,
    train_stack,
    zero_branch_change,
)
from resdoc.transformer_block_parallel import ParallelLayer, parallel_twin, serial_vs_parallel

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


@torch.no_grad()
def test_the_final_stream_is_the_embedding_plus_every_write():
    torch.manual_seed(0)
    model = PreLNStack(BlockConfig(**CFG), n_layers=3, vocab=10, length=6)
    x0 = model.embed(torch.randint(10, (4, 6)))
    x = x0
    for layer in model.layers:
        x = layer(x)
    writes = stream_writes(model.layers, x0)
    assert len(writes) == 6  # two sublayers per layer
    assert torch.allclose(x0 + sum(writes), x, atol=1e-5)
    assert all(not torch.allclose(w, torch.zeros_like(w)) for w in writes)


@pytest.mark.slow  # trains a small stack: a few seconds
def test_shares_add_up_to_one_and_training_moves_them_to_the_writes():
    tokens, _ = reversal_batch(64, 8, 10, torch.Generator().manual_seed(5))
    cfg = BlockConfig(d_model=32, n_head=4, d_ff=128)
    init, _ = train_stack(cfg, n_layers=2, seed=7, steps=0)  # not the page's seeds
    trained, accuracy = train_stack(cfg, n_layers=2, seed=7, steps=200)
    before, after = decompose(init, tokens), decompose(trained, tokens)
    for result in (before, after):
        assert result["error"] < 1e-5
        assert abs(sum(result["shares"]) - 1) < 1e-4
    assert before["shares"][0] > 0.7  # the page: about 0.88 at initialization
    assert accuracy > 0.9 and after["shares"][0] < 0.3  # the page: about 0.05 after training


@torch.no_grad()
def test_gpt2_scaling_multiplies_exactly_the_output_projections():
    torch.manual_seed(0)
    layers = [EncoderLayer(BlockConfig(**CFG, pre_ln=True)) for _ in range(3)]
    before = [{name: p.clone() for name, p in layer.named_parameters()} for layer in layers]
    scale_output_projections(layers, n_residual=6)
    for layer, old in zip(layers, before, strict=True):
        for name, p in layer.named_parameters():
            factor = 6**-0.5 if name.startswith(("attn.o.", "ffn.down.")) else 1.0
            assert torch.equal(p, old[name] * factor), name


def test_scaled_writes_are_smaller_by_one_over_n_and_the_stream_grows_less():
    cfg = BlockConfig(**CFG)
    plain, scaled = (stream_growth(cfg, 8, seed=0, scaled=s) for s in (False, True))
    # same seed, same weights and input: the first write is exactly 1/sqrt(16) of the unscaled one
    assert scaled["writes"][0] == pytest.approx(plain["writes"][0] / 16, rel=1e-5)
    assert plain["stream"][-1] ** 2 == pytest.approx(1 + sum(plain["writes"]), rel=0.1)
    assert scaled["stream"][-1] - 1 < 0.5 * (plain["stream"][-1] - 1)


@torch.no_grad()
def test_the_parallel_twin_differs_from_the_serial_layer_only_in_what_its_ffn_reads():
    torch.manual_seed(0)
    layer = EncoderLayer(BlockConfig(**CFG, pre_ln=True))
    twin = parallel_twin(layer)
    x = torch.randn(2, 5, 16)
    h = layer.ln_1(x)
    assert torch.allclose(twin(x), x + layer.attn(h) + layer.ffn(h), atol=1e-6)
    assert not torch.allclose(twin(x), layer(x), atol=1e-3)
    layer.attn.o.weight.zero_()  # attention writes nothing: the serial FFN reads LN(x) too
    layer.attn.o.bias.zero_()
    assert torch.allclose(twin(x), layer(x), atol=1e-6)


@torch.no_grad()
def test_the_parallel_layers_input_projections_fuse_into_one_matmul():
    torch.manual_seed(0)
    layer = EncoderLayer(BlockConfig(**CFG, pre_ln=True))
    twin = parallel_twin(layer)
    inputs = (twin.attn.q, twin.attn.k, twin.attn.v, twin.ffn.up)  # all read h = LN(x)
    fused = nn.Linear(16, sum(p.out_features for p in inputs))
    fused.weight.copy_(torch.cat([p.weight for p in inputs]))
    fused.bias.copy_(torch.cat([p.bias for p in inputs]))
    h = twin.ln(torch.randn(2, 5, 16))
    pieces = fused(h).split([p.out_features for p in inputs], dim=-1)
    for piece, projection in zip(pieces, inputs, strict=True):
        assert torch.allclose(piece, projection(h), atol=1e-6)
    assert isinstance(twin, ParallelLayer)


def test_serial_vs_parallel_runs_stream_growths_stack_and_its_twin():
    cfg = BlockConfig(**CFG)
    run = serial_vs_parallel(cfg, 4, seed=3)
    growth = stream_growth(cfg, 4, seed=3, scaled=False)["stream"]
    # the same weights and input: the serial stack is stream_growth's, two residual layers a layer
    assert run["serial"] == pytest.approx(growth[::2], rel=1e-5)
    assert all(0 < d < 1 for d in run["difference"]) and 0 < run["final"] < 1
    assert run["parallel"] != pytest.approx(run["serial"], rel=1e-4)
