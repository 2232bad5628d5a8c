"""退化问题 · The degradation problem.

Plain, identity-shortcut and 0.5-scaled-shortcut nets of several depths, built like the
pre-activation ResNet of He et al. (2016) with linear layers, trained with the paper's recipe
on scikit-learn's digits over 5 seeds: the deeper plain nets reach a higher *training* error,
the identity-shortcut ones do not. Run it by hand with ``python examples/06-degradation.py``;
the docs build runs it for you.
"""

# resdoc: time-limit = 450

# %% [markdown] lang="zh"
# # 退化问题
#
# 同一种预激活块（BN-ReLU-线性-BN-ReLU-线性）堆成 2、8、16、32 个块，分别用无残差、恒等捷径
# $x + \mathcal{F}(x)$ 和缩放捷径 $0.5\,x + \mathcal{F}(x)$ 三种连法，在 scikit-learn 的手写数字数据集
# `load_digits` 上按 He 等人的设置训练（带动量的 SGD、权重衰减、学习率分两次除以 10），
# 每种组合 5 个随机种子，然后看**训练集**上的损失和错误率。

# %% [markdown] lang="en"
# # The degradation problem
#
# One pre-activation block (BN-ReLU-linear-BN-ReLU-linear), stacked 2, 8, 16 and 32 times and
# wired three ways — no shortcut, the identity shortcut $x + \mathcal{F}(x)$, and a scaled
# shortcut $0.5\,x + \mathcal{F}(x)$ — is trained on scikit-learn's `load_digits` with He et
# al.'s recipe (SGD with momentum, weight decay, the learning rate divided by 10 twice), 5
# seeds each. Then we look at the **training** set.

# %%
import math
from dataclasses import replace

import numpy as np
import torch

from resdoc import publish
from resdoc.bilingual import say
from resdoc.data import Split, digits
from resdoc.degradation import depth_sweep, loss_surface, nonconvex_fraction, signal_profile
from resdoc.degradation_plots import (
    curves_figure,
    error_by_depth_figure,
    landscape_figure,
    signals_figure,
)
from resdoc.models import KINDS, MLP, MLPConfig
from resdoc.training import PAPER_RECIPE, evaluate, train_net

SEEDS = (0, 1, 2, 3, 4)
DEPTHS = (2, 8, 16, 32)
runs = depth_sweep(DEPTHS, kinds=("plain", "residual", "scaled"), seeds=SEEDS)
stats = {}
say(
    "每个种子的训练误差、测试误差和训练损失：",
    "Training error, test error and training loss, per seed:",
)
for kind in KINDS:
    for depth in DEPTHS:
        mine = [r for r in runs if r.kind == kind and r.depth == depth]
        for name, values, fmt in (
            ("train_error", [100 * r.train_error for r in mine], "{:.1f}%"),
            ("test_error", [100 * r.test_error for r in mine], "{:.1f}%"),
            ("train_loss", [r.train_loss for r in mine], "{:.2g}"),
        ):
            key = f"{name}_{kind}_d{depth}"
            stats[key] = publish.spread(key, values, seeds=SEEDS, fmt=fmt)
            print(f"{key:24s}", " ".join(fmt.format(v) for v in values))

publish.setting("n_seeds", len(SEEDS), "{:d}")
publish.setting("train_size", len(digits()[0].y), "{:d}")
n_images = sum(len(split.y) for split in digits())
publish.setting("n_images", n_images, "{:,d}")
publish.setting("train_percent", 100 * len(digits()[0].y) / n_images, "{:.0f}%")
publish.setting("momentum", PAPER_RECIPE.momentum, "{:g}")
steps_per_epoch = -(-len(digits()[0].y) // PAPER_RECIPE.batch_size)  # the last batch is smaller
publish.setting("epochs", PAPER_RECIPE.epochs, "{:d}")
publish.setting("steps", PAPER_RECIPE.epochs * steps_per_epoch, "{:d}")
publish.setting("lr", PAPER_RECIPE.lr, "{:g}")
publish.setting("weight_decay", PAPER_RECIPE.weight_decay, "{:g}")
publish.setting("batch_size", PAPER_RECIPE.batch_size, "{:d}")
publish.setting("min_depth", min(DEPTHS), "{:d}")
publish.setting("max_depth", max(DEPTHS), "{:d}")
publish.setting("max_layers", 2 * max(DEPTHS) + 2, "{:d}")  # two per block, input and classifier
publish.setting("scaled_shortcut_product", 0.5 ** max(DEPTHS), "{:.1e}")  # 0.5 over every block


def err(kind, depth):
    return stats[f"train_error_{kind}_d{depth}"]


# %% [markdown] lang="zh"
# ## 训练误差随深度的变化

# %% [markdown] lang="en"
# ## Training error against depth

# %%
residual_worst = max(err("residual", d).high for d in DEPTHS)
residual_loss_worst = max(stats[f"train_loss_residual_d{d}"].high for d in DEPTHS)
residual_fit = residual_worst < 1 and residual_loss_worst < 0.02
fits = publish.claim(
    "residual_fits",
    residual_fit,
    zh="恒等捷径的网络在每个深度都几乎完美地拟合了训练集："
    "32 个块时训练误差 {{ train_error_residual_d32_spread }}，训练损失 {{ train_loss_residual_d32_spread }}",
    en="With identity shortcuts every depth fits the training set almost perfectly: at 32 blocks the "
    "training error is {{ train_error_residual_d32_spread }} and the training loss {{ train_loss_residual_d32_spread }}",
    evidence=f"worst identity-shortcut run: error {residual_worst:.2f}%, loss {residual_loss_worst:.4f}",
    every=("depth", "seed"),
)
shallow_worst = max(err("plain", 2).high, err("plain", 8).high)
plain_degrade = (
    err("plain", 16).low > shallow_worst + 10 and err("plain", 32).low > err("plain", 16).high + 10
)
degrades = publish.claim(
    "plain_degrades",
    plain_degrade,
    zh="无残差网络越深，训练误差越高：2 个和 8 个块时是 {{ train_error_plain_d2_spread }} 和 "
    "{{ train_error_plain_d8_spread }}，16 个块时升到 {{ train_error_plain_d16_spread }}，"
    "32 个块时升到 {{ train_error_plain_d32_spread }}",
    en="The deeper the plain net, the higher its training error: {{ train_error_plain_d2_spread }} and "
    "{{ train_error_plain_d8_spread }} at 2 and 8 blocks, {{ train_error_plain_d16_spread }} at 16 and "
    "{{ train_error_plain_d32_spread }} at 32",
    evidence=f"plain worst at 2/8 blocks {shallow_worst:.1f}%, 16 blocks {err('plain', 16).low:.1f}–"
    f"{err('plain', 16).high:.1f}%, best at 32 blocks {err('plain', 32).low:.1f}%",
)
gaps = [
    abs(r.test_error - r.train_error) * 100 for r in runs if r.kind == "plain" and r.depth == 32
]
publish.claim(
    "not_overfitting",
    max(gaps) < 5 and err("plain", 32).low > 30,
    zh="32 个块的无残差网络测试误差是 {{ test_error_plain_d32_spread }}，与它的训练误差几乎一样高："
    "它不是记住了训练集，而是连训练集都没学好——这是退化，不是过拟合",
    en="The 32-block plain net's test error, {{ test_error_plain_d32_spread }}, is about as high as its "
    "training error: it has not memorized the training set, it has not even learned it — "
    "degradation, not overfitting",
    evidence=f"largest |test - train| over seeds {max(gaps):.1f} points",
)
test = {kind: stats[f"test_error_{kind}_d32"] for kind in ("plain", "residual")}
publish.claim(
    "residual_test_follows",
    test["residual"].high < test["plain"].low - 20,
    zh="加上恒等捷径，32 个块的测试误差也随训练误差一起降到 {{ test_error_residual_d32_spread }}",
    en="With identity shortcuts the 32-block test error falls along with the training error, to "
    "{{ test_error_residual_d32_spread }}",
    evidence=f"identity worst {test['residual'].high:.1f}% vs plain best {test['plain'].low:.1f}%",
)
publish.figure(
    "train-error-by-depth",
    lambda tr: error_by_depth_figure(runs, tr),
    alt=(
        f"训练误差与训练损失随深度变化（{len(SEEDS)} 个种子的中位数与范围）。{degrades[0]}。{fits[0]}。",
        f"Training error and training loss against depth (median and range over {len(SEEDS)} seeds). "
        f"{degrades[1]}. {fits[1]}.",
    ),
)

# %% [markdown] lang="zh"
# ## 训练曲线

# %% [markdown] lang="en"
# ## Training curves

# %%
history = {
    depth: np.array([r.history for r in runs if r.kind == "plain" and r.depth == depth])
    for depth in (2, 32)
}
# per epoch: best deep run over worst shallow one; the first epoch starts both at chance
gap = (history[32].min(0) / history[2].max(0))[1:]
publish.number("curve_gap_min", gap.min(), "{:.0f}")
slow = publish.claim(
    "plain_slow_from_start",
    bool(gap.min() > 2),
    zh="从第二轮起，32 个块的无残差网络每一轮的训练损失都至少是 2 个块的 {{ curve_gap_min }} 倍："
    "它从一开始就下降得慢，而不是先跟上、后落后",
    en="From the second epoch on, the 32-block plain net's training loss is at least {{ curve_gap_min }} "
    "times the 2-block one's at every epoch: it lags from the start rather than keeping up at first "
    "and falling behind later",
    evidence=f"smallest ratio, epochs 2 on, of best 32-block to worst 2-block loss {gap.min():.3g}",
    every=("epoch", "seed"),
)
publish.figure(
    "training-curves",
    lambda tr: curves_figure(runs, tr),
    alt=(
        f"三种连法在各深度下的训练损失曲线（对数坐标，{len(SEEDS)} 个种子的中位数与范围）。{slow[0]}。",
        f"Training-loss curves at every depth for the three wirings (log scale, median and range over "
        f"{len(SEEDS)} seeds). {slow[1]}.",
    ),
)

# %% [markdown] lang="zh"
# ## 更长的训练，更低的学习率
#
# 32 个块的无残差网络也许只是还没训练够，或者学习率太高。再训练最深的无残差网络：轮数加到 4 倍
# （学习率仍在训练的一半和四分之三处除以 10），或者学习率降到十分之一、百分之一。

# %% [markdown] lang="en"
# ## Longer training, lower learning rates
#
# Perhaps the 32-block plain net has only not trained long enough, or its learning rate is too
# high. The deepest plain net again: four times the epochs (the learning rate still divided by
# 10 at half and three quarters of training), or a learning rate ten or a hundred times lower.

# %%
RETRAIN_SEEDS = (0, 1, 2)
LONGER = 4  # times the epochs
recipes = {
    "long": replace(PAPER_RECIPE, epochs=LONGER * PAPER_RECIPE.epochs),
    "lr10": replace(PAPER_RECIPE, lr=PAPER_RECIPE.lr / 10),
    "lr100": replace(PAPER_RECIPE, lr=PAPER_RECIPE.lr / 100),
}
retrained = {}
say("每种设置下各种子的训练误差：", "Training error per recipe, per seed:")
for name, recipe in recipes.items():
    finals = [
        evaluate(train_net("plain", max(DEPTHS), seed, recipe)[0], digits()[0])
        for seed in RETRAIN_SEEDS
    ]  # (loss, error) on the whole training set, in eval mode, per seed
    errors, losses = [100 * error for _, error in finals], [loss for loss, _ in finals]
    retrained[name] = errors
    publish.spread(f"{name}_error", errors, seeds=RETRAIN_SEEDS, fmt="{:.1f}%")
    publish.spread(f"{name}_loss", losses, seeds=RETRAIN_SEEDS, fmt="{:.2f}")
    print(f"{name:6s}", " ".join(f"{e:.1f}%" for e in errors))

publish.setting("retrain_seeds", len(RETRAIN_SEEDS), "{:d}")
publish.setting("long_factor", LONGER, "{:d}")
publish.setting("long_epochs", recipes["long"].epochs, "{:d}")
publish.setting("long_steps", recipes["long"].epochs * steps_per_epoch, "{:d}")
publish.setting("lr10", recipes["lr10"].lr, "{:g}")
publish.setting("lr100", recipes["lr100"].lr, "{:g}")
publish.setting("chance_error", 100 * (1 - 1 / 10), "{:.0f}%")  # a uniform guess over ten digits
publish.setting("chance_loss", math.log(10), "{:.2f}")
two_block_worst = err("plain", 2).high


def far_above_two_blocks(name):
    """Every seed's training error at least 50 points above the worst 2-block plain run's."""
    return min(retrained[name]) > two_block_worst + 50


publish.claim(
    "longer_still_fails",
    far_above_two_blocks("long"),
    zh="训练 {{ long_factor }} 倍长（{{ long_epochs }} 轮、{{ long_steps }} 步）之后，32 个块的无残差网络"
    "训练误差仍是 {{ long_error_spread }}，每个种子都远高于 2 个块时的 {{ train_error_plain_d2_spread }}；"
    "训练损失是 {{ long_loss_spread }}；均匀猜测的误差是 {{ chance_error }}，损失是 ln 10 ≈ {{ chance_loss }}",
    en="Trained {{ long_factor }} times as long ({{ long_epochs }} epochs, {{ long_steps }} steps), the "
    "32-block plain net still ends at a training error of {{ long_error_spread }}, in every seed far above "
    "the 2-block net's {{ train_error_plain_d2_spread }}, and a training loss of {{ long_loss_spread }}; a "
    "uniform guess has an error of {{ chance_error }} and a loss of ln\u00a010 ≈ {{ chance_loss }}",
    evidence=f"errors {retrained['long']} against the 2-block worst {two_block_worst:.1f}%",
    every="seed",
)
publish.claim(
    "lower_lr_still_fails",
    far_above_two_blocks("lr10") and far_above_two_blocks("lr100"),
    zh="学习率降到 {{ lr10 }} 和 {{ lr100 }} 也一样：训练误差是 {{ lr10_error_spread }} 和 "
    "{{ lr100_error_spread }}，每个种子都远高于 2 个块时的误差",
    en="Learning rates of {{ lr10 }} and {{ lr100 }} leave it there too: training errors of "
    "{{ lr10_error_spread }} and {{ lr100_error_spread }}, in every seed far above the 2-block net's",
    evidence=f"errors at lr/10 {retrained['lr10']}, at lr/100 {retrained['lr100']}",
    every="seed",
)

# %% [markdown] lang="zh"
# ## 信号有没有消失
#
# He 等人检查过：带批量归一化的深普通网络，前向信号的方差不为零，反向梯度的范数也正常。
# 我们对 32 个块的网络做同一类检查，但只在初始化时做（他们是在训练中看的）：一批 128 张训练图像，
# 训练模式（批统计量）。

# %% [markdown] lang="en"
# ## Do the signals vanish?
#
# He et al. checked that in their deep plain nets with batch normalization the forward
# signals have non-zero variances and the backward gradients healthy norms. We run a check of
# the same kind on the 32-block nets, at initialization only (they looked during training): one
# batch of 128 training images, in train mode.

# %%
train_set = digits()[0]
batch = Split(train_set.x[:128], train_set.y[:128])
publish.setting("signal_batch", len(batch.y), "{:d}")
profiles = {}
for kind in ("plain", "residual"):
    rows = []
    for seed in SEEDS:
        torch.manual_seed(seed)
        rows.append(signal_profile(MLP(MLPConfig(depth=max(DEPTHS), shortcut=KINDS[kind])), batch))
    profiles[kind] = np.array(rows)  # (seeds, forward/backward, layers)
plain = profiles["plain"]
std_low = publish.spread("fwd_std_min", plain[:, 0].min(1), seeds=SEEDS, fmt="{:.2f}")
std_high = publish.spread("fwd_std_max", plain[:, 0].max(1), seeds=SEEDS, fmt="{:.2f}")
growth = publish.spread(
    "grad_growth_plain", plain[:, 1, 0] / plain[:, 1, -1], seeds=SEEDS, fmt="{:.1e}"
)
smallest_at_end = (plain[:, 1].min(1) >= 0.5 * plain[:, 1, -1]).all()
no_vanishing = (
    std_low.low > 0.5 and std_high.high < 2 and bool(smallest_at_end) and growth.low > 100
)
signals = publish.claim(
    "signals_do_not_vanish",
    no_vanishing,
    zh="初始化时，32 个块的无残差网络里两种信号都没有消失：每个块输入的标准差都在 "
    "{{ fwd_std_min_min }} 到 {{ fwd_std_max_max }} 之间；反向梯度不但没有消失，反而朝输入方向增大，"
    "第一个块处是最后一个块处的 {{ grad_growth_plain_spread }} 倍",
    en="At initialization neither signal vanishes in the 32-block plain nets: the standard deviation of "
    "every block's input stays between {{ fwd_std_min_min }} and {{ fwd_std_max_max }}, and the backward "
    "gradient, far from vanishing, grows towards the input — at the first block it is "
    "{{ grad_growth_plain_spread }} times as large as at the last",
    evidence=f"std {std_low.low:.2f}–{std_high.high:.2f}, gradient growth {growth.low:.3g}–"
    f"{growth.high:.3g}, smallest gradient at the last block: {bool(smallest_at_end)}",
    every=("block", "seed"),
)
publish.figure(
    "signals",
    lambda tr: signals_figure(profiles, tr),
    alt=(
        f"初始化时 32 个块的网络中各块输入的标准差（左）与梯度范数（右），{len(SEEDS)} 个种子。{signals[0]}。",
        f"Per-block standard deviation of the forward signal (left) and norm of the backward gradient "
        f"(right) in 32-block nets at initialization, {len(SEEDS)} seeds. {signals[1]}.",
    ),
)

# %% [markdown] lang="zh"
# ## 嵌套的函数类
#
# 加一个残差块，只要它的分支输出零，网络就还是原来的函数；普通块要做到这一点，得精确地学出恒等映射。
# 这里没有新的实验，只把上面测到的训练误差放到这个论证旁边。

# %% [markdown] lang="en"
# ## Nested function classes
#
# Adding a residual block whose branch outputs zero leaves the net's function unchanged; a plain
# block must learn the identity exactly to do the same. No new experiment here: we set the
# training errors measured above beside the argument.

# %%
publish.claim(
    "nested_residual",
    residual_fit,
    zh="带恒等捷径的网络加深后训练误差没有变高：2 个块时是 {{ train_error_residual_d2_spread }}，"
    "32 个块时是 {{ train_error_residual_d32_spread }}",
    en="With identity shortcuts, more depth did not raise the training error: "
    "{{ train_error_residual_d2_spread }} at 2 blocks, {{ train_error_residual_d32_spread }} at 32",
    evidence=f"worst identity-shortcut run: error {residual_worst:.2f}%",
)
publish.claim(
    "nested_plain",
    plain_degrade,
    zh="没有这种保证的无残差网络，加深后训练误差确实变高了：2 个块时是 {{ train_error_plain_d2_spread }}，"
    "16 个块时是 {{ train_error_plain_d16_spread }}，32 个块时是 {{ train_error_plain_d32_spread }}",
    en="The plain nets, which have no such guarantee, did get worse with depth: "
    "{{ train_error_plain_d2_spread }} at 2 blocks, {{ train_error_plain_d16_spread }} at 16 and "
    "{{ train_error_plain_d32_spread }} at 32",
    evidence=f"plain worst at 2/8 blocks {shallow_worst:.1f}%, best at 16 {err('plain', 16).low:.1f}%",
)

# %% [markdown] lang="zh"
# ## 损失曲面的一个切片
#
# 沿两个按滤波器归一化的随机方向 $\delta, \eta$，在训练好的参数 $\theta^*$ 周围的 21×21 网格上
# 计算训练损失 $\ell(\theta^* + \alpha\,\delta + \beta\,\eta)$（Li 等，2018），无残差网络和恒等捷径网络各 5 个种子，
# 用评估模式（批量归一化用滑动统计量），只做前向传播。

# %% [markdown] lang="en"
# ## A slice of the loss landscape
#
# Along two filter-normalized random directions $\delta, \eta$, the training loss
# $\ell(\theta^* + \alpha\,\delta + \beta\,\eta)$ on a 21×21 grid around the trained weights
# $\theta^*$ (Li et al., 2018), for the plain and the identity-shortcut nets of 5 seeds each, in eval
# mode (batch normalization uses its running statistics), forward passes only.

# %%
LANDSCAPE_DEPTH = 16  # the plain net has degraded, and has learned something (32: near chance)
coords = np.linspace(-1, 1, 21)
subset = Split(train_set.x[:256], train_set.y[:256])  # forward passes cost ∝ examples
surfaces = {}
for kind in ("plain", "residual"):
    nets = [r for r in runs if r.kind == kind and r.depth == LANDSCAPE_DEPTH]
    surfaces[kind] = np.array(
        [loss_surface(r.model, subset, coords, torch.Generator().manual_seed(r.seed)) for r in nets]
    )
middle = len(coords) // 2
publish.setting("landscape_depth", LANDSCAPE_DEPTH, "{:d}")
publish.setting("landscape_grid", len(coords), "{:d}")
publish.setting("landscape_radius", coords[-1], "{:g}")
publish.setting("landscape_examples", len(subset.y), "{:d}")
bent = {
    kind: publish.spread(
        f"nonconvex_{kind}",
        [100 * nonconvex_fraction(s) for s in surfaces[kind]],
        seeds=SEEDS,
        fmt="{:.0f}%",
    )
    for kind in surfaces
}
centre = {
    kind: publish.spread(
        f"landscape_centre_{kind}", surfaces[kind][:, middle, middle], seeds=SEEDS, fmt="{:.2g}"
    )
    for kind in surfaces
}
for kind in surfaces:
    bent_down = [f"{100 * nonconvex_fraction(s):.0f}%" for s in surfaces[kind]]
    say(f"{kind:8s} 向下弯的网格点：", f"{kind:8s} grid points bending down:", " ".join(bent_down))
publish.claim(
    "landscape_centres",
    centre["plain"].low > 100 * centre["residual"].high,
    zh="两个切片的中心并不在同一高度：{{ landscape_depth }} 个块的无残差网络停在损失 {{ landscape_centre_plain_spread }} 处，"
    "恒等捷径网络停在 {{ landscape_centre_residual_spread }} 处",
    en="The two slices are centred at very different heights: the {{ landscape_depth }}-block plain net stopped at a loss "
    "of {{ landscape_centre_plain_spread }}, the identity-shortcut net at "
    "{{ landscape_centre_residual_spread }}",
    evidence=f"plain lowest {centre['plain'].low:.3g} vs identity highest {centre['residual'].high:.3g}",
)
# along the line β = 0: how far the loss rises from the centre at |α| = 0.5, relative to the centre
half = int(np.argmin(abs(coords - 0.5))) - middle
rise = {
    kind: publish.spread(
        f"landscape_rise_{kind}",
        [
            max(s[middle - half, middle], s[middle + half, middle]) / s[middle, middle]
            for s in surfaces[kind]
        ],
        seeds=SEEDS,
        fmt="{:.1f}" if kind == "plain" else "{:.0f}",
    )
    for kind in surfaces
}
publish.claim(
    "landscape_plateau",
    rise["residual"].low > 10 * rise["plain"].high,
    zh="但按相对高度算，更陡的是恒等捷径网络的极小点：沿 β = 0 走到 |α| = 0.5，无残差网络的损失只升到中心的 "
    "{{ landscape_rise_plain_spread }} 倍，恒等捷径网络的升到 {{ landscape_rise_residual_spread }} 倍——"
    "无残差网络停在一片高高的、起伏的平台上，而不是一个窄坑里",
    en="In relative terms, though, the identity-shortcut net's minimum is the steeper one: along β = 0, at "
    "|α| = 0.5 the plain net's loss has risen only to {{ landscape_rise_plain_spread }} times its centre, the "
    "identity-shortcut net's to {{ landscape_rise_residual_spread }} times — the plain net stopped on a high, "
    "uneven plateau, not in a narrow pit",
    evidence=f"identity lowest rise {rise['residual'].low:.3g} vs plain highest {rise['plain'].high:.3g}",
)
nonconvex = publish.claim(
    "landscape_nonconvex",
    bent["plain"].low > bent["residual"].high + 20,  # percentage points
    zh="无残差网络的切片在 {{ nonconvex_plain_spread }} 的网格点上向下弯（二维黑塞矩阵有负特征值），"
    "恒等捷径网络的切片只在 {{ nonconvex_residual_spread }} 的点上如此：它更接近一个凸的碗，"
    "与 Li 等人在 56 层卷积网络上看到的一致",
    en="The plain net's slice bends downward (its 2-D Hessian has a negative eigenvalue) at "
    "{{ nonconvex_plain_spread }} of the grid points, the identity-shortcut net's at only "
    "{{ nonconvex_residual_spread }}: it is much closer to a convex bowl, as Li et al. saw for "
    "56-layer convolutional nets",
    evidence=f"plain lowest {bent['plain'].low:.0f}% vs identity highest {bent['residual'].high:.0f}%",
)
publish.figure(
    "loss-landscape",
    lambda tr: landscape_figure(surfaces, coords, LANDSCAPE_DEPTH, tr),
    alt=(
        f"{LANDSCAPE_DEPTH} 个块的无残差网络与恒等捷径网络在训练好的参数周围的损失切片：左、中为第一个种子的"
        f"二维等高线（共用对数色标），右为 β = 0 的一条线（{len(SEEDS)} 个种子的中位数与范围）。"
        f"{nonconvex[0]}。",
        f"Loss slices around the trained weights of the {LANDSCAPE_DEPTH}-block plain and "
        f"identity-shortcut nets: 2-D contours of the first seed (left, middle; one log colour scale) "
        f"and the line β = 0 (right; median and range over {len(SEEDS)} seeds). {nonconvex[1]}.",
    ),
)

# %% [markdown] lang="zh"
# ## 缩放捷径

# %% [markdown] lang="en"
# ## Scaling the shortcut

# %%
scaled_degrade = err("scaled", 2).high < 1 and err("scaled", 32).low > err("residual", 32).high + 10
publish.claim(
    "scaled_degrades",
    scaled_degrade,
    zh="缩放捷径在 2 个块时与恒等捷径一样能拟合训练集（训练误差 {{ train_error_scaled_d2_spread }}），"
    "到 32 个块时训练误差升到 {{ train_error_scaled_d32_spread }}，而恒等捷径仍是 {{ train_error_residual_d32_spread }}",
    en="The scaled shortcut fits the training set like the identity one at 2 blocks (training error "
    "{{ train_error_scaled_d2_spread }}), but at 32 blocks its training error rises to "
    "{{ train_error_scaled_d32_spread }}, where the identity shortcut's is {{ train_error_residual_d32_spread }}",
    evidence=f"scaled worst at 2 blocks {err('scaled', 2).high:.1f}%, best at 32 blocks "
    f"{err('scaled', 32).low:.1f}% vs identity worst {err('residual', 32).high:.1f}%",
)
publish.claim(
    "scaled_above_plain",
    err("scaled", 32).high + 5 < err("plain", 32).low,
    zh="32 个块时，缩放捷径的训练误差仍低于无残差网络的 {{ train_error_plain_d32_spread }}",
    en="At 32 blocks the scaled shortcut's training error is still below the plain net's "
    "{{ train_error_plain_d32_spread }}",
    evidence=f"scaled worst {err('scaled', 32).high:.1f}% vs plain best {err('plain', 32).low:.1f}%",
)

# %% [markdown] lang="zh"
# ## 小结

# %% [markdown] lang="en"
# ## Summary

# %%
publish.claim(
    "summary_degradation",
    plain_degrade and residual_fit,
    zh="在 `load_digits` 上，按预激活残差网络的结构和论文的训练设置，带批量归一化的无残差网络越深，训练误差越高；"
    "同样的块加上恒等捷径，训练误差在每个深度都接近零",
    en="On `load_digits`, with the structure of a pre-activation residual network and the paper's training "
    "recipe, the deeper plain nets with batch normalization reach a higher training error; the same blocks "
    "with identity shortcuts reach a training error near zero at every depth",
    every=("depth", "seed"),
)
publish.claim(
    "summary_signals",
    no_vanishing,
    zh="初始化时，深的无残差网络里前向信号和反向梯度都没有消失（梯度反而朝输入方向增大）",
    en="At initialization, neither the forward signals nor the backward gradients of the deep plain nets "
    "vanish (the gradients grow towards the input)",
)
publish.claim(
    "summary_scaled",
    scaled_degrade,
    zh="在深处，缩放捷径的训练误差明显高于恒等捷径",
    en="At depth, the scaled shortcut's training error is clearly higher than the identity shortcut's",
)
publish.claim(
    "summary_landscape",
    bent["plain"].low > bent["residual"].high + 20,
    zh="在训练好的权重周围，{{ landscape_depth }} 个块的恒等捷径网络的损失切片比无残差网络的更接近凸的碗："
    "向下弯的网格点占 {{ nonconvex_residual_spread }}，而不是 {{ nonconvex_plain_spread }}",
    en="Around the trained weights, the {{ landscape_depth }}-block identity-shortcut net's loss slice is much closer to a "
    "convex bowl than the plain net's: {{ nonconvex_residual_spread }} of its grid points bend downward, "
    "not {{ nonconvex_plain_spread }}",
)
