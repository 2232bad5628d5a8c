r"""Transformer 块 · The Transformer block.

The encoder and decoder layers of ``resdoc.transformer_block`` drawn as a diagram, run once on
random tokens, and their parameters counted at the size of the original base model.
Run it by hand with ``python examples/08-transformer-block.py``; the docs build runs it for you.
"""

# %% [markdown] lang="zh"
# # Transformer 块
#
# 编码器层有两个子层，解码器层有三个；每个子层都有自己的捷径。先画出结构。

# %% [markdown] lang="en"
# # The Transformer block
#
# An encoder layer has two sublayers, a decoder layer three; every sublayer has its own
# shortcut. First the diagram.

# %%
import torch

from resdoc import publish
from resdoc.transformer_block import (
    BlockConfig,
    DecoderLayer,
    EncoderLayer,
    sublayer_params,
    zero_branch_change,
)
from resdoc.transformer_block_plots import block_figure

publish.figure(
    "block",
    block_figure,
    alt=(
        "三个结构图：Post-LN 编码器层（自注意力、加法、层归一化、前馈网络、加法、层归一化）、Post-LN 解码器层（多一个交叉注意力子层）和 Pre-LN 编码器层；蓝线为绕过每个子层的捷径。",
        "Three diagrams: a Post-LN encoder layer (self-attention, add, LayerNorm, FFN, add, "
        "LayerNorm), a Post-LN decoder layer (with an extra cross-attention sublayer) and a Pre-LN "
        "encoder layer; blue lines are the shortcuts around each sublayer.",
    ),
)

# %% [markdown] lang="zh"
# ## 跑一遍：形状不变
#
# 源序列 10 个词元、目标序列 7 个词元，批大小 2，$d_\text{model} = 64$。

# %% [markdown] lang="en"
# ## One pass: the shape never changes
#
# A source of 10 tokens, a target of 7, batch 2, $d_\text{model} = 64$.

# %%
torch.manual_seed(0)
for pre_ln in (False, True):
    cfg = BlockConfig(d_model=64, n_head=4, d_ff=256, pre_ln=pre_ln)
    source, target = torch.randn(2, 10, 64), torch.randn(2, 7, 64)
    memory = EncoderLayer(cfg)(source)
    out = DecoderLayer(cfg)(target, memory)
    print(
        f"pre_ln={pre_ln}: source {tuple(source.shape)} -> memory {tuple(memory.shape)}; "
        f"target {tuple(target.shape)} -> {tuple(out.shape)}"
    )

# %% [markdown] lang="zh"
# ## 分支为零时
#
# 把每个分支的最后一层置零，看一层编码器把输入改变了多少：$\max \lvert \mathrm{layer}(x) - x \rvert$，
# 5 个随机种子（每个种子重新抽取层的权重和输入）中的最大值。

# %% [markdown] lang="en"
# ## With zero branches
#
# With the last layer of every branch set to zero, how much does an encoder layer change its
# input: $\max \lvert \mathrm{layer}(x) - x \rvert$, the largest over 5 random seeds (each draws new
# weights and a new input).

# %%
SEEDS = range(5)
change = {pre_ln: zero_branch_change(pre_ln, SEEDS) for pre_ln in (True, False)}
publish.number("zero_branch_change_pre_ln", change[True], "{:g}", seeds=SEEDS)
publish.number("zero_branch_change_post_ln", change[False], "{:.2f}", seeds=SEEDS)
print(f"largest change with zero branches: Pre-LN {change[True]:g}, Post-LN {change[False]:.3f}")
publish.claim(
    "zero_branch_identity",
    change[True] == 0.0 and change[False] > 0.1,
    zh="分支为零时，Pre-LN 层对输入的最大改变是 {{ zero_branch_change_pre_ln }}，正好是恒等映射；"
    "Post-LN 层是 {{ zero_branch_change_post_ln }}：它仍然对输入做一次层归一化",
    en="With zero branches, a Pre-LN layer changes its input by at most {{ zero_branch_change_pre_ln }}: it is "
    "exactly the identity; a Post-LN layer by up to {{ zero_branch_change_post_ln }}: it still applies a "
    "LayerNorm to its input",
    evidence=f"Pre-LN {change[True]}, Post-LN {change[False]:.3f}",
)

# %% [markdown] lang="zh"
# ## 参数量：原始 Transformer 的基础模型
#
# $d_\text{model} = 512$，8 个头，$d_\text{ff} = 2048$，编码器、解码器各 6 层（不含词嵌入）。

# %% [markdown] lang="en"
# ## Parameters: the original base Transformer
#
# $d_\text{model} = 512$, 8 heads, $d_\text{ff} = 2048$, 6 encoder and 6 decoder layers
# (embeddings not counted).

# %%
counts = sublayer_params(BlockConfig(d_model=512, n_head=8, d_ff=2048))
for key, value in counts.items():
    publish.number(f"params_{key}", value, "{:,d}")
    print(f"{key:10s} {value:>10,d}")
N_LAYERS = 6
publish.number("n_layers", N_LAYERS, "{:d}")
total = N_LAYERS * (counts["encoder"] + counts["decoder"])
publish.number("params_stack_millions", total / 1e6, "{:.1f}")
publish.number("params_stack", total, "{:,d}")  # exact: "44.1 百万" is not how Chinese counts
print(f"{N_LAYERS} + {N_LAYERS} layers: {total:,d}")
publish.claim(
    "shortcuts_cost_nothing",
    counts["encoder"] == counts["attention"] + counts["ffn"]
    and counts["decoder"] == counts["encoder"] + counts["attention"],
    zh="捷径本身一个参数也没有：编码器层的参数正好是两个子层之和，解码器层正好多一个注意力子层",
    en="The shortcuts themselves have none: an encoder layer's count is exactly the sum of its two "
    "sublayers', and a decoder layer has exactly one attention sublayer more",
    evidence=f"{counts}",
)
