r"""梯度保真：捷径上的反向传播 · Gradient flow: the backward pass through the shortcut.

For $y = x + \mathcal{F}(x)$ the Jacobian is $I + \partial\mathcal{F}/\partial x$. We check that
against autograd, follow the gradient norm through 50 blocks under two initialisations, and
measure how shortcuts keep input gradients from shattering (Balduzzi et al., 2017).
Run it by hand with ``python examples/03-gradient-flow.py``; the docs build runs it for you.
"""

# %% [markdown] lang="zh"
# # 梯度保真：捷径上的反向传播
#
# 残差块的雅可比矩阵（Jacobian）是 $I + \partial\mathcal{F}/\partial x$。先用自动求导核对这个公式。

# %% [markdown] lang="en"
# # Gradient flow: the backward pass through the shortcut
#
# The Jacobian of a residual block is $I + \partial\mathcal{F}/\partial x$. First we check the
# formula against autograd.

# %%
import statistics

import torch

from resdoc import publish
from resdoc.gradient_flow import (
    gradient_profiles,
    input_gradients,
    residual_jacobian,
    scalar_net,
    shattering,
)
from resdoc.gradient_flow_plots import gradient_profile_figure, shattered_figure
from resdoc.shortcut import ResidualBlock

torch.manual_seed(0)
autograd, formula = residual_jacobian(ResidualBlock(dim=16, hidden=64), torch.randn(16))
jacobian_error = (autograd - formula).abs().max().item()
print("max |autograd - (I + dF/dx)| =", jacobian_error)
publish.number("jacobian_max_error", jacobian_error, "{:.1e}")

# %% [markdown] lang="zh"
# ## 逐层的梯度范数
#
# 50 个 `Linear-ReLU-Linear` 块（宽度 64），分别用 PyTorch 默认初始化和 He 初始化，
# 记录 $\lVert \partial L/\partial x_l \rVert$ 相对于输出处的倍数。

# %% [markdown] lang="en"
# ## Gradient norms layer by layer
#
# 50 `Linear-ReLU-Linear` blocks (width 64), with PyTorch's default init and with He init;
# we record $\lVert \partial L/\partial x_l \rVert$ relative to its value at the output.

# %%
DEPTH = 50
panels = {
    "default": gradient_profiles(DEPTH, init="default", seed=0),
    "he": gradient_profiles(DEPTH, init="he", scaled=True, seed=0),
}
publish.number("depth", DEPTH, "{:d}")
for init, profiles in panels.items():
    for kind, grads in profiles.items():
        ratio = grads[0] / grads[-1]
        publish.number(f"ratio_{init}_{kind}", ratio, "{:.2g}")
        print(f"{init:7s} {kind:15s} ||dL/dx_0|| / ||dL/dx_L|| = {ratio:.3g}")
publish.figure(
    "gradient-norms",
    lambda tr: gradient_profile_figure(panels, tr),
    alt=(
        f"{DEPTH} 个块中各层激活梯度范数相对输出处的倍数（对数坐标）。默认初始化：无残差时朝输入方向迅速衰减，有残差时缓慢增大。"
        "He 初始化：无残差时大致不变，有残差时指数增大，末层缩小 1/√L 后只增大几倍。",
        f"Per-layer activation-gradient norm relative to the output, through {DEPTH} blocks (log scale). Default init: "
        "towards the input it collapses without shortcuts and grows slowly with them. He init: roughly constant without "
        "shortcuts, exponential growth with them, and only a few-fold growth when the last layer is scaled by 1/√L.",
    ),
)

# %% [markdown] lang="zh"
# ## 梯度破碎
#
# 一维输入 $x \in [-2, 2]$ 上取 256 个点，网络 $f: \mathbb{R} \to \mathbb{R}$ 中间是宽度 128 的块（He 初始化）。
# 计算每个点的 $\mathrm{d}f/\mathrm{d}x$，再算相邻点梯度的相关系数（6 个随机种子）。

# %% [markdown] lang="en"
# ## Shattered gradients
#
# 256 points of a 1-D input $x \in [-2, 2]$, a net $f: \mathbb{R} \to \mathbb{R}$ with blocks of width
# 128 in between (He init). We compute $\mathrm{d}f/\mathrm{d}x$ at every point and the correlation
# between gradients at neighbouring points (6 random seeds).

# %%
depths = [1, 5, 10, 25, 50, 75, 100]
SEEDS = 6
variants = {
    "plain": (False, "he"),
    "residual": (True, "he"),
    "residual-scaled": (True, "he-scaled"),
}
correlations = {
    kind: shattering(depths, residual, seeds=range(SEEDS), init=init)
    for kind, (residual, init) in variants.items()
}
SHOWN = 50
examples = {
    kind: input_gradients(scalar_net(SHOWN, residual, init=init, seed=0))
    for kind, (residual, init) in variants.items()
}
publish.number("shattered_max_depth", depths[-1], "{:d}")
publish.number("shattered_depth_shown", SHOWN, "{:d}")
publish.number("shattered_seeds", SEEDS, "{:d}")
for kind, rows in correlations.items():
    medians = [statistics.median(row) for row in rows]
    publish.number(f"corr_{kind}_d{depths[0]}", medians[0], "{:.2f}")
    publish.number(f"corr_{kind}_d{SHOWN}", medians[depths.index(SHOWN)], "{:.2f}")
    publish.number(f"corr_{kind}_d{depths[-1]}", medians[-1], "{:.2f}")
    print(f"{kind:15s} median correlation by depth:", " ".join(f"{m:.2f}" for m in medians))
publish.figure(
    "shattered-gradients",
    lambda tr: shattered_figure(examples, depths, correlations, SHOWN, tr),
    alt=(
        f"左：{SHOWN} 个块时 df/dx 随输入 x 的变化，无残差和未缩放的有残差网络曲线都很杂乱，末层缩小的有残差网络最平滑。"
        "右：相邻输入梯度相关系数随深度变化的中位数与范围：无残差时下降且各种子差别很大，未缩放的有残差网络下降稍慢，末层缩小后几乎不降。",
        f"Left: df/dx against the input x with {SHOWN} blocks; the plain and the unscaled residual curves are both jagged, "
        "the residual net with a scaled last layer is the smoothest. Right: median and range over seeds of the correlation "
        "of gradients at neighbouring inputs against depth: it falls without shortcuts, with a wide spread between seeds, "
        "a little more slowly with unscaled shortcuts, and hardly at all with the scaled last layer.",
    ),
)
