r"""应用场景 · Where residual connections are used.

A deep MLP without normalization on scikit-learn's digits, trained four ways at one learning
rate over 10 seeds: no shortcut, a plain shortcut, ReZero and the Fixup rule; and what one plain
residual block does to the stream at initialization. Run it by hand with
``python examples/10-applications.py``; the docs build runs it for you.
"""

# resdoc: time-limit = 240

# %% [markdown] lang="zh"
# # 应用场景：让残差堆叠变深
#
# 64 个没有归一化的残差块（宽 32，He 初始化），在 `load_digits` 上用同一个 SGD 学习率训练 10 轮，
# 每种做法 10 个随机种子（种子决定初始化和小批量的顺序）。四种做法只在“块的分支如何接到捷径上”不同。
# 先看初始化时一个普通残差块对残差流做了什么。

# %% [markdown] lang="en"
# # Where residual connections are used: making residual stacks deep
#
# 64 residual blocks without normalization (width 32, He initialization), trained on
# `load_digits` for 10 epochs at one SGD learning rate, 10 random seeds per scheme (the seed sets
# the initialization and the order of the mini-batches). The four schemes differ only in how each
# block's branch joins the shortcut. First, what one plain residual block does to the stream at
# initialization.

# %%
import math

import numpy as np

from resdoc import publish
from resdoc.applications import (
    SCALINGS,
    SCHEMES,
    SKIP_RULES,
    WIDTH,
    deepnorm_constants,
    growth_at_init,
    one_step,
    scaled_growth,
    skip_stream,
    train_scheme,
)
from resdoc.applications_ode import WEIGHTS, euler_error, iid_stack, loglog_slope, shared_move
from resdoc.applications_plots import (
    branch_scaling_figure,
    first_nan,
    ode_figure,
    skip_rescale_figure,
    training_figure,
)
from resdoc.bilingual import say

SEEDS = range(10)
DEPTH, LR, EPOCHS = 64, 0.01, 10
publish.setting("depth", DEPTH, "{:d}")
publish.setting("width", WIDTH, "{:d}")
publish.setting("lr", LR, "{:g}")
publish.setting("epochs", EPOCHS, "{:d}")
publish.setting("n_seeds", len(SEEDS), "{:d}")
publish.setting("ln10", math.log(10), "{:.2f}")

inits = [growth_at_init(DEPTH, seed) for seed in SEEDS]
branch = publish.spread("branch_ratio", [i["branch"] for i in inits], seeds=SEEDS, fmt="{:.2f}")
cosine = publish.spread("branch_cosine", [i["cosine"] for i in inits], seeds=SEEDS, fmt="{:.3f}")
growth = publish.spread("block_growth", [i["growth"] for i in inits], seeds=SEEDS, fmt="{:.2f}")
stream = publish.spread("stream_growth", [i["stream"] for i in inits], seeds=SEEDS, fmt="{:.1e}")
predicted = 3 ** (DEPTH / 2)  # RMS factor if every block multiplied the squared norm by exactly 3
publish.number("stream_growth_predicted", predicted, "{:.1e}")
ratios = f"|F|^2/|x|^2 {branch.median:.2f}, cos(x, F) {cosine.median:.3f}, |x+F|^2/|x|^2 {growth.median:.2f}"
say(
    f"初始化时每块：{ratios}；{DEPTH} 个块后残差流的均方根 ×{stream.median:.2e}",
    f"per block at init: {ratios}; stream RMS x{stream.median:.2e} over {DEPTH} blocks",
)
publish.claim(
    "branch_twice_input",
    branch.low > 1.6 and branch.high < 2.5 and max(abs(cosine.low), abs(cosine.high)) < 0.1,
    zh="初始化时，分支的平方范数平均约为输入的两倍：$\\lVert \\mathcal{F}(x) \\rVert^2 / \\lVert x \\rVert^2$ = "
    "{{ branch_ratio_spread }}，而 $x$ 与 $\\mathcal{F}(x)$ 的余弦是 {{ branch_cosine_spread }}，几乎不相关",
    en="At initialization a branch's squared norm is on average about twice its input's: "
    "$\\lVert \\mathcal{F}(x) \\rVert^2 / \\lVert x \\rVert^2$ = {{ branch_ratio_spread }}, and the cosine between "
    "$x$ and $\\mathcal{F}(x)$ is {{ branch_cosine_spread }}: they are nearly uncorrelated",
    evidence=f"branch ratio {branch.low:.2f}–{branch.high:.2f}, cosine {cosine.low:.3f}–{cosine.high:.3f}",
)
publish.claim(
    "block_triples",
    growth.low > 2.5 and growth.high < 3.5,
    zh="于是平均每块把 $\\lVert x \\rVert^2$ 乘以 {{ block_growth_spread }}：约为三倍，而不是两倍",
    en="so a block multiplies $\\lVert x \\rVert^2$ by {{ block_growth_spread }} on average: about three, not two",
    evidence=f"growth per block {growth.low:.2f}–{growth.high:.2f}",
)
publish.claim(
    "stream_explodes",
    all(abs(math.log10(value / predicted)) < 2 for value in stream.values),
    zh="{{ depth }} 块之后，残差流的均方根变为输入时的 {{ stream_growth_spread }} 倍，"
    "与每块恰好乘三所预言的 $3^{64/2}$ ≈ {{ stream_growth_predicted }} 同一量级",
    en="After {{ depth }} blocks the stream's root mean square is {{ stream_growth_spread }} times its size "
    "at the input, the same order of magnitude as the $3^{64/2}$ ≈ {{ stream_growth_predicted }} that an "
    "exact factor of three per block predicts",
    evidence=f"measured {min(stream.values):.1e}–{max(stream.values):.1e} vs {predicted:.1e}",
)

# %% [markdown] lang="zh"
# ## 训练
#
# 四种做法、每种 10 个种子，同一个优化器（SGD，动量 0.9）和学习率。损失一旦变为 NaN，这次训练就停下。

# %% [markdown] lang="en"
# ## Training
#
# Four schemes, 10 seeds each, one optimizer (SGD, momentum 0.9) and one learning rate. A run stops
# as soon as its loss is NaN.

# %%
runs = {
    scheme: [train_scheme(scheme, depth=DEPTH, lr=LR, epochs=EPOCHS, seed=seed) for seed in SEEDS]
    for scheme in SCHEMES
}
steps_per_epoch = len(runs["rezero"][0].loss) // EPOCHS
publish.setting("steps", len(runs["rezero"][0].loss), "{:d}")
spreads = {}
for scheme, seeds in runs.items():
    nans = [first_nan(run.loss) for run in seeds]
    spreads[scheme, "rms"] = publish.spread(
        f"init_logit_rms_{scheme}", [run.init_logit_rms for run in seeds], seeds=SEEDS, fmt="{:.2g}"
    )
    spreads[scheme, "grad"] = publish.spread(
        f"init_grad_norm_{scheme}", [run.init_grad_norm for run in seeds], seeds=SEEDS, fmt="{:.2g}"
    )
    if all(n is None for n in nans):
        last = [sum(run.loss[-steps_per_epoch:]) / steps_per_epoch for run in seeds]
        spreads[scheme, "loss"] = publish.spread(
            f"final_loss_{scheme}", last, seeds=SEEDS, fmt="{:.3g}"
        )
        errors = [100 * run.test_error for run in seeds]
        spreads[scheme, "error"] = publish.spread(
            f"test_error_{scheme}", errors, seeds=SEEDS, fmt="{:.1f}"
        )
        publish.text(f"nan_step_{scheme}_spread", "—", seeds=SEEDS)
    else:
        hit = [n for n in nans if n is not None]
        publish.text(f"final_loss_{scheme}_spread", f"NaN ({len(hit)}/{len(SEEDS)})", seeds=SEEDS)
        publish.text(f"test_error_{scheme}_spread", "—", seeds=SEEDS)
        spreads[scheme, "nan"] = hit
        span = f"{min(hit)}" if min(hit) == max(hit) else f"{min(hit)}–{max(hit)}"
        publish.text(f"nan_step_{scheme}_spread", f"{span} ({len(hit)}/{len(SEEDS)})", seeds=SEEDS)
        publish.number(f"nan_step_{scheme}", max(hit), "{:d}", seeds=SEEDS)
    rms = spreads[scheme, "rms"].median
    say(
        f"{scheme:9s} 初始 logit 均方根 {rms:9.3g}  出现 NaN 的步 {nans}",
        f"{scheme:9s} init logit RMS {rms:9.3g}  NaN steps {nans}",
    )
for scheme in ("plain", "rezero", "fixup"):
    loss, error = spreads[scheme, "loss"].median, spreads[scheme, "error"].median
    say(
        f"{scheme:9s} 最后一轮损失 {loss:.3g}  测试误差 {error:.1f}%（{len(SEEDS)} 个种子的中位数）",
        f"{scheme:9s} last-epoch loss {loss:.3g}  test error {error:.1f}%  (medians over {len(SEEDS)} seeds)",
    )

rms_residual, rms_rezero = spreads["residual", "rms"], spreads["rezero", "rms"]
publish.claim(
    "residual_explodes_at_init",
    rms_residual.low > 1e6 * rms_rezero.high,
    zh="训练开始之前，普通残差堆叠的 logits 均方根已是 {{ init_logit_rms_residual_spread }}，"
    "ReZero 只有 {{ init_logit_rms_rezero_spread }}",
    en="Before training starts, the logits of the plain residual stack have an RMS of "
    "{{ init_logit_rms_residual_spread }}, against {{ init_logit_rms_rezero_spread }} for ReZero",
    evidence=f"residual min {rms_residual.low:.1e} vs ReZero max {rms_rezero.high:.2f}",
)
nan_steps = spreads.get(("residual", "nan"), [])
publish.claim(
    "residual_nan_after_first_update",
    len(nan_steps) == len(SEEDS) and max(nan_steps) <= 1,
    zh="第一次更新就把它变成 NaN：{{ n_seeds }} 个种子无一例外",
    en="the first update turns it into NaN, in all {{ n_seeds }} seeds",
    evidence=f"first NaN steps {nan_steps}",
    every="seed",
)
grad_residual, grad_rezero = spreads["residual", "grad"], spreads["rezero", "grad"]
publish.claim(
    "residual_gradient_huge",
    grad_residual.low > 1e6 * grad_rezero.high and len(nan_steps) == len(SEEDS),
    zh="第一步时，普通残差堆叠全部参数的梯度范数是 {{ init_grad_norm_residual_spread }}，ReZero 是 "
    "{{ init_grad_norm_rezero_spread }}；这么大的梯度不是“更强的信号”，学习率乘上它，一步就把网络推成 NaN",
    en="At the first step the norm of the plain residual stack's whole gradient is {{ init_grad_norm_residual_spread }}, "
    'ReZero\'s {{ init_grad_norm_rezero_spread }}; a gradient that large is no "stronger signal": multiplied by the '
    "learning rate, it turns the network into NaN in a single step",
    evidence=f"residual min {grad_residual.low:.1e} vs ReZero max {grad_rezero.high:.2f}; NaN steps {nan_steps}",
)
TINY_LR = 1e-6
publish.setting("tiny_lr", TINY_LR, "{:.6f}")
publish.setting("lr_ratio", LR / TINY_LR, "{:,.0f}")
tiny = [
    first_nan(train_scheme("residual", DEPTH, lr=TINY_LR, epochs=1, seed=seed).loss)
    for seed in SEEDS
]
publish.claim(
    "not_the_learning_rate",
    all(n is not None and n <= 1 for n in tiny),
    zh="把学习率降到 {{ tiny_lr }}（原来的 {{ lr_ratio }} 分之一），第一次更新同样在每个种子上都产生 NaN",
    en="at a learning rate of {{ tiny_lr }}, {{ lr_ratio }} times smaller, the first update gives NaN in "
    "every seed just the same",
    evidence=f"first NaN steps at lr {TINY_LR:g}: {tiny}",
    every="seed",
)
plain_loss, plain_error = spreads["plain", "loss"], spreads["plain", "error"]
publish.claim(
    "plain_barely_learns",
    plain_loss.median > math.log(10) - 0.1 and plain_error.median > 75,
    zh="无捷径的网络 {{ epochs }} 轮里几乎学不到东西：最后一轮的训练损失是 {{ final_loss_plain_spread }}，"
    "随机猜测是 $\\ln 10$ ≈ {{ ln10 }}；测试错误率 {{ test_error_plain_spread }}%",
    en="The stack without shortcuts hardly learns in {{ epochs }} epochs: its training loss in the last epoch "
    "is {{ final_loss_plain_spread }}, against $\\ln 10$ ≈ {{ ln10 }} for guessing, and its test error "
    "{{ test_error_plain_spread }}%",
    evidence=f"median loss {plain_loss.median:.3f}, median error {plain_error.median:.1f}%",
)
rezero_error, fixup_error = spreads["rezero", "error"], spreads["fixup", "error"]
trains = (
    max(rezero_error.high, fixup_error.high) < 15
    and max(spreads["rezero", "loss"].high, spreads["fixup", "loss"].high) < 0.5
)
publish.claim(
    "rezero_fixup_train",
    trains,
    zh="ReZero 和 Fixup 规则在每个种子上都训练得很好：最后一轮的训练损失分别是 {{ final_loss_rezero_spread }} "
    "和 {{ final_loss_fixup_spread }}，测试错误率分别是 {{ test_error_rezero_spread }}% 和 {{ test_error_fixup_spread }}%",
    en="ReZero and the Fixup rule train well in every seed: their training losses in the last epoch are "
    "{{ final_loss_rezero_spread }} and {{ final_loss_fixup_spread }}, their test errors "
    "{{ test_error_rezero_spread }}% and {{ test_error_fixup_spread }}%",
    evidence=f"worst test errors {rezero_error.high:.1f}%, {fixup_error.high:.1f}%",
    every="seed",
)
same_start = all(
    abs(a.init_logit_rms - b.init_logit_rms) < 1e-6
    for a, b in zip(runs["rezero"], runs["fixup"], strict=True)
)
publish.claim(
    "identity_start",
    same_start and rms_rezero.high < 1,
    zh="两者初始化时的 logits 在每个种子上都相同（均方根 {{ init_logit_rms_rezero_spread }}）："
    "它们的块一开始是恒等映射，起作用的只有输入层和分类层",
    en="at initialization their logits agree in every seed (RMS {{ init_logit_rms_rezero_spread }}): both "
    "start with identity blocks, and only the input layer and the classifier act",
    evidence=f"same initial RMS: {same_start}; ReZero max {rms_rezero.high:.2f}",
    every="seed",
)
publish.claim(
    "summary_experiment",
    rms_residual.low > 1e6 * rms_rezero.high and trains and len(nan_steps) == len(SEEDS),
    zh="实验中，{{ depth }} 个无归一化的残差块在 He 初始化下一开始就爆炸，{{ n_seeds }} 个种子都在第一次更新后变成 NaN；"
    "ReZero 和 Fixup 规则在同一学习率下每个种子都训练正常",
    en="In the experiment, {{ depth }} un-normalized residual blocks under He initialization explode from the "
    "start and are NaN after the first update in all {{ n_seeds }} seeds; ReZero and the Fixup rule train "
    "normally at the same learning rate in every seed",
    evidence="see residual_explodes_at_init, residual_nan_after_first_update and rezero_fixup_train",
    every="seed",
)
alt_zh, alt_en = publish.claim(
    "training_alt",
    len(nan_steps) == len(SEEDS) and plain_loss.median > math.log(10) - 0.1 and trains,
    zh="普通残差第一步后即为 NaN，无捷径的网络停在随机猜测附近，ReZero 和 Fixup 规则正常下降",
    en="the plain residual stack is NaN after its first step, the stack without shortcuts stays near "
    "guessing, ReZero and the Fixup rule train",
    evidence="see the claims above",
)
publish.figure(
    "deep-training",
    lambda tr: training_figure(runs, DEPTH, tr),
    alt=(
        f"{DEPTH} 个无归一化块的训练损失（{len(SEEDS)} 个种子的中位数与范围）：{alt_zh}。",
        f"Training loss of {DEPTH} un-normalized blocks (median and range over {len(SEEDS)} seeds): {alt_en}.",
    ),
)

# %% [markdown] lang="zh"
# ## DeepNorm 的常数
#
# DeepNorm 放大捷径、缩小分支的初始化；对 $N$ 层的纯编码器（或纯解码器）：

# %% [markdown] lang="en"
# ## DeepNorm's constants
#
# DeepNorm up-weights the shortcut and down-scales the branch initialization; for an $N$-layer
# encoder-only (or decoder-only) stack:

# %%
for n in (12, 1000):
    constants = deepnorm_constants(n)
    publish.number(f"deepnorm_alpha_{n}", constants["alpha"], "{:.2f}")
    publish.number(f"deepnorm_beta_{n}", constants["beta"], "{:.3f}")
    print(f"N = {n:5d}: alpha = {constants['alpha']:.2f}, beta = {constants['beta']:.3f}")

# %% [markdown] lang="zh"
# ## 分支缩放：1/√L 还是 1/L
#
# 同样的无归一化残差块（He 初始化），每个分支乘以常数 $s$：不缩放、$1/\sqrt{L}$ 或 $1/L$。先看初始化时
# 残差流经过 $L$ 个块后变大多少，再在同一学习率下对块的权重做一步 SGD，看 $x_L$ 移动多少。

# %% [markdown] lang="en"
# ## Branch scaling: 1/√L or 1/L
#
# The same un-normalized residual blocks (He initialization), every branch multiplied by a constant
# $s$: none, $1/\sqrt{L}$ or $1/L$. First how much the stream grows over $L$ blocks at initialization,
# then how far one SGD step on the blocks' weights, at one learning rate, moves $x_L$.

# %%
DEPTHS = [8, 16, 32, 64, 128, 256]
SCALE_SEEDS = range(5)
DEPTH_NAME = {0: "shallow", -1: "deep"}  # result keys of the first and last depth
publish.setting("scale_depth_min", DEPTHS[0], "{:d}")
publish.setting("scale_depth_max", DEPTHS[-1], "{:d}")
publish.setting("scale_seeds", len(SCALE_SEEDS), "{:d}")
scale_growth = {
    s: np.array([[scaled_growth(d, s, seed) for d in DEPTHS] for seed in SCALE_SEEDS])
    for s in SCALINGS
}
# every block multiplies the mean square by 1 + 2s² (the branch is s times a branch of twice
# the input's mean square, uncorrelated with it), so the RMS grows by (1 + 2s²)^(L/2)
scale_predicted = {s: [(1 + 2 * f(d) ** 2) ** (d / 2) for d in DEPTHS] for s, f in SCALINGS.items()}
publish.setting("e", math.e, "{:.2f}")
for s in SCALINGS:
    for i in (0, -1):
        publish.spread(
            f"scale_growth_{s}_{DEPTH_NAME[i]}",
            scale_growth[s][:, i],
            seeds=SCALE_SEEDS,
            fmt="{:.3g}",
        )
    publish.number(f"scale_predicted_{s}_deep", scale_predicted[s][-1], "{:.3g}")
    medians = np.median(scale_growth[s], 0)
    say(f"{s:7s} 增长倍数的中位数 {medians}", f"{s:7s} growth medians {medians}")
per_block = scale_growth["none"] ** (1 / np.array(DEPTHS))  # RMS factor per block, (seeds, depths)
publish.spread("scale_per_block_none", per_block[:, -1], seeds=SCALE_SEEDS, fmt="{:.2f}")
publish.number("scale_per_block_none_low", per_block.min(), "{:.2f}", seeds=SCALE_SEEDS)
publish.number("scale_per_block_none_high", per_block.max(), "{:.2f}", seeds=SCALE_SEEDS)
publish.setting("sqrt3", math.sqrt(3), "{:.2f}")
grows = publish.claim(
    "unscaled_exponential",
    per_block.min() > 1.5 and per_block.max() < 1.85,
    zh="不缩放时，残差流按指数增长：{{ scale_depth_max }} 块后是 {{ scale_growth_none_deep_spread }} 倍，平均每块把均方根乘以 "
    "{{ scale_per_block_none_spread }}，在每个深度、每个种子上都在 {{ scale_per_block_none_low }} 与 "
    "{{ scale_per_block_none_high }} 之间，接近 $\\sqrt{3}$ ≈ {{ sqrt3 }}",
    en="Unscaled, the stream grows exponentially: after {{ scale_depth_max }} blocks it is "
    "{{ scale_growth_none_deep_spread }} times larger, a block multiplying its RMS by {{ scale_per_block_none_spread }} "
    "on average, between {{ scale_per_block_none_low }} and {{ scale_per_block_none_high }} at every depth and in every "
    "seed, close to $\\sqrt{3}$ ≈ {{ sqrt3 }}",
    evidence=f"per-block factor {per_block.min():.3f}–{per_block.max():.3f}",
    every=("depth", "seed"),
)
sqrt_ratio = scale_growth["sqrt"] / np.array(scale_predicted["sqrt"])
bounded = publish.claim(
    "sqrt_bounded",
    scale_growth["sqrt"].max() < 5
    and scale_growth["sqrt"].min() > 1.5
    and abs(math.log(float(np.median(sqrt_ratio)))) < math.log(1.3),
    zh="按 $1/\\sqrt{L}$ 缩放时，增长不随深度变大：{{ scale_depth_min }} 块时 {{ scale_growth_sqrt_shallow_spread }} 倍，"
    "{{ scale_depth_max }} 块时 {{ scale_growth_sqrt_deep_spread }} 倍，与预言的 $(1 + 2/L)^{L/2}$ 同一大小（它趋于 $e$ ≈ {{ e }}）",
    en="Scaled by $1/\\sqrt{L}$, the growth does not increase with depth: {{ scale_growth_sqrt_shallow_spread }} times at "
    "{{ scale_depth_min }} blocks, {{ scale_growth_sqrt_deep_spread }} times at {{ scale_depth_max }}, the size of "
    "the predicted $(1 + 2/L)^{L/2}$ (which tends to $e$ ≈ {{ e }})",
    evidence=f"range {scale_growth['sqrt'].min():.2f}–{scale_growth['sqrt'].max():.2f}, "
    f"median ratio to prediction {np.median(sqrt_ratio):.3f}",
)
flat = publish.claim(
    "linear_flat",
    abs(scale_growth["linear"][:, -1] - 1).max() < 0.1,
    zh="按 $1/L$ 缩放时，残差流几乎不变：{{ scale_depth_max }} 块后是 {{ scale_growth_linear_deep_spread }} 倍",
    en="Scaled by $1/L$, the stream hardly changes: {{ scale_growth_linear_deep_spread }} times after "
    "{{ scale_depth_max }} blocks",
    evidence=f"largest |growth - 1| at L={DEPTHS[-1]}: {abs(scale_growth['linear'][:, -1] - 1).max():.3f}",
)
step = {
    s: np.array([[one_step(d, s, LR, seed) for d in DEPTHS] for seed in SCALE_SEEDS])
    for s in ("sqrt", "linear")
}
slope = {}
for s, runs in step.items():
    for i in (0, -1):
        publish.spread(f"step_{s}_{DEPTH_NAME[i]}", runs[:, i], seeds=SCALE_SEEDS, fmt="{:.2g}")
    # log-log slope of the median against L: 0 = the same at every depth, -1 = like 1/L
    slope[s] = np.polyfit(np.log(DEPTHS), np.log(np.median(runs, 0)), 1)[0]
    publish.number(f"step_slope_{s}", slope[s], "{:.2f}", seeds=SCALE_SEEDS)
    medians = np.median(runs, 0)
    say(
        f"{s:7s} 一步改变的中位数 {medians}，斜率 {slope[s]:.2f}",
        f"{s:7s} one-step change medians {medians}, slope {slope[s]:.2f}",
    )
publish.setting("step_depth_ratio", DEPTHS[-1] / DEPTHS[0], "{:.0f}")
steady = publish.claim(
    "sqrt_step_steady",
    abs(slope["sqrt"]) < 0.3,
    zh="按 $1/\\sqrt{L}$ 缩放时，同一学习率的一步让 $x_L$ 移动的距离几乎不随深度变化：{{ scale_depth_min }} 块时 "
    "{{ step_sqrt_shallow_spread }}，{{ scale_depth_max }} 块时 {{ step_sqrt_deep_spread }}（对数坐标下的斜率 {{ step_slope_sqrt }}）",
    en="Scaled by $1/\\sqrt{L}$, one step at one learning rate moves $x_L$ a distance that hardly changes "
    "with depth: "
    "{{ step_sqrt_shallow_spread }} at {{ scale_depth_min }} blocks, {{ step_sqrt_deep_spread }} at {{ scale_depth_max }} "
    "(log-log slope {{ step_slope_sqrt }})",
    evidence=f"slope {slope['sqrt']:.3f}",
)
freezes = publish.claim(
    "linear_step_shrinks",
    -1.5 < slope["linear"] < -0.8 and step["linear"][:, -1].max() < step["linear"][:, 0].min() / 10,
    zh="按 $1/L$ 缩放时，这一步随深度大约按 $1/L$ 变小：从 {{ step_linear_shallow_spread }} 降到 {{ step_linear_deep_spread }}"
    "（斜率 {{ step_slope_linear }}）",
    en="Scaled by $1/L$, the step shrinks roughly like $1/L$: from {{ step_linear_shallow_spread }} to "
    "{{ step_linear_deep_spread }} (slope {{ step_slope_linear }})",
    evidence=f"slope {slope['linear']:.3f}; largest at L={DEPTHS[-1]} {step['linear'][:, -1].max():.2e} vs "
    f"smallest at L={DEPTHS[0]} {step['linear'][:, 0].min():.2e}",
)
publish.figure(
    "branch-scaling",
    lambda tr: branch_scaling_figure(DEPTHS, scale_growth, scale_predicted, step, tr),
    alt=(
        f"三幅图（{len(SCALE_SEEDS)} 个种子的中位数与范围）：(a) 不缩放时初始化的残差流增长，{grows[0]}；"
        f"(b) 缩放分支时，{bounded[0]}；{flat[0]}。(c) 一步 SGD 让 x_L 移动的距离：{steady[0]}；{freezes[0]}。",
        f"Three panels (median and range over {len(SCALE_SEEDS)} seeds): (a) the stream's growth at "
        f"initialization, unscaled: {grows[1]}. (b) With scaled branches: {bounded[1]}; {flat[1]}. "
        f"(c) How far one SGD step moves x_L: {steady[1]}; {freezes[1]}.",
    ),
)
publish.claim(
    "summary_scaling",
    abs(slope["sqrt"]) < 0.3 and -1.5 < slope["linear"] < -0.8 and scale_growth["sqrt"].max() < 5,
    zh="实验中，$1/\\sqrt{L}$ 让初始化时的残差流有界，且同一学习率的一步在各深度移动输出的距离相近；"
    "$1/L$ 下这一步随深度约按 $1/L$ 变小",
    en="In the experiment, $1/\\sqrt{L}$ keeps the stream bounded at initialization and one step at one learning "
    "rate moves the output a distance that hardly changes with depth; under $1/L$ that step shrinks roughly like $1/L$",
)

# %% [markdown] lang="zh"
# ## 缩放相加之和：(x + F)/√2 与 0.1–0.3
#
# 32 个残差块 $x_{l+1} = a\,(x_l + s\,\mathcal{F}_l(x_l))$，停在初始化；分支先把输入除以它的 RMS
# （像扩散模型残差块开头的 GroupNorm），再接 $W_2\,\mathrm{ReLU}(W_1 \hat{x})$，$\mathrm{Var}(W_1) = 2/n$、$\mathrm{Var}(W_2) = 1/n$，
# 所以每个分支的 RMS 约为 1。五种规则：$x + F$、$(x + F)/\sqrt{2}$、$x + 0.3F$、$x + 0.1F$、$x + F/\sqrt{L}$；
# 每种 5 个种子，同一个种子下权重和输入相同。记录每块之后残差流的 RMS，以及每块的写入在 $x_L$ 中的大小。

# %% [markdown] lang="en"
# ## Scaling the skip sum: (x + F)/√2 and 0.1–0.3
#
# 32 residual blocks $x_{l+1} = a\,(x_l + s\,\mathcal{F}_l(x_l))$ at initialization; each branch
# first divides its input by its RMS (like the GroupNorm that opens a diffusion ResBlock), then
# computes $W_2\,\mathrm{ReLU}(W_1 \hat{x})$ with $\mathrm{Var}(W_1) = 2/n$ and $\mathrm{Var}(W_2) = 1/n$, so that every
# branch has an RMS of about 1. Five rules: $x + F$, $(x + F)/\sqrt{2}$, $x + 0.3F$, $x + 0.1F$ and
# $x + F/\sqrt{L}$; 5 seeds each, one seed drawing the same weights and input under every rule. We
# record the stream's RMS after every block, and how large each block's write is in $x_L$.

# %%
SKIP_DEPTH, SKIP_SEEDS = 32, range(5)
publish.setting("skip_depth", SKIP_DEPTH, "{:d}")
publish.setting("skip_seeds", len(SKIP_SEEDS), "{:d}")
publish.setting("skip_half_depth", SKIP_DEPTH // 2, "{:d}")
skip_runs = {
    rule: [skip_stream(rule, SKIP_DEPTH, seed) for seed in SKIP_SEEDS] for rule in SKIP_RULES
}
skip_rms = {r: np.array([run["stream"] for run in runs]) for r, runs in skip_runs.items()}
skip_weights = {r: np.array([run["weights"] for run in runs]) for r, runs in skip_runs.items()}
blocks = np.arange(SKIP_DEPTH + 1)
# every branch adds a variance of about 1 (its input is normalized): Var(x_l) = a²(Var(x_{l-1}) + s²)
skip_predicted = {}
for rule, (a, s) in SKIP_RULES.items():
    s = SKIP_DEPTH**-0.5 if s is None else s
    var = [1.0]
    for _ in range(SKIP_DEPTH):
        var.append(a**2 * (var[-1] + s**2))
    weight = [a ** (SKIP_DEPTH - k) * s / var[-1] ** 0.5 for k in range(SKIP_DEPTH)]
    skip_predicted[rule] = (np.sqrt(var), np.array(weight))
for rule in SKIP_RULES:
    final, w = np.median(skip_rms[rule][:, -1]), np.median(skip_weights[rule], 0)
    say(
        f"{rule:10s} RMS(x_L) 中位数 {final:.3f}（预测 {skip_predicted[rule][0][-1]:.3f}）；"
        f"首块权重 {w[0]:.2e}，末块 {w[-1]:.3f}",
        f"{rule:10s} median RMS(x_L) {final:.3f} (predicted {skip_predicted[rule][0][-1]:.3f}); "
        f"weight of the first block {w[0]:.2e}, of the last {w[-1]:.3f}",
    )

# %%
for rule in ("sum", "scaled_0.3", "scaled_0.1", "sqrt"):
    name = rule.replace(".", "")
    publish.spread(f"skip_final_{name}", skip_rms[rule][:, -1], SKIP_SEEDS, "{:.2f}")
    publish.number(f"skip_predicted_{name}", skip_predicted[rule][0][-1], "{:.2f}")
level = skip_rms["rescaled"]
publish.number("skip_rescaled_low", level.min(), "{:.2f}", seeds=SKIP_SEEDS)
publish.number("skip_rescaled_high", level.max(), "{:.2f}", seeds=SKIP_SEEDS)
publish.spread("skip_final_rescaled", level[:, -1], SKIP_SEEDS, "{:.2f}")
off = {  # how far each rule's median RMS(x_L) is from the prediction
    r: abs(np.median(skip_rms[r][:, -1]) / skip_predicted[r][0][-1] - 1) for r in SKIP_RULES
}
publish.number("skip_off_max", 100 * max(off.values()), "{:.0f}%", seeds=SKIP_SEEDS)
grows = publish.claim(
    "skip_sum_grows",
    off["sum"] < 0.1 and skip_rms["sum"][:, -1].min() > 4,
    zh="不缩放的 $x + \\mathcal{F}(x)$ 中，各块写入的方差相加：{{ skip_depth }} 块之后残差流的 RMS 是输入的 "
    "{{ skip_final_sum_spread }} 倍，预测 $\\sqrt{1 + L}$ ≈ {{ skip_predicted_sum }}",
    en="In the unscaled $x + \\mathcal{F}(x)$ the writes' variances add: after {{ skip_depth }} blocks the "
    "stream's RMS is {{ skip_final_sum_spread }} times the input's, against $\\sqrt{1 + L}$ ≈ "
    "{{ skip_predicted_sum }} predicted",
    evidence=f"median off the prediction by {off['sum']:.3f}; lowest {skip_rms['sum'][:, -1].min():.2f}",
)
level_claim = publish.claim(
    "skip_rescaled_level",
    level.min() > 0.75 and level.max() < 1.35 and abs(np.median(level[:, -1]) - 1) < 0.1,
    zh="$(x + \\mathcal{F}(x))/\\sqrt{2}$ 让它停在输入的大小：在每个块之后、每个种子里，RMS 都在输入的 "
    "{{ skip_rescaled_low }} 到 {{ skip_rescaled_high }} 倍之间，{{ skip_depth }} 块之后是 {{ skip_final_rescaled_spread }} 倍",
    en="$(x + \\mathcal{F}(x))/\\sqrt{2}$ keeps it at the input's size: after every block and in every seed its "
    "RMS is between {{ skip_rescaled_low }} and {{ skip_rescaled_high }} times the input's, "
    "{{ skip_final_rescaled_spread }} after {{ skip_depth }} blocks",
    evidence=f"range {level.min():.3f}-{level.max():.3f}, final median {np.median(level[:, -1]):.3f}",
    every=("block", "seed"),
)
slow = publish.claim(
    "skip_scaled_slow",
    max(off["scaled_0.3"], off["scaled_0.1"], off["sqrt"]) < 0.1
    and skip_rms["scaled_0.3"][:, -1].max() < skip_rms["sum"][:, -1].min() / 2,
    zh="把分支乘以常数 0.3 或 0.1 时，残差流仍在增长，只是慢得多：{{ skip_depth }} 块之后分别是 "
    "{{ skip_final_scaled_03_spread }} 倍和 {{ skip_final_scaled_01_spread }} 倍，预测 $\\sqrt{1 + s^2 L}$ ≈ "
    "{{ skip_predicted_scaled_03 }} 和 {{ skip_predicted_scaled_01 }}；乘以 $1/\\sqrt{L}$ 时是 "
    "{{ skip_final_sqrt_spread }} 倍，预测 $\\sqrt{2}$",
    en="With the branch multiplied by a constant 0.3 or 0.1 the stream still grows, only much more "
    "slowly: {{ skip_final_scaled_03_spread }} and {{ skip_final_scaled_01_spread }} times after "
    "{{ skip_depth }} blocks, against $\\sqrt{1 + s^2 L}$ ≈ {{ skip_predicted_scaled_03 }} and "
    "{{ skip_predicted_scaled_01 }} predicted; multiplied by $1/\\sqrt{L}$ it is {{ skip_final_sqrt_spread }}, "
    "against $\\sqrt{2}$ predicted",
    evidence=f"medians off the predictions by {off['scaled_0.3']:.3f}, {off['scaled_0.1']:.3f}, "
    f"{off['sqrt']:.3f}",
)
rescaled_w = skip_weights["rescaled"]
slopes = [np.polyfit(np.arange(SKIP_DEPTH), np.log2(w), 1)[0] for w in rescaled_w]  # per seed
publish.number("skip_slope_low", min(slopes), "{:.3f}", seeds=SKIP_SEEDS)
publish.number("skip_slope_high", max(slopes), "{:.3f}", seeds=SKIP_SEEDS)
publish.spread("skip_first_weight", rescaled_w[:, 0], SKIP_SEEDS, "{:.1e}")
publish.number("skip_first_predicted", 2 ** (-SKIP_DEPTH / 2), "{:.1e}")
publish.spread("skip_last_weight", rescaled_w[:, -1], SKIP_SEEDS, "{:.2f}")
geometric = publish.claim(
    "skip_rescaled_geometric",
    min(slopes) > 0.45 and max(slopes) < 0.55,
    zh="代价是各块的权重按几何级数分布：在每个种子里，$\\log_2$ 权重对块序号的斜率都在 {{ skip_slope_low }} 到 "
    "{{ skip_slope_high }} 之间（预测 1/2，即往前一块，权重就乘以 $1/\\sqrt{2}$）；最后一块的写入在 $x_L$ 中的大小是 "
    "{{ skip_last_weight_spread }}，第一块只有 {{ skip_first_weight_spread }}，预测 $2^{-L/2}$ ≈ {{ skip_first_predicted }}",
    en="The price is that the blocks' weights are geometric: in every seed the slope of $\\log_2$ of the weight "
    "against the block's index is between {{ skip_slope_low }} and {{ skip_slope_high }} (predicted 1/2: one block "
    "earlier, the weight is $1/\\sqrt{2}$ as large); the last block's write has a size of {{ skip_last_weight_spread }} in $x_L$, "
    "the first block's only {{ skip_first_weight_spread }}, against $2^{-L/2}$ ≈ {{ skip_first_predicted }} predicted",
    evidence=f"slopes {min(slopes):.3f}-{max(slopes):.3f}",
    every="seed",
)
even_rules = ("sum", "scaled_0.3", "scaled_0.1", "sqrt")
evenness = max((skip_weights[r].max(1) / skip_weights[r].min(1)).max() for r in even_rules)
publish.number("skip_even_ratio", evenness, "{:.2f}", seeds=SKIP_SEEDS)
even = publish.claim(
    "skip_others_even",
    evenness < 2,
    zh="另外四种规则下各块的权重相近：在每个种子里，最重的块与最轻的块之比最多 {{ skip_even_ratio }}",
    en="Under the other four rules the blocks weigh alike: in every seed the heaviest block weighs at most "
    "{{ skip_even_ratio }} times the lightest",
    evidence=f"largest max/min ratio of the weights {evenness:.3f} (< 2)",
    every="seed",
)
publish.figure(
    "skip-rescale",
    lambda tr: skip_rescale_figure(skip_rms, skip_weights, skip_predicted, tr),
    alt=(
        f"两幅折线图（{len(SKIP_SEEDS)} 个种子的中位数与范围）。(a) 每块之后残差流的 RMS：{grows[0]}；{level_claim[0]}；"
        f"{slow[0]}。(b) 每块的写入在输出中的大小，对数坐标：{geometric[0]}；{even[0]}。",
        f"Two line charts (median and range over {len(SKIP_SEEDS)} seeds). (a) The stream's RMS after every "
        f"block: {grows[1]}; {level_claim[1]}; {slow[1]}. (b) How large each block's write is in the "
        f"output, log scale: {geometric[1]}; {even[1]}.",
    ),
)
publish.claim(
    "summary_skip",
    level.min() > 0.75 and level.max() < 1.35 and min(slopes) > 0.45 and max(slopes) < 0.55,
    zh="实验中，分支读归一化输入时，$(x + \\mathcal{F})/\\sqrt{2}$ 让残差流保持在输入的大小，但各块在输出中的权重"
    "往前一块就乘以约 $1/\\sqrt{2}$；$x + \\mathcal{F}$ 让它按 $\\sqrt{1 + L}$ 增长，常数 0.1–0.3 让它增长得慢得多",
    en="In the experiment, with branches that read a normalized input, $(x + \\mathcal{F})/\\sqrt{2}$ keeps the stream "
    "at the input's size but a block's weight in the output is about $1/\\sqrt{2}$ times the next block's; "
    "$x + \\mathcal{F}$ grows it like $\\sqrt{1 + L}$, and a constant 0.1–0.3 grows it much more slowly",
    evidence="see skip_rescaled_level, skip_rescaled_geometric, skip_sum_grows and skip_scaled_slow",
)

# %% [markdown] lang="zh"
# ## 常微分方程的视角：x + f(x)/L 是一步欧拉法
#
# 分支 $f_\theta(x) = W_2 \tanh(W_1 x)$（宽 16，隐藏层 32），乘以 $1/L$：$L$ 个块就是 $\mathrm{d}x/\mathrm{d}t = f_{\theta(t)}(x)$
# 从 $t = 0$ 到 $1$ 的 $L$ 步欧拉法。停在初始化，64 个随机输入，5 个种子，$L$ = 4 到 256。三种权重：
# 整个堆叠共用一组权重；权重随深度平滑变化；每块独立抽取。前两种以 64 步四阶 Runge–Kutta 的解为参照；
# 第三种没有可参照的 ODE，我们测输出离 $x_0$ 多远，以及把奇数块重新抽取之后输出移动多远。

# %% [markdown] lang="en"
# ## The ODE view: x + f(x)/L is one Euler step
#
# A branch $f_\theta(x) = W_2 \tanh(W_1 x)$ (width 16, hidden layer 32), scaled by $1/L$: $L$ blocks
# are $L$ Euler steps of $\mathrm{d}x/\mathrm{d}t = f_{\theta(t)}(x)$ from $t = 0$ to $1$. At initialization,
# on 64 random inputs, 5 seeds, $L$ = 4 to 256. Three kinds of weights: one set shared by the
# whole stack; weights that vary smoothly with depth; weights drawn independently for every block. The
# first two are compared with a 64-step classical Runge–Kutta solution of their ODE; the third has
# no ODE to compare with, so we measure how far the output is from $x_0$, and how far it moves when
# every odd-numbered block is drawn again.

# %%
ODE_DEPTHS, ODE_SEEDS = [4, 8, 16, 32, 64, 128, 256], range(5)
publish.setting("ode_seeds", len(ODE_SEEDS), "{:d}")
publish.setting("ode_depth_min", ODE_DEPTHS[0], "{:d}")
publish.setting("ode_depth_max", ODE_DEPTHS[-1], "{:d}")
ode_error = {k: np.array([euler_error(k, ODE_DEPTHS, s) for s in ODE_SEEDS]) for k in WEIGHTS}
ode_runs = {
    scale: [[iid_stack(d, scale, s) for d in ODE_DEPTHS] for s in ODE_SEEDS]
    for scale in ("linear", "sqrt")
}
ode_move = {"shared": np.array([[shared_move(d, s) for d in ODE_DEPTHS] for s in ODE_SEEDS])}
for scale, runs in ode_runs.items():
    ode_move[f"iid_{scale}"] = np.array([[r["move"] for r in row] for row in runs])
    ode_move[f"iid_{scale}_redraw"] = np.array([[r["redraw"] for r in row] for row in runs])
ode_slopes = {
    k: [loglog_slope(ODE_DEPTHS, e) for e in runs] for k, runs in ode_move.items()
}  # per seed
euler_slopes = [loglog_slope(ODE_DEPTHS, e) for k in WEIGHTS for e in ode_error[k]]
for key, slopes_ in ode_slopes.items():
    say(
        f"{key:18s} log-log 斜率 {min(slopes_):.3f} 到 {max(slopes_):.3f}",
        f"{key:18s} log-log slope {min(slopes_):.3f} to {max(slopes_):.3f}",
    )
say(
    f"误差的 log-log 斜率 {min(euler_slopes):.3f} 到 {max(euler_slopes):.3f}",
    f"log-log slope of the error {min(euler_slopes):.3f} to {max(euler_slopes):.3f}",
)

# %%
publish.number("ode_euler_slope_low", min(euler_slopes), "{:.2f}", seeds=ODE_SEEDS)
publish.number("ode_euler_slope_high", max(euler_slopes), "{:.2f}", seeds=ODE_SEEDS)
for kind in WEIGHTS:
    publish.spread(f"ode_error_{kind}_first", ode_error[kind][:, 0], ODE_SEEDS, "{:.2g}")
    publish.spread(f"ode_error_{kind}_last", ode_error[kind][:, -1], ODE_SEEDS, "{:.2g}")
first_order = publish.claim(
    "ode_first_order",
    min(euler_slopes) > -1.05 and max(euler_slopes) < -0.95,
    zh="整个堆叠共用一组权重或权重随深度平滑变化时，$L$ 块的输出收敛到 ODE 的解，而且是一阶的：在每个种子里，两种权重下误差对 $L$ 的 "
    "log-log 斜率都在 {{ ode_euler_slope_low }} 到 {{ ode_euler_slope_high }} 之间（欧拉法预测 −1，即块数翻倍、误差减半）；"
    "共享权重时误差从 $L$ = {{ ode_depth_min }} 的 {{ ode_error_shared_first_spread }} 降到 $L$ = {{ ode_depth_max }} 的 "
    "{{ ode_error_shared_last_spread }}，平滑权重时从 {{ ode_error_smooth_first_spread }} 降到 {{ ode_error_smooth_last_spread }}",
    en="With one set of weights for the whole stack or weights smooth in depth, the $L$-block output converges to the ODE's solution, "
    "at first order: in every seed, under both kinds of weights, the log-log slope of the error against $L$ is between "
    "{{ ode_euler_slope_low }} and {{ ode_euler_slope_high }} (Euler's method predicts −1: twice the blocks, half the "
    "error); with shared weights the error falls from {{ ode_error_shared_first_spread }} at $L$ = {{ ode_depth_min }} "
    "to {{ ode_error_shared_last_spread }} at $L$ = {{ ode_depth_max }}, with smooth ones from "
    "{{ ode_error_smooth_first_spread }} to {{ ode_error_smooth_last_spread }}",
    evidence=f"slopes {min(euler_slopes):.3f} to {max(euler_slopes):.3f}",
    every="seed",
)
shared = ode_move["shared"]
publish.spread("ode_shared_move_last", shared[:, -1], ODE_SEEDS, "{:.2f}")
iid_slopes = ode_slopes["iid_linear"]
publish.number("ode_iid_slope_low", min(iid_slopes), "{:.2f}", seeds=ODE_SEEDS)
publish.number("ode_iid_slope_high", max(iid_slopes), "{:.2f}", seeds=ODE_SEEDS)
publish.spread("ode_iid_move_first", ode_move["iid_linear"][:, 0], ODE_SEEDS, "{:.2f}")
publish.spread("ode_iid_move_last", ode_move["iid_linear"][:, -1], ODE_SEEDS, "{:.3f}")
shared_steady = (shared[:, -1] / shared[:, 2]).tolist()  # L = 256 against L = 16
identity = publish.claim(
    "ode_iid_identity",
    min(iid_slopes) > -0.6
    and max(iid_slopes) < -0.4
    and max(abs(r - 1) for r in shared_steady) < 0.05,
    zh="各块的权重相互独立地抽取时，乘以 $1/L$ 的堆叠趋于恒等映射：输出离 $x_0$ 的距离从 $L$ = {{ ode_depth_min }} 的 "
    "{{ ode_iid_move_first_spread }} 降到 $L$ = {{ ode_depth_max }} 的 {{ ode_iid_move_last_spread }}（以 $x_0$ 的 RMS 为单位），"
    "在每个种子里 log-log 斜率都在 {{ ode_iid_slope_low }} 到 {{ ode_iid_slope_high }} 之间，即按 $1/\\sqrt{L}$ 下降："
    "$L$ 个均值为零的独立写入各乘以 $1/L$，和的大小是 $\\sqrt{L}/L$；共享权重时这个距离停在 {{ ode_shared_move_last_spread }}",
    en="With the blocks' weights drawn independently of one another, the stack scaled by $1/L$ tends to the identity: the output's "
    "distance from $x_0$ falls from {{ ode_iid_move_first_spread }} at $L$ = {{ ode_depth_min }} to "
    "{{ ode_iid_move_last_spread }} at $L$ = {{ ode_depth_max }} (in units of $x_0$'s RMS), with a log-log slope between "
    "{{ ode_iid_slope_low }} and {{ ode_iid_slope_high }} in every seed, that is like $1/\\sqrt{L}$: $L$ independent "
    "writes of mean zero, each times $1/L$, add up to a size of $\\sqrt{L}/L$; with shared weights the distance stays "
    "at {{ ode_shared_move_last_spread }}",
    evidence=f"iid slopes {min(iid_slopes):.3f} to {max(iid_slopes):.3f}; shared L=256/L=16 "
    f"{min(shared_steady):.3f} to {max(shared_steady):.3f}",
    every="seed",
)
ratio = ode_move["iid_linear_redraw"] / ode_move["iid_linear"]  # (seeds, depths)
publish.number("ode_redraw_low", ratio.min(), "{:.2f}", seeds=ODE_SEEDS)
publish.number("ode_redraw_high", ratio.max(), "{:.2f}", seeds=ODE_SEEDS)
redraw = publish.claim(
    "ode_iid_redraw",
    ratio.min() > 0.6 and ratio.max() < 1.5,
    zh="剩下的那一点移动也由各块各自的抽取决定，而不是由一条随深度变化的权重路径决定：把奇数块重新抽取一次，"
    "输出移动的距离是它离 $x_0$ 的距离的 {{ ode_redraw_low }} 到 {{ ode_redraw_high }} 倍，在每个深度、每个种子里都是"
    "（预测约 1），并不随 $L$ 变小",
    en="What little movement is left is set by the blocks' individual draws, not by a path of weights through depth: drawing "
    "the odd-numbered blocks again moves the output by {{ ode_redraw_low }} to {{ ode_redraw_high }} times its distance "
    "from $x_0$ at every depth and in every seed (about 1 predicted), a fraction that does not shrink with $L$",
    evidence=f"redraw/move ratio {ratio.min():.3f} to {ratio.max():.3f}",
    every=("depth", "seed"),
)
sqrt_slopes = ode_slopes["iid_sqrt"] + ode_slopes["iid_sqrt_redraw"]
sqrt_runs = np.concatenate([ode_move["iid_sqrt"], ode_move["iid_sqrt_redraw"]])
publish.number("ode_sqrt_low", sqrt_runs.min(), "{:.2f}", seeds=ODE_SEEDS)
publish.number("ode_sqrt_high", sqrt_runs.max(), "{:.2f}", seeds=ODE_SEEDS)
sqrt_random = publish.claim(
    "ode_sqrt_random",
    sqrt_runs.min() > 0.6 and sqrt_runs.max() < 1.6 and max(abs(s) for s in sqrt_slopes) < 0.1,
    zh="乘以 $1/\\sqrt{L}$ 时，独立权重的堆叠不趋于恒等映射，输出也不趋于一个确定的值：在每个深度、每个种子里，"
    "输出离 $x_0$ 的距离和重抽奇数块后移动的距离都在 $x_0$ 的 RMS 的 {{ ode_sqrt_low }} 到 {{ ode_sqrt_high }} 倍之间，"
    "不随 $L$ 变小",
    en="Scaled by $1/\\sqrt{L}$, the stack of independent weights tends neither to the identity nor to one definite "
    "output: at every depth and in every seed, the output's distance from $x_0$ and how far re-drawing the odd blocks "
    "moves it are both between {{ ode_sqrt_low }} and {{ ode_sqrt_high }} times $x_0$'s RMS, not shrinking with $L$",
    evidence=f"range {sqrt_runs.min():.3f}-{sqrt_runs.max():.3f}, slopes up to {max(abs(s) for s in sqrt_slopes):.3f}",
    every=("depth", "seed"),
)
publish.figure(
    "ode-view",
    lambda tr: ode_figure(ODE_DEPTHS, ode_error, ode_move, tr),
    alt=(
        f"两幅双对数折线图（{len(ODE_SEEDS)} 个种子的中位数与范围），横轴为块数 L。(a) 与 ODE 解的距离：{first_order[0]}。"
        f"(b) 输出移动了多远：{identity[0]}；{redraw[0]}；{sqrt_random[0]}。",
        f"Two log-log line charts (median and range over {len(ODE_SEEDS)} seeds) against the number of blocks L. "
        f"(a) The distance to the ODE's solution: {first_order[1]}. (b) How far the output moves: {identity[1]}; "
        f"{redraw[1]}; {sqrt_random[1]}.",
    ),
)
