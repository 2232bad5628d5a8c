r"""前馈网络 · The feed-forward network.

Parameter counts of the position-wise FFN and its gated variant, then two measurements on
self-attention: it is not linear in its input, and stacked without shortcuts it collapses all
tokens onto one vector. Run it by hand with ``python examples/07-ffn.py``; the docs build runs it.
"""

# %% [markdown] lang="zh"
# # 前馈网络
#
# 先数参数：原始 Transformer（$d_\text{model} = 512$, $d_\text{ff} = 2048$）一层里，
# 自注意力、前馈网络（FFN）和 SwiGLU 各有多少个可训练参数。

# %% [markdown] lang="en"
# # The feed-forward network
#
# First the parameter count: in one layer of the original Transformer
# ($d_\text{model} = 512$, $d_\text{ff} = 2048$), how many trainable numbers the self-attention,
# the feed-forward network (FFN) and SwiGLU have.

# %%
from resdoc import publish
from resdoc.attention import linearity_table, rank_collapse
from resdoc.ffn import parameter_counts, swiglu_width
from resdoc.ffn_plots import linearity_figure, rank_collapse_figure

D_MODEL = 512
counts = parameter_counts(D_MODEL, n_head=8)
for key, value in counts.items():
    publish.number(f"params_{key}", value, "{:,d}")
    print(f"{key:12s} {value:>10,d}")
layer = counts["attention"] + counts["ffn"] + 2 * counts["layer_norm"]
publish.number("params_layer", layer, "{:,d}")
publish.number("ffn_share", 100 * counts["ffn"] / layer, "{:.0f}")
publish.number("swiglu_width", swiglu_width(D_MODEL), "{:d}")

# %% [markdown] lang="zh"
# ## 自注意力是线性的吗？
#
# 对输入 $s\,x$、$s\,y$（$x, y$ 为标准正态，$d = 32$，16 个词元），测可加性偏差
# $\lVert f(x+y) - f(x) - f(y)\rVert / \lVert f(x+y)\rVert$ 和齐次性偏差
# $\lVert f(2x) - 2f(x)\rVert / \lVert 2f(x)\rVert$，取 10 个随机种子的中位数。

# %% [markdown] lang="en"
# ## Is self-attention linear?
#
# For inputs $s\,x$, $s\,y$ ($x, y$ standard normal, $d = 32$, 16 tokens) we measure the additivity
# gap $\lVert f(x+y) - f(x) - f(y)\rVert / \lVert f(x+y)\rVert$ and the homogeneity gap
# $\lVert f(2x) - 2f(x)\rVert / \lVert 2f(x)\rVert$, median over 10 random seeds.

# %%
SCALES = (0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
table = linearity_table(scales=SCALES)
at_one = SCALES.index(1.0)
for name, gaps in table.items():
    for gap, values in gaps.items():
        publish.number(f"{gap}_{name}", values[at_one], "{:.2g}")
    print(
        f"{name:10s} additivity {gaps['additivity'][at_one]:.2e}  homogeneity {gaps['homogeneity'][at_one]:.2e}"
    )
publish.number("additivity_attention_small", table["attention"]["additivity"][0], "{:.2g}")
publish.number("scale_small", SCALES[0], "{:g}")
publish.figure(
    "linearity",
    lambda tr: linearity_figure(SCALES, table, tr),
    alt=(
        "自注意力、前馈网络、冻结权重的注意力和线性映射的可加性与齐次性偏差随输入尺度变化：线性映射和冻结权重的注意力始终为零，自注意力的偏差随尺度增大。",
        "Additivity and homogeneity gaps of self-attention, the FFN, attention with frozen weights "
        "and a linear map against the input scale: zero for the linear map and frozen attention, "
        "growing with scale for self-attention.",
    ),
)

# %% [markdown] lang="zh"
# ## 堆叠注意力：秩坍缩
#
# 48 层随机初始化的注意力（8 个种子的中位数），每层之后测
# $\mathrm{res}(X) = \lVert X - \mathbf{1}\bar{x}^\top\rVert / \lVert X\rVert$。

# %% [markdown] lang="en"
# ## Stacking attention: rank collapse
#
# 48 randomly initialised attention layers (median over 8 seeds); after each layer we measure
# $\mathrm{res}(X) = \lVert X - \mathbf{1}\bar{x}^\top\rVert / \lVert X\rVert$.

# %%
DEPTH = 48
curves = rank_collapse(depth=DEPTH)
publish.number("depth", DEPTH, "{:d}")
publish.number("res_input", curves["attention"][0], "{:.2f}")
publish.number("res_attention_l1", curves["attention"][1], "{:.1e}")
publish.number("res_attention_l3", curves["attention"][3], "{:.1e}")
for kind in curves:
    key = kind.replace("+", "_").replace("-", "_")
    publish.number(f"res_{key}_l8", curves[kind][8], "{:.2g}")
    publish.number(f"res_{key}_end", curves[kind][-1], "{:.2g}")
    print(
        f"{kind:24s} l=1 {curves[kind][1]:.2e}  l=8 {curves[kind][8]:.2e}  l={DEPTH} {curves[kind][-1]:.2e}"
    )
publish.figure(
    "rank-collapse",
    lambda tr: rank_collapse_figure(curves, tr),
    alt=(
        "秩坍缩度量随深度变化（对数坐标）：纯注意力几层内降到浮点精度；加捷径后只按指数缓慢下降；分支前加层归一化后基本保持不变。",
        "The rank-collapse measure against depth (log scale): pure attention reaches float precision "
        "within a few layers; with shortcuts it falls only slowly and exponentially; with LayerNorm "
        "before each branch it stays roughly level.",
    ),
)
