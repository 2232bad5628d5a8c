"""Figures of chapter 06-degradation. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from resdoc.degradation import Run
from resdoc.style import ACCENT, PLAIN, RESIDUAL, Translator

COLOURS = {"plain": PLAIN, "residual": RESIDUAL, "scaled": ACCENT}


def kind_label(tr: Translator, kind: str) -> str:
    return {
        "plain": tr("无残差（plain）", "plain"),
        "residual": tr("恒等捷径 x + F(x)", "identity shortcut x + F(x)"),
        "scaled": tr("缩放捷径 0.5·x + F(x)", "scaled shortcut 0.5·x + F(x)"),
    }[kind]


def error_by_depth_figure(runs: list[Run], tr: Translator) -> plt.Figure:
    """Final training error (left) and training loss (right, log scale) against depth."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.4, 3.4), layout="constrained")
    for kind in dict.fromkeys(r.kind for r in runs):
        mine = [r for r in runs if r.kind == kind]
        depths = [r.depth for r in mine]
        style = dict(color=COLOURS[kind], marker="o", ms=4, label=kind_label(tr, kind))
        left.plot(depths, [100 * r.train_error for r in mine], **style)
        right.semilogy(depths, [r.train_loss for r in mine], **style)
    left.set(
        xlabel=tr("深度（块数）", "depth (blocks)"),
        ylabel=tr("训练误差（%）", "training error (%)"),
        title=tr("训练集上的错误率", "error on the training set"),
    )
    right.set(
        xlabel=tr("深度（块数）", "depth (blocks)"),
        ylabel=tr("训练损失", "training loss"),
        title=tr("训练集上的交叉熵", "cross-entropy on the training set"),
    )
    left.legend(loc="upper left")
    return fig


def curves_figure(runs: list[Run], tr: Translator) -> plt.Figure:
    """Training loss per epoch, one panel per kind, one line per depth (darker = deeper)."""
    kinds = list(dict.fromkeys(r.kind for r in runs))
    fig, axes = plt.subplots(
        1, len(kinds), figsize=(3.3 * len(kinds), 3.3), layout="constrained", sharey=True
    )
    for ax, kind in zip(np.atleast_1d(axes), kinds, strict=True):
        mine = [r for r in runs if r.kind == kind]
        for i, run in enumerate(mine):
            epochs = np.arange(1, len(run.history) + 1)
            ax.semilogy(
                epochs,
                run.history,
                color=COLOURS[kind],
                alpha=0.3 + 0.7 * i / max(1, len(mine) - 1),
                label=tr(f"{run.depth} 块", f"{run.depth} blocks"),
            )
        ax.set(title=kind_label(tr, kind), xlabel=tr("轮次（epoch）", "epoch"))
        ax.legend(loc="lower left")
    np.atleast_1d(axes)[0].set_ylabel(tr("训练损失", "training loss"))
    return fig
