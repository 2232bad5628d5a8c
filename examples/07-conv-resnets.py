"""卷积残差网络 · Convolutional residual networks.

The basic and bottleneck blocks, the projection shortcut and ResNet-18/34/50 built in
``resdoc``: parameters and multiply-adds counted from the modules and checked against the
published totals. Then three neighbours of the identity shortcut: the block orderings of
"Identity Mappings in Deep Residual Networks", highway gates and DenseNet's concatenation,
measured at initialization. Run it by hand with ``python examples/07-conv-resnets.py``.
"""

# resdoc: time-limit = 120

# %% [markdown] lang="zh"
# # 卷积残差网络
#
# 先用 `resdoc` 搭出基本块、瓶颈块和 ResNet-18/34/50，数参数和乘加次数，与公开的数字核对；
# 再在初始化时测量三种“近亲”结构：块内 BN 与 ReLU 的不同顺序、高速公路网络的门控捷径、DenseNet 的拼接。

# %% [markdown] lang="en"
# # Convolutional residual networks
#
# First the basic block, the bottleneck block and ResNet-18/34/50, built in `resdoc`: we count
# their parameters and multiply-adds and check them against the published numbers. Then three
# relatives measured at initialization: the orderings of BN and ReLU in a block, the gated
# shortcut of highway networks and DenseNet's concatenation.

# %%
import math

import numpy as np

from resdoc import publish
from resdoc.bilingual import say
from resdoc.conv_resnets import (
    CONFIGS,
    PAPER_FLOPS,
    PUBLISHED_PARAMS,
    STAGES,
    BasicBlock,
    Bottleneck,
    block_cost,
    count,
    n_params,
    other_ops,
    projection,
    resnet,
)
from resdoc.conv_resnets_plots import paths_figure
from resdoc.conv_resnets_variants import (
    ORDERINGS,
    PAPER_TABLE2,
    PUBLISHED_DENSENET121,
    dense_block,
    densenet121,
    highway_runs,
    ordering_runs,
)

SEEDS = (0, 1, 2, 3, 4)
publish.setting("n_seeds", len(SEEDS), "{:d}")

# %% [markdown] lang="zh"
# ## 基本块与瓶颈块
#
# 在 56×56 的特征图上比较三种块：64 通道的基本块、256 通道的基本块、256 通道的瓶颈块（中间 64 通道）。

# %% [markdown] lang="en"
# ## Basic and bottleneck blocks
#
# Three blocks on a 56×56 feature map: a basic block at 64 channels, a basic block at 256
# channels, and a bottleneck block at 256 channels (64 inside).

# %%
SIZE = 56
blocks = {
    "basic64": (BasicBlock(64, 64), 64),
    "basic256": (BasicBlock(256, 256), 256),
    "bottleneck": (Bottleneck(256, 64), 256),
}
cost = {name: block_cost(block, c, SIZE) for name, (block, c) in blocks.items()}
publish.setting("block_map", SIZE, "{:d}")
for name, (params, macs) in cost.items():
    publish.number(f"{name}_params", params, "{:,}")
    publish.number(f"{name}_macs", macs / 1e6, "{:.0f}")
    say(
        f"{name:11s} 参数 {params:>9,}  乘加 {macs / 1e6:7.1f} M",
        f"{name:11s} params {params:>9,}  multiply-adds {macs / 1e6:7.1f} M",
    )
ratio = cost["basic256"][0] / cost["bottleneck"][0]
publish.number("bottleneck_saving", ratio, "{:.0f}")
close = abs(cost["bottleneck"][0] / cost["basic64"][0] - 1)
publish.claim(
    "bottleneck_cheap",
    ratio > 10 and close < 0.1,
    zh="在 256 通道上，瓶颈块的参数只有基本块的 1/{{ bottleneck_saving }}（{{ bottleneck_params }} 对 "
    "{{ basic256_params }}），与 64 通道的基本块（{{ basic64_params }}）相差无几",
    en="At 256 channels the bottleneck block has 1/{{ bottleneck_saving }} of the basic block's "
    "parameters ({{ bottleneck_params }} against {{ basic256_params }}), about as many as a basic "
    "block at 64 channels ({{ basic64_params }})",
    evidence=f"basic256/bottleneck {ratio:.1f}, |bottleneck/basic64 - 1| = {close:.3f}",
)
proj = projection(64, 128, stride=2)
publish.number("projection_params", n_params(proj), "{:,}")

# %% [markdown] lang="zh"
# ## ResNet-18/34/50
#
# 每个网络在一张 224×224 的图像上前向一次，前向钩子记录每个卷积层和全连接层的乘加次数。

# %% [markdown] lang="en"
# ## ResNet-18/34/50
#
# One forward pass of a 224×224 image per network; forward hooks record the multiply-adds of
# every convolution and the classifier.

# %%
IMAGE, CLASSES = 224, CONFIGS["resnet50"].classes
publish.setting("image_size", IMAGE, "{:d}")
publish.setting("classes", CLASSES, "{:,}")
stats, totals = {}, {}
for name, cfg in CONFIGS.items():
    model = resnet(name)
    stats[name] = count(model, IMAGE)
    totals[name] = {
        "params": n_params(model),
        "macs": sum(s["macs"] for s in stats[name].values()),
        "projections": sum(
            1 for m in model.modules() if getattr(m, "downsample", None) is not None
        ),
    }
    if cfg.block == "bottleneck":  # the paper strides in the first 1×1, torchvision in the 3×3
        paper_model = resnet(name, stride_on_3x3=False)
        totals[name]["paper_macs"] = sum(s["macs"] for s in count(paper_model, IMAGE).values())
        totals[name]["other_ops"] = other_ops(paper_model, IMAGE)
    else:
        totals[name]["paper_macs"] = totals[name]["macs"]
    for key, s in stats[name].items():
        stage = STAGES[key]
        publish.number(f"{name}_{stage}_params", s["params"] / 1e6, "{:.3f}")
        publish.number(f"{name}_{stage}_macs", s["macs"] / 1e9, "{:.3f}")
        publish.number(f"{name}_{stage}_channels", s["shape"][0], "{:d}")
        if len(s["shape"]) == 3:
            publish.text(f"{stage}_size", f"{s['shape'][1]}×{s['shape'][2]}", kind="setting")
    for i, n in enumerate(cfg.layers):
        publish.setting(f"{name}_conv{i + 2}_x_blocks", n, "{:d}")
    t = totals[name]
    publish.number(f"{name}_params", t["params"], "{:,}")
    publish.setting(f"{name}_published", PUBLISHED_PARAMS[name], "{:,}")
    publish.number(f"{name}_macs", t["macs"] / 1e9, "{:.2f}")
    publish.number(f"{name}_paper_macs", t["paper_macs"] / 1e9, "{:.2f}")
    publish.setting(f"{name}_paper_flops", PAPER_FLOPS[name] / 1e9, "{:.1f}")
    publish.number(f"{name}_twice", 2 * t["paper_macs"] / 1e9, "{:.1f}")
    publish.number(f"{name}_projections", t["projections"], "{:d}")
    params, macs, paper_macs = t["params"], t["macs"] / 1e9, t["paper_macs"] / 1e9
    say(f"{name}：{params:,} 个参数（论文 {PUBLISHED_PARAMS[name]:,}），{macs:.3f} G 次乘加"
        f"（按论文的步幅 {paper_macs:.3f} G；论文 {PAPER_FLOPS[name] / 1e9:.1f} G）",
        f"{name}: {params:,} parameters (published {PUBLISHED_PARAMS[name]:,}), "
        f"{macs:.3f} G multiply-adds ({paper_macs:.3f} G with the paper's "
        f"strides; paper {PAPER_FLOPS[name] / 1e9:.1f} G)")  # fmt: skip
say(f"每个阶段的参数与乘加（{'、'.join(CONFIGS)}）：",
    f"parameters and multiply-adds per stage ({', '.join(CONFIGS)}):")  # fmt: skip
for key, stage in STAGES.items():
    print(f"{stage:8s}", "  ".join(
        f"{stats[n][key]['params'] / 1e6:7.3f} M {stats[n][key]['macs'] / 1e9:6.3f} G" for n in CONFIGS
    ))  # fmt: skip

# %%
exact = all(totals[n]["params"] == PUBLISHED_PARAMS[n] for n in CONFIGS)
publish.claim(
    "params_match",
    exact,
    zh="三个网络的参数量与 torchvision 公布的完全一致：ResNet-18 为 {{ resnet18_params }}，"
    "ResNet-34 为 {{ resnet34_params }}，ResNet-50 为 {{ resnet50_params }}",
    en="All three parameter counts equal torchvision's exactly: {{ resnet18_params }} for ResNet-18, "
    "{{ resnet34_params }} for ResNet-34 and {{ resnet50_params }} for ResNet-50",
    evidence=str({n: (totals[n]["params"], PUBLISHED_PARAMS[n]) for n in CONFIGS}),
    every="network",
)
# the paper's Table 1 gives two significant digits: our count should truncate to it
truncates = all(PAPER_FLOPS[n] <= totals[n]["paper_macs"] < PAPER_FLOPS[n] + 0.1e9 for n in CONFIGS)
# rounded instead, some counts would land one digit above the paper's
rounds_away = any(
    round(totals[n]["paper_macs"] / 1e8) != round(PAPER_FLOPS[n] / 1e8) for n in CONFIGS
)
publish.claim(
    "flops_match_paper",
    truncates,
    zh="按论文的步幅位置，数出的乘加次数是 {{ resnet18_paper_macs }}、{{ resnet34_paper_macs }}、"
    "{{ resnet50_paper_macs }} ×10⁹，舍去第二位小数正是论文表 1 的 {{ resnet18_paper_flops }}、"
    "{{ resnet34_paper_flops }}、{{ resnet50_paper_flops }} ×10⁹",
    en="With the paper's stride placement the multiply-adds come to {{ resnet18_paper_macs }}, "
    "{{ resnet34_paper_macs }} and {{ resnet50_paper_macs }} ×10⁹; truncated to one decimal place, these are "
    "exactly the {{ resnet18_paper_flops }}, {{ resnet34_paper_flops }} and "
    "{{ resnet50_paper_flops }} ×10⁹ of the paper's Table 1",
    evidence=str({n: (totals[n]["paper_macs"], PAPER_FLOPS[n]) for n in CONFIGS}),
)
publish.claim(
    "flops_are_macs",
    all(2 * totals[n]["paper_macs"] > 1.9 * PAPER_FLOPS[n] for n in CONFIGS),
    zh="论文的“FLOPs”数的是乘加：若把乘法和加法各算一次，ResNet-50 会是 {{ resnet50_twice }} ×10⁹，"
    "约为论文数字的两倍",
    en='The paper\'s "FLOPs" are multiply-adds: counting the multiplication and the addition '
    "separately would give {{ resnet50_twice }} ×10⁹ for ResNet-50, about twice the paper's number",
)
r50 = totals["resnet50"]
publish.claim(
    "stride_placement",
    r50["macs"] > PAPER_FLOPS["resnet50"] + 0.2e9 and r50["paper_macs"] < r50["macs"],
    zh="torchvision 的 ResNet-50 把步幅 2 放在 3×3 卷积上（常称 ResNet v1.5），参数不变，"
    "乘加次数却升到 {{ resnet50_macs }} ×10⁹，超出了论文数字的舍入范围",
    en="torchvision's ResNet-50 strides in the 3×3 convolution instead (often called ResNet v1.5): "
    "the same parameters, but {{ resnet50_macs }} ×10⁹ multiply-adds, outside the rounding of the "
    "paper's number",
    evidence=f"{r50['macs'] / 1e9:.3f} vs paper {PAPER_FLOPS['resnet50'] / 1e9}",
)
# BN, ReLU, additions and pooling in ResNet-50 (the paper's strides), counted above
elementwise = totals["resnet50"]["other_ops"] / totals["resnet50"]["paper_macs"]
publish.number("elementwise_share", 100 * elementwise, "{:.1f}%")
publish.claim(
    "elementwise_small",
    elementwise < 0.02,
    zh="这些运算（每个 BN 输出值记一次 BN、一次 ReLU、一次相加，这是上界；池化窗口读的每个值记一次）"
    "在 ResNet-50 里只相当于乘加次数的 {{ elementwise_share }}，不足以改变论文给出的两位有效数字",
    en="These operations (one BN, one ReLU and one addition per BN output value, an upper bound, and "
    "one per value a pooling window reads) amount to only {{ elementwise_share }} of ResNet-50's "
    "multiply-adds, too little to move the two significant digits the paper gives",
    evidence=f"{totals['resnet50']['other_ops']:,} operations / {totals['resnet50']['paper_macs']:,} MACs",
)
r18 = [stats["resnet18"][f"layer{i}"]["macs"] for i in (2, 3, 4)]
share = {n: stats[n]["layer4"]["params"] / totals[n]["params"] for n in CONFIGS}
for n in CONFIGS:
    publish.number(f"{n}_conv5_share", 100 * share[n], "{:.0f}%")
publish.claim(
    "stages_equal_macs",
    len(set(r18)) == 1 and min(share.values()) > 0.5,
    zh="每进入一个新阶段，特征图的边长减半、通道数加倍，所以 ResNet-18 的 conv3_x、conv4_x、conv5_x "
    "三个阶段乘加次数完全相同（各 {{ resnet18_conv3_x_macs }} ×10⁹）；参数却集中在最后一个阶段，"
    "在三个网络里分别占 {{ resnet18_conv5_share }}、{{ resnet34_conv5_share }}、{{ resnet50_conv5_share }}",
    en="Each new stage halves the side of the feature map and doubles the channels, so ResNet-18's "
    "conv3_x, conv4_x and conv5_x cost exactly the same multiply-adds ({{ resnet18_conv3_x_macs }} "
    "×10⁹ each); the parameters, however, sit in the last stage: {{ resnet18_conv5_share }}, "
    "{{ resnet34_conv5_share }} and {{ resnet50_conv5_share }} of the three networks",
    evidence=f"ResNet-18 stage MACs {r18}, conv5_x shares {share}",
    every="stage",
)
extra = totals["resnet50"]["params"] / totals["resnet34"]["params"] - 1
publish.number("r50_over_r34", 100 * extra, "{:.0f}%")
publish.claim(
    "r50_vs_r34",
    extra < 0.25,
    zh="ResNet-50 与 ResNet-34 的每个阶段块数相同，把基本块换成瓶颈块后残差流宽了 4 倍，"
    "参数却只多 {{ r50_over_r34 }}",
    en="ResNet-50 has the same number of blocks per stage as ResNet-34; with bottleneck blocks its "
    "residual stream is 4 times wider, yet it has only {{ r50_over_r34 }} more parameters",
)

# %% [markdown] lang="zh"
# ## 块内的顺序：预激活
#
# 《Identity Mappings in Deep Residual Networks》图 4 的五种块，各堆 20 个，在初始化时
# （训练模式，BN 用本批统计量）测两件事：把每个分支的最后一层置零后，整个堆叠让输入移动了多少；
# 只沿捷径回传的梯度还剩多少。输入取非负的随机数（高斯随机数过 ReLU），因为原始 ResNet 的块都接在一个 ReLU（起始层的或前一个块的）后面。

# %% [markdown] lang="en"
# ## Orderings inside the block: pre-activation
#
# The five blocks of Fig. 4 of "Identity Mappings in Deep Residual Networks", 20 of each
# stacked, at initialization (train mode, BN with batch statistics): how far a stack whose
# branches end in a zero layer moves its input, and how much gradient comes back along the
# shortcuts alone. The inputs are non-negative (Gaussian numbers through a ReLU), since the blocks
# of the original ResNet follow a ReLU (the stem's or the previous block's).

# %%
DEPTH, CHANNELS, MAP, BATCH = 20, 16, 8, 16
orderings = ordering_runs(DEPTH, SEEDS, CHANNELS, MAP, BATCH)
for key, value in (("depth", DEPTH), ("channels", CHANNELS), ("map", MAP), ("batch", BATCH)):
    publish.setting(f"order_{key}", value, "{:d}")
sg = {}
for o in ORDERINGS:
    profiles = np.array(orderings[o]["profile"])
    sg[o] = publish.spread(f"sg_{o}", profiles[:, -1], seeds=SEEDS, fmt="{:.2f}")
    publish.spread(f"sg1_{o}", profiles[:, 1], seeds=SEEDS, fmt="{:.2f}")
    publish.spread(f"moved_{o}", orderings[o]["moved"], seeds=SEEDS, fmt="{:.2f}")
    publish.setting(f"paper_err_{o}", PAPER_TABLE2[o], "{:.2f}%")
    gradient, moved = profiles[:, -1].round(3), np.round(orderings[o]["moved"], 3)
    say(
        f"{o:17s} 捷径上的梯度 {gradient}  移动 {moved}",
        f"{o:17s} shortcut gradient {gradient}  moved {moved}",
    )
paper = PAPER_TABLE2
publish.claim(
    "paper_ablation",
    paper["full_preact"] < min(v for o, v in paper.items() if o != "full_preact")
    and min(paper["relu_before_add"], paper["relu_only_preact"]) >= paper["original"],
    zh="在论文的这组结果里，只有完全预激活（e）比原始块好；（c）和（d）的捷径同样是恒等映射，测试误差却不比原始块低",
    en="In these results of the paper only full pre-activation (e) beats the original block; (c) and (d) "
    "have identity shortcuts too, yet no lower test error than the original block",
)
clean = ("relu_before_add", "relu_only_preact", "full_preact")
exact_identity = all(
    np.abs(np.array(orderings[o]["profile"]) - 1).max() < 1e-5 and max(orderings[o]["moved"]) < 1e-6
    for o in clean
)
identity_claim = publish.claim(
    "identity_orderings",
    exact_identity,
    zh="相加之后什么都不做的三种块（c、d、e）里，捷径是严格的恒等映射：分支为零时 "
    "{{ order_depth }} 个块原样返回输入，只沿捷径回传的梯度范数之比在每个块都是 1",
    en="In the three blocks with nothing after the addition, (c), (d) and (e), the shortcut is "
    "exactly the identity: with zero branches {{ order_depth }} blocks return their input unchanged, "
    "and the gradient along the shortcuts alone keeps a norm ratio of 1 at every block",
    every=("block", "seed"),
)
orig = np.array(orderings["original"]["profile"])
masked = publish.spread(
    "masked_original", 100 * np.array(orderings["original"]["masked"]), seeds=SEEDS, fmt="{:.0f}%"
)
say(
    f"original: 相加后的 ReLU 截断的分量占 {masked.values}（%）",
    f"original: share of entries the ReLU after the addition cuts {masked.values} (%)",
)
forward_identity = max(orderings["original"]["moved"]) < 1e-6  # post-ReLU inputs: ReLU(x + 0) = x
decays = bool(
    np.all(np.diff(np.median(orig, axis=0)) < 0) and sg["original"].high < 0.6 and masked.low > 10
)
original_claim = publish.claim(
    "original_relu_mask",
    forward_identity and decays,
    zh="原始块（a）的输入来自前一个 ReLU，本身非负，所以分支为零时 ReLU 不起作用，{{ order_depth }} 个块在每个种子上"
    "都原样返回输入（移动 {{ moved_original_spread }}）；代价在反向：初始化时 $x_l + \\mathcal{F}(x_l)$ 有 "
    "{{ masked_original_spread }} 的分量不大于零，被相加后的 ReLU 截断，连同捷径那一份梯度。只沿捷径回传的梯度"
    "每过一个块都变小，一个块后剩 {{ sg1_original_spread }}，{{ order_depth }} 个块后只剩 {{ sg_original_spread }}",
    en="The input of the original block (a) comes from a ReLU and is non-negative, so with zero branches the ReLU "
    "does nothing and its {{ order_depth }} blocks return the input unchanged in every seed (moved by "
    "{{ moved_original_spread }}). The cost is in the backward pass: at initialization "
    "{{ masked_original_spread }} of the entries of $x_l + \\mathcal{F}(x_l)$ are at most zero, and the ReLU "
    "after the addition cuts their gradient, the shortcut's copy included. The gradient along the shortcuts "
    "alone shrinks at every block, to {{ sg1_original_spread }} after one and {{ sg_original_spread }} after "
    "{{ order_depth }}",
    evidence=f"medians {np.median(orig, axis=0).round(3)}, moved {orderings['original']['moved']}, "
    f"masked {masked.values}",
    every=("block", "seed"),
)
bn = np.array(orderings["bn_after_add"]["profile"])[:, -1]
publish.claim(
    "bn_after_add_not_identity",
    bool(np.abs(bn - 1).min() > 0.2 and min(orderings["bn_after_add"]["moved"]) > 0.5),
    zh="相加后接 BN 的块（b）则不是恒等映射：分支为零时输入移动了 {{ moved_bn_after_add_spread }}，"
    "只沿捷径回传的梯度范数之比是 {{ sg_bn_after_add_spread }}，BN 重新缩放了捷径上的信号",
    en="The block with BN after the addition (b), by contrast, is not the identity: with zero branches the "
    "input moves by {{ moved_bn_after_add_spread }}, and the gradient along the shortcuts alone has a "
    "norm ratio of {{ sg_bn_after_add_spread }}: the BN rescales the shortcut's signal",
    evidence=f"{bn.round(3)}",
)

# %% [markdown] lang="zh"
# ## 高速公路网络
#
# 20 层宽 64 的高速公路层（变换 $H$ 为线性层加 ReLU），门的偏置 $b_T$ 取 0、−1、−2、−3，
# 与同样变换的残差层 $x + H(x)$ 比较，一批 64 个随机输入。

# %% [markdown] lang="en"
# ## Highway networks
#
# 20 highway layers of width 64 (the transform $H$ is a linear layer and a ReLU), gate biases
# $b_T$ of 0, −1, −2 and −3, against residual layers $x + H(x)$ with the same transform, on a
# batch of 64 random inputs.

# %%
HW_DEPTH, HW_WIDTH, BIASES = 20, 64, (0.0, -1.0, -2.0, -3.0)
highway = highway_runs(HW_DEPTH, SEEDS, BIASES, HW_WIDTH)
publish.setting("hw_depth", HW_DEPTH, "{:d}")
publish.setting("hw_width", HW_WIDTH, "{:d}")
carry, ratios = {}, []
for b in [*BIASES, "residual"]:
    tag = "residual" if b == "residual" else f"b{abs(b):.0f}"
    fmt = "{:.1e}" if b == 0 else "{:.2g}"  # b = 0: values around 10⁻⁶
    carry[b] = publish.spread(
        f"carry_{tag}", np.array(highway[b]["carry"])[:, -1], seeds=SEEDS, fmt=fmt
    )
    publish.spread(f"total_{tag}", np.array(highway[b]["total"])[:, -1], seeds=SEEDS, fmt=fmt)
    if b != "residual":
        predicted = (1 - 1 / (1 + math.exp(-b))) ** HW_DEPTH  # (1 - σ(b_T))^L
        publish.number(f"predicted_{tag}", predicted, fmt)
        publish.number(f"gate_{tag}", 1 / (1 + math.exp(-b)), "{:.2f}")
        ratios.append(carry[b].median / predicted)
    carried, total = np.array(highway[b]["carry"])[:, -1], np.array(highway[b]["total"])[:, -1]
    say(f"{tag:9s} 携带 {carried}  总计 {total}", f"{tag:9s} carry {carried}  total {total}")
publish.setting("hw_b0", 0, "{:d}")
publish.setting("hw_b3", -3, "{:d}")
carry_claim = publish.claim(
    "carry_product",
    min(ratios) > 0.8 and max(ratios) < 1.25,
    zh="携带路径上的梯度基本就是 $(1-\\sigma(b_T))^L$：$b_T = 0$ 时门约为 {{ gate_b0 }}，"
    "{{ hw_depth }} 层后只剩 {{ carry_b0_spread }}（预测 {{ predicted_b0 }}）；$b_T = -3$ 时门约为 "
    "{{ gate_b3 }}，剩 {{ carry_b3_spread }}（预测 {{ predicted_b3 }}）",
    en="The gradient along the carry path is about $(1-\\sigma(b_T))^L$: with $b_T = 0$ the gate "
    "is about {{ gate_b0 }} and after {{ hw_depth }} layers {{ carry_b0_spread }} is left (predicted "
    "{{ predicted_b0 }}); with $b_T = -3$ the gate is about {{ gate_b3 }} and {{ carry_b3_spread }} "
    "is left (predicted {{ predicted_b3 }})",
    evidence=f"measured / predicted {np.round(ratios, 3)}",
)
order_claim = publish.claim(
    "gate_bias_order",
    all(carry[a].high < carry[b].low for a, b in zip(BIASES, BIASES[1:], strict=False)),
    zh="门的偏置越负，携带路径传回的梯度越多",
    en="The more negative the gate bias, the more gradient the carry path passes back",
)
hw_total0 = np.array(highway[0.0]["total"])[:, -1]
res_total = np.array(highway["residual"]["total"])[:, -1]
res_carry = np.array(highway["residual"]["carry"])
total_claim = publish.claim(
    "highway_total",
    bool(hw_total0.max() < 1e-3 and res_total.min() > 1 and np.abs(res_carry - 1).max() < 1e-6),
    zh="变换路径救不回来：$b_T = 0$ 时到达输入的全部梯度也只有 {{ total_b0_spread }}。"
    "同样变换的残差层，捷径上的比值在每一层都是 1，全部梯度是 {{ total_residual_spread }}",
    en="The transform path does not rescue it: with $b_T = 0$ the whole gradient reaching the input "
    "is {{ total_b0_spread }}. Residual layers with the same transform keep a ratio of 1 along the "
    "shortcut at every layer, and a whole gradient of {{ total_residual_spread }}",
    evidence=f"highway b=0 total {hw_total0}, residual total {res_total}",
    every=("layer", "seed"),
)
publish.figure(
    "shortcut-paths",
    lambda tr: paths_figure(orderings, highway, tr),
    alt=(
        f"初始化时只沿捷径回传的梯度范数之比随跨过的块数变化（{len(SEEDS)} 个种子的中位数与范围）。"
        f"左：五种块内顺序。{original_claim[0]}。{identity_claim[0]}。右：四种门偏置下高速公路网络的携带路径与残差捷径。{order_claim[0]}。",
        f"Gradient norm ratio along the shortcuts alone at initialization against blocks crossed "
        f"(median and range over {len(SEEDS)} seeds). Left: the five block orderings. {original_claim[1]}. "
        f"{identity_claim[1]}. Right: the carry path of highway stacks at four gate biases and the residual shortcut. "
        f"{order_claim[1]}.",
    ),
)

# %% [markdown] lang="zh"
# ## DenseNet：拼接让宽度增长
#
# DenseNet-121 的第一个稠密块：输入 64 个通道，增长率 32，6 层。

# %% [markdown] lang="en"
# ## DenseNet: concatenation grows the width
#
# The first dense block of DenseNet-121: 64 input channels, growth rate 32, 6 layers.

# %%
K0, GROWTH, LAYERS = 64, 32, 6
block = dense_block(K0, GROWTH, LAYERS)
widths = [layer.norm1.num_features for layer in block]
params = [n_params(layer) for layer in block]
for name, value in (
    ("k0", K0),
    ("growth", GROWTH),
    ("layers", LAYERS),
    ("out", widths[-1] + GROWTH),
):
    publish.setting(f"dense_{name}", value, "{:d}")
for i, (w, p) in enumerate(zip(widths, params, strict=True)):
    publish.number(f"dense_width_{i}", w, "{:d}")
    publish.number(f"dense_params_{i}", p, "{:,}")
    say(
        f"第 {i} 层：读入 {w} 个通道，{p:,} 个参数",
        f"layer {i}: reads {w} channels, {p:,} parameters",
    )
steps = set(np.diff(params).tolist())
publish.number("dense_step", steps.pop() if len(steps) == 1 else -1, "{:,}")
publish.claim(
    "dense_width_linear",
    widths == [K0 + i * GROWTH for i in range(LAYERS)] and len(set(np.diff(params).tolist())) == 1,
    zh="第 $l$ 层读入 $k_0 + l k$ 个通道，从 {{ dense_width_0 }} 增到 {{ dense_width_5 }}，"
    "参数每层多 {{ dense_step }} 个（全在读入宽度的那一侧：BN 和 1×1 卷积）",
    en="Layer $l$ reads $k_0 + l k$ channels, from {{ dense_width_0 }} up to {{ dense_width_5 }}, "
    "and each layer has {{ dense_step }} more parameters than the one before (on the input side: "
    "its BN and 1×1 convolution)",
    every="layer",
)
dn = n_params(densenet121())
publish.number("densenet121_params", dn, "{:,}")
publish.claim(
    "densenet121_matches",
    dn == PUBLISHED_DENSENET121,
    zh="按同样的层搭出的 DenseNet-121 有 {{ densenet121_params }} 个参数，与 torchvision 的完全一致",
    en="DenseNet-121 built from the same layers has {{ densenet121_params }} parameters, exactly "
    "torchvision's count",
    evidence=f"{dn} vs {PUBLISHED_DENSENET121}",
)

# %% [markdown] lang="zh"
# ## 小结

# %% [markdown] lang="en"
# ## Summary

# %%
publish.claim(
    "summary_counts",
    exact and truncates and rounds_away,
    zh="按论文搭出的 ResNet-18/34/50 参数量与 torchvision 的完全一致，乘加次数截断到一位小数后与论文表 1 一致"
    "（四舍五入则不全一致）",
    en="ResNet-18/34/50 built as in the paper have exactly torchvision's parameter counts, and their "
    "multiply-adds, truncated to one decimal place, are the paper's Table 1 (rounded, not all of them are)",
)
publish.claim(
    "summary_orderings",
    exact_identity and forward_identity and decays and bool(np.abs(bn - 1).min() > 0.2),
    zh="只有相加之后什么都不做，捷径在反向时才是严格的恒等映射；原始块的输入非负，分支为零时前向也是恒等映射，"
    "但相加后的 ReLU 截断一部分分量的梯度，让只沿捷径回传的梯度逐块变小",
    en="Only with nothing after the addition is the shortcut exactly the identity in the backward pass; the "
    "original block, whose input is non-negative, is the identity forwards when its branch is zero, but the "
    "ReLU after the addition cuts the gradient of some entries and shrinks the gradient along the shortcuts "
    "at every block",
    every="block",
)
