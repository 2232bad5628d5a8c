r"""Transformer 块 · The Transformer block.

The encoder and decoder layers of ``resdoc.transformer_block`` drawn as a diagram, run once on
random tokens, and their parameters counted at the size of the original base model; a Pre-LN
stack's residual stream split into its writes, and measured at initialization with and without
GPT-2's 1/√N on the output projections; the parallel block of GPT-J and PaLM set beside the serial
one with the same weights.
Run it by hand with ``python examples/09-transformer-block.py``; the docs build runs it for you.
"""

# resdoc: time-limit = 120

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
import numpy as np
import torch

from resdoc import publish
from resdoc.bilingual import say
from resdoc.data import reversal_batch
from resdoc.transformer_block import (
    BlockConfig,
    DecoderLayer,
    EncoderLayer,
    decompose,
    stream_growth,
    sublayer_params,
    train_stack,
    zero_branch_change,
)
from resdoc.transformer_block_parallel import serial_vs_parallel
from resdoc.transformer_block_plots import (
    block_figure,
    gpt2_init_figure,
    parallel_figure,
    shares_figure,
)

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
    shapes = [tuple(t.shape) for t in (source, memory, target, out)]
    say(
        f"pre_ln={pre_ln}：源序列 {shapes[0]} -> 记忆 {shapes[1]}；目标序列 {shapes[2]} -> {shapes[3]}",
        f"pre_ln={pre_ln}: source {shapes[0]} -> memory {shapes[1]}; target {shapes[2]} -> {shapes[3]}",
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
say(
    f"分支为零时的最大改变：Pre-LN {change[True]:g}，Post-LN {change[False]:.3f}",
    f"largest change with zero branches: Pre-LN {change[True]:g}, Post-LN {change[False]:.3f}",
)
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
publish.setting("n_layers", N_LAYERS, "{:d}")
total = N_LAYERS * (counts["encoder"] + counts["decoder"])
publish.number("params_stack_millions", total / 1e6, "{:.1f}")
publish.number("params_stack", total, "{:,d}")  # exact: "44.1 百万" is not how Chinese counts
say(f"{N_LAYERS} + {N_LAYERS} 层：{total:,d}", f"{N_LAYERS} + {N_LAYERS} layers: {total:,d}")
publish.claim(
    "shortcuts_cost_nothing",
    counts["encoder"] == counts["attention"] + counts["ffn"]
    and counts["decoder"] == counts["encoder"] + counts["attention"],
    zh="捷径本身一个参数也没有：编码器层的参数正好是两个子层之和，解码器层正好多一个注意力子层",
    en="The shortcuts themselves have no parameters: an encoder layer's count is exactly the sum of its two "
    "sublayers', and a decoder layer has exactly one attention sublayer more",
    evidence=f"{counts}",
)

# %% [markdown] lang="zh"
# ## 残差流的视角
#
# 一个 3 层的 Pre-LN 编码器堆叠（$d_\text{model} = 32$，4 个头，$d_\text{ff} = 128$，加上词元和位置嵌入、最终层归一化和
# 逐位置的分类器），在初始化时和用 Adam 训练 300 步反转长度为 8 的序列之后，各 3 个种子。
# 把最终的残差流 $x_L$ 拆成嵌入 $x_0$ 加上每个子层的写入，检查它们之和等于正常前向传播的 $x_L$，
# 再算每一项占 $\lVert x_L \rVert^2$ 的份额 $\langle \cdot, x_L \rangle / \lVert x_L \rVert^2$（对一批 256 个序列的所有词元求和）。

# %% [markdown] lang="en"
# ## The residual-stream view
#
# A Pre-LN encoder stack of 3 layers ($d_\text{model} = 32$, 4 heads, $d_\text{ff} = 128$, with token and
# position embeddings, a final LayerNorm and a per-position classifier), at initialization and after
# 300 Adam steps of reversing sequences of length 8, 3 seeds each. The final stream $x_L$ is split
# into the embedding $x_0$ plus every sublayer's write; we check that they add up to the $x_L$ of
# the ordinary forward pass, then compute each term's share of $\lVert x_L \rVert^2$,
# $\langle \cdot, x_L \rangle / \lVert x_L \rVert^2$ (summed over all tokens of a batch of 256 sequences).

# %%
STACK_CFG, STACK_LAYERS, TRAIN_STEPS = BlockConfig(d_model=32, n_head=4, d_ff=128), 3, 300
STREAM_SEEDS = range(3)
publish.setting("stack_layers", STACK_LAYERS, "{:d}")
publish.setting("stack_d_model", STACK_CFG.d_model, "{:d}")
publish.setting("train_steps", TRAIN_STEPS, "{:d}")
publish.setting("stream_seeds", len(STREAM_SEEDS), "{:d}")
publish.setting("stack_sublayers", 2 * STACK_LAYERS, "{:d}")
tokens, _ = reversal_batch(256, 8, 10, torch.Generator().manual_seed(99))
shares, errors, accuracy = {}, [], []
for state, steps in (("init", 0), ("trained", TRAIN_STEPS)):
    rows = []
    for seed in STREAM_SEEDS:
        model, acc = train_stack(STACK_CFG, STACK_LAYERS, seed, steps)
        result = decompose(model, tokens)
        rows.append(result["shares"])
        errors.append(result["error"])
        if steps:
            accuracy.append(100 * acc)
    shares[state] = np.array(rows)  # (seeds, 1 + 2 * layers)
labels = ["x₀"] + [f"{kind} {i}" for i in range(1, STACK_LAYERS + 1) for kind in ("MHA", "FFN")]
for state, runs in shares.items():
    print(
        state,
        "  ".join(f"{lab} {np.median(col):+.3f}" for lab, col in zip(labels, runs.T, strict=True)),
    )
acc = publish.spread("stack_accuracy", accuracy, seeds=STREAM_SEEDS, fmt="{:.0f}%")
publish.number("decompose_error", max(errors), "{:.1g}", seeds=STREAM_SEEDS)
emb = {
    s: publish.spread(f"share_x0_{s}", shares[s][:, 0], seeds=STREAM_SEEDS, fmt="{:.2f}")
    for s in shares
}
last_ffn = publish.spread(
    "share_last_ffn_trained", shares["trained"][:, -1], seeds=STREAM_SEEDS, fmt="{:.2f}"
)
other_max = shares["trained"][:, 1:-1].max()
publish.number("share_other_max_trained", other_max, "{:.2f}", seeds=STREAM_SEEDS)
sums = np.abs(np.concatenate([runs.sum(1) for runs in shares.values()]) - 1).max()

# %%
publish.claim(
    "stream_is_a_sum",
    max(errors) < 1e-5 and sums < 1e-4,
    zh="在每个种子上，嵌入加上 {{ stack_layers }} 层共 {{ stack_sublayers }} 个子层的写入，与正常前向传播得到的 $x_L$ 在浮点精度内相同"
    "（最大相对差 {{ decompose_error }}），各项份额之和为 1",
    en="In every seed, the embedding plus the writes of the {{ stack_sublayers }} sublayers of {{ stack_layers }} layers equals the "
    "$x_L$ of the ordinary forward pass to floating-point precision (largest relative difference "
    "{{ decompose_error }}), and the shares add up to 1",
    evidence=f"largest relative error {max(errors):.1e}, shares sum off by {sums:.1e}",
    every="seed",
)
publish.claim(
    "init_stream_is_embedding",
    emb["init"].low > 0.7,
    zh="初始化时，最终的残差流主要还是嵌入：$x_0$ 占 {{ share_x0_init_spread }}，子层只写入一小部分",
    en="At initialization the final stream is still mostly the embedding: $x_0$ accounts for "
    "{{ share_x0_init_spread }}; the sublayers write only a little",
    evidence=f"smallest embedding share {emb['init'].low:.3f} (> 0.7)",
)
publish.claim(
    "trained_stream_is_writes",
    acc.low > 90 and emb["trained"].high < 0.2 and last_ffn.low > 1.3 * other_max,
    zh="训练后（每个种子在留出批次上的准确率为 {{ stack_accuracy_spread }}），嵌入只占 {{ share_x0_trained_spread }}，"
    "最终的残差流几乎全是各子层写入的内容；最大的一项是最后一个前馈网络的写入，占 {{ share_last_ffn_trained_spread }}，"
    "其余各项在任何种子上都不超过 {{ share_other_max_trained }}",
    en="After training (held-out accuracy {{ stack_accuracy_spread }}), the embedding accounts for only "
    "{{ share_x0_trained_spread }}: the final stream is almost all writes. The largest is the last FFN's, "
    "{{ share_last_ffn_trained_spread }}; no other term exceeds {{ share_other_max_trained }} in any seed",
    evidence=f"accuracy min {acc.low:.1f}, embedding max {emb['trained'].high:.3f}, "
    f"last FFN min {last_ffn.low:.3f} vs other max {other_max:.3f}",
    every=("term", "seed"),
)
alt_shares = publish.claim(
    "alt_shares",
    emb["init"].low > 0.7 and emb["trained"].high < 0.2,
    zh=f"最终残差流中嵌入 x₀ 和每个子层写入所占的份额（{len(STREAM_SEEDS)} 个种子的中位数与范围）。"
    "初始化时几乎全是嵌入；训练后几乎全是写入，最后一个前馈网络的最多。",
    en=f"The share of the final stream held by the embedding x₀ and by the sublayers' writes (median and "
    f"range over {len(STREAM_SEEDS)} seeds). At initialization it is almost all embedding; after "
    "training almost all writes, the last FFN's the largest.",
)
publish.figure("stream-shares", lambda tr: shares_figure(shares, labels, tr), alt=alt_shares)

# %% [markdown] lang="zh"
# ## GPT-2 的初始化：输出投影乘以 $1/\sqrt{N}$
#
# 用本章的 Pre-LN 编码器层（$d_\text{model} = 32$，4 个头，$d_\text{ff} = 128$，PyTorch 默认初始化）搭 1 到 48 层的堆叠，
# 也就是 $N = 2$ 到 96 个残差层，停在初始化；输入 $x_0$ 是 16 个序列、每个 16 个词元的标准正态随机向量。
# 每个深度 5 个种子，比较不缩放与把每个输出投影（$W_O$、$W_2$）乘以 $1/\sqrt{N}$：同一个种子下两者的权重和输入相同。
# 记录每个残差层之后残差流的 RMS 与输入之比，以及每次写入的 $\mathrm{RMS}(w_k)^2 / \mathrm{RMS}(x_0)^2$。

# %% [markdown] lang="en"
# ## GPT-2's initialization: output projections times $1/\sqrt{N}$
#
# Stacks of 1 to 48 of this chapter's Pre-LN encoder layers ($d_\text{model} = 32$, 4 heads,
# $d_\text{ff} = 128$, PyTorch's default initialization), that is $N = 2$ to 96 residual layers, at
# initialization; the input $x_0$ is 16 sequences of 16 tokens of standard normal noise. At each
# depth 5 seeds, unscaled and with every output projection ($W_O$, $W_2$) multiplied by
# $1/\sqrt{N}$: for one seed both have the same weights and the same input. We record the stream's
# RMS after every residual layer relative to the input's, and each write's
# $\mathrm{RMS}(w_k)^2 / \mathrm{RMS}(x_0)^2$.

# %%
GPT2_LAYERS = (1, 2, 4, 8, 12, 24, 48)  # 48: the depth of GPT-2's largest model
INIT_SEEDS = range(5)
depths = [2 * n for n in GPT2_LAYERS]  # N: two residual layers (attention, FFN) per layer
runs = {
    scaled: [
        [stream_growth(STACK_CFG, n, seed, scaled) for seed in INIT_SEEDS] for n in GPT2_LAYERS
    ]
    for scaled in (False, True)
}
final, predicted_median = {}, {}  # RMS(x_N) / RMS(x_0): (seeds, depths); if variances add: medians
for scaled, rows in runs.items():
    final[scaled] = np.array([[run["stream"][-1] for run in row] for row in rows]).T
    added = [[1 + sum(run["writes"]) for run in row] for row in rows]  # (depths, seeds)
    predicted_median[scaled] = np.median(np.sqrt(added), axis=1)
profile = {scaled: np.array([run["stream"] for run in rows[-1]]) for scaled, rows in runs.items()}
say("  N  不缩放  ×1/√N  （中位数）", "  N  unscaled  ×1/√N  (medians)")
for i, n in enumerate(depths):
    print(f"{n:3d}  {np.median(final[False][:, i]):.3f}  {np.median(final[True][:, i]):.3f}")

# %%
publish.setting("init_seeds", len(INIT_SEEDS), "{:d}")
publish.setting("init_n_min", depths[0], "{:d}")
publish.setting("init_n_max", depths[-1], "{:d}")
publish.setting("init_layers_max", GPT2_LAYERS[-1], "{:d}")
publish.setting("gpt2_std", 0.02, "{:g}")  # the N(0, 0.02) of GPT-2's reimplementations
shallow = publish.spread("rms_unscaled_shallow", final[False][:, 0], INIT_SEEDS, "{:.2f}")
deep = publish.spread("rms_unscaled_deep", final[False][:, -1], INIT_SEEDS, "{:.2f}")
per_layer = (final[False] ** 2 - 1) / np.array(depths)  # c: the variance one residual layer adds
c_shallow = publish.spread("added_shallow", per_layer[:, 0], INIT_SEEDS, "{:.3f}")
c_deep = publish.spread("added_deep", per_layer[:, -1], INIT_SEEDS, "{:.3f}")
off = np.abs(np.median(final[False], 0) / predicted_median[False] - 1)  # per depth
publish.number("predicted_off_max", 100 * off.max(), "{:.1f}%", seeds=INIT_SEEDS)
low, high = final[True].min(), final[True].max()
publish.number("rms_scaled_min", low, "{:.2f}", seeds=INIT_SEEDS)
publish.number("rms_scaled_max", high, "{:.2f}", seeds=INIT_SEEDS)
publish.claim(
    "unscaled_grows",
    deep.low > 2 * shallow.high,
    zh="不缩放时，残差流随深度增长：$N$ = {{ init_n_min }} 时它的 RMS 是输入的 {{ rms_unscaled_shallow_spread }} 倍，"
    "$N$ = {{ init_n_max }} 时是 {{ rms_unscaled_deep_spread }} 倍",
    en="Unscaled, the stream grows with depth: its RMS is {{ rms_unscaled_shallow_spread }} times the "
    "input's after $N$ = {{ init_n_min }} residual layers and {{ rms_unscaled_deep_spread }} times after "
    "$N$ = {{ init_n_max }}",
    evidence=f"deepest lowest {deep.low:.3f} vs twice the shallowest highest {2 * shallow.high:.3f}",
)
publish.claim(
    "variances_add",
    off.max() < 0.03,
    zh="各次写入的方差确实相加：在每个深度上，$\\mathrm{RMS}(x_N)/\\mathrm{RMS}(x_0)$ 的种子中位数与独立写入给出的 "
    "$\\sqrt{1 + \\sum_k \\mathrm{RMS}(w_k)^2/\\mathrm{RMS}(x_0)^2}$（同样取中位数）相差不到 3%，最多 {{ predicted_off_max }}",
    en="The writes' variances do add: at every depth, the median over seeds of "
    "$\\mathrm{RMS}(x_N)/\\mathrm{RMS}(x_0)$ is within 3% of what independent writes give, "
    "$\\sqrt{1 + \\sum_k \\mathrm{RMS}(w_k)^2/\\mathrm{RMS}(x_0)^2}$ (its median too), at most "
    "{{ predicted_off_max }} off",
    evidence=f"largest gap between the medians: {off.max():.4f} (< 0.03)",
    every="depth",
)
publish.claim(
    "variance_linear_in_n",
    1 < c_deep.median / c_shallow.median < 3,
    zh="所以方差随 $N$ 近似线性增长，RMS 近似按 $\\sqrt{1 + cN}$ 增长：每个残差层加上的方差 "
    "$c = (\\mathrm{RMS}(x_N)^2/\\mathrm{RMS}(x_0)^2 - 1)/N$ 在 $N$ = {{ init_n_min }} 时为 {{ added_shallow_spread }}，"
    "在 $N$ = {{ init_n_max }} 时为 {{ added_deep_spread }}。它随深度略有变大，和第 4 章里写入随深度变大一样，"
    "但 $N$ 从 {{ init_n_min }} 增大到 {{ init_n_max }} 时，$c$ 的中位数变化不到 3 倍",
    en="So the variance grows about linearly in $N$, and the RMS about like $\\sqrt{1 + cN}$: the "
    "variance one residual layer adds, $c = (\\mathrm{RMS}(x_N)^2/\\mathrm{RMS}(x_0)^2 - 1)/N$, is "
    "{{ added_shallow_spread }} at $N$ = {{ init_n_min }} and {{ added_deep_spread }} at $N$ = "
    "{{ init_n_max }}. It rises a little with depth, as the writes did in chapter 4, but while $N$ "
    "grows from {{ init_n_min }} to {{ init_n_max }} the median $c$ changes less than threefold",
    evidence=f"median c {c_shallow.median:.4f} at N=2, {c_deep.median:.4f} at N=96 "
    f"(ratio {c_deep.median / c_shallow.median:.2f}, within 1-3)",
)
publish.claim(
    "scaled_bounded",
    low > 0.95 and high < 1.1,
    zh="把每个输出投影乘以 $1/\\sqrt{N}$ 之后，在测过的每个深度上、每个种子里，残差流的 RMS 都在输入的 "
    "{{ rms_scaled_min }} 到 {{ rms_scaled_max }} 倍之间：$N$ 次写入各占 $1/N$ 的方差，合起来与深度无关",
    en="With every output projection multiplied by $1/\\sqrt{N}$, the stream's RMS stays between "
    "{{ rms_scaled_min }} and {{ rms_scaled_max }} times the input's at every depth measured, in every "
    "seed: $N$ writes of $1/N$ of the variance each add up to the same whatever the depth",
    evidence=f"scaled RMS ratio {low:.3f}-{high:.3f} over every depth and seed (within 0.95-1.1)",
    every=("depth", "seed"),
)
alt_init = publish.claim(
    "alt_gpt2_init",
    deep.low > 2 * shallow.high and low > 0.95 and high < 1.1,
    zh="两幅折线图。(a) 初始化时 N 个残差层之后残差流的 RMS 与输入之比，N 从 {{ init_n_min }} 到 "
    "{{ init_n_max }}：不缩放时升到约 {{ rms_unscaled_deep }}，输出投影乘以 1/√N 时停在 1 附近。"
    "(b) {{ init_n_max }} 个残差层的堆叠里逐层的 RMS 平方：不缩放时逐层上升，缩放后几乎是平的。",
    en="Two line charts. (a) The stream's RMS after N residual layers relative to its input, at "
    "initialization, for N from {{ init_n_min }} to {{ init_n_max }}: unscaled it rises to about "
    "{{ rms_unscaled_deep }}; with the output projections multiplied by 1/√N it stays close to 1. "
    "(b) The squared RMS along the stack of {{ init_n_max }}, layer by layer: it rises unscaled "
    "and is nearly flat scaled.",
)
publish.figure(
    "gpt2-init",
    lambda tr: gpt2_init_figure(depths, final, predicted_median, profile, tr),
    alt=alt_init,
)

# %% [markdown] lang="zh"
# ## 并行块：注意力与前馈网络读同一个输入
#
# 上一节 5 个种子里最深的堆叠：48 个 Pre-LN 编码器层（串行），停在初始化，输入是同一个随机的 $x_0$。
# 它的并行孪生（`parallel_twin`）用同样的注意力、前馈网络和第一个层归一化，算 $x + \mathrm{MHA}(\mathrm{LN}(x)) + \mathrm{FFN}(\mathrm{LN}(x))$。
# 在每一层 $l$，把串行堆叠的残差流 $x_{l-1}$ 同时喂给两者，比较这一层写入的东西：
# $\mathrm{RMS}(w^\text{串行}_l - w^\text{并行}_l)/\mathrm{RMS}(w^\text{串行}_l)$，以及注意力的写入相对残差流的大小
# $\mathrm{RMS}(\mathrm{MHA}_l)/\mathrm{RMS}(x_{l-1})$。再把两个堆叠各自从头跑到底，记录残差流的 RMS 与输入之比。

# %% [markdown] lang="en"
# ## The parallel block: attention and FFN read the same input
#
# The deepest stacks of the previous section's 5 seeds: 48 serial Pre-LN encoder layers at
# initialization, on the same random input $x_0$. Each one's parallel twin (`parallel_twin`) uses
# the same attention, FFN and first LayerNorm to compute
# $x + \mathrm{MHA}(\mathrm{LN}(x)) + \mathrm{FFN}(\mathrm{LN}(x))$. At each layer $l$ both get the
# serial stack's stream $x_{l-1}$, and we compare what the layer writes,
# $\mathrm{RMS}(w^\text{ser}_l - w^\text{par}_l)/\mathrm{RMS}(w^\text{ser}_l)$, and the size of the
# attention's write relative to the stream, $\mathrm{RMS}(\mathrm{MHA}_l)/\mathrm{RMS}(x_{l-1})$. Then each
# stack runs on its own from $x_0$ to the end, and we record its stream's RMS relative to the input's.

# %%
PARALLEL_LAYERS = GPT2_LAYERS[-1]
pairs = [serial_vs_parallel(STACK_CFG, PARALLEL_LAYERS, seed) for seed in INIT_SEEDS]
difference = np.array([run["difference"] for run in pairs])  # (seeds, layers)
attention = np.array([run["attention"] for run in pairs])  # (seeds, layers)
along = {kind: np.array([run[kind] for run in pairs]) for kind in ("serial", "parallel")}
say("  层  写入之差  注意力/残差流  （中位数）", "layer  write gap  MHA/stream  (medians)")
for layer in (1, 2, 4, 8, 16, 32, 48):
    gap, moved = np.median(difference[:, layer - 1]), np.median(attention[:, layer - 1])
    print(f"{layer:3d}  {gap:.3f}  {moved:.3f}")

# %%
publish.setting("parallel_layers", PARALLEL_LAYERS, "{:d}")
first = publish.spread("par_diff_first", difference[:, 0], INIT_SEEDS, "{:.0%}")
last = publish.spread("par_diff_last", difference[:, -1], INIT_SEEDS, "{:.0%}")
publish.number("par_diff_max", difference.max(), "{:.0%}", seeds=INIT_SEEDS)
publish.spread("par_attn_first", attention[:, 0], INIT_SEEDS, "{:.2f}")
publish.number("par_attn_max", attention.max(), "{:.2f}", seeds=INIT_SEEDS)
ratio = float(np.median(difference / attention))  # over every layer and seed
publish.number("par_diff_per_attn", ratio, "{:.2f}", seeds=INIT_SEEDS)
growth_gap = np.abs(along["parallel"] / along["serial"] - 1)  # (seeds, layers + 1)
publish.number("par_growth_gap_max", growth_gap.max(), "{:.1%}", seeds=INIT_SEEDS)
rms_serial = publish.spread("par_rms_serial", along["serial"][:, -1], INIT_SEEDS, "{:.2f}")
rms_parallel = publish.spread("par_rms_parallel", along["parallel"][:, -1], INIT_SEEDS, "{:.2f}")
final_gap = publish.spread("par_final_gap", [run["final"] for run in pairs], INIT_SEEDS, "{:.0%}")
publish.claim(
    "parallel_write_close",
    difference.max() < 0.2 and last.high < first.low,
    zh="初始化时，权重相同，同一个输入上并行层的写入与串行层的相差不大：第 1 层相差串行写入的 {{ par_diff_first_spread }}，"
    "第 {{ parallel_layers }} 层相差 {{ par_diff_last_spread }}，在每一层、每个种子里都不超过 {{ par_diff_max }}；"
    "在每个种子里，最后一层的差都比第 1 层的小",
    en="At initialization, with the same weights and on the same input, the parallel layer writes "
    "nearly what the serial one writes: the difference is {{ par_diff_first_spread }} of the serial "
    "write at the first layer and {{ par_diff_last_spread }} at layer {{ parallel_layers }}, at most "
    "{{ par_diff_max }} at every layer and in every seed; in every seed the last layer's difference is "
    "smaller than the first's",
    evidence=f"largest difference {difference.max():.3f} (< 0.2); last layer's highest "
    f"{last.high:.3f} < first layer's lowest {first.low:.3f}",
    every=("layer", "seed"),
)
publish.claim(
    "parallel_diff_is_attention",
    0.3 < ratio < 1.0 and attention.max() < 0.3,
    zh="差别只来自串行的前馈网络多读到的那次注意力写入，而初始化时注意力写得很少：第 1 层它的 RMS 是残差流的 "
    "{{ par_attn_first_spread }}，在每一层、每个种子里都不超过 {{ par_attn_max }}。写入之差通常（所有层和种子的中位数）"
    "是这个比值的 {{ par_diff_per_attn }} 倍",
    en="The difference comes only from the attention write that the serial FFN reads and the "
    "parallel one does not, and at initialization the attention writes little: at the first layer "
    "its RMS is {{ par_attn_first_spread }} of the stream's, at most {{ par_attn_max }} at every "
    "layer and in every seed. Typically (the median over layers and seeds) the write's difference is "
    "{{ par_diff_per_attn }} times that ratio",
    evidence=f"median difference / attention ratio {ratio:.3f} (within 0.3-1.0); largest attention "
    f"ratio {attention.max():.3f} (< 0.3)",
    every=("layer", "seed"),
)
publish.claim(
    "parallel_same_growth",
    growth_gap.max() < 0.06,
    zh="两种堆叠的残差流增长得一样：{{ parallel_layers }} 层之后，串行的 RMS 是输入的 {{ par_rms_serial_spread }} 倍，"
    "并行的是 {{ par_rms_parallel_spread }} 倍；在每个深度、每个种子里，两者相差都在 6% 以内，最多 {{ par_growth_gap_max }}",
    en="Both stacks' streams grow alike: after {{ parallel_layers }} layers the RMS is "
    "{{ par_rms_serial_spread }} times the input's serial and {{ par_rms_parallel_spread }} times "
    "parallel; at every depth and in every seed the two are within 6% of each other, at most "
    "{{ par_growth_gap_max }} apart",
    evidence=f"largest relative gap between the streams' RMS {growth_gap.max():.4f} (< 0.06)",
    every=("depth", "seed"),
)
publish.claim(
    "parallel_final_gap",
    final_gap.low > 0.05 and final_gap.high < 0.25,
    zh="但两者不是同一个函数：各层的差累积下来，{{ parallel_layers }} 层之后两个堆叠的输出之差，是串行堆叠写入之和 "
    "$x_L - x_0$ 的 {{ par_final_gap_spread }}（按 RMS 算）",
    en="Yet they are not the same function: the layers' differences accumulate, and after "
    "{{ parallel_layers }} layers the two stacks' outputs differ by {{ par_final_gap_spread }} of "
    "the serial stack's summed writes $x_L - x_0$ (in RMS)",
    evidence=f"final gap {final_gap.low:.3f}-{final_gap.high:.3f} (within 0.05-0.25)",
)
alt_parallel = publish.claim(
    "alt_parallel",
    difference.max() < 0.2 and growth_gap.max() < 0.06,
    zh=f"两幅折线图，{PARALLEL_LAYERS} 层的堆叠，横轴为层。(a) 同一输入上并行层与串行层写入之差占串行写入的比例，"
    "从约 {{ par_diff_first }} 降到约 {{ par_diff_last }}，位于注意力写入与残差流的 RMS 之比（灰色虚线）之下。"
    "(b) 残差流的 RMS 与输入之比：串行与并行的两条线几乎重合，升到约 {{ par_rms_serial }}。",
    en=f"Two line charts over the {PARALLEL_LAYERS} layers of a stack. (a) How much the parallel "
    "layer's write differs from the serial one's on the same input, relative to it: from about "
    "{{ par_diff_first }} down to about {{ par_diff_last }}, below the ratio of the attention write's "
    "RMS to the stream's (grey, dashed). (b) The stream's RMS relative to the input's: the serial "
    "and parallel lines nearly coincide, rising to about {{ par_rms_serial }}.",
)
publish.figure(
    "parallel-block",
    lambda tr: parallel_figure(difference, attention, along, tr),
    alt=alt_parallel,
)
