r"""快捷路径：恒等映射与残差 · The shortcut: identity mapping and the residual.

A block with a shortcut computes $y = \mathcal{F}(x) + x$; its layers learn only the residual
$\mathcal{F}(x) = \mathcal{H}(x) - x$. Here we check that a zero branch is exactly the identity,
then train plain and residual stacks to reproduce their input.
Run it by hand with ``python examples/01-shortcut.py``; the docs build runs it for you.
"""

# resdoc: time-limit = 120

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
from resdoc.bilingual import say
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
SEEDS = range(5)
differences = []
for seed in SEEDS:
    torch.manual_seed(seed)
    block = zero_branch(ResidualBlock(dim=16, hidden=64))
    x = torch.randn(256, 16)
    differences.append((block(x) - x).abs().max().item())
publish.number("zero_branch_max_diff", max(differences), "{:g}", seeds=SEEDS)
publish.setting("zero_branch_seeds", len(SEEDS), "{:d}")
publish.claim(
    "zero_branch_exact",
    max(differences) == 0.0,
    zh="示例里用 {{ zero_branch_seeds }} 个随机种子、每个种子 256 个随机输入做同样的检查，"
    "$\\lvert y - x \\rvert$ 的最大值是 {{ zero_branch_max_diff }}：不是“近似相等”，而是完全相等",
    en="The example runs the same check with {{ zero_branch_seeds }} random seeds, 256 random inputs "
    'each: the largest $\\lvert y - x \\rvert$ is {{ zero_branch_max_diff }}. Not "approximately '
    'equal" but equal',
    evidence=f"max |y - x| per seed {differences}",
)
say("每个种子的 max |y - x|：", "max |y - x| per seed:", differences)

# %% [markdown] lang="zh"
# ## 学习恒等映射
#
# 让 1 个和 8 个块的堆叠用 Adam 学习 $\mathcal{H}(x) = x$（256 个随机向量，维度 16），
# 比较普通块和残差块的训练损失（均方误差，对全部分量取平均）；每种设置 5 个随机种子。

# %% [markdown] lang="en"
# ## Learning the identity
#
# Stacks of 1 and of 8 blocks learn $\mathcal{H}(x) = x$ with Adam (256 random vectors of
# dimension 16); we compare the training loss (mean squared error over all entries) of plain and
# residual blocks, 5 random seeds per setting.

# %%
DEPTHS, STEPS = (1, 8), 300
fits = identity_fits(depths=DEPTHS, steps=STEPS, seeds=SEEDS)
publish.setting("steps", STEPS, "{:d}")
publish.setting("fit_seeds", len(SEEDS), "{:d}")


def first_and_last(fits, suffix="", label=""):
    """Each setting's loss at the first and the last step, over the seeds."""
    first, last = {}, {}
    for depth, fit in fits.items():
        for kind, runs in fit.losses.items():
            first[kind, depth] = publish.spread(
                f"initial_loss_{kind}_d{depth}{suffix}", [run[0] for run in runs], SEEDS, "{:.3g}"
            )
            last[kind, depth] = publish.spread(
                f"final_loss_{kind}_d{depth}{suffix}", [run[-1] for run in runs], SEEDS, "{:.2g}"
            )
            start, end = first[kind, depth].median, last[kind, depth].median
            say(
                f"{label}深度 {depth} {kind:8s} 损失：第一步 {start:.3g}，最后一步 {end:.2g}"
                f"（{len(runs)} 个种子的中位数）",
                f"{label}depth {depth} {kind:8s} loss: first step {start:.3g}, "
                f"last step {end:.2g} (median of {len(runs)} seeds)",
            )
    return first, last


first, last = first_and_last(fits)

publish.claim(
    "residual_starts_closer",
    all(first["residual", d].high * 1.2 < first["plain", d].low for d in DEPTHS),
    zh="残差堆叠**一开始**就离恒等映射更近：第 1 步的损失，1 个块时是 {{ initial_loss_residual_d1_spread }}，"
    "8 个块时是 {{ initial_loss_residual_d8_spread }}，每个种子都低于对应的普通堆叠"
    "（{{ initial_loss_plain_d1_spread }} 和 {{ initial_loss_plain_d8_spread }}）",
    en="The residual stacks start **closer** to the identity: their loss at step 1 is "
    "{{ initial_loss_residual_d1_spread }} with 1 block and {{ initial_loss_residual_d8_spread }} with 8, "
    "in every seed below the plain stacks' ({{ initial_loss_plain_d1_spread }} and "
    "{{ initial_loss_plain_d8_spread }})",
    evidence=f"first-step losses {first}",
    every=("seed", "depth"),
)
publish.claim(
    "plain_starts_at_one",
    all(first["plain", d].low > 0.8 and first["plain", d].high < 1.25 for d in DEPTHS),
    zh="普通堆叠的初始输出与 $x$ 几乎无关，损失接近 $x$ 各分量平方的平均 "
    "$\\mathbb{E}\\lVert x \\rVert^2 / d = 1$：实测为 {{ initial_loss_plain_d1_spread }} 和 "
    "{{ initial_loss_plain_d8_spread }}",
    en="The plain stacks' initial output has almost nothing to do with $x$, so their loss is close to "
    "the mean of the squared entries of $x$, $\\mathbb{E}\\lVert x \\rVert^2 / d = 1$: measured "
    "{{ initial_loss_plain_d1_spread }} and {{ initial_loss_plain_d8_spread }}",
    evidence=f"plain first-step losses d1 {first['plain', 1]}, d8 {first['plain', 8]}",
)
publish.claim(
    "one_plain_learns",
    last["plain", 1].high < first["plain", 1].low / 100
    and last["plain", 1].low > 10 * last["residual", 1].high,
    zh="只有 1 个块时，普通块也学会了恒等映射：损失降到 {{ final_loss_plain_d1_spread }}，"
    "不过仍是 1 个残差块（{{ final_loss_residual_d1_spread }}）的十倍以上",
    en="With a single block the plain block learns the identity too: its loss falls to "
    "{{ final_loss_plain_d1_spread }}, though that is still more than ten times the single residual "
    "block's {{ final_loss_residual_d1_spread }}",
    evidence=f"plain d1 first {first['plain', 1]}, last {last['plain', 1]}; residual d1 last "
    f"{last['residual', 1]}",
)
publish.claim(
    "eight_plain_stuck",
    last["plain", 8].low > 0.2
    and last["plain", 8].low > 10 * last["plain", 1].high
    and last["plain", 8].low > 100 * last["residual", 8].high,
    zh="在 PyTorch 默认初始化下，8 个普通块叠在一起时，{{ steps }} 步后损失还有 {{ final_loss_plain_d8_spread }}，"
    "比 1 个普通块高得多，也远高于 8 个残差块的 {{ final_loss_residual_d8_spread }}："
    "更深的普通堆叠连“每个块都是恒等映射”这样简单的解都没有找到",
    en="With PyTorch's default initialization and 8 plain blocks the loss is still "
    "{{ final_loss_plain_d8_spread }} after {{ steps }} steps, "
    "far above a single plain block's and far above the {{ final_loss_residual_d8_spread }} of 8 "
    "residual blocks: the deeper plain stack does not find even the simple solution "
    '"every block is the identity"',
    evidence=f"plain d8 last {last['plain', 8]}, plain d1 last {last['plain', 1]}, residual d8 "
    f"last {last['residual', 8]}",
)
publish.claim(
    "eight_residual_easy",
    # Medians: one seed of the eight residual blocks ends far above the others on some CPU kernels
    # (8e-4 against 2e-5 to 6e-5 with AVX2/AVX-512), so "in every seed" would hold only by a whisker.
    last["residual", 8].median * 10 < last["plain", 1].median,
    zh="按种子的中位数，8 个残差块的最终损失比 1 个普通块的还低一个数量级以上",
    en="In the median seed, eight residual blocks end more than ten times lower than even a single plain block",
    evidence=f"residual d8 last {last['residual', 8]} vs plain d1 last {last['plain', 1]}",
)
fit_alt = publish.claim(
    "fit_summary",
    all(first["residual", d].high < first["plain", d].low for d in DEPTHS)
    and all(last["residual", d].high * 10 < last["plain", d].low for d in DEPTHS)
    and last["plain", 8].low > 0.2,
    zh="在学习恒等映射的玩具实验里，两种深度下残差块的损失都从更低处开始，结束时低一个数量级以上；"
    "在 PyTorch 默认初始化下，8 个普通块的损失到最后仍停在高处",
    en="In the toy experiment of learning the identity, at both depths the residual loss starts lower "
    "and ends more than ten times lower; with PyTorch's default initialization, the loss of 8 plain "
    "blocks is still high at the end",
    evidence=f"first {first}; last {last}",
)
publish.figure(
    "identity-fit",
    lambda tr: identity_fit_figure(fits, tr),
    alt=(
        "学习恒等映射时的训练损失（对数坐标，5 个随机种子的中位数与范围），左为 1 个块，右为 8 个块。"
        + fit_alt[0]
        + "。",
        "Training loss while learning the identity (log scale, median and range over 5 random seeds), "
        "1 block on the left, 8 on the right. " + fit_alt[1] + ".",
    ),
)

# %% [markdown] lang="zh"
# ## 换成 He 初始化
#
# PyTorch 默认初始化下，8 个普通块的初始输出几乎为零（信号逐层变小），这和“学恒等映射难”混在一起。
# 换成第 3 章的 He 初始化（ReLU 前的层方差 $2/n$，分支输出层 $1/n$，偏置为零），用同样的种子和数据再训练一遍。

# %% [markdown] lang="en"
# ## With He initialization
#
# Under PyTorch's default initialization, 8 plain blocks start with an output of almost zero (the
# signal shrinks from block to block), which mixes with "learning the identity is hard". With
# chapter 3's He initialization (variance $2/n$ for the layer before the ReLU, $1/n$ for the
# branch's output layer, zero biases) we train again, with the same seeds and data.

# %%
from resdoc.gradient_flow import init_block


def he(block):  # chapter 3's "he": the plain block keeps the size of its input
    return init_block(block, "he")


fits_he = identity_fits(depths=DEPTHS, steps=STEPS, seeds=SEEDS, init=he)
first_he, last_he = first_and_last(fits_he, "_he", "He ")
publish.claim(
    "he_plain_lower",
    last_he["plain", 8].high * 2 < last["plain", 8].low,
    zh="He 初始化下，8 个普通块的最终损失在每个种子上都不到默认初始化的一半："
    "{{ final_loss_plain_d8_he_spread }}，默认初始化是 {{ final_loss_plain_d8_spread }}；"
    "默认初始化下的失败有一部分来自消失的信号",
    en="With He initialization the final loss of 8 plain blocks is, in every seed, less than half of what "
    "it is with the default one: {{ final_loss_plain_d8_he_spread }} against {{ final_loss_plain_d8_spread }}; "
    "part of the default initialization's failure is the vanishing signal",
    evidence=f"He worst {last_he['plain', 8].high:.3g} vs default best {last['plain', 8].low:.3g}",
    every=("seed",),
)
publish.claim(
    "he_plain_deeper_worse",
    last_he["plain", 8].low > 10 * last_he["plain", 1].high,
    zh="但即使在 He 初始化下，8 个普通块在每个种子上仍比 1 个普通块差十倍以上"
    "（{{ final_loss_plain_d8_he_spread }} 对 {{ final_loss_plain_d1_he_spread }}）：同样的步数，"
    "更深的普通堆叠更难学会恒等映射",
    en="Yet even with He initialization, 8 plain blocks end more than ten times higher than one plain block "
    "in every seed ({{ final_loss_plain_d8_he_spread }} against {{ final_loss_plain_d1_he_spread }}): in the same "
    "number of steps the deeper plain stack learns the identity less well",
    evidence=f"He plain d8 best {last_he['plain', 8].low:.3g} vs d1 worst {last_he['plain', 1].high:.3g}",
    every=("seed",),
)
publish.claim(
    "he_residual_starts_far",
    first_he["residual", 8].low > 20 and last_he["residual", 8].low > last_he["plain", 8].high,
    zh="残差块用同样的 He 初始化时，分支一开始就和输入一样大，8 个块的输出一开始就离 $x$ 很远：第 1 步的损失是 "
    "{{ initial_loss_residual_d8_he_spread }}，{{ steps }} 步后仍有 {{ final_loss_residual_d8_he_spread }}，"
    "在每个种子上都高于 He 初始化的 8 个普通块；残差堆叠的优势要靠分支一开始足够小",
    en="With the same He initialization in residual blocks, the branches start as large as their inputs and the "
    "output of 8 blocks starts far from $x$: the loss at step 1 is {{ initial_loss_residual_d8_he_spread }}, and "
    "after {{ steps }} steps it is still {{ final_loss_residual_d8_he_spread }}, higher in every seed than that of "
    "8 plain blocks with He initialization; the residual stack's advantage needs branches that start small",
    evidence=f"He residual d8 first best {first_he['residual', 8].low:.3g}, last best "
    f"{last_he['residual', 8].low:.3g} vs He plain d8 last worst {last_he['plain', 8].high:.3g}",
    every=("seed",),
)
