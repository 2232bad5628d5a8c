"""Figures of chapter 06-degradation. Every label comes from ``tr(zh, en)``. A line is the
median over seeds; the band or error bar spans the lowest and highest seed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from resdoc.degradation import Run
from resdoc.style import Translator, kind_style, median_band


def _by_depth(runs: list[Run], kind: str, value) -> tuple[list[int], np.ndarray]:
    """Depths of ``kind`` and, per depth, (median, min, max) of ``value(run)`` over seeds."""
    depths = sorted({r.depth for r in runs if r.kind == kind})
    stats = []
    for depth in depths:
        values = [value(r) for r in runs if r.kind == kind and r.depth == depth]
        stats.append((np.median(values), min(values), max(values)))
    return depths, np.array(stats)


def error_by_depth_figure(runs: list[Run], tr: Translator) -> plt.Figure:
    """Final training error (left) and training loss (right, log scale) against depth."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.4, 3.4), layout="constrained")
    for kind in dict.fromkeys(r.kind for r in runs):
        style = dict(marker="o", ms=4, capsize=3, **kind_style(tr, kind))
        for ax, value in ((left, lambda r: 100 * r.train_error), (right, lambda r: r.train_loss)):
            depths, s = _by_depth(runs, kind, value)
            ax.errorbar(depths, s[:, 0], yerr=[s[:, 0] - s[:, 1], s[:, 2] - s[:, 0]], **style)
    right.set_yscale("log")
    seeds = len({r.seed for r in runs})
    for ax in (left, right):
        ax.set_xticks(sorted({r.depth for r in runs}))
        ax.set_xlabel(tr("深度（块数）", "depth (blocks)"))
    left.set(
        ylabel=tr("训练误差（%）", "training error (%)"),
        title=tr(
            f"训练集上的错误率（{seeds} 个种子）", f"error on the training set ({seeds} seeds)"
        ),
    )
    right.set(
        ylabel=tr("训练损失", "training loss"),
        title=tr("训练集上的交叉熵", "cross-entropy on the training set"),
    )
    left.legend(loc="upper left")
    return fig


def curves_figure(runs: list[Run], tr: Translator) -> plt.Figure:
    """Training loss per epoch, one panel per kind, one band per depth (darker = deeper)."""
    kinds = list(dict.fromkeys(r.kind for r in runs))
    fig, axes = plt.subplots(
        1, len(kinds), figsize=(3.3 * len(kinds), 3.3), layout="constrained", sharey=True
    )
    for ax, kind in zip(np.atleast_1d(axes), kinds, strict=True):
        depths = sorted({r.depth for r in runs if r.kind == kind})
        for i, depth in enumerate(depths):
            curves = np.array([r.history for r in runs if r.kind == kind and r.depth == depth])
            epochs = np.arange(1, curves.shape[1] + 1)
            shade = 0.3 + 0.7 * i / max(1, len(depths) - 1)
            ax.set_yscale("log")
            median_band(
                ax,
                epochs,
                curves,
                kind_style(tr, kind)["color"],
                band={"alpha": 0.15, "lw": None},
                alpha=shade,
                label=tr(f"{depth} 个块", f"{depth} blocks"),
            )
        ax.set(title=kind_style(tr, kind)["label"], xlabel=tr("轮次（epoch）", "epoch"))
        ax.legend(loc="lower left")
    np.atleast_1d(axes)[0].set_ylabel(tr("训练损失", "training loss"))
    return fig


def signals_figure(profiles: dict[str, np.ndarray], tr: Translator) -> plt.Figure:
    """Per-layer std of the forward signal (left) and norm of the backward gradient (right,
    log scale), at initialization; ``profiles[kind]`` is (seeds, 2, layers)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.4, 3.4), layout="constrained")
    for kind, values in profiles.items():
        layers = np.arange(values.shape[2])
        for ax, which in ((left, 0), (right, 1)):
            series = values[:, which]
            median_band(
                ax,
                layers,
                series,
                kind_style(tr, kind)["color"],
                band={"alpha": 0.2, "lw": None},
                label=kind_style(tr, kind)["label"],
            )
    right.set_yscale("log")
    left.set_ylim(bottom=0)
    for ax in (left, right):
        ax.set_xlabel(tr("第 i 个块的输入 x_i", "input x_i of block i"))
    left.set(
        ylabel=tr("标准差", "standard deviation"),
        title=tr("前向：信号的标准差", "forward: std of the signal"),
    )
    right.set(
        ylabel=tr("‖∂ℓ/∂x_i‖", "‖∂ℓ/∂x_i‖"),
        title=tr("反向：梯度的范数", "backward: norm of the gradient"),
    )
    left.legend(loc="upper left")
    return fig
