"""Chapter 07-conv-resnets: ResNet and DenseNet counts against the published ones, block
shapes, and the shortcut paths of the block orderings and of highway layers."""

import pytest
import torch

from resdoc.conv_resnets import (
    CONFIGS,
    PAPER_FLOPS,
    PUBLISHED_PARAMS,
    BasicBlock,
    Bottleneck,
    block_cost,
    count,
    n_params,
    other_ops,
    resnet,
)
from resdoc.conv_resnets_variants import (
    ORDERINGS,
    PUBLISHED_DENSENET121,
    DenseLayer,
    HighwayLayer,
    OrderedBlock,
    ResidualLayer,
    after_add_relu_share,
    dense_block,
    densenet121,
    gradient_profile,
    ordering_runs,
    stack_output,
)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_resnet_has_the_published_parameter_count(name):
    assert n_params(resnet(name)) == PUBLISHED_PARAMS[name]


def test_resnet50_has_25557032_parameters():
    assert n_params(resnet("resnet50")) == 25_557_032


def test_module_names_follow_torchvision():
    keys = resnet("resnet50").state_dict().keys()
    for key in ("conv1.weight", "bn1.running_mean", "layer1.0.conv3.weight",
                "layer1.0.downsample.0.weight", "layer4.2.bn3.bias", "fc.bias"):  # fmt: skip
        assert key in keys
    assert "layer1.1.downsample.0.weight" not in keys  # identity where the shape is kept


def test_projections_only_where_the_shape_changes():
    for name, expected in (("resnet18", 3), ("resnet50", 4)):  # ResNet-50's first block widens too
        model = resnet(name)
        found = sum(1 for m in model.modules() if getattr(m, "downsample", None) is not None)
        assert found == expected


@pytest.mark.slow
def test_multiply_adds_agree_with_the_paper_to_its_precision():
    for name in CONFIGS:
        macs = sum(s["macs"] for s in count(resnet(name, stride_on_3x3=False)).values())
        assert PAPER_FLOPS[name] <= macs < PAPER_FLOPS[name] + 0.1e9
    paper = resnet("resnet50", stride_on_3x3=False)
    assert other_ops(paper) < 0.02 * PAPER_FLOPS["resnet50"]  # BN, ReLU, additions, pooling
    v15 = sum(s["macs"] for s in count(resnet("resnet50")).values())
    assert v15 > PAPER_FLOPS["resnet50"] + 0.2e9  # torchvision's stride placement costs more


def test_stride_placement_keeps_the_parameters():
    assert n_params(resnet("resnet50", stride_on_3x3=False)) == PUBLISHED_PARAMS["resnet50"]


def test_stage_shapes_of_resnet18():
    stats = count(resnet("resnet18"))
    assert stats["conv1"]["shape"] == (64, 112, 112)
    assert [stats[f"layer{i}"]["shape"] for i in (1, 4)] == [(64, 56, 56), (512, 7, 7)]
    assert stats["fc"]["shape"] == (1000,)
    assert sum(s["params"] for s in stats.values()) == PUBLISHED_PARAMS["resnet18"]


def test_bottleneck_contracts_then_expands():
    block = Bottleneck(256, 64)
    assert (block.conv1.out_channels, block.conv2.out_channels, block.conv3.out_channels) == (
        64, 64, 256)  # fmt: skip
    basic, bottle = block_cost(BasicBlock(256, 256), 256), block_cost(block, 256)
    assert bottle[0] * 10 < basic[0] and bottle[1] * 10 < basic[1]


def test_basic_block_with_zero_branch_is_relu_of_its_input():
    block = BasicBlock(8, 8).eval()
    torch.nn.init.zeros_(block.bn2.weight)  # zero-initialized last BN γ: F(x) = β = 0
    x = torch.randn(2, 8, 5, 5)
    assert torch.equal(block(x), torch.relu(x))


@pytest.mark.parametrize("ordering", ORDERINGS)
def test_only_orderings_without_anything_after_the_sum_are_the_identity(ordering):
    torch.manual_seed(0)
    blocks = [OrderedBlock(ordering, 4) for _ in range(3)]
    for block in blocks:
        torch.nn.init.zeros_(block.conv2.weight), torch.nn.init.zeros_(block.conv2.bias)
    x = torch.randn(8, 4, 5, 5)
    identity = torch.allclose(stack_output(blocks, x), x)
    assert identity == (ordering in ("relu_before_add", "relu_only_preact", "full_preact"))


def test_zero_branch_original_block_is_the_identity_on_post_relu_inputs_only():
    # signed inputs lose their negative half to the ReLU after the addition (√½ of the norm for
    # a Gaussian); a real block's input comes out of a ReLU, where ReLU(x + 0) = x
    torch.manual_seed(0)
    blocks = [OrderedBlock("original", 4) for _ in range(3)]
    for block in blocks:
        torch.nn.init.zeros_(block.conv2.weight), torch.nn.init.zeros_(block.conv2.bias)
    signed = torch.randn(64, 4, 5, 5)
    with torch.no_grad():
        assert torch.equal(stack_output(blocks, torch.relu(signed)), torch.relu(signed))
        moved = (stack_output(blocks, signed) - signed).norm() / signed.norm()
    assert abs(moved - 0.5**0.5) < 0.02


def test_ordering_runs_measure_post_relu_inputs_and_the_cut_share():
    runs = ordering_runs(depth=4, seeds=(0, 1), channels=4, size=5, batch=8)
    assert set(runs) == set(ORDERINGS)
    assert max(runs["original"]["moved"]) == 0.0  # the identity forwards, on post-ReLU inputs
    assert min(runs["bn_after_add"]["moved"]) > 0.1  # BN on the trunk is not
    assert all(0.05 < share < 0.5 for share in runs["original"]["masked"])
    assert "masked" not in runs["full_preact"]


def test_after_add_relu_share_counts_the_entries_the_relu_cuts():
    torch.manual_seed(0)
    block = OrderedBlock("original", 2)
    torch.nn.init.zeros_(block.conv2.weight), torch.nn.init.zeros_(block.conv2.bias)
    x = torch.tensor([1.0, -1.0, 0.0, 2.0]).reshape(1, 1, 2, 2).repeat(1, 2, 1, 1)
    # F = BN(0) = 0: the sum is x itself, two of whose four entries are <= 0
    assert after_add_relu_share([block], x) == 0.5


def test_shortcut_gradient_is_one_for_pre_activation_and_smaller_after_a_relu():
    torch.manual_seed(0)
    x = torch.randn(8, 4, 5, 5)
    pre = gradient_profile([OrderedBlock("full_preact", 4) for _ in range(5)], x)
    post = gradient_profile([OrderedBlock("original", 4) for _ in range(5)], x)
    assert max(abs(g - 1) for g in pre) < 1e-6
    assert post[-1] < 0.9 and all(a > b for a, b in zip(post, post[1:], strict=False))


def test_highway_carry_gradient_is_r_times_one_minus_the_gate():
    torch.manual_seed(0)
    layer, x = HighwayLayer(6, gate_bias=-1.0), torch.randn(5, 6)
    torch.manual_seed(1)
    ratio = gradient_profile([layer], x)[1]
    torch.manual_seed(1)
    r = torch.randn(5, 6)
    with torch.no_grad():
        expected = (r * (1 - torch.sigmoid(layer.gate(x)))).norm() / r.norm()
    assert ratio == pytest.approx(float(expected), rel=1e-5)


def test_residual_layer_carries_the_gradient_unchanged():
    torch.manual_seed(0)
    profile = gradient_profile([ResidualLayer(6) for _ in range(10)], torch.randn(5, 6))
    assert max(abs(g - 1) for g in profile) < 1e-6


def test_dense_block_widths_and_direct_paths():
    torch.manual_seed(0)
    block = dense_block(16, 8, 4).eval()
    assert [layer.norm1.num_features for layer in block] == [16, 24, 32, 40]
    x = torch.randn(1, 16, 6, 6)
    y = block(x)
    assert y.shape == (1, 48, 6, 6) and torch.equal(y[:, :16], x)
    first = block[0](x)[:, 16:]  # layer 0's new channels reach the output untouched
    assert torch.equal(y[:, 16:24], first)
    assert isinstance(block[0], DenseLayer)


def test_densenet121_has_the_published_parameter_count():
    assert n_params(densenet121()) == PUBLISHED_DENSENET121 == 7_978_856
