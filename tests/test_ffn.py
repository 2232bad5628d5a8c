"""Chapter 08-ffn: the claims its page makes, checked on small fast settings."""

import torch

from resdoc.ffn import (
    SelfAttention,
    SwiGLU,
    additivity_gap,
    homogeneity_gap,
    linearity_table,
    parameter_counts,
    rank1_residual,
    rank_collapse,
    swiglu_width,
)
from resdoc.models import FeedForward, n_params


def test_ffn_is_the_formula():
    torch.manual_seed(0)
    ffn = FeedForward(d_model=6, d_ff=24)
    x = torch.randn(3, 6)
    w1, b1, w2, b2 = ffn.up.weight.T, ffn.up.bias, ffn.down.weight.T, ffn.down.bias
    expected = torch.clamp(x @ w1 + b1, min=0) @ w2 + b2
    assert torch.allclose(ffn(x), expected, atol=1e-6)


def test_ffn_acts_on_each_token_separately():
    torch.manual_seed(0)
    ffn = FeedForward(d_model=6, d_ff=24)
    x = torch.randn(2, 5, 6)
    assert torch.allclose(ffn(x)[:, 3], ffn(x[:, 3]), atol=1e-6)


def test_swiglu_is_the_formula_and_matches_relu_ffn_in_size():
    torch.manual_seed(0)
    glu = SwiGLU(d_model=6, d_ff=16)
    x = torch.randn(3, 6)
    gate = x @ glu.gate.weight.T
    expected = (gate * torch.sigmoid(gate) * (x @ glu.up.weight.T)) @ glu.down.weight.T
    assert torch.allclose(glu(x), expected, atol=1e-6)
    counts = parameter_counts(d_model=96, n_head=4)
    assert abs(counts["swiglu"] - counts["ffn"]) / counts["ffn"] < 0.01
    assert n_params(SwiGLU(96, swiglu_width(96))) == 3 * 96 * swiglu_width(96)


def test_ffn_has_twice_the_parameters_of_attention():
    counts = parameter_counts(d_model=64, n_head=4)
    assert counts["ffn"] == 2 * 64 * 256 + 256 + 64
    assert counts["attention"] == 4 * 64 * 64 + 4 * 64
    assert 1.95 < counts["ffn"] / counts["attention"] < 2.05


def test_attention_weights_are_a_softmax_of_the_input():
    torch.manual_seed(0)
    attn = SelfAttention(8)
    x = torch.randn(5, 8)
    p = attn.weights(x)
    assert torch.allclose(p.sum(-1), torch.ones(5))
    assert not torch.allclose(p, attn.weights(2 * x))  # the weights move with the input


def test_attention_is_not_linear_but_a_linear_map_is():
    torch.manual_seed(0)
    attn = SelfAttention(16)
    x, y = torch.randn(8, 16), torch.randn(8, 16)
    w = torch.randn(16, 16)
    with torch.no_grad():
        assert additivity_gap(attn, x, y) > 0.1
        assert homogeneity_gap(attn, x) > 0.1
        assert additivity_gap(lambda z: z @ w, x, y) < 1e-5
        frozen = attn.weights(x)
        assert additivity_gap(lambda z: attn(z, weights=frozen), x, y) < 1e-5


def test_rank1_residual_is_zero_only_for_equal_tokens():
    assert rank1_residual(torch.ones(4, 3)) == 0.0
    assert rank1_residual(torch.eye(3)) > 0.5


def test_attention_is_not_linear_over_seeds_unless_its_weights_are_frozen():
    table = linearity_table(d_model=16, seq=8, scales=(0.1, 1.0), seeds=range(4))
    for name in ("frozen", "linear"):
        assert table[name]["additivity"].max() < 1e-5
        assert table[name]["homogeneity"].max() < 1e-5
    assert table["attention"]["additivity"][:, 1].min() > 0.2  # every seed, at s = 1
    assert table["attention"]["additivity"][:, 0].max() < 0.1  # nearly linear for small inputs
    assert table["ffn_no_bias"]["homogeneity"].max() < 1e-5  # ReLU is positively homogeneous


def test_pure_attention_collapses_and_shortcuts_slow_it_down():
    stacks = rank_collapse(depth=12, d_model=16, seq=8, seeds=range(3))
    res = {kind: parts["res"] for kind, parts in stacks.items()}
    assert res["attention"][:, 4].max() < 1e-5  # float precision after a few layers
    assert res["attention+shortcut"][:, 4].min() > 1e-2  # far from collapsed at the same depth
    assert res["attention+shortcut"][:, 12].median() < res["attention+shortcut"][:, 0].median() / 5
    assert res["pre-ln"][:, 12].median() > res["attention+shortcut"][:, 12].median()


def test_rank_collapse_parts_are_the_orthogonal_split_of_the_stream():
    stacks = rank_collapse(depth=3, d_model=8, seq=5, seeds=range(2))
    parts = stacks["attention+shortcut"]
    total = (parts["shared"].square() + parts["differing"].square()).sqrt()
    assert torch.allclose(parts["res"], parts["differing"] / total)
    torch.manual_seed(0)
    x0 = torch.randn(5, 8)  # the first seed's input: layer 0 of every stack
    assert abs(parts["res"][0, 0].item() - rank1_residual(x0)) < 1e-6
