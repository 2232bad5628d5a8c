"""层归一化：Post-LN 与 Pre-LN · Layer normalization: Post-LN and Pre-LN.

A tiny Transformer encoder with the LayerNorm after the addition (Post-LN) or before the
sublayer (Pre-LN): gradient norms at initialization over many seeds, and training with and
without warm-up over several seeds.
Run it by hand with ``python examples/04-add-norm.py``; the docs build runs it for you.
"""

# resdoc: time-limit = 330

# %% [markdown] lang="zh"
# # 层归一化：Post-LN 与 Pre-LN
#
# 先在初始化时测量：把 Transformer 编码器叠到 $L = 3, 6, 12, 24, 48$ 层，对每个随机种子在序列反转任务的
# 几个批次上做反向传播，记下每一层前馈网络第二个权重矩阵 $W_2$ 的梯度范数（各批次平均）。
# 同一个种子下 Post-LN 和 Pre-LN 的权重完全相同，只差层归一化的位置。

# %% [markdown] lang="en"
# # Layer normalization: Post-LN and Pre-LN
#
# First a measurement at initialization: Transformer encoders of $L = 3, 6, 12, 24, 48$ layers; for
# every random seed, backward passes on a few batches of the sequence-reversal task, recording the
# gradient norm of every layer's second feed-forward weight $W_2$ (averaged over the batches).
# With the same seed, Post-LN and Pre-LN have identical weights; only the LayerNorms sit elsewhere.

# %%
import numpy as np

from resdoc import publish
from resdoc.add_norm import (
    TORCH_RADAM_THRESHOLD,
    TransformerConfig,
    adaptive_step_spread,
    init_study,
    lr_sweep,
    power_fit,
    radam_rectifier,
    rms_vs_layer_norm,
    stream_profile,
)
from resdoc.add_norm_admin import amplification_study
from resdoc.add_norm_jacobian import layer_norm_jacobian_check, ln_gradient_profile
from resdoc.add_norm_plots import (
    amplification_figure,
    final_ln_figure,
    init_grad_figure,
    ratio_figure,
    warmup_figure,
)
from resdoc.bilingual import say

cfg = TransformerConfig()
publish.setting("d_model", cfg.d_model, "{:d}")
publish.setting("seq_len", cfg.length, "{:d}")
publish.setting("vocab", cfg.vocab, "{:d}")
DEPTHS, PROFILE_DEPTH = (3, 6, 12, 24, 48), 24
SEEDS, BATCHES = range(10), 3
publish.setting("min_layers", DEPTHS[0], "{:d}")
publish.setting("max_layers", DEPTHS[-1], "{:d}")
publish.setting("profile_layers", PROFILE_DEPTH, "{:d}")
publish.setting("init_seeds", len(SEEDS), "{:d}")
publish.setting("init_batches", BATCHES, "{:d}")
study = init_study(DEPTHS, SEEDS, BATCHES)


def spread(key, values, fmt="{:.2f}"):
    return publish.spread(key, values, seeds=SEEDS, fmt=fmt)


last, ratio, growth = {}, {}, {}
for L in DEPTHS:
    post, pre = study[L]["post"], study[L]["pre"]  # (seeds, layers)
    last[L] = spread(f"post_last_l{L}", post[:, -1]), spread(f"pre_last_l{L}", pre[:, -1])
    ratio[L] = spread(f"ratio_l{L}", post[:, -1] / pre[:, -1])
    growth[L] = spread(f"stream_growth_l{L}", study[L]["growth"])
    norms = f"Post-LN {last[L][0].median:.3f} Pre-LN {last[L][1].median:.3f}"
    ratios = f"{ratio[L].median:.2f} ({ratio[L].low:.2f}-{ratio[L].high:.2f})"
    say(
        f"L={L:2d} 最后一层：{norms}  之比 {ratios}  Pre-LN 残差流增长 {growth[L].median:.2f}",
        f"L={L:2d} last layer: {norms}  ratio {ratios}  Pre-LN stream growth {growth[L].median:.2f}",
    )
lo, hi = DEPTHS[0], DEPTHS[-1]
profile = {kind: study[PROFILE_DEPTH][kind] for kind in ("post", "pre")}
post_lf = spread("post_last_over_first", profile["post"][:, -1] / profile["post"][:, 0])
pre_lf = spread("pre_last_over_first", profile["pre"][:, -1] / profile["pre"][:, 0])

# %% [markdown] lang="zh"
# 每句解释都是一个断言（claim）：条件不成立，示例就在这一行停下，网站不会发布。
# 条件用各种子的中位数或范围，并留出余量。

# %% [markdown] lang="en"
# Every interpreting sentence is a claim: if its condition fails, the example stops at that line
# and nothing is published. Conditions use medians or ranges over seeds, with margins.

# %%
publish.claim(
    "post_profile",
    post_lf.median > 1.4 and post_lf.high > 3 * post_lf.low,
    zh="Post-LN 的梯度越靠近输出越大：最后一层与第一层之比的中位数为 {{ post_last_over_first }}，"
    "但各种子之间差别很大（{{ post_last_over_first_min }} 到 {{ post_last_over_first_max }}）",
    en="Post-LN's gradient is larger towards the output: the last layer's is {{ post_last_over_first }} "
    "times the first layer's in the median, but it varies widely between seeds "
    "({{ post_last_over_first_min }} to {{ post_last_over_first_max }})",
    evidence=f"median {post_lf.median:.2f} (> 1.4), range {post_lf.low:.2f}-{post_lf.high:.2f}",
)
publish.claim(
    "pre_profile",
    pre_lf.high < 0.9,
    zh="Pre-LN 反过来，越靠近输入越大：每个种子的最后一层都小于第一层，比值为 {{ pre_last_over_first_spread }}",
    en="Pre-LN is the other way round, larger towards the input: in every seed the last layer's "
    "gradient is smaller than the first's, by a ratio of {{ pre_last_over_first_spread }}",
    evidence=f"largest ratio {pre_lf.high:.2f} (< 0.9)",
    every="seed",
)
publish.claim(
    "post_last_does_not_shrink",
    last[hi][0].median > last[lo][0].median,
    zh=f"Post-LN 最后一层的梯度不随层数变小，中位数反而变大：{lo} 层时为 {{{{ post_last_l{lo}_spread }}}}，"
    f"{hi} 层时为 {{{{ post_last_l{hi}_spread }}}}",
    en=f"Post-LN's last-layer gradient does not shrink with depth; its median even grows, from "
    f"{{{{ post_last_l{lo}_spread }}}} at {lo} layers to {{{{ post_last_l{hi}_spread }}}} at {hi}",
    evidence=f"medians {last[lo][0].median:.3f} at L={lo}, {last[hi][0].median:.3f} at L={hi}",
)
publish.claim(
    "pre_last_shrinks",
    last[hi][1].median < 0.8 * last[lo][1].median,
    zh=f"Pre-LN 最后一层的梯度则变小：从 {{{{ pre_last_l{lo}_spread }}}} 降到 {{{{ pre_last_l{hi}_spread }}}}",
    en=f"Pre-LN's last-layer gradient shrinks, from {{{{ pre_last_l{lo}_spread }}}} to "
    f"{{{{ pre_last_l{hi}_spread }}}}",
    evidence=f"medians {last[lo][1].median:.3f} at L={lo}, {last[hi][1].median:.3f} at L={hi} (< 0.8x)",
)
publish.claim(
    "ratio_grows",
    ratio[hi].low > ratio[lo].high,
    zh=f"Post-LN 与 Pre-LN 最后一层梯度之比随层数增大：{lo} 层时为 {{{{ ratio_l{lo}_spread }}}}，{hi} 层时为 "
    f"{{{{ ratio_l{hi}_spread }}}}，{hi} 层时最小的种子也超过 {lo} 层时最大的种子",
    en=f"The ratio of Post-LN's to Pre-LN's last-layer gradient grows with depth: "
    f"{{{{ ratio_l{lo}_spread }}}} at {lo} layers, "
    f"{{{{ ratio_l{hi}_spread }}}} at {hi}, where even the lowest seed is above the highest at {lo}",
    evidence=f"min at L={hi} {ratio[hi].low:.2f} vs max at L={lo} {ratio[lo].high:.2f}",
)
smallest = min(ratio[L].low for L in DEPTHS)
publish.number("ratio_smallest", smallest, "{:.2f}", seeds=SEEDS)
publish.claim(
    "post_last_larger",
    smallest > 1.3,
    zh="在每个种子、每个层数下，Post-LN 最后一层的梯度都大于 Pre-LN 的（至少是它的 {{ ratio_smallest }} 倍）",
    en="In every seed and at every depth, Post-LN's last-layer gradient is larger than Pre-LN's "
    "(at least {{ ratio_smallest }} times as large)",
    evidence=f"smallest ratio over seeds and depths {smallest:.2f} (> 1.3)",
    every=("seed", "depth"),
)
publish.claim(
    "stream_grows",
    growth[hi].low > growth[lo].high,
    zh=f"初始化时 Pre-LN 残差流的范数随层数增大：输出与输入的范数之比在 {lo} 层时为 "
    f"{{{{ stream_growth_l{lo}_spread }}}}，{hi} 层时为 {{{{ stream_growth_l{hi}_spread }}}}",
    en=f"At initialization Pre-LN's residual stream grows with depth: the norm of the output over the "
    f"input is {{{{ stream_growth_l{lo}_spread }}}} at {lo} layers and "
    f"{{{{ stream_growth_l{hi}_spread }}}} at {hi}",
    evidence=f"min at L={hi} {growth[hi].low:.2f} vs max at L={lo} {growth[lo].high:.2f}",
)
ratio_gain = ratio[hi].median / ratio[lo].median
growth_gain = growth[hi].median / growth[lo].median
sqrt_gain = np.sqrt(hi / lo)
publish.number("ratio_gain", ratio_gain, "{:.1f}", seeds=SEEDS)
publish.number("stream_gain", growth_gain, "{:.1f}", seeds=SEEDS)
publish.setting("sqrt_gain", sqrt_gain, "{:.0f}")
publish.claim(
    "ratio_slower_than_sqrt",
    0.5 * sqrt_gain < ratio_gain < sqrt_gain,
    zh=f"从 {lo} 层到 {hi} 层，比值的中位数增大到 {{{{ ratio_gain }}}} 倍，与 $\\sqrt{{L}}$ 的 "
    "{{ sqrt_gain }} 倍同一量级，但略慢",
    en=f"From {lo} to {hi} layers the median ratio grows {{{{ ratio_gain }}}}-fold: the same order as "
    "$\\sqrt{L}$, which grows {{ sqrt_gain }}-fold, but a little slower",
    evidence=f"ratio gain {ratio_gain:.2f}, sqrt gain {sqrt_gain:.2f}",
)
tracking = [ratio[L].median / growth[L].median for L in DEPTHS]
publish.number("ratio_over_growth_min", min(tracking), "{:.2f}", seeds=SEEDS)
publish.number("ratio_over_growth_max", max(tracking), "{:.2f}", seeds=SEEDS)
publish.claim(
    "ratio_follows_stream",
    max(tracking) < 2 * min(tracking),
    zh=f"比值随 Pre-LN 残差流的范数一起增长：残差流输出与输入的范数之比从 {{{{ stream_growth_l{lo}_spread }}}} 增长到 "
    f"{{{{ stream_growth_l{hi}_spread }}}}（增大到 {{{{ stream_gain }}}} 倍），比值除以它，在每个层数下都在 "
    "{{ ratio_over_growth_min }} 与 {{ ratio_over_growth_max }} 之间",
    en="The ratio follows the length of Pre-LN's residual stream: the stream grows from "
    f"{{{{ stream_growth_l{lo}_spread }}}} to {{{{ stream_growth_l{hi}_spread }}}} times its input "
    "({{ stream_gain }}-fold), and the ratio divided by it stays between {{ ratio_over_growth_min }} "
    "and {{ ratio_over_growth_max }} at every depth",
    evidence=f"ratio / stream growth per depth: {', '.join(f'{t:.2f}' for t in tracking)}",
    every="depth",
)
publish.claim(
    "theorem_reproduces",
    last[hi][0].median > last[lo][0].median
    and last[hi][1].median < 0.8 * last[lo][1].median
    and ratio[hi].low > ratio[lo].high,
    zh="定理对两种顺序所作的对比——Post-LN 最后一层的梯度不随深度变小，Pre-LN 的随残差流范数增大而变小——在这里得到了**重现**",
    en="The contrast the theorem draws between the two orders — a last-layer gradient that does not "
    "shrink with depth for Post-LN, one that shrinks as the stream grows for Pre-LN — **is reproduced** here",
    evidence="the three last-layer claims above",
)
publish.claim(
    "ratio_summary",
    ratio[hi].low > ratio[lo].high and max(tracking) < 2 * min(tracking),
    zh="Post-LN 与 Pre-LN 最后一层梯度之比随深度增大，与 Pre-LN 残差流范数的增长同步",
    en="the ratio of Post-LN's to Pre-LN's last-layer gradient grows with depth, following the length "
    "of Pre-LN's residual stream",
    evidence="ratio_grows and ratio_follows_stream",
)
alt_profile = publish.claim(
    "alt_init",
    post_lf.median > 1 > pre_lf.high and last[hi][1].median < last[lo][1].median,
    zh=f"初始化时各层前馈权重的梯度范数（{len(SEEDS)} 个种子的中位数与范围）。左：{PROFILE_DEPTH} 层时 "
    "Post-LN 大体越靠近输出越大，Pre-LN 越靠近输入越大。右：最后一层的梯度随层数增加，Pre-LN 变小，Post-LN 不变小。",
    en=f"Gradient norms of the feed-forward weights at initialization (median and range over {len(SEEDS)} "
    f"seeds). Left: at {PROFILE_DEPTH} layers, Post-LN's mostly grow towards the output, Pre-LN's "
    "towards the input. Right: against depth, Pre-LN's last-layer gradient shrinks and Post-LN's does not.",
)
publish.figure(
    "init-grad-norms", lambda tr: init_grad_figure(study, PROFILE_DEPTH, tr), alt=alt_profile
)
alt_ratio = publish.claim(
    "alt_ratio",
    ratio[hi].low > ratio[lo].high and max(tracking) < 2 * min(tracking),
    zh="左：Post-LN 与 Pre-LN 最后一层前馈权重梯度之比随层数增大，虚线为 √L。"
    "右：Pre-LN 残差流输出与输入的范数之比，形状与左图相同。",
    en="Left: the ratio of Post-LN's to Pre-LN's last-layer feed-forward gradient grows with depth; "
    "the dashed line is √L. Right: the norm of Pre-LN's residual stream over its input, the same shape.",
)
publish.figure("post-pre-ratio", lambda tr: ratio_figure(study, tr), alt=alt_ratio)

# %% [markdown] lang="zh"
# ## 为什么 Pre-LN 需要最终层归一化
#
# 每个种子建一个 64 块的 Pre-LN 编码器（与上面同样的初始化），只做前向传播：记下每一块之后残差流的范数
# $\lVert x_l \rVert$、它经过最终层归一化后的范数、各块写入之和 $\lVert x_l - x_0 \rVert$，
# 以及每一块的写入 $F_l$ 与它所加到的残差流之比。范数都是对词元取的均方根。

# %% [markdown] lang="en"
# ## Why Pre-LN needs a final LayerNorm
#
# For every seed, one Pre-LN encoder of 64 blocks (initialized as above), forward only: after
# each block, the norm of the stream $\lVert x_l \rVert$, its norm behind the final LayerNorm,
# the sum of the blocks' writes $\lVert x_l - x_0 \rVert$, and each block's write $F_l$ relative
# to the stream it is added to. Norms are root mean squares over tokens.

# %%
STACK = 64
publish.setting("stack_blocks", STACK, "{:d}")
profiles = [stream_profile(STACK, seed) for seed in SEEDS]
runs = {key: np.array([p[key] for p in profiles]) for key in profiles[0]}  # (seeds, ...)
blocks = np.arange(1, STACK + 1)
root_d = np.sqrt(cfg.d_model)
publish.setting("root_d", root_d, "{:.2f}")
head_off = np.abs(runs["head_in"] / root_d - 1).max()
publish.number("head_in_off_percent", 100 * head_off, "{:.2g}%", seeds=SEEDS)
stream_0 = spread("stream_norm_l0", runs["stream"][:, 0], fmt="{:.1f}")
stream_L = spread("stream_norm_last", runs["stream"][:, -1], fmt="{:.1f}")
exponent = spread("writes_exponent", [power_fit(blocks, w[1:]) for w in runs["writes"]])
branch_exp = [power_fit(blocks, b) for b in runs["branch"]]
branch = spread("branch_exponent", branch_exp)
predicted = spread("predicted_exponent", [(1 + q) / 2 for q in branch_exp])
gap = max(
    abs((1 + q) / 2 - power_fit(blocks, w[1:]))
    for q, w in zip(branch_exp, runs["writes"], strict=True)
)
cross = spread("cross_share", runs["cross"].sum(1) / runs["branch"].sum(1))
rel_first = spread("relative_first", runs["relative"][:, 0])
rel_last = spread("relative_last", runs["relative"][:, -1], fmt="{:.3f}")
LATE = STACK // 4  # fit the share's decay from here on, once the stream is no longer mostly x_0
publish.setting("late_from", LATE, "{:d}")
late = blocks >= LATE
rel_exp = spread("relative_exponent", [-power_fit(blocks[late], r[late]) for r in runs["relative"]])
say(
    f"残差流 {stream_0.median:.1f} -> {stream_L.median:.1f}；输出头的输入与 sqrt(d) = {root_d:.2f} "
    f"相差不到 {100 * head_off:.2g}%",
    f"stream {stream_0.median:.1f} -> {stream_L.median:.1f}; head input within {100 * head_off:.2g}% "
    f"of sqrt(d) = {root_d:.2f}",
)
say(
    f"写入的指数 {exponent.median:.3f}（{exponent.low:.3f}-{exponent.high:.3f}）；"
    f"由分支预测 {predicted.median:.3f}，最大差 {gap:.3f}",
    f"writes exponent {exponent.median:.3f} ({exponent.low:.3f}-{exponent.high:.3f}); "
    f"predicted from the branches {predicted.median:.3f}, largest gap {gap:.3f}",
)
say(
    f"交叉项占比 {cross.median:.2f}（{cross.low:.2f}-{cross.high:.2f}）；相对写入 "
    f"{rel_first.median:.3f} -> {rel_last.median:.3f}，从第 {LATE} 块起像 l^-{rel_exp.median:.2f}"
    f"（{rel_exp.low:.2f}-{rel_exp.high:.2f}）",
    f"cross share {cross.median:.2f} ({cross.low:.2f}-{cross.high:.2f}); relative write "
    f"{rel_first.median:.3f} -> {rel_last.median:.3f}, like l^-{rel_exp.median:.2f} "
    f"({rel_exp.low:.2f}-{rel_exp.high:.2f}) from block {LATE}",
)

# %%
publish.claim(
    "head_scale_without_final_ln",
    stream_L.low > 3 * stream_0.high,
    zh="没有最终层归一化，输出层看到的向量范数随深度变大：范数从嵌入处的 {{ stream_norm_l0_spread }} "
    "增长到 {{ stack_blocks }} 块之后的 {{ stream_norm_last_spread }}",
    en="Without a final LayerNorm, the vector the head sees grows with depth: its norm goes from "
    "{{ stream_norm_l0_spread }} at the embedding to {{ stream_norm_last_spread }} after "
    "{{ stack_blocks }} blocks",
    evidence=f"smallest after {STACK} blocks {stream_L.low:.1f} vs largest at 0 {stream_0.high:.1f} (> 3x)",
)
publish.claim(
    "head_scale_with_final_ln",
    head_off < 1e-3,
    zh="有了最终层归一化，输出层看到的范数在每个深度、每个种子上都是 $\\sqrt{d}$ = {{ root_d }}，"
    "偏差不超过 {{ head_in_off_percent }}",
    en="With the final LayerNorm, the norm the head sees is $\\sqrt{d}$ = {{ root_d }} at every depth "
    "and in every seed, to within {{ head_in_off_percent }}",
    evidence=f"largest relative deviation {head_off:.2e} (< 1e-3)",
    every=("depth", "seed"),
)
publish.claim(
    "writes_grow_like_sqrt",
    exponent.low > 0.5 and exponent.high < 0.7,
    zh="各块写入之和的范数 $\\lVert x_l - x_0 \\rVert$ 按 $l^p$ 增长，在 $l = 1$ 到 {{ stack_blocks }} 上拟合得 "
    "$p$ = {{ writes_exponent_spread }}：接近推导给出的 $\\sqrt{l}$，但每个种子都略快一点",
    en="The norm of the blocks' summed writes, $\\lVert x_l - x_0 \\rVert$, grows like $l^p$ with "
    "$p$ = {{ writes_exponent_spread }} (fitted over $l = 1$ to {{ stack_blocks }}): close to the "
    "$\\sqrt{l}$ of the derivation, but a little faster in every seed",
    evidence=f"exponent {exponent.low:.3f}-{exponent.high:.3f} (within 0.5-0.7)",
    every="seed",
)
publish.claim(
    "exponent_from_branches",
    gap < 0.1 and branch.low > 0,
    zh="原因是写入本身也随深度缓慢变大：$E\\lVert F_l \\rVert^2$ 按 $l^q$ 增长，"
    "$q$ = {{ branch_exponent_spread }}。写入彼此近似独立时，平方范数相加，预测的指数是 $(1+q)/2$ = "
    "{{ predicted_exponent_spread }}，每个种子都与拟合值相差不到 0.1",
    en="The reason: the writes themselves grow slowly with depth, $E\\lVert F_l \\rVert^2$ like "
    "$l^q$ with $q$ = {{ branch_exponent_spread }}. If the writes are roughly independent their "
    "squared norms add, which predicts an exponent of $(1+q)/2$ = {{ predicted_exponent_spread }}, "
    "within 0.1 of the fit in every seed",
    evidence=f"largest gap {gap:.3f} (< 0.1), smallest q {branch.low:.3f} (> 0)",
    every="seed",
)
publish.claim(
    "cross_terms_cancel_on_average",
    abs(cross.median) < 0.2 and max(abs(cross.low), abs(cross.high)) > 0.1,
    zh="交叉项 $2\\langle x_l, F_l \\rangle$ 在整个堆叠上的总和是各块 $\\lVert F_l \\rVert^2$ 之和的 "
    "{{ cross_share_spread }}：对种子取中位数时接近零，但单个种子里并不总是可以忽略",
    en="Summed over the stack, the cross terms $2\\langle x_l, F_l \\rangle$ come to "
    "{{ cross_share_spread }} of the summed $\\lVert F_l \\rVert^2$: near zero in the median over "
    "seeds, but not always negligible in a single seed",
    evidence=f"median {cross.median:.3f} (|.| < 0.2), range {cross.low:.3f}-{cross.high:.3f}",
)
publish.claim(
    "last_writes_shrink",
    rel_last.high < 0.5 * rel_first.low,
    zh="每块写入占残差流的比例随深度变小：第一块的写入是残差流的 {{ relative_first_spread }}，"
    "第 {{ stack_blocks }} 块只有 {{ relative_last_spread }}",
    en="The blocks' writes become a smaller fraction of the stream with depth: the first block "
    "writes {{ relative_first_spread }} of the stream's norm, block {{ stack_blocks }} only "
    "{{ relative_last_spread }}",
    evidence=f"largest last {rel_last.high:.3f} vs half the smallest first {rel_first.low / 2:.3f}",
)
publish.claim(
    "late_share_like_inv_sqrt",
    rel_exp.low > 0.3 and rel_exp.high < 0.75,
    zh="从第 {{ late_from }} 块起，这个比例按 $l^{-p}$ 下降，$p$ = {{ relative_exponent_spread }}，接近推导给出的 "
    "$1/\\sqrt{l}$；在最初几块里下降得慢一些，那时残差流大部分还是嵌入 $x_0$",
    en="From block {{ late_from }} on, the share falls like $l^{-p}$ with $p$ = {{ relative_exponent_spread }}, "
    "close to the $1/\\sqrt{l}$ of the derivation; over the first blocks it falls more slowly, while the "
    "stream is still mostly the embedding $x_0$",
    evidence=f"exponent {rel_exp.low:.3f}-{rel_exp.high:.3f} (within 0.3-0.75)",
)
alt_final = publish.claim(
    "alt_final_ln",
    stream_L.low > 3 * stream_0.high
    and head_off < 1e-3
    and rel_last.high < 0.5 * rel_first.low
    and rel_exp.low > 0.3
    and rel_exp.high < 0.75,
    zh=f"初始化时 {STACK} 块的 Pre-LN 编码器（{len(SEEDS)} 个种子的中位数与范围，双对数坐标）。"
    "左：没有最终层归一化时，输出层看到的范数随块数增长；有最终层归一化时保持为 √d 不变；"
    "各块写入之和的范数接近一条直线，虚线为拟合的幂律。右：每块写入与残差流的范数之比随块数变小，靠后各块大约与虚线 1/√l 一样快。",
    en=f"A Pre-LN encoder of {STACK} blocks at initialization (median and range over {len(SEEDS)} "
    "seeds, log-log axes). Left: without a final LayerNorm the norm the head sees grows with the "
    "number of blocks; with it the norm stays at √d; the summed writes lie close to a straight "
    "line, the dashed fitted power law. Right: the blocks' writes relative to the stream shrink "
    "with depth, over the later blocks about as fast as the dashed 1/√l.",
)
publish.figure(
    "final-ln", lambda tr: final_ln_figure(profiles, exponent.median, LATE, tr), alt=alt_final
)

# %% [markdown] lang="zh"
# ## 层归一化的雅可比矩阵
#
# 先核对公式：5 个随机词元（宽度 32，均值约 2、标准差约 3），$\gamma$ 与 $\beta$ 也随机，比较
# `layer_norm_jacobian` 与自动求导给出的 `nn.LayerNorm` 的雅可比矩阵；再取 $\gamma = 1$，数它的奇异值里
# 有几个等于 $1/\sigma$、几个近似为 0。

# %% [markdown] lang="en"
# ## The Jacobian of layer normalization
#
# First the formula: 5 random tokens (width 32, mean about 2, standard deviation about 3), with a
# random $\gamma$ and $\beta$ too, `layer_norm_jacobian` against autograd's Jacobian of
# `nn.LayerNorm`; then, at $\gamma = 1$, how many of its singular values equal $1/\sigma$ and how
# many are about 0.

# %%
JAC_SEEDS, TOLERANCE = range(5), 1e-4
publish.setting("jacobian_seeds", len(JAC_SEEDS), "{:d}")
publish.setting("jacobian_tolerance", TOLERANCE, "{:.0e}")
checks = [layer_norm_jacobian_check(seed, cfg.d_model, TOLERANCE) for seed in JAC_SEEDS]
difference = max(check["max_difference"] for check in checks)
publish.number("jacobian_difference", difference, "{:.1g}", seeds=JAC_SEEDS)
at_one = publish.spread("singular_at_one", [c["at_one"] for c in checks], JAC_SEEDS, "{:.0f}")
at_zero = publish.spread("singular_at_zero", [c["at_zero"] for c in checks], JAC_SEEDS, "{:.0f}")
say(
    f"公式与自动求导至多相差 {difference:.1e}；奇异值：{at_one.low:.0f} 个等于 1/σ，"
    f"{at_zero.low:.0f} 个近似为 0",
    f"formula vs autograd: at most {difference:.1e} apart; singular values: {at_one.low:.0f} "
    f"equal to 1/sigma, {at_zero.low:.0f} about 0",
)
publish.claim(
    "jacobian_matches_autograd",
    difference < 1e-5,
    zh="公式与自动求导给出的 `nn.LayerNorm` 的雅可比矩阵只差浮点舍入：{{ jacobian_seeds }} 个随机词元"
    "（$\\gamma$、$\\beta$ 也随机）上，元素之差最大为 {{ jacobian_difference }}",
    en="The formula and autograd's Jacobian of `nn.LayerNorm` differ only by floating-point "
    "rounding: over {{ jacobian_seeds }} random tokens (with a random $\\gamma$ and $\\beta$), by at "
    "most {{ jacobian_difference }} in an entry",
    evidence=f"largest difference {difference:.1e} (< 1e-5)",
)
publish.claim(
    "jacobian_rank",
    at_one.low == at_one.high == cfg.d_model - 2 and at_zero.low == at_zero.high == 2,
    zh="取 $\\gamma = 1$，每个种子的 {{ d_model }} 个奇异值里都有 {{ singular_at_one }} 个等于 $1/\\sigma$、"
    "{{ singular_at_zero }} 个近似为 0（误差都不到 $1/\\sigma$ 的 {{ jacobian_tolerance }}）：秩为 $d - 2$",
    en="At $\\gamma = 1$, in every seed, {{ singular_at_one }} of the {{ d_model }} singular values "
    "equal $1/\\sigma$ and {{ singular_at_zero }} are about 0 (each off by less than "
    "{{ jacobian_tolerance }} times $1/\\sigma$): the rank is $d - 2$",
    evidence=f"at 1/sigma {at_one.low:.0f}-{at_one.high:.0f}, at 0 {at_zero.low:.0f}-{at_zero.high:.0f}",
    every="seed",
)

# %% [markdown] lang="zh"
# 再回到上一节那 64 块的编码器（初始化时，每个种子 8 个序列）：Pre-LN 与同样深的 Post-LN，记下每一块的两个层归一化
# 所除的 $\sigma$（对词元取平均），在第 1、8、64 块的第一个层归一化（以及 Pre-LN 的最终层归一化）上用自动求导
# 求雅可比矩阵的谱范数（4 个词元的平均）；Pre-LN 还记下每一块的分支把输出处的一个随机梯度 $u$ 传回残差流的比例
# $\lVert u^\top J_l \rVert / \lVert u \rVert$，$J_l = \partial F_l / \partial x_l$。

# %% [markdown] lang="en"
# Back to the 64-block encoders of the previous section (at initialization, 8 sequences per
# seed), Pre-LN and a Post-LN one as deep: the $\sigma$ each block's two LayerNorms divide by
# (averaged over tokens); the spectral norm of the autograd Jacobian of the first LayerNorm of
# blocks 1, 8 and 64 (and of Pre-LN's final one), averaged over 4 tokens; and, for Pre-LN, the
# share of a random gradient $u$ at a block's output that its branch passes back to the stream,
# $\lVert u^\top J_l \rVert / \lVert u \rVert$ with $J_l = \partial F_l / \partial x_l$.

# %%
PROBES = (1, 8, STACK)  # blocks whose first LayerNorm's Jacobian autograd computes
publish.setting("probe_mid", PROBES[1], "{:d}")
publish.setting("post_norms", 2 * STACK, "{:d}")
pre_runs = [ln_gradient_profile(STACK, seed, True, PROBES, batch=8) for seed in JAC_SEEDS]
post_runs = [ln_gradient_profile(STACK, seed, False, batch=8) for seed in JAC_SEEDS]
pre = {key: np.array([run[key] for run in pre_runs]) for key in pre_runs[0]}  # (seeds, ...)
post = {key: np.array([run[key] for run in post_runs]) for key in post_runs[0]}
post_sigma = np.concatenate([post["sigma_1"], post["sigma_2"]], axis=1)  # every LN, per seed
share = pre["branch"]  # (seeds, blocks)
steady = share * pre["sigma_1"]  # the share with the LayerNorm's division undone


def seeds_spread(key, values, fmt="{:.2f}"):
    return publish.spread(key, values, seeds=JAC_SEEDS, fmt=fmt)


sigma_at = {
    name: seeds_spread(f"pre_sigma_{name}", pre["sigma_1"][:, block - 1])
    for name, block in zip(("first", "mid", "last"), PROBES, strict=True)
}
sigma_final = seeds_spread("pre_sigma_final", pre["sigma_final"])
jac_at = {
    name: seeds_spread(f"pre_jacobian_{name}", pre["jacobian"][:, i])
    for i, name in enumerate(("first", "mid", "last", "final"))
}
off = max(pre["off"].max(), post["off"].max())
publish.number("jacobian_off", off, "{:.1g}", seeds=JAC_SEEDS)
share_first = seeds_spread("branch_share_first", share[:, 0])
share_last = seeds_spread("branch_share_last", share[:, -1], "{:.3f}")
share_fall = seeds_spread("branch_share_fall", share.max(1) / share.min(1), "{:.1f}")
steady_ratio = seeds_spread("branch_times_sigma_ratio", steady.max(1) / steady.min(1))
post_last = seeds_spread("post_sigma_last", post["sigma_2"][:, -1])
publish.number("post_sigma_min", post_sigma.min(), "{:.2f}", seeds=JAC_SEEDS)
publish.number("post_sigma_max", post_sigma.max(), "{:.2f}", seeds=JAC_SEEDS)
say(
    "Pre-LN σ（第 1、8、64 块，最终层归一化）：",
    "Pre-LN sigma (blocks 1, 8, 64, final LN):",
    *(f"{s.median:.2f}" for s in (*sigma_at.values(), sigma_final)),
)
say(
    f"雅可比矩阵的谱范数（|σ‖J‖ - 1| 至多 {off:.1e}）：",
    f"spectral norm of the Jacobian (|sigma ||J|| - 1| at most {off:.1e}):",
    *(f"{j.median:.3f}" for j in jac_at.values()),
)
say(
    f"分支传回的比例 {share_first.median:.3f} -> {share_last.median:.3f}，"
    f"乘以 σ 后的最大/最小 {steady_ratio.median:.2f}；Post-LN 的 σ 在 "
    f"{post_sigma.min():.2f}-{post_sigma.max():.2f}",
    f"branch share {share_first.median:.3f} -> {share_last.median:.3f}, times sigma max/min "
    f"{steady_ratio.median:.2f}; Post-LN sigma within {post_sigma.min():.2f}-{post_sigma.max():.2f}",
)

# %%
publish.claim(
    "jacobian_norm_is_inverse_sigma",
    off < 1e-5,
    zh="在两种堆叠里，每个种子上自动求导得到的雅可比矩阵的谱范数都是 $1/\\sigma$，"
    "相对误差不超过 {{ jacobian_off }}",
    en="In both stacks and in every seed, the spectral norm of autograd's Jacobian is $1/\\sigma$, "
    "to a relative error of at most {{ jacobian_off }}",
    evidence=f"largest |sigma ||J|| - 1| {off:.1e} (< 1e-5)",
    every="seed",
)
publish.claim(
    "pre_sigma_grows",
    sigma_at["last"].low > 3 * sigma_at["first"].high
    and jac_at["last"].high < jac_at["mid"].low
    and jac_at["mid"].high < jac_at["first"].low,
    zh="Pre-LN 里分支的层归一化所除的 $\\sigma$ 随深度变大：第 1 块为 {{ pre_sigma_first_spread }}，"
    "第 {{ probe_mid }} 块为 {{ pre_sigma_mid_spread }}，第 {{ stack_blocks }} 块为 {{ pre_sigma_last_spread }}；"
    "雅可比矩阵的范数随之变小：{{ pre_jacobian_first_spread }}、{{ pre_jacobian_mid_spread }}、"
    "{{ pre_jacobian_last_spread }}",
    en="In Pre-LN, the $\\sigma$ that the branches' LayerNorms divide by grows with depth: "
    "{{ pre_sigma_first_spread }} at block 1, {{ pre_sigma_mid_spread }} at block {{ probe_mid }}, "
    "{{ pre_sigma_last_spread }} at block {{ stack_blocks }}; the norm of their Jacobian falls "
    "with it: {{ pre_jacobian_first_spread }}, {{ pre_jacobian_mid_spread }}, "
    "{{ pre_jacobian_last_spread }}",
    evidence=f"sigma last min {sigma_at['last'].low:.2f} vs first max {sigma_at['first'].high:.2f}",
)
publish.claim(
    "branch_share_falls",
    share_last.high < 0.5 * share_first.low,
    zh="分支传回残差流的梯度也随深度变小：第 1 块传回随机梯度的 {{ branch_share_first_spread }}，"
    "第 {{ stack_blocks }} 块只传回 {{ branch_share_last_spread }}",
    en="The gradient a branch passes back to the stream shrinks with depth too: block 1 passes "
    "back {{ branch_share_first_spread }} of a random gradient, block {{ stack_blocks }} only "
    "{{ branch_share_last_spread }}",
    evidence=f"last max {share_last.high:.3f} vs half the first min {share_first.low / 2:.3f}",
)
publish.claim(
    "branch_share_is_the_division",
    steady_ratio.high < 1.5 and share_fall.low > 2 * steady_ratio.high,
    zh="这一下降就是层归一化的除法：在每个种子里，这个比例在各块间的最大值与最小值相差 "
    "{{ branch_share_fall_spread }} 倍，乘以 $\\sigma$ 之后只差 {{ branch_times_sigma_ratio_spread }} 倍",
    en="The fall is the LayerNorm's division: in every seed the share's largest value over the "
    "blocks is {{ branch_share_fall_spread }} times its smallest, but multiplied by $\\sigma$ only "
    "{{ branch_times_sigma_ratio_spread }} times",
    evidence=f"times sigma at most {steady_ratio.high:.2f} (< 1.5), share at least {share_fall.low:.1f}",
    every="seed",
)
publish.claim(
    "final_ln_divides_most",
    sigma_final.low > 3 * post_last.high and jac_at["final"].high < 0.5,
    zh="梯度反向传播时最先经过的最终层归一化除以 $\\sigma(x_L)$ = {{ pre_sigma_final_spread }}，它的雅可比矩阵范数为 "
    "{{ pre_jacobian_final_spread }}；同样深的 Post-LN 最后一块末尾的层归一化只除以 {{ post_sigma_last_spread }}",
    en="The final LayerNorm, the first one a gradient passes on its way back, divides by $\\sigma(x_L)$ = "
    "{{ pre_sigma_final_spread }}, and its Jacobian's norm is {{ pre_jacobian_final_spread }}; the "
    "LayerNorm that ends the last block of a Post-LN stack as deep divides by only "
    "{{ post_sigma_last_spread }}",
    evidence=f"final min {sigma_final.low:.2f} vs Post-LN last max {post_last.high:.2f} (> 3x)",
)
publish.claim(
    "post_sigma_order_one",
    post_sigma.min() > 0.5 and post_sigma.max() < 2,
    zh="Post-LN 堆叠里，在每个种子上，全部 {{ post_norms }} 个层归一化所除的 $\\sigma$ 都在 "
    "{{ post_sigma_min }} 与 {{ post_sigma_max }} 之间：在每个深度上都是 1 的量级",
    en="In the Post-LN stack, in every seed, all {{ post_norms }} LayerNorms divide by a $\\sigma$ "
    "between {{ post_sigma_min }} and {{ post_sigma_max }}: of order one at every depth",
    evidence=f"sigma over all LNs and seeds {post_sigma.min():.2f}-{post_sigma.max():.2f}",
    every=("seed", "depth"),
)

# %% [markdown] lang="zh"
# ## 参数的小变化放大成输出的大变化：Admin
#
# 同一个种子下 6、12、24 层的三种编码器（初始化时，$d_\text{model} = 32$，每个种子 16 个序列）：Post-LN、Pre-LN，
# 以及把捷径乘上 Admin 的 $\omega_i$ 的 Post-LN。给各块的每个权重矩阵和偏置加一个方向随机、大小为其自身范数
# $10^{-3}$ 倍的扰动 $\delta$，记下输出（输出层读入的向量）相对变化与 $10^{-3}$ 之比。

# %% [markdown] lang="en"
# ## Small parameter changes, large output changes: Admin
#
# Three encoders of 6, 12 and 24 layers per seed (at initialization, $d_\text{model} = 32$, 16
# sequences per seed): Post-LN, Pre-LN, and Post-LN with its shortcuts multiplied by Admin's
# $\omega_i$. Every weight matrix and bias of the blocks is changed by a perturbation $\delta$ in a
# random direction, $10^{-3}$ of its own norm; we record the relative change of the output (what
# the head reads) over $10^{-3}$.

# %%
AMP_DEPTHS, AMP_SEEDS, AMP_EPS = (6, 12, 24), range(5), 1e-3
publish.setting("amp_seeds", len(AMP_SEEDS), "{:d}")
publish.setting("amp_deepest", AMP_DEPTHS[-1], "{:d}")
publish.setting("amp_residual_layers", 2 * AMP_DEPTHS[-1], "{:d}")
amp = amplification_study(AMP_DEPTHS, AMP_SEEDS, AMP_EPS)
change = amp["change"]  # kind -> (seeds, depths)


def amp_spread(key, values, fmt="{:.2f}"):
    return publish.spread(key, values, seeds=AMP_SEEDS, fmt=fmt)


over_pre, over_admin, admin_pre = {}, {}, {}
for d, L in enumerate(AMP_DEPTHS):
    for kind in change:
        amp_spread(f"amp_{kind}_l{L}", change[kind][:, d])
    over_pre[L] = amp_spread(f"amp_post_over_pre_l{L}", change["post"][:, d] / change["pre"][:, d])
    over_admin[L] = amp_spread(
        f"amp_post_over_admin_l{L}", change["post"][:, d] / change["admin"][:, d]
    )
    admin_pre[L] = change["admin"][:, d] / change["pre"][:, d]
    say(
        f"L={L:2d} 输出变化 ÷ 参数变化："
        + "  ".join(f"{k} {np.median(change[k][:, d]):.2f}" for k in change),
        f"L={L:2d} output change / parameter change: "
        + "  ".join(f"{k} {np.median(change[k][:, d]):.2f}" for k in change),
    )
growth = {
    kind: amp_spread(f"amp_{kind}_growth", change[kind][:, -1] / change[kind][:, 0])
    for kind in change
}
admin_pre_all = np.array(list(admin_pre.values()))
publish.number("amp_admin_over_pre_min", admin_pre_all.min(), "{:.2f}", seeds=AMP_SEEDS)
publish.number("amp_admin_over_pre_max", admin_pre_all.max(), "{:.2f}", seeds=AMP_SEEDS)
omega = np.median(amp["omegas"], axis=0)
publish.number("amp_omega_first", omega[0], "{:.2f}", seeds=AMP_SEEDS)
publish.number("amp_omega_last", omega[-1], "{:.2f}", seeds=AMP_SEEDS)

# %%
publish.claim(
    "post_amplifies_most",
    min(s.median for s in over_pre.values()) > 1.3
    and min(s.median for s in over_admin.values()) > 1.3,
    zh="在每个层数上，Post-LN 输出的变化都比另外两种大（中位数）：6、12、24 层时分别是 Pre-LN 的 "
    "{{ amp_post_over_pre_l6_spread }}、{{ amp_post_over_pre_l12_spread }}、{{ amp_post_over_pre_l24_spread }} 倍，"
    "是 Admin 的 {{ amp_post_over_admin_l6_spread }}、{{ amp_post_over_admin_l12_spread }}、"
    "{{ amp_post_over_admin_l24_spread }} 倍",
    en="At every depth Post-LN's output moves more than the other two's (medians): at 6, 12 and 24 layers "
    "{{ amp_post_over_pre_l6_spread }}, {{ amp_post_over_pre_l12_spread }} and {{ amp_post_over_pre_l24_spread }} "
    "times as much as Pre-LN's, and {{ amp_post_over_admin_l6_spread }}, {{ amp_post_over_admin_l12_spread }} and "
    "{{ amp_post_over_admin_l24_spread }} times as much as Admin's",
    evidence="smallest median ratio "
    f"{min(min(s.median for s in over_pre.values()), min(s.median for s in over_admin.values())):.2f} (> 1.3)",
    every="depth",
)
publish.claim(
    "post_seeds_differ",
    over_pre[24].low < over_pre[6].low and over_pre[24].high > over_pre[6].high,
    zh="24 层时种子之间差得更多：Post-LN 与 Pre-LN 之比从 {{ amp_post_over_pre_l24_min }} "
    "到 {{ amp_post_over_pre_l24_max }}，6 层时只从 {{ amp_post_over_pre_l6_min }} 到 {{ amp_post_over_pre_l6_max }}",
    en="The seeds differ more at 24 layers: Post-LN's ratio to Pre-LN ranges from "
    "{{ amp_post_over_pre_l24_min }} to {{ amp_post_over_pre_l24_max }} there, at 6 layers only "
    "from {{ amp_post_over_pre_l6_min }} to {{ amp_post_over_pre_l6_max }}",
    evidence=f"range at 24 {over_pre[24].low:.2f}-{over_pre[24].high:.2f} contains the range at 6",
)
publish.claim(
    "admin_like_pre",
    admin_pre_all.min() > 0.8 and admin_pre_all.max() < 1.05,
    zh="Admin 的 $\\omega$ 让 Post-LN 的输出变化落到 Pre-LN 的水平：在每个种子、每个层数上，它都是 Pre-LN 的 "
    "{{ amp_admin_over_pre_min }} 到 {{ amp_admin_over_pre_max }} 倍",
    en="Admin's $\\omega$ brings Post-LN's output change down to Pre-LN's: in every seed and at every depth "
    "it is {{ amp_admin_over_pre_min }} to {{ amp_admin_over_pre_max }} times Pre-LN's",
    evidence=f"Admin / Pre-LN over seeds and depths {admin_pre_all.min():.2f}-{admin_pre_all.max():.2f}",
    every=("seed", "depth"),
)
publish.claim(
    "amp_growth_not_resolved",
    min(s.median for s in growth.values()) > 1.2
    and growth["post"].low < growth["pre"].high
    and 0.67 < growth["post"].median / growth["pre"].median < 1.5,
    zh="输出变化的中位数随层数变大：从 6 层到 24 层，Post-LN、Pre-LN、Admin 的中位数分别增大到 "
    "{{ amp_post_growth_spread }}、{{ amp_pre_growth_spread }}、{{ amp_admin_growth_spread }} 倍。论文的 $O(N)$ 与 $O(\\log N)$ 之别在这几个深度、这几个种子上分不出来：Post-LN 的增长与 Pre-LN 的相差不到一倍半，范围也重叠",
    en="The median output change grows with depth: from 6 to 24 layers the medians grow "
    "{{ amp_post_growth_spread }} times (Post-LN), {{ amp_pre_growth_spread }} times (Pre-LN) and "
    "{{ amp_admin_growth_spread }} times (Admin). The paper's $O(N)$ against $O(\\log N)$ does not show at "
    "these depths and seeds: Post-LN's growth is within a factor 1.5 of Pre-LN's, and their ranges overlap",
    evidence=f"growth medians post {growth['post'].median:.2f}, pre {growth['pre'].median:.2f}",
)
publish.claim(
    "admin_omega_grows",
    omega[-1] > 2 * omega[0] and bool(np.all(np.diff(omega) > 0)),
    zh="$\\omega_i$ 沿着堆叠增大：第 1 个残差层为 {{ amp_omega_first }}，第 {{ amp_residual_layers }} 个为 "
    "{{ amp_omega_last }}（中位数），越靠后的分支在和里占的比例越小，正如 Pre-LN 里后面的块只写入残差流的一小部分",
    en="$\\omega_i$ grows along the stack: {{ amp_omega_first }} at the first residual layer, "
    "{{ amp_omega_last }} at the {{ amp_residual_layers }}th (medians), so the later a branch, the smaller "
    "its share of the sum, as a late Pre-LN block writes only a small share of the stream",
    evidence=f"median omega rises monotonically {omega[0]:.2f} -> {omega[-1]:.2f}",
)
alt_amplification = publish.claim(
    "alt_amplification",
    min(s.median for s in over_pre.values()) > 1.3 and admin_pre_all.max() < 1.05,
    zh=f"左：6、12、24 层的 Post-LN、Pre-LN 与 Admin 的输出相对变化除以参数相对变化（{len(AMP_SEEDS)} 个种子的中位数与范围），"
    "Post-LN 最大，Admin 与 Pre-LN 相近。右：24 层时 Admin 的 ω_i 沿 48 个残差层增大。",
    en=f"Left: the relative output change over the relative parameter change of Post-LN, Pre-LN and Admin at "
    f"6, 12 and 24 layers (median and range over {len(AMP_SEEDS)} seeds); Post-LN's is the largest, Admin's "
    "close to Pre-LN's. Right: Admin's ω_i grows along the 48 residual layers of the 24-layer stack.",
)
publish.figure(
    "amplification", lambda tr: amplification_figure(amp, AMP_DEPTHS, tr), alt=alt_amplification
)

# %% [markdown] lang="zh"
# ## RMSNorm
#
# RMSNorm 与层归一化（增益为 1、无偏置、相同的 $\epsilon$）在 1000 个随机词元上的最大差别：
# 一次让每个词元的特征均值恰好为 0，一次为 1。

# %% [markdown] lang="en"
# ## RMSNorm
#
# The largest difference between RMSNorm and layer normalization (gains 1, no bias, the same
# $\epsilon$) over 1000 random tokens: once with every token's features at mean exactly 0, once at 1.

# %%
RMS_SEEDS, RMS_TOKENS = range(5), 1000
centred = [rms_vs_layer_norm(0.0, seed, tokens=RMS_TOKENS) for seed in RMS_SEEDS]
shifted = [rms_vs_layer_norm(1.0, seed, tokens=RMS_TOKENS) for seed in RMS_SEEDS]
publish.number("rms_centred_max", max(centred), "{:.1g}", seeds=RMS_SEEDS)
shifted_spread = publish.spread("rms_shifted", shifted, seeds=RMS_SEEDS, fmt="{:.2f}")
publish.setting("rms_seeds", len(RMS_SEEDS), "{:d}")
publish.setting("rms_tokens", RMS_TOKENS, "{:d}")
shifted_range = f"{shifted_spread.low:.2f}-{shifted_spread.high:.2f}"
say(
    f"RMSNorm - LN：均值为 0 时至多 {max(centred):.1e}，平移后 {shifted_range}",
    f"RMSNorm - LN: centred at most {max(centred):.1e}, shifted {shifted_range}",
)
publish.claim(
    "rms_equals_ln_when_centred",
    max(centred) < 1e-5 and shifted_spread.low > 0.5,
    zh="均值为 0 的词元上，RMSNorm 与层归一化只差浮点舍入（最大差别 {{ rms_centred_max }}）；"
    "把每个特征平移 1，两者就明显不同（最大差别 {{ rms_shifted_spread }}）",
    en="On tokens with mean zero, RMSNorm and layer normalization differ only by floating-point "
    "rounding (at most {{ rms_centred_max }}); add 1 to the features and they clearly differ (by up "
    "to {{ rms_shifted_spread }})",
    evidence=f"centred {max(centred):.1e} (< 1e-5), shifted smallest {shifted_spread.low:.2f} (> 0.5)",
)

# %% [markdown] lang="zh"
# ## 学习率预热
#
# 再训练一个 3 层、$d_\text{model} = 32$ 的编码器反转长度为 8 的序列，用 Adam 训练 150 步，
# 峰值学习率取 0.01、0.03、0.1 三档；“有预热”指前 50 步把学习率从很小线性升到峰值。
# 学习率 0.03 用 5 个种子，另外两档各 3 个。

# %% [markdown] lang="en"
# ## Learning-rate warm-up
#
# Now a 3-layer encoder with $d_\text{model} = 32$ learns to reverse sequences of length 8 with
# Adam for 150 steps, at peak learning rates 0.01, 0.03 and 0.1; "warm-up" raises the learning
# rate linearly from very small to the peak over the first 50 steps. Learning rate 0.03 uses 5
# seeds, the other two 3 each.

# %%
SHOWN, LOW, HIGH = 3e-2, 1e-2, 1e-1
SEEDS_PER_LR = {SHOWN: range(5), LOW: range(3), HIGH: range(3)}  # the first is drawn step by step
STEPS, WARMUP = 150, 50
accuracy, curves = lr_sweep(SEEDS_PER_LR, steps=STEPS, warmup=WARMUP)
publish.setting("steps", STEPS, "{:d}")
publish.setting("warmup", WARMUP, "{:d}")
publish.setting("n_layer", cfg.n_layer, "{:d}")
publish.setting("shown_lr", SHOWN, "{:g}")
publish.setting("lr_low", LOW, "{:g}")
publish.setting("lr_high", HIGH, "{:g}")
for lr, seeds in SEEDS_PER_LR.items():
    publish.setting(f"seeds_lr{lr:g}".replace(".", "p"), len(seeds), "{:d}")
acc = {}
for name, per_lr in accuracy.items():
    for lr, values in per_lr.items():
        key = f"acc_{name}_lr{lr:g}".replace(".", "p")
        acc[name, lr] = publish.spread(key, [100 * v for v in values], SEEDS_PER_LR[lr], "{:.0f}%")
        shown = f"{acc[name, lr].median:.1f}%  ({acc[name, lr].low:.1f}-{acc[name, lr].high:.1f})"
        say(
            f"{name:12s} lr={lr:g}  留出集准确率 {shown}",
            f"{name:12s} lr={lr:g}  held-out accuracy {shown}",
        )

final_loss = {  # mean training loss over the last 10 steps, per seed
    name: publish.spread(
        f"final_loss_{name}", curves[name][:, -10:].mean(1), SEEDS_PER_LR[SHOWN], "{:.3f}"
    )
    for name in curves
}

# %%
publish.claim(
    "post_fails_without_warmup",
    acc["post", SHOWN].high < 20,
    zh="不预热的 Post-LN 在每个种子上都停在随机猜测的水平（留出批次准确率 {{ acc_post_lr0p03_spread }}，随机猜测为 10%）",
    en="Post-LN without warm-up stays at chance in every seed (held-out accuracy "
    "{{ acc_post_lr0p03_spread }}; chance is 10%)",
    evidence=f"best seed {acc['post', SHOWN].high:.1f}% (< 20%)",
    every="seed",
)
publish.claim(
    "warmup_or_pre_ln_trains",
    min(acc["post_warmup", SHOWN].low, acc["pre", SHOWN].low) > 80,
    zh="预热后的 Post-LN 在每个种子上都学会了任务（{{ acc_post_warmup_lr0p03_spread }}），"
    "不预热的 Pre-LN 也是（{{ acc_pre_lr0p03_spread }}）",
    en="With warm-up, Post-LN learns the task in every seed ({{ acc_post_warmup_lr0p03_spread }}), "
    "and so does Pre-LN without warm-up ({{ acc_pre_lr0p03_spread }})",
    evidence=f"worst seeds {acc['post_warmup', SHOWN].low:.1f}% and {acc['pre', SHOWN].low:.1f}% (> 80%)",
    every="seed",
)
publish.claim(
    "warmup_summary",
    acc["post", SHOWN].high < 20 and min(acc["post_warmup", SHOWN].low, acc["pre", SHOWN].low) > 80,
    zh="学习率 {{ shown_lr }} 时，不预热的 Post-LN 在每个种子上都停在随机猜测的水平，预热后的 Post-LN 和不预热的 Pre-LN 都学会了任务",
    en="at learning rate {{ shown_lr }}, Post-LN without warm-up stays at chance in every seed, while "
    "Post-LN with warm-up and Pre-LN without it learn the task",
    evidence="post_fails_without_warmup and warmup_or_pre_ln_trains",
    every="seed",
)
publish.claim(
    "all_train_at_low_lr",
    min(acc[name, LOW].low for name in accuracy) > 80,
    zh="学习率 {{ lr_low }} 时三种设置在每个种子上都学会了任务（准确率分别为 {{ acc_post_lr0p01_spread }}、"
    "{{ acc_post_warmup_lr0p01_spread }}、{{ acc_pre_lr0p01_spread }}）",
    en="At learning rate {{ lr_low }} all three settings learn the task in every seed (accuracy "
    "{{ acc_post_lr0p01_spread }}, {{ acc_post_warmup_lr0p01_spread }}, {{ acc_pre_lr0p01_spread }})",
    evidence=f"worst seed {min(acc[name, LOW].low for name in accuracy):.1f}% (> 80%)",
    every=("setting", "seed"),
)
publish.claim(
    "none_trains_at_high_lr",
    max(acc[name, HIGH].high for name in accuracy) < 90,
    zh="学习率 {{ lr_high }} 时没有一种设置在任何种子上学会任务（{{ acc_post_lr0p1_spread }}、"
    "{{ acc_post_warmup_lr0p1_spread }}、{{ acc_pre_lr0p1_spread }}）",
    en="At learning rate {{ lr_high }} no setting learns the task in any seed ({{ acc_post_lr0p1_spread }}, "
    "{{ acc_post_warmup_lr0p1_spread }}, {{ acc_pre_lr0p1_spread }})",
    evidence=f"best seed {max(acc[name, HIGH].high for name in accuracy):.1f}% (< 90%)",
    every=("setting", "seed"),
)
publish.claim(
    "warmup_matches_pre_ln",
    min(acc["post_warmup", lr].low for lr in (LOW, SHOWN)) > 80
    and min(acc["pre", lr].low for lr in (LOW, SHOWN)) > 80,
    zh="预热后的 Post-LN 在较低的两档学习率下与 Pre-LN 学得一样好：两者在每个种子上都超过 80%",
    en="With warm-up, Post-LN learns the task as well as Pre-LN at the two lower learning rates: both "
    "exceed 80% in every seed",
    evidence="worst seeds at the two lower learning rates above 80%",
    every=("seed", "learning rate"),
)
best_post = max(acc["post", HIGH].high, acc["post_warmup", HIGH].high)
publish.claim(
    "pre_ln_gets_further_at_high_lr",
    acc["pre", HIGH].median > best_post + 10,
    zh="但 Pre-LN 学到的程度仍超过两种 Post-LN：它的中位数高出两种 Post-LN 的最好种子 10 个百分点以上",
    en="but Pre-LN gets further than either Post-LN: its median is more than 10 points above "
    "the best seed of either Post-LN setting",
    evidence=f"Pre-LN median {acc['pre', HIGH].median:.1f}% vs best Post-LN seed {best_post:.1f}%",
)
alt_warmup = publish.claim(
    "alt_warmup",
    final_loss["post"].low > 0.8 * np.log(10)
    and max(final_loss["post_warmup"].high, final_loss["pre"].high) < 0.2,
    zh=f"左：学习率 {SHOWN:g} 时三种设置的训练损失（{len(SEEDS_PER_LR[SHOWN])} 个种子的中位数与范围），"
    "无预热的 Post-LN 停在随机猜测的水平，另外两种降到接近零。右：三档学习率下训练结束时的准确率。",
    en=f"Left: training loss of the three settings at learning rate {SHOWN:g} (median and range over "
    f"{len(SEEDS_PER_LR[SHOWN])} seeds); Post-LN without warm-up stays at chance while the other two "
    "fall to near zero. Right: accuracy at the end of training at the three learning rates.",
)
publish.figure("warmup", lambda tr: warmup_figure(accuracy, curves, SHOWN, tr), alt=alt_warmup)

# %% [markdown] lang="zh"
# ## 另一种解释：Adam 的自适应步长
#
# 梯度取独立的标准正态分布，按 Adam 的做法（$\beta_2$ 与上面训练所用相同）累计 $g^2$ 的滑动平均并做偏差修正，
# 看自适应步长 $1/\sqrt{\hat v_t}$ 在 20000 个坐标上的离散程度：第 90 与第 10 百分位之比。

# %% [markdown] lang="en"
# ## A second explanation: Adam's adaptive step
#
# Gradients drawn independently from a standard normal; Adam's bias-corrected moving average of
# $g^2$ (with the $\beta_2$ of the training above); the spread of the adaptive step size
# $1/\sqrt{\hat v_t}$ over 20000 coordinates: its 90th over its 10th percentile.

# %%
BETA2, ADAM_STEPS, ADAM_SEEDS = 0.98, (1, 10, WARMUP), range(5)
publish.setting("beta2", BETA2, "{:g}")
publish.setting("seeds_adam", len(ADAM_SEEDS), "{:d}")
spreads = np.array([adaptive_step_spread(ADAM_STEPS, BETA2, seed) for seed in ADAM_SEEDS])
step_spread = {
    t: publish.spread(f"step_spread_t{t}", spreads[:, i], seeds=ADAM_SEEDS, fmt="{:.1f}")
    for i, t in enumerate(ADAM_STEPS)
}
first_adaptive = next(t for t in range(1, 1000) if radam_rectifier(t, BETA2) > 0)
publish.number("radam_first_adaptive", first_adaptive, "{:d}")
# torch.optim.RAdam waits for rho_t > 5, one or two steps longer than the paper's 4
first_torch = next(
    t for t in range(1, 1000) if radam_rectifier(t, BETA2, TORCH_RADAM_THRESHOLD) > 0
)
publish.number("radam_first_adaptive_torch", first_torch, "{:d}")
publish.number("radam_r_warmup", radam_rectifier(WARMUP, BETA2), "{:.2f}")
say(
    "各步自适应步长 90/10 百分位之比的中位数：",
    "median 90th/10th percentile of the adaptive step, by step:",
    {t: f"{s.median:.2f}" for t, s in step_spread.items()},
)
say("RAdam 第一次使用自适应步长的步：", "RAdam's first adaptive step:", first_adaptive)
publish.claim(
    "adaptive_step_settles",
    step_spread[1].low > 5 * step_spread[WARMUP].high and step_spread[WARMUP].high < 1.5,
    zh="第 1 步时，自适应步长的第 90 百分位数是第 10 百分位数的 {{ step_spread_t1_spread }} 倍；"
    "第 10 步时是 {{ step_spread_t10_spread }} 倍，到预热结束的第 {{ warmup }} 步才降到 {{ step_spread_t50_spread }} 倍",
    en="At step 1 the adaptive step's 90th percentile is {{ step_spread_t1_spread }} times its 10th; "
    "at step 10, {{ step_spread_t10_spread }} times; only at step {{ warmup }}, where the warm-up ends, "
    "does it come down to {{ step_spread_t50_spread }}",
    evidence=f"step 1 smallest {step_spread[1].low:.1f} vs step {WARMUP} largest {step_spread[WARMUP].high:.2f}",
)
