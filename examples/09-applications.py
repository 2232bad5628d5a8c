r"""AI 应用场景 · Where residual connections are used.

A deep MLP without normalisation on scikit-learn's digits, trained four ways at one learning
rate: no shortcut, a plain shortcut, ReZero and the Fixup rule. Run it by hand with
``python examples/09-applications.py``; the docs build runs it for you.
"""

# %% [markdown] lang="zh"
# # AI 应用场景：让残差堆叠变深
#
# 64 个没有归一化的残差块（宽 32，He 初始化），在 `load_digits` 上用同一个 SGD 学习率训练 10 轮。
# 四种做法只在“块的分支如何接到捷径上”不同。

# %% [markdown] lang="en"
# # Where residual connections are used: making residual stacks deep
#
# 64 residual blocks without normalisation (width 32, He initialisation), trained on
# `load_digits` for 10 epochs at one SGD learning rate. The four runs differ only in how each
# block's branch joins the shortcut.

# %%
from resdoc import publish
from resdoc.applications import SCHEMES, deepnorm_constants, train_scheme
from resdoc.applications_plots import first_nan, training_figure

DEPTH, LR, EPOCHS = 64, 0.01, 10
publish.number("depth", DEPTH, "{:d}")
publish.number("lr", LR, "{:g}")
publish.number("epochs", EPOCHS, "{:d}")
runs = {scheme: train_scheme(scheme, depth=DEPTH, lr=LR, epochs=EPOCHS) for scheme in SCHEMES}
for scheme, run in runs.items():
    nan = first_nan(run.loss)
    publish.number(f"init_logit_rms_{scheme}", run.init_logit_rms, "{:.2g}")
    publish.number(f"test_error_{scheme}", 100 * run.test_error, "{:.1f}")
    publish.text(f"final_loss_{scheme}", "NaN" if nan is not None else f"{run.loss[-1]:.3g}")
    publish.text(f"nan_step_{scheme}", "—" if nan is None else str(nan))
    print(
        f"{scheme:9s} init logits {run.init_logit_rms:9.3g}  final loss {run.loss[-1]:.3g}  "
        f"test error {run.test_error:.3f}  NaN from step {nan}"
    )
publish.number("steps", len(runs["rezero"].loss), "{:d}")
publish.figure(
    "deep-training",
    lambda tr: training_figure(runs, DEPTH, tr),
    alt=(
        f"{DEPTH} 个无归一化块的训练损失：普通残差第一步后即为 NaN，无捷径的网络几乎不动，ReZero 和 Fixup 规则正常下降。",
        f"Training loss of {DEPTH} un-normalised blocks: the plain residual stack is NaN after "
        "its first step, the stack without shortcuts barely moves, ReZero and the Fixup rule train.",
    ),
)

# %% [markdown] lang="zh"
# ## DeepNorm 的常数
#
# DeepNorm 放大捷径、缩小分支的初始化；对 $N$ 层的纯编码器（或纯解码器）：

# %% [markdown] lang="en"
# ## DeepNorm's constants
#
# DeepNorm up-weights the shortcut and down-scales the branch initialisation; for an $N$-layer
# encoder-only (or decoder-only) stack:

# %%
for n in (12, 1000):
    constants = deepnorm_constants(n)
    publish.number(f"deepnorm_alpha_{n}", constants["alpha"], "{:.2f}")
    publish.number(f"deepnorm_beta_{n}", constants["beta"], "{:.3f}")
    print(f"N = {n:5d}: alpha = {constants['alpha']:.2f}, beta = {constants['beta']:.3f}")
