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
from resdoc.add_norm_plots import final_ln_figure, init_grad_figure, ratio_figure, warmup_figure
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
