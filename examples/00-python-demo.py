"""Python 演示：有无残差连接的梯度范数 · Python demo: gradient norms with and without the shortcut.

The seed's demo reproduced as it was written, then taken apart layer by layer.
Run it by hand with ``python examples/00-python-demo.py``; the docs build runs it for you.
"""

# %% [markdown] lang="zh"
# # Python 演示：有无残差的梯度范数
#
# 先原样复现种子文档里的演示：`torch.manual_seed(42)` 只设一次，深度 10 和 20 各建一个
# 无残差（plain）和一个有残差（residual）的 `Linear(32, 32)` 堆叠，每个网络用新的
# `randn(4, 32)` 输入和目标，打印均方误差损失对全部参数的总梯度范数。

# %% [markdown] lang="en"
# # Python demo: gradient norms with and without the shortcut
#
# First the seed's demo exactly as written: `torch.manual_seed(42)` set once, then for
# depths 10 and 20 a plain and a residual stack of `Linear(32, 32)` blocks, each net fed a
# fresh `randn(4, 32)` input and target, printing the total gradient norm of the MSE loss.

# %%
from resdoc import publish
from resdoc.demo import (
    depth_profiles,
    measured_gains,
    per_layer_gain,
    seed_demo,
    total_norm_by_depth,
)
from resdoc.demo_plots import layer_norms_figure, total_norm_figure

rows = seed_demo(depths=(10, 20))
output = "\n".join(row.line() for row in rows)
print(output)
publish.text("seed_output", output)
for row in rows:
    kind = "residual" if row.residual else "plain"
    publish.number(f"total_{kind}_d{row.depth}", row.grad_norm, "{:.4f}")

# %% [markdown] lang="zh"
# ## 逐层看梯度
#
# 一个总数把所有层的梯度混在一起。下面对同一个输入和目标，记录深度 20 时每一层的
# 激活梯度 $\lVert \partial L/\partial x_l \rVert$ 和权重梯度 $\lVert \partial L/\partial W_l \rVert$。

# %% [markdown] lang="en"
# ## Layer by layer
#
# One total mixes every layer together. Below, for one input and target, we record at depth 20
# the activation gradient $\lVert \partial L/\partial x_l \rVert$ and the weight gradient
# $\lVert \partial L/\partial W_l \rVert$ of every layer.

# %%
DEPTH = 20
profiles = depth_profiles(DEPTH, seed=0)
publish.number("depth", DEPTH, "{:d}")
for kind, profile in profiles.items():
    publish.number(f"input_grad_{kind}", profile.activation_grads[0], "{:.3g}")
    publish.number(f"output_grad_{kind}", profile.activation_grads[-1], "{:.3g}")
publish.figure(
    "layer-grad-norms",
    lambda tr: layer_norms_figure(profiles, tr),
    alt=(
        f"深度 {DEPTH} 的无残差与有残差堆叠中，各层激活梯度与权重梯度的范数（对数坐标）：无残差的梯度越靠近输入越小，有残差的越靠近输入越大。",
        f"Per-layer activation- and weight-gradient norms of a plain and a residual stack of depth {DEPTH} (log scale): "
        "towards the input the plain gradients shrink and the residual ones grow.",
    ),
)

# %% [markdown] lang="zh"
# ## 每层的增长率：实测与推算
#
# PyTorch 的 `nn.Linear` 默认初始化使权重方差为 $1/(3n)$，所以一层无残差的块让
# $\lVert x \rVert$ 约乘以 $\sqrt{1/3}$，有残差的块约乘以 $\sqrt{4/3}$。
# 下面是多个随机种子的中位数。

# %% [markdown] lang="en"
# ## Growth per block: measured and predicted
#
# PyTorch's default `nn.Linear` init gives weights of variance $1/(3n)$, so a plain block scales
# $\lVert x \rVert$ by about $\sqrt{1/3}$ and a residual block by about $\sqrt{4/3}$.
# Medians over many random seeds:

# %%
SEEDS = 20
gains = measured_gains(DEPTH, seeds=range(SEEDS))
publish.number("gain_seeds", SEEDS, "{:d}")
for kind in ("plain", "residual"):
    predicted = per_layer_gain(kind == "residual")
    publish.number(f"predicted_gain_{kind}", predicted, "{:.3f}")
    for direction in ("forward", "backward"):
        publish.number(f"{direction}_gain_{kind}", gains[kind][direction], "{:.3f}")
    print(
        f"{kind:8s} predicted {predicted:.3f}   "
        f"forward {gains[kind]['forward']:.3f}   backward {gains[kind]['backward']:.3f}"
    )

# %% [markdown] lang="zh"
# ## 总梯度范数随深度的变化
#
# 把种子的那个总数对深度 1 到 30 画出来（每个深度 10 个随机种子）：无残差时指数衰减，
# 这个残差堆叠则指数增长——捷径并没有让梯度“无损”，它只是换了一个方向失控。

# %% [markdown] lang="en"
# ## The total gradient norm against depth
#
# The seed's single number for depths 1 to 30 (10 random seeds per depth): it decays
# exponentially without shortcuts and grows exponentially for this residual stack — the
# shortcut did not make the gradient "lossless", it made it run away in the other direction.

# %%
depths = list(range(1, 31))
norms = total_norm_by_depth(depths, seeds=range(10))
publish.figure(
    "total-grad-norm-by-depth",
    lambda tr: total_norm_figure(depths, norms, tr),
    alt=(
        "总梯度范数随深度变化（对数坐标）：无残差堆叠随深度指数下降，有残差堆叠指数上升。",
        "Total gradient norm against depth (log scale): it falls exponentially for the plain stack "
        "and rises exponentially for the residual one.",
    ),
)
