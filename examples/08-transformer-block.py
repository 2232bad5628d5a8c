r"""Transformer 块 · The Transformer block.

The encoder and decoder layers of ``resdoc.transformer`` drawn as a diagram, run once on
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
from resdoc.transformer import BlockConfig, DecoderLayer, EncoderLayer, sublayer_params
from resdoc.transformer_plots import block_figure

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
print(f"{N_LAYERS} + {N_LAYERS} layers: {total:,d}")
