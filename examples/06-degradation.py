"""退化难题 · The degradation problem.

Plain and residual MLPs of several depths, trained identically on scikit-learn's digits:
the deeper plain nets reach a higher *training* error, the residual ones do not.
Run it by hand with ``python examples/06-degradation.py``; the docs build runs it for you.
"""

# %% [markdown] lang="zh"
# # 退化难题
#
# 把同一种多层感知机（MLP）做成 2、8、16、32 个块，分别用无残差、恒等捷径
# $x + \mathcal{F}(x)$ 和缩放捷径 $0.5\,x + \mathcal{F}(x)$ 三种连法，在 scikit-learn 的
# 手写数字数据集 `load_digits` 上用完全相同的优化器、学习率和轮数训练，然后只看
# **训练集**上的损失和错误率。

# %% [markdown] lang="en"
# # The degradation problem
#
# One multilayer perceptron (MLP) design, built with 2, 8, 16 and 32 blocks and wired three
# ways — no shortcut, the identity shortcut $x + \mathcal{F}(x)$, and a scaled shortcut
# $0.5\,x + \mathcal{F}(x)$ — is trained on scikit-learn's `load_digits` with exactly the same
# optimiser, learning rate and number of epochs. Then we look at the **training** set only.

# %%
from resdoc import publish
from resdoc.degradation import depth_sweep
from resdoc.degradation_plots import curves_figure, error_by_depth_figure
from resdoc.training import TrainConfig

DEPTHS = (2, 8, 16, 32)
cfg = TrainConfig(epochs=10, batch_size=64, lr=0.05, momentum=0.9)
runs = depth_sweep(DEPTHS, kinds=("plain", "residual", "scaled"), cfg=cfg)
for run in runs:
    print(
        f"{run.kind:8s} depth={run.depth:2d}  train loss={run.train_loss:.4f}  "
        f"train error={run.train_error:.2%}  test error={run.test_error:.2%}"
    )
    publish.number(f"train_error_{run.kind}_d{run.depth}", 100 * run.train_error, "{:.1f}%")
    publish.number(f"test_error_{run.kind}_d{run.depth}", 100 * run.test_error, "{:.1f}%")
    publish.number(f"train_loss_{run.kind}_d{run.depth}", run.train_loss, "{:.3g}")
publish.number("epochs", cfg.epochs, "{:d}")
publish.number("lr", cfg.lr, "{:g}")
publish.number("min_depth", min(DEPTHS), "{:d}")
publish.number("max_depth", max(DEPTHS), "{:d}")
publish.number(
    "scaled_shortcut_product", 0.5 ** max(DEPTHS), "{:.1e}"
)  # 0.5 multiplied over every block

# %% [markdown] lang="zh"
# ## 训练误差随深度的变化
#
# 无残差的网络越深，训练误差越高；恒等捷径的网络在所有深度上都几乎把训练集背下来；
# 把捷径缩放成 $0.5\,x$，最深的网络又开始训练不动。

# %% [markdown] lang="en"
# ## Training error against depth
#
# The deeper the plain net, the higher its training error; with identity shortcuts every
# depth nearly memorises the training set; scale the shortcut to $0.5\,x$ and the deepest
# net stops training well again.

# %%
publish.figure(
    "train-error-by-depth",
    lambda tr: error_by_depth_figure(runs, tr),
    alt=(
        "训练误差与训练损失随深度变化：无残差网络随深度明显变差，恒等捷径几乎不变，0.5 倍缩放捷径在最深处变差。",
        "Training error and training loss against depth: the plain net gets clearly worse with depth, "
        "the identity shortcut hardly changes, the 0.5-scaled shortcut gets worse at the largest depth.",
    ),
)

# %% [markdown] lang="zh"
# ## 训练曲线
#
# 每个轮次结束时在整个训练集上的损失。深的无残差网络不是先学好再过拟合，而是从一开始就下降得慢。

# %% [markdown] lang="en"
# ## Training curves
#
# The loss on the whole training set after every epoch. The deep plain nets do not learn and
# then overfit: they descend slowly from the start.

# %%
publish.figure(
    "training-curves",
    lambda tr: curves_figure(runs, tr),
    alt=(
        "三种连法在各深度下的训练损失曲线（对数坐标）：无残差的深网络下降最慢。",
        "Training-loss curves at every depth for the three wirings (log scale): the deep plain nets descend slowest.",
    ),
)
