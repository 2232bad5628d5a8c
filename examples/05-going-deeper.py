"""网络加深 · Going deeper.

A residual net unrolled is a sum over $2^n$ paths. Delete one block at test time, and
measure which path lengths carry the gradient (Veit et al. 2016), on scikit-learn's digits.
Run it by hand with ``python examples/05-going-deeper.py``; the docs build runs it for you.
"""

# %% [markdown] lang="zh"
# # 网络加深
#
# 先训练两个各有 10 个块的多层感知机（一个无残差，一个有残差），在测试时每次删掉其中一个块，
# 看测试准确率还剩多少。

# %% [markdown] lang="en"
# # Going deeper
#
# First we train two multilayer perceptrons of 10 blocks each, one plain and one residual, and
# at test time delete one block at a time to see how much test accuracy is left.

# %%
import torch

from resdoc import publish
from resdoc.data import Split, digits
from resdoc.degradation import MLP, MLPConfig
from resdoc.going_deeper import (
    covering_length,
    gradient_by_path_length,
    gradient_share,
    lesion_study,
    path_counts,
    train_pair,
)
from resdoc.going_deeper_plots import lesion_figure, path_figure
from resdoc.training import TrainConfig, train

LESION_DEPTH = 10
cfg = TrainConfig(epochs=10, lr=0.05)
accuracy = lesion_study(train_pair(LESION_DEPTH, cfg))
publish.number("lesion_depth", LESION_DEPTH, "{:d}")
for kind, values in accuracy.items():
    deleted = values[1:]
    print(
        f"{kind:8s} intact {values[0]:.1%}   one block deleted: mean {sum(deleted) / len(deleted):.1%}, "
        f"worst {min(deleted):.1%}"
    )
    publish.number(f"intact_{kind}", 100 * values[0], "{:.1f}%")
    publish.number(f"lesion_mean_{kind}", 100 * sum(deleted) / len(deleted), "{:.1f}%")
    publish.number(f"lesion_worst_{kind}", 100 * min(deleted), "{:.1f}%")
publish.figure(
    "lesion",
    lambda tr: lesion_figure(accuracy, tr),
    alt=(
        "测试时删除第 i 个块后的测试准确率：有残差网络几乎不变，无残差网络跌到接近随机猜测。",
        "Test accuracy after deleting block i at test time: the residual net barely changes, "
        "the plain net falls to near chance.",
    ),
)

# %% [markdown] lang="zh"
# ## 哪些路径在传梯度
#
# 用一个 30 个块的残差 MLP，按 Veit 等人的方法估计：长度为 $k$ 的一条路径送回输入端多大的梯度，
# 再乘以这样的路径条数 $\binom{n}{k}$。初始化时和训练 10 轮后各算一次。

# %% [markdown] lang="en"
# ## Which paths carry the gradient
#
# With a residual MLP of 30 blocks we estimate, following Veit et al., how much gradient one
# path of length $k$ sends back to the input, and multiply by the number of such paths
# $\binom{n}{k}$ — once at initialisation and once after 10 epochs of training.

# %%
PATH_DEPTH = 30
train_set, test_set = digits()
probe = Split(test_set.x[:128], test_set.y[:128])  # 128 test images are enough for a mean
torch.manual_seed(0)
net = MLP(MLPConfig(depth=PATH_DEPTH))
counts = path_counts(PATH_DEPTH)
per_path = {"init": gradient_by_path_length(net, probe, samples=10)}
train(net, train_set, cfg)
per_path["trained"] = gradient_by_path_length(net, probe, samples=10)
share = {key: gradient_share(counts, values) for key, values in per_path.items()}

publish.number("path_depth", PATH_DEPTH, "{:d}")
publish.number("n_paths", 2**PATH_DEPTH, "{:,d}")
publish.number("mean_path_length", PATH_DEPTH / 2, "{:g}")
publish.number("epochs", cfg.epochs, "{:d}")
for key in per_path:
    peak = max(range(len(counts)), key=lambda k: share[key][k])
    cover = covering_length(share[key], 0.9)
    ratio = (
        per_path[key][2] / per_path[key][1]
    )  # how much one more branch shrinks a path's gradient
    print(
        f"{key:8s} peak at k={peak}, 90% of the gradient from k <= {cover}, per-branch factor {ratio:.3f}"
    )
    publish.number(f"peak_{key}", peak, "{:d}")
    publish.number(f"cover90_{key}", cover, "{:d}")
    publish.number(f"branch_factor_{key}", ratio, "{:.2g}")
publish.figure(
    "path-lengths",
    lambda tr: path_figure(counts, per_path, share, tr),
    alt=(
        "三幅图：(a) 各长度路径的条数呈二项分布；(b) 单条路径的梯度随长度指数衰减；(c) 二者相乘后总梯度集中在较短的路径上，训练后更短。",
        "Three panels: (a) the number of paths per length is binomial; (b) the gradient along one path "
        "decays exponentially with its length; (c) their product puts the total gradient on short paths, "
        "shorter still after training.",
    ),
)
