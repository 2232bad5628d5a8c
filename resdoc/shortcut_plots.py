"""Figures of chapter 01-shortcut. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from resdoc.shortcut import IdentityFit
from resdoc.style import (
    ACCENT,
    GREY,
    PAPER,
    PLAIN,
    RESIDUAL,
    Translator,
    kind_style,
    median_band,
    panels,
)


def _box(ax, x, y, text, colour, size, w=1.5, h=0.5):
    ax.add_patch(
        FancyBboxPatch(
            (x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.05", fc=PAPER, ec=colour, lw=1.6
        )
    )
    ax.text(x, y, text, ha="center", va="center", fontsize=size)


def _arrow(ax, start, end, colour, **kwargs):
    ax.add_patch(
        FancyArrowPatch(
            start, end, arrowstyle="-|>", mutation_scale=12, color=colour, lw=1.5, **kwargs
        )
    )


def _draw_block(ax, residual: bool, tr: Translator) -> None:
    colour = RESIDUAL if residual else PLAIN
    size, maths = (8, 10) if tr.narrow else (10, 12)  # narrow: two blocks in a phone's width
    _arrow(ax, (0, 0), (0, 0.75), GREY)
    ax.text(0, -0.2, "$x$", ha="center", va="top", fontsize=maths)
    _box(ax, 0, 1.0, tr("线性层 W₁", "linear W₁"), colour, size)
    _arrow(ax, (0, 1.25), (0, 1.55), GREY)
    _box(ax, 0, 1.8, "ReLU", colour, size)
    _arrow(ax, (0, 2.05), (0, 2.35), GREY)
    _box(ax, 0, 2.6, tr("线性层 W₂", "linear W₂"), colour, size)
    if residual:
        _arrow(ax, (0, 2.85), (0, 3.27), GREY)
        ax.add_patch(plt.Circle((0, 3.45), 0.18, fc=PAPER, ec=ACCENT, lw=1.6))
        ax.text(0, 3.45, "+", ha="center", va="center", fontsize=13, color=ACCENT)
        # the shortcut: from x around the layers into the sum
        ax.plot([0, 1.2, 1.2], [0.4, 0.4, 3.45], color=ACCENT, lw=1.5)
        _arrow(ax, (1.2, 3.45), (0.18, 3.45), ACCENT)
        ax.text(
            1.3,
            1.8,
            tr("恒等捷径\nx", "identity\nshortcut x"),
            color=ACCENT,
            ha="left",
            va="center",
            fontsize=size,
        )
        ax.text(-0.9, 1.8, r"$\mathcal{F}(x)$", ha="right", va="center", fontsize=maths)
        _arrow(ax, (0, 3.63), (0, 4.05), GREY)
        ax.text(0, 4.1, r"$y = \mathcal{F}(x) + x$", ha="center", va="bottom", fontsize=maths)
        ax.set_title(tr("残差块", "residual block"))
    else:
        _arrow(ax, (0, 2.85), (0, 4.05), GREY)
        ax.text(0, 4.1, r"$y = \mathcal{H}(x)$", ha="center", va="bottom", fontsize=maths)
        ax.set_title(tr("普通块", "plain block"))
    ax.set(xlim=(-2.2, 2.6), ylim=(-0.6, 4.7), aspect="equal")
    ax.axis("off")


def block_diagram(tr: Translator) -> plt.Figure:
    r"""A plain block $y = \mathcal{H}(x)$ beside a residual block $y = \mathcal{F}(x) + x$."""
    fig, axes = plt.subplots(
        1, 2, figsize=(tr.width, 2.6 if tr.narrow else 4.2), layout="constrained"
    )
    for ax, residual in zip(axes, (False, True), strict=True):
        _draw_block(ax, residual, tr)
    return fig


def identity_fit_figure(fits: dict[int, IdentityFit], tr: Translator) -> plt.Figure:
    r"""The loss of learning $\mathcal{H}(x) = x$ per training step, one panel per depth, log
    scale: the median over seeds as a line, their range as a band."""
    fig, axes = panels(tr, len(fits), height=3.4, narrow_height=2.6, sharey=True)
    for ax, (depth, fit) in zip(axes, fits.items(), strict=True):
        for kind, runs in fit.losses.items():
            style = kind_style(tr, kind)
            ax.set_yscale("log")
            median_band(ax, fit.steps, runs, style["color"], label=style["label"])  # (seed, step)
        ax.set(
            xlabel=tr("训练步数", "training step"),
            title=tr(f"{depth} 个块", f"{depth} block" + ("s" if depth > 1 else "")),
        )
    seeds = len(next(iter(fits.values())).losses["plain"])
    for ax in axes if tr.narrow else axes[:1]:  # stacked panels each need their y label
        ax.set_ylabel(tr("均方误差：(y − x)² 的平均", "MSE: mean of (y − x)²"))
    axes[0].legend(
        loc="best", title=tr(f"中位数与范围，{seeds} 个种子", f"median and range, {seeds} seeds")
    )
    return fig
