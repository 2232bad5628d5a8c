r"""快捷路径：恒等映射与残差 · The shortcut: identity mapping and the residual.

A block with a shortcut computes $y = \mathcal{F}(x) + x$; its layers learn only the residual
$\mathcal{F}(x) = \mathcal{H}(x) - x$. Here we check that a zero branch is exactly the identity,
then train plain and residual stacks to reproduce their input.
Run it by hand with ``python examples/01-shortcut.py``; the docs build runs it for you.
"""

# %% [markdown] lang="zh"
# # 快捷路径：恒等映射与残差
#
# 残差块（residual block）的输出是 $y = \mathcal{F}(x) + x$：层只需要学习残差
# $\mathcal{F}(x) = \mathcal{H}(x) - x$。先画出普通块与残差块的结构。

# %% [markdown] lang="en"
# # The shortcut: identity mapping and the residual
#
# A residual block outputs $y = \mathcal{F}(x) + x$: its layers only have to learn the residual
# $\mathcal{F}(x) = \mathcal{H}(x) - x$. First, the two kinds of block side by side.

# %%
import torch

from resdoc import publish
from resdoc.shortcut import ResidualBlock, identity_fits, zero_branch
from resdoc.shortcut_plots import block_diagram, identity_fit_figure

publish.figure(
    "block-diagram",
    block_diagram,
    alt=(
        "左：普通块，输入经过线性层、ReLU、线性层得到 y = H(x)；右：残差块，同样的层得到 F(x)，再由恒等捷径把 x 加上，得到 y = F(x) + x。",
        "Left: a plain block, where the input passes through linear, ReLU and linear layers to give y = H(x); "
        "right: a residual block, where the same layers give F(x) and an identity shortcut adds x, giving y = F(x) + x.",
    ),
)

# %% [markdown] lang="zh"
# ## 零分支就是恒等映射
#
# 把分支最后一层的权重和偏置都置零，$\mathcal{F}(x) = 0$，残差块的输出与输入逐位相同。

# %% [markdown] lang="en"
# ## A zero branch is the identity
#
# With the last layer's weights and bias set to zero, $\mathcal{F}(x) = 0$ and the residual
# block's output equals its input bit for bit.

# %%
torch.manual_seed(0)
block = zero_branch(ResidualBlock(dim=16, hidden=64))
x = torch.randn(256, 16)
max_difference = (block(x) - x).abs().max().item()
print("max |y - x| =", max_difference)
publish.number("zero_branch_max_diff", max_difference, "{:g}")

# %% [markdown] lang="zh"
# ## 学习恒等映射
#
# 让 1 个和 8 个块的堆叠用 Adam 学习 $\mathcal{H}(x) = x$（256 个随机向量，维度 16），
# 比较普通块和残差块的训练损失。

# %% [markdown] lang="en"
# ## Learning the identity
#
# Stacks of 1 and of 8 blocks learn $\mathcal{H}(x) = x$ with Adam (256 random vectors of
# dimension 16); we compare the training loss of plain and residual blocks.

# %%
DEPTHS, STEPS = (1, 8), 300
fits = identity_fits(depths=DEPTHS, steps=STEPS, seed=0)
publish.number("steps", STEPS, "{:d}")
for depth, fit in fits.items():
    for kind, losses in fit.losses.items():
        publish.number(f"initial_loss_{kind}_d{depth}", losses[0], "{:.3g}")
        publish.number(f"final_loss_{kind}_d{depth}", losses[-1], "{:.2g}")
        print(
            f"depth {depth} {kind:8s} loss: first step {losses[0]:.3g}, last step {losses[-1]:.2g}"
        )
publish.figure(
    "identity-fit",
    lambda tr: identity_fit_figure(fits, tr),
    alt=(
        "学习恒等映射时的训练损失（对数坐标）：1 个块和 8 个块时，残差块的损失都从更低处开始并降得更快；8 个普通块的损失几乎不降。",
        "Training loss while learning the identity (log scale): with 1 and with 8 blocks the residual loss starts lower "
        "and falls faster; the loss of 8 plain blocks barely falls.",
    ),
)
