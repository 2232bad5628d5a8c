"""Figures of chapter 04-add-norm. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from resdoc.style import ACCENT, GREY, PLAIN, RESIDUAL, Translator

COLOURS = {"post": PLAIN, "post_warmup": ACCENT, "pre": RESIDUAL}
MARKERS = {
    "post": "o-",
    "post_warmup": "s-",
    "pre": "^-",
}  # distinct shapes: curves overlap at 100 %
MARKER_SIZE = {"post": 5, "post_warmup": 8, "pre": 5}


def setting_label(tr: Translator, name: str) -> str:
    return {
        "post": tr("Post-LN，无预热", "Post-LN, no warm-up"),
        "post_warmup": tr("Post-LN，有预热", "Post-LN, warm-up"),
        "pre": tr("Pre-LN，无预热", "Pre-LN, no warm-up"),
    }[name]


def init_grad_figure(norms: dict[int, dict[str, list[float]]], tr: Translator) -> plt.Figure:
    """Left: per-layer $\\lVert \\partial L/\\partial W_2 \\rVert$ at the largest depth; right: the last
    block's norm against depth, with a $1/\\sqrt{L}$ guide."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.4, 3.4), layout="constrained")
    depths = sorted(norms)
    deepest = depths[-1]
    names = {"post": "Post-LN", "pre": "Pre-LN"}
    colours = {"post": PLAIN, "pre": RESIDUAL}
    for kind in ("post", "pre"):
        values = norms[deepest][kind]
        left.plot(
            np.arange(1, deepest + 1), values, "o-", ms=3, color=colours[kind], label=names[kind]
        )
        right.semilogx(
            depths,
            [norms[d][kind][-1] for d in depths],
            "o-",
            ms=4,
            color=colours[kind],
            label=names[kind],
        )
    guide = norms[depths[0]]["pre"][-1] * np.sqrt(depths[0] / np.array(depths))
    right.semilogx(depths, guide, "--", lw=1, color=GREY, label=tr("∝ 1/√L", "∝ 1/√L"))
    left.set(
        xlabel=tr("层 l（1 = 最靠近输入）", "layer l (1 = nearest the input)"),
        ylabel=tr("‖∂L/∂W₂‖（前馈第二层）", "‖∂L/∂W₂‖ (second FFN layer)"),
        title=tr(f"{deepest} 层，初始化时", f"{deepest} layers, at initialisation"),
        ylim=(0, None),
    )
    right.set(
        xlabel=tr("层数 L", "number of layers L"),
        ylabel=tr("最后一层的 ‖∂L/∂W₂‖", "last layer's ‖∂L/∂W₂‖"),
        title=tr("最后一层的梯度随层数的变化", "last layer's gradient against depth"),
        ylim=(0, None),
    )
    right.set_xticks(depths, [str(d) for d in depths])
    right.minorticks_off()
    left.legend(loc="best")
    right.legend(loc="best")
    return fig


def warmup_figure(lrs, runs: dict[str, list[dict]], shown: int, tr: Translator) -> plt.Figure:
    """Left: training loss per step at ``lrs[shown]``; right: held-out accuracy at the end per lr."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.4, 3.7), layout="constrained")
    for name, per_lr in runs.items():
        loss = np.array(per_lr[shown]["loss"])
        smooth = np.convolve(loss, np.ones(5) / 5, mode="valid")  # 5-step moving average
        left.plot(
            np.arange(len(smooth)) + 5, smooth, color=COLOURS[name], label=setting_label(tr, name)
        )
        right.semilogx(
            lrs,
            [100 * run["accuracy"][-1] for run in per_lr],
            MARKERS[name],
            ms=MARKER_SIZE[name],
            color=COLOURS[name],
            label=setting_label(tr, name),
        )
    left.axhline(np.log(10), ls=":", lw=1.2, color=GREY)
    left.text(
        len(loss),
        np.log(10),
        tr("随机猜测 ln 10", "chance, ln 10"),
        ha="right",
        va="bottom",
        color=GREY,
    )
    left.set(
        xlabel=tr("训练步数", "training step"),
        ylabel=tr("训练损失（5 步平均）", "training loss (5-step mean)"),
        title=tr(f"学习率 {lrs[shown]:g}", f"learning rate {lrs[shown]:g}"),
        ylim=(0, None),
    )
    right.axhline(10, ls=":", lw=1.2, color=GREY)
    right.set(
        xlabel=tr("峰值学习率", "peak learning rate"),
        ylabel=tr("留出批次的准确率（%）", "held-out accuracy (%)"),
        title=tr("训练结束时", "at the end of training"),
        ylim=(0, 105),
    )
    right.set_xticks(lrs, [f"{lr:g}" for lr in lrs])
    right.minorticks_off()
    fig.legend(*left.get_legend_handles_labels(), loc="outside lower center", ncols=3)
    return fig
