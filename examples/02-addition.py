"""加法运算：逐元素相加与投影捷径 · Addition: element-wise sum and the projection shortcut.

The shortcut is merged by element-wise addition, which needs equal shapes; a projection
$W_s x$ fixes unequal ones. Concatenation instead makes every later layer wider.
Run it by hand with ``python examples/02-addition.py``; the docs build runs it for you.
"""

# resdoc: time-limit = 60

# %% [markdown] lang="zh"
# # 加法运算：逐元素相加与投影捷径
#
# 加法要求 $x$ 与 $\mathcal{F}(x)$ 形状相同。输入宽度 16、输出宽度 32 时，
# 投影捷径（projection shortcut）$W_s x$ 把 $x$ 映射到 32 维再相加。

# %% [markdown] lang="en"
# # Addition: element-wise sum and the projection shortcut
#
# Addition needs $x$ and $\mathcal{F}(x)$ to have the same shape. With input width 16 and
# output width 32, a projection shortcut $W_s x$ maps $x$ to 32 dimensions before the sum.

# %%
import torch

from resdoc import publish
from resdoc.addition import (
    ProjectionBlock,
    add_params_formula,
    concat_params_formula,
    growth_table,
    n_params,
)
from resdoc.addition_plots import growth_figure
from resdoc.bilingual import say

torch.manual_seed(0)
block = ProjectionBlock(dim_in=16, dim_out=32, hidden=64)
x = torch.randn(8, 16)
say(f"输入 {tuple(x.shape)} -> 输出", f"input {tuple(x.shape)} -> output", tuple(block(x).shape))
publish.number("projection_params", n_params(block.shortcut), "{:d}")
publish.number("identity_params", n_params(ProjectionBlock(32, 32, hidden=64).shortcut), "{:d}")

# %% [markdown] lang="zh"
# ## 相加还是拼接
#
# 同样宽度 $d = 64$、隐藏宽度 64 的块，用相加或拼接（每块增加 64 个特征）把捷径并回来，
# 构建 1 到 32 个块的堆叠，实测输出宽度和参数量。

# %% [markdown] lang="en"
# ## Add or concatenate
#
# Blocks of width $d = 64$ and hidden width 64 merge their shortcut either by addition or by
# concatenation (64 new features per block). We build stacks of 1 to 32 blocks and measure
# their output width and parameter count.

# %%
DIM = HIDDEN = GROWTH = 64
depths = list(range(1, 33))
table = growth_table(depths, dim=DIM, hidden=HIDDEN, growth=GROWTH)
publish.setting("dim", DIM, "{:d}")
publish.setting("growth", GROWTH, "{:d}")
publish.setting("max_depth", depths[-1], "{:d}")
for kind in ("add", "concat"):
    publish.number(f"{kind}_width", table[kind]["width"][-1], "{:d}")
    publish.number(f"{kind}_params", table[kind]["params"][-1], "{:,d}")
    width, params = table[kind]["width"][-1], table[kind]["params"][-1]
    say(
        f"{kind:6s} {depths[-1]} 个块：宽度 {width}，参数 {params:,}",
        f"{kind:6s} {depths[-1]} blocks: width {width}, parameters {params:,}",
    )
publish.number("params_ratio", table["concat"]["params"][-1] / table["add"]["params"][-1], "{:.1f}")


def steps(values: list[int]) -> list[int]:
    """How much each added block adds: ``values[i + 1] - values[i]``."""
    return [after - before for before, after in zip(values, values[1:], strict=False)]


add_steps, concat_steps = steps(table["add"]["params"]), steps(table["concat"]["params"])
add_claim = publish.claim(
    "add_linear",
    set(table["add"]["width"]) == {DIM} and len(set(add_steps)) == 1,
    zh="相加时输出宽度恒为 {{ add_width }}，每多一个块，参数量增加同样多（线性增长）",
    en="With addition the output width stays {{ add_width }} and every block adds the same number of "
    "parameters (linear growth)",
    evidence=f"add widths {set(table['add']['width'])}, parameter steps {set(add_steps)}",
    every="block",
)
concat_claim = publish.claim(
    "concat_quadratic",
    set(steps(table["concat"]["width"])) == {GROWTH}
    and len(set(steps(concat_steps))) == 1
    and steps(concat_steps)[0] > 0,
    zh="拼接时每个块让宽度增加 {{ growth }}（线性增长），每个块增加的参数量又比前一个多出同样多（二次增长）",
    en="With concatenation every block widens the output by {{ growth }} (linear growth), and every block "
    "adds a fixed amount more parameters than the one before (quadratic growth)",
    evidence=f"concat width steps {set(steps(table['concat']['width']))}, second differences of "
    f"parameters {set(steps(concat_steps))}",
    every="block",
)
publish.claim(
    "formulas_match",
    all(
        table["add"]["params"][i] == add_params_formula(depth, DIM, HIDDEN)
        and table["concat"]["params"][i] == concat_params_formula(depth, DIM, HIDDEN, GROWTH)
        for i, depth in enumerate(depths)
    ),
    zh="这两个公式给出的参数量与上面建出网络实测的数在每个深度都完全相同",
    en="For every depth, these two formulas give exactly the parameter counts measured above by "
    "building the networks",
    evidence="compared add_params_formula and concat_params_formula with growth_table",
    every="depth",
)
publish.figure(
    "add-vs-concat",
    lambda tr: growth_figure(depths, table, tr),
    alt=(
        "相加与拼接的堆叠随块数变化，左为输出宽度，右为参数量。"
        + add_claim[0]
        + "；"
        + concat_claim[0]
        + "。",
        "Add and concat stacks against the number of blocks, output width on the left, parameter count "
        "on the right. " + add_claim[1] + "; " + concat_claim[1].replace("With", "with", 1) + ".",
    ),
)
