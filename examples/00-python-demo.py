"""Python 演示：有无残差的梯度范数 · Python demo: gradient norms with and without the shortcut.

The original notes' demo reproduced as it was written, then taken apart layer by layer, over many seeds.
Run it by hand with ``python examples/00-python-demo.py``; the docs build runs it for you.
"""

# resdoc: time-limit = 120

# %% [markdown] lang="zh"
# # Python 演示：有无残差的梯度范数
#
# 先原样复现原始笔记里的演示：`torch.manual_seed(42)` 只设一次，深度 10 和 20 各建一个
# 无残差（plain）和一个有残差（residual）的 `Linear(32, 32)` 堆叠，每个网络用新的
# `randn(4, 32)` 输入和目标，打印均方误差损失对全部参数的总梯度范数。

# %% [markdown] lang="en"
# # Python demo: gradient norms with and without the shortcut
#
# First the original notes' demo exactly as written: `torch.manual_seed(42)` set once, then for
# depths 10 and 20 a plain and a residual stack of `Linear(32, 32)` blocks, each net fed a
# fresh `randn(4, 32)` input and target, printing the total gradient norm of the MSE loss.

# %%
import math
import statistics

from resdoc import publish
from resdoc.bilingual import say
from resdoc.python_demo import (
    growth_rates,
    independent_backward_gain,
    log_linear_fit,
    per_layer_gain,
    seed_demo,
    seed_profiles,
    sgd_losses,
    total_norm_by_depth,
)
from resdoc.python_demo_plots import layer_norms_figure, total_norm_figure

rows = seed_demo(depths=(10, 20))
output = "\n".join(row.line() for row in rows)
print(output)
publish.text("seed_output", output)
for row in rows:
    kind = "residual" if row.residual else "plain"
    publish.number(f"total_{kind}_d{row.depth}", row.grad_norm, "{:.4f}")
seed = {(row.depth, "residual" if row.residual else "plain"): row.grad_norm for row in rows}

# %% [markdown] lang="zh"
# ## 换一批随机种子，换一串深度
#
# 原始笔记的演示只用了一个随机种子。下面对深度 1 到 30、每个深度 10 个随机种子重复同一个计算，
# 记录中位数与范围，并用对数坐标下的直线拟合（R²）检验它随深度是否按指数变化。

# %% [markdown] lang="en"
# ## More seeds, more depths
#
# The original notes' demo uses one random seed. Below, the same computation for depths 1 to 30 with 10
# random seeds per depth: the median and the range, and a straight-line fit on the log scale
# (R²) to test whether it changes exponentially with depth.

# %%
SWEEP_SEEDS = range(10)
depths = list(range(1, 31))
norms = total_norm_by_depth(depths, seeds=SWEEP_SEEDS)
publish.setting("sweep_seeds", len(SWEEP_SEEDS), "{:d}")
sweep = {}
for kind in ("plain", "residual"):
    for depth in (10, 20):
        fmt = "{:,.0f}" if kind == "residual" else "{:.2g}" if depth == 10 else "{:.1e}"
        sweep[depth, kind] = publish.spread(
            f"sweep_{kind}_d{depth}", norms[kind][depth - 1], SWEEP_SEEDS, fmt
        )
    medians = [statistics.median(row) for row in norms[kind]]
    factor, r2 = log_linear_fit(depths, medians)
    publish.number(f"total_factor_{kind}", factor, "{:.2f}")
    publish.number(f"total_r2_{kind}", r2, "{:.3f}")
    sweep[kind] = (factor, r2)
    say(
        f"{kind:8s} 总梯度范数：每块 ×{factor:.2f}，R² = {r2:.3f}",
        f"{kind:8s} total norm: x{factor:.2f} per block, R^2 = {r2:.3f}",
    )

publish.claim(
    "seed_demo_explodes",
    seed[20, "residual"] > 10 * seed[10, "residual"] > 10
    and seed[20, "plain"] < seed[10, "plain"] / 10 < 0.1
    and sweep[20, "residual"].low > 3 * sweep[10, "residual"].high
    and sweep[20, "plain"].high < sweep[10, "plain"].low / 10,
    zh="换 {{ sweep_seeds }} 个随机种子，结果都一样：深度从 10 到 20，无残差网络的总梯度范数从 "
    "{{ sweep_plain_d10_spread }} 降到 {{ sweep_plain_d20_spread }}，有残差网络从 "
    "{{ sweep_residual_d10_spread }} 升到 {{ sweep_residual_d20_spread }}（中位数与范围）。"
    "这个残差堆叠的梯度不是被保住了，而是随深度爆炸了",
    en="Over {{ sweep_seeds }} random seeds the picture is the same: from depth 10 to 20 the plain "
    "net's total gradient norm falls from {{ sweep_plain_d10_spread }} to {{ sweep_plain_d20_spread }} "
    "and the residual net's rises from {{ sweep_residual_d10_spread }} to "
    "{{ sweep_residual_d20_spread }} (median and range). This residual stack's gradient was not "
    "preserved; it exploded with depth",
    evidence=f"seed demo {seed}; sweep d10/d20 residual max {sweep[10, 'residual'].high:.3g} vs "
    f"min {sweep[20, 'residual'].low:.3g}, plain min {sweep[10, 'plain'].low:.3g} vs "
    f"max {sweep[20, 'plain'].high:.3g}",
)
alt_total = publish.claim(
    "total_exponential",
    sweep["plain"][1] > 0.98
    and sweep["residual"][1] > 0.98
    and sweep["plain"][0] < 0.8
    and sweep["residual"][0] > 1.2,
    zh="对数坐标下，{{ sweep_seeds }} 个种子的中位数几乎是直线（直线拟合的 R² 为 "
    "{{ total_r2_plain }} 和 {{ total_r2_residual }}）：总梯度范数随深度指数变化，无残差时每多一个块"
    "约乘以 {{ total_factor_plain }}，有残差时约乘以 {{ total_factor_residual }}",
    en="On the log scale the median over {{ sweep_seeds }} seeds is nearly a straight line "
    "(a straight-line fit has R² = {{ total_r2_plain }} and {{ total_r2_residual }}): the total "
    "gradient norm changes exponentially with depth, by a factor of about {{ total_factor_plain }} "
    "per block without shortcuts and about {{ total_factor_residual }} with them",
    evidence=f"(factor, R^2): plain {sweep['plain']}, residual {sweep['residual']}",
)
publish.figure(
    "total-grad-norm-by-depth",
    lambda tr: total_norm_figure(depths, norms, tr),
    alt=(
        "总梯度范数随深度（1 到 30 个块）变化，对数坐标，中位数与范围。" + alt_total[0] + "。",
        "Total gradient norm against depth (1 to 30 blocks), log scale, median and range. "
        + alt_total[1].replace("R²", "R²")
        + ".",
    ),
)

# %% [markdown] lang="zh"
# ## 逐层看梯度
#
# 一个总数把所有层的梯度混在一起。下面对深度 20 的两种堆叠，记录每一层的
# 激活梯度 $\lVert \partial L/\partial x_l \rVert$ 和权重梯度 $\lVert \partial L/\partial W_l \rVert$，
# 每个随机种子给出一组新的权重、输入和目标。

# %% [markdown] lang="en"
# ## Layer by layer
#
# One total mixes every layer together. Below, for the two stacks of depth 20, we record the
# activation gradient $\lVert \partial L/\partial x_l \rVert$ and the weight gradient
# $\lVert \partial L/\partial W_l \rVert$ of every layer; every random seed gives new weights,
# input and target.

# %%
DEPTH = 20
SEEDS = range(20)
profiles = seed_profiles(DEPTH, SEEDS)
publish.setting("depth", DEPTH, "{:d}")
publish.setting("gain_seeds", len(SEEDS), "{:d}")
ends, fits = {}, {}
for kind, runs in profiles.items():
    for end, index in (("input", 0), ("output", -1)):
        fmt = "{:.1e}" if (kind, end) == ("plain", "input") else "{:.3g}"
        ends[kind, end] = publish.spread(
            f"{end}_grad_{kind}", [run.activation_grads[index] for run in runs], SEEDS, fmt
        )
    median_profile = [
        statistics.median(run.activation_grads[layer] for run in runs) for layer in range(DEPTH + 1)
    ]
    fits[kind] = log_linear_fit(range(DEPTH + 1), median_profile)
    publish.number(f"profile_r2_{kind}", fits[kind][1], "{:.3f}")

alt_directions = publish.claim(
    "per_layer_directions",
    ends["plain", "input"].high < ends["plain", "output"].low / 1000
    and ends["residual", "input"].low > 5 * ends["residual", "output"].high,
    zh="从输出往输入走，无残差网络的激活梯度从 {{ output_grad_plain_spread }} 降到 "
    "{{ input_grad_plain_spread }}；有残差网络则从 {{ output_grad_residual_spread }} 升到 "
    "{{ input_grad_residual_spread }}（{{ gain_seeds }} 个随机种子的中位数与范围）",
    en="Going from the output to the input, the plain net's activation gradient falls from "
    "{{ output_grad_plain_spread }} to {{ input_grad_plain_spread }}; the residual net's rises from "
    "{{ output_grad_residual_spread }} to {{ input_grad_residual_spread }} (median and range over "
    "{{ gain_seeds }} random seeds)",
    evidence=f"{ {key: (s.low, s.high) for key, s in ends.items()} }",
)
alt_straight = publish.claim(
    "per_layer_straight",
    fits["plain"][1] > 0.98 and fits["residual"][1] > 0.98,
    zh="两条中位数曲线在对数坐标下都接近直线（直线拟合的 R² 为 {{ profile_r2_plain }} 和 "
    "{{ profile_r2_residual }}）：每经过一层，梯度乘上一个大致固定的倍数",
    en="Both median curves are nearly straight on a log scale (a straight-line fit has R² = "
    "{{ profile_r2_plain }} and {{ profile_r2_residual }}): the gradient is multiplied by a "
    "roughly fixed factor per layer",
    evidence=f"(factor, R^2) {fits}",
)
publish.figure(
    "layer-grad-norms",
    lambda tr: layer_norms_figure(profiles, tr),
    alt=(
        f"深度 {DEPTH} 的无残差与有残差堆叠中，各层激活梯度与权重梯度的范数（对数坐标，中位数与范围）。"
        + alt_directions[0]
        + "。",
        f"Per-layer activation- and weight-gradient norms of a plain and a residual stack of depth {DEPTH} "
        "(log scale, median and range). " + alt_directions[1] + ".",
    ),
)

# %% [markdown] lang="zh"
# ## 每层的增长率：实测与推算
#
# PyTorch 的 `nn.Linear` 默认初始化使权重方差为 $1/(3n)$，由此推算一层无残差的块让
# $\lVert x \rVert$ 约乘以 $\sqrt{1/3}$，有残差的块约乘以 $\sqrt{4/3}$。
# 下面从同样的 20 个随机种子量出每层的平均倍数（前向与反向），与推算比较。

# %% [markdown] lang="en"
# ## Growth per block: measured and predicted
#
# PyTorch's default `nn.Linear` init gives weights of variance $1/(3n)$, from which a plain block
# should scale $\lVert x \rVert$ by about $\sqrt{1/3}$ and a residual block by about $\sqrt{4/3}$.
# Below, the average factor per block (forward and backward) from the same 20 random seeds,
# compared with the prediction.

# %%
gains, predicted = {}, {}
for kind, runs in profiles.items():
    predicted[kind] = per_layer_gain(kind == "residual")
    publish.number(f"predicted_gain_{kind}", predicted[kind], "{:.3f}")
    for direction, values in growth_rates(runs).items():
        gains[kind, direction] = publish.spread(f"{direction}_gain_{kind}", values, SEEDS, "{:.3f}")
    forward, backward = gains[kind, "forward"].median, gains[kind, "backward"].median
    say(
        f"{kind:8s} 预测 {predicted[kind]:.3f}   前向 {forward:.3f}   反向 {backward:.3f}",
        f"{kind:8s} predicted {predicted[kind]:.3f}   forward {forward:.3f}   backward {backward:.3f}",
    )


def off_by(kind: str, direction: str) -> float:
    """How far the median measured factor is from the prediction, relative to it."""
    return abs(gains[kind, direction].median / predicted[kind] - 1)


publish.claim(
    "forward_matches",
    off_by("plain", "forward") < 0.03 and off_by("residual", "forward") < 0.03,
    zh="前向倍数的中位数与推算相差不到 3%",
    en="The median forward factors are within 3% of the prediction",
    evidence=f"plain {off_by('plain', 'forward'):.3f}, residual {off_by('residual', 'forward'):.3f}",
)
publish.claim(
    "residual_backward_larger",
    gains["residual", "backward"].low > predicted["residual"]
    and gains["residual", "backward"].median > 1.03 * predicted["residual"],
    zh="有残差网络的反向倍数 {{ backward_gain_residual_spread }} 却比推算的 "
    "{{ predicted_gain_residual }} 大，每个种子都是如此",
    en="The residual net's backward factor, {{ backward_gain_residual_spread }}, is larger than the "
    "predicted {{ predicted_gain_residual }}, in every seed",
    evidence=f"backward {gains['residual', 'backward']} vs predicted {predicted['residual']:.4f}",
    every="seed",
)
independent = publish.spread(
    "independent_backward_gain_residual",
    [independent_backward_gain(DEPTH, residual=True, seed=s) for s in SEEDS],
    SEEDS,
    "{:.3f}",
)
publish.claim(
    "independent_backward_matches",
    abs(independent.median / predicted["residual"] - 1) < 0.03
    and independent.median < gains["residual", "backward"].median / 1.03,
    zh="把一个与权重无关的随机行向量当作输出梯度，从同样的堆叠反传回去，每层倍数就是 "
    "{{ independent_backward_gain_residual_spread }}，与推算相差不到 3%",
    en="Pull a random row vector that does not depend on the weights back through the same stacks "
    "as the output gradient, and the factor per block is {{ independent_backward_gain_residual_spread }}, "
    "within 3% of the prediction",
    evidence=f"independent {independent} vs predicted {predicted['residual']:.4f}, demo backward "
    f"{gains['residual', 'backward']}",
)
publish.claim(
    "plain_backward_matches",
    off_by("plain", "backward") < 0.03,
    zh="无残差网络的反向倍数 {{ backward_gain_plain_spread }} 与推算的 {{ predicted_gain_plain }} "
    "相差不到 3%",
    en="the plain net's backward factor, {{ backward_gain_plain_spread }}, is within 3% of the "
    "predicted {{ predicted_gain_plain }}",
    evidence=f"off by {off_by('plain', 'backward'):.3f}",
)
say(
    f"residual，与权重无关的输出梯度：{independent.median:.3f}",
    f"residual, an output gradient independent of the weights: {independent.median:.3f}",
)

# %% [markdown] lang="zh"
# ## 这样大的梯度能用来训练吗
#
# 用最普通的随机梯度下降（SGD，学习率 0.01）在各自的输入和目标上训练深度 20 的两种堆叠
# 20 步，5 个随机种子，记录损失。

# %% [markdown] lang="en"
# ## Can gradients this large train the net?
#
# Plain stochastic gradient descent (SGD, learning rate 0.01) trains both stacks of depth 20 on
# their own input and target for 20 steps, 5 random seeds, recording the loss.

# %%
SGD_SEEDS, SGD_LR, SGD_STEPS = range(5), 0.01, 20
publish.setting("sgd_lr", SGD_LR, "{:g}")
publish.setting("sgd_steps", SGD_STEPS, "{:d}")
publish.setting("sgd_seeds", len(SGD_SEEDS), "{:d}")
runs = {
    kind: [sgd_losses(kind == "residual", DEPTH, SGD_LR, SGD_STEPS, s) for s in SGD_SEEDS]
    for kind in ("plain", "residual")
}
# the first step at which the residual stack's loss is no longer a finite number
blown = [
    next((i for i, loss in enumerate(r) if not math.isfinite(loss)), None) for r in runs["residual"]
]
# how far the plain stack's loss moved over the whole run, in percent of where it started
moved = [100 * abs(r[-1] - r[0]) / r[0] for r in runs["plain"]]
all_blown = all(step is not None for step in blown)
if all_blown:
    publish.spread("sgd_blown_step", blown, SGD_SEEDS, "{:.0f}")
publish.claim(
    "sgd_diverges",
    all_blown and max(blown) <= SGD_STEPS // 2 and max(moved) < 1e-3,
    zh="用普通的随机梯度下降（学习率 {{ sgd_lr }}）训练深度 {{ depth }} 的堆叠，有残差网络的损失在全部 "
    "{{ sgd_seeds }} 个随机种子里都溢出成了非有限值（inf 或 NaN），只用了 {{ sgd_blown_step_spread }} "
    "次更新（中位数与范围）；无残差网络的损失则纹丝不动：{{ sgd_steps }} 步后与起点相差不到十万分之一",
    en="Trained with plain SGD (learning rate {{ sgd_lr }}), the residual stack of depth {{ depth }} "
    "overflows to a non-finite loss (inf or NaN) in all {{ sgd_seeds }} random seeds, after only "
    "{{ sgd_blown_step_spread }} updates (median and range); the plain stack's loss does not move: "
    "after {{ sgd_steps }} steps it is within one part in 100,000 of where it started",
    evidence=f"residual non-finite from steps {blown}; plain moved {moved}",
    every="seed",
)
publish.claim(
    "sgd_short",
    all_blown and max(blown) <= SGD_STEPS // 2,
    zh="用学习率 {{ sgd_lr }} 的 SGD 训练，这个有残差堆叠的损失 {{ sgd_blown_step_spread }} 次更新之内就溢出了",
    en="trained with SGD at learning rate {{ sgd_lr }}, this residual stack's loss overflows within "
    "{{ sgd_blown_step_spread }} updates",
    evidence=f"residual non-finite from steps {blown}",
)
publish.claim(
    "big_gradient_diverges",
    sweep["residual"][0] > 1.2 and sweep["residual"][1] > 0.98 and all_blown and max(blown) <= 10,
    zh="原始笔记演示中的残差堆叠，总梯度范数随深度指数增长，深度 {{ depth }} 时是 {{ sweep_residual_d20_spread }}"
    "（{{ sweep_seeds }} 个随机种子）；可是用学习率 {{ sgd_lr }} 的 SGD 训练它，损失在 "
    "{{ sgd_blown_step_spread }} 次更新之内就溢出了",
    en="The residual stack of the original notes' demo has a total gradient norm that grows exponentially with depth, "
    "{{ sweep_residual_d20_spread }} at depth {{ depth }} ({{ sweep_seeds }} random seeds); yet "
    "trained with SGD at learning rate {{ sgd_lr }}, its loss overflows within "
    "{{ sgd_blown_step_spread }} updates",
    evidence=f"total norm fit {sweep['residual']}; non-finite from steps {blown}",
)
say("residual 堆叠：损失从这些步起不再有限", "residual stack: loss not finite from step", blown)
say("plain 堆叠：损失的变化", "plain stack: loss changed by", [f"{m:.1e}%" for m in moved])

# %% [markdown] lang="zh"
# ## 结论
#
# 上面的测量合起来支持两个结论，各自写成一条检查过的断言。

# %% [markdown] lang="en"
# ## Conclusions
#
# Together, the measurements above support two conclusions, each written as a checked claim.

# %%
vanishing = publish.claim(
    "lesson_vanishing",
    ends["plain", "input"].high < ends["plain", "output"].low / 1000
    and sweep["plain"][0] < 0.8
    and sweep["plain"][1] > 0.98,
    zh="没有快捷路径时，默认初始化下的深层线性堆叠梯度随深度指数变小，即**梯度消失**（vanishing gradient）",
    en="without shortcuts, a deep linear stack under the default initialization has **vanishing** "
    "gradients: they shrink exponentially with depth",
    evidence=f"plain input/output gradients {ends['plain', 'input']}, {ends['plain', 'output']}; "
    f"total norm fit {sweep['plain']}",
)
exploding = publish.claim(
    "lesson_exploding",
    ends["residual", "input"].low > 5 * ends["residual", "output"].high
    and sweep["residual"][0] > 1.2
    and sweep["residual"][1] > 0.98,
    zh="这个残差堆叠的梯度就随深度指数增大，即**梯度爆炸**（exploding gradient）",
    en="this residual stack's gradient **explodes** exponentially with depth",
    evidence=f"residual input/output gradients {ends['residual', 'input']}, "
    f"{ends['residual', 'output']}; total norm fit {sweep['residual']}",
)
