"""Figures of chapter 03-gradient-flow. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import torch

from resdoc.style import GREY, Translator, kind_style, median_band
from resdoc.style import panels as arrange


def median_and_range(ax, x, rows: np.ndarray, color: str, label: str, log=False) -> None:
    """The median over seeds (the rows' first axis is seeds) as a line, min–max as a band."""
    if log:
        ax.set_yscale("log")
    median_band(ax, x, rows, color, "o-", ms=2.5, label=label)


def gradient_profile_figure(panels: dict[str, dict[str, np.ndarray]], tr: Translator) -> plt.Figure:
    r"""One panel per initialization: $\lVert \partial \ell/\partial x_l \rVert$ over that at the
    output, log scale; ``panels[init][kind]`` has one row per seed."""
    titles = {
        "default": tr("PyTorch 默认初始化", "PyTorch default init"),
        "he": tr("He 初始化", "He init"),
    }
    fig, axes = arrange(tr, len(panels), height=3.5, narrow_height=2.7, sharey=True)
    for ax, (init, profiles) in zip(axes, panels.items(), strict=True):
        for kind, rows in profiles.items():
            layers = np.arange(rows.shape[1])
            median_and_range(ax, layers, rows, **kind_style(tr, kind), log=True)
        ax.axhline(1.0, color=GREY, lw=1, ls="--")
        ax.set(xlabel=tr("层 l（0 = 输入）", "layer l (0 = input)"), title=titles[init])
        ax.legend(loc="best")
    for ax in axes if tr.narrow else axes[:1]:  # stacked panels each need their y label
        ax.set_ylabel(tr("‖∂ℓ/∂xₗ‖ ÷ 输出处的值", "‖∂ℓ/∂xₗ‖ ÷ its value at the output"))
    return fig


def shattered_figure(
    examples: dict[str, tuple[torch.Tensor, torch.Tensor]],
    depths,
    correlations: dict[str, np.ndarray],
    depth_shown: int,
    tr: Translator,
) -> plt.Figure:
    r"""Left: $\mathrm{d}f/\mathrm{d}x$ against $x$ at one depth, standardized and offset.
    Right: correlation of gradients at neighbouring inputs against depth (median, range over seeds;
    ``correlations[kind]`` has one row per depth, one column per seed)."""
    fig, (left, right) = arrange(tr, 2, height=4.0, narrow_height=3.0)
    for offset, (kind, (x, grads)) in enumerate(examples.items()):
        g = (grads - grads.mean()) / grads.std()
        left.plot(x, g - 5 * offset, lw=1, **kind_style(tr, kind))
    left.set(
        xlabel=tr("输入 x", "input x"),
        ylabel=tr("df/dx（标准化，错开）", "df/dx (standardized, offset)"),
        title=tr(f"{depth_shown} 层时的输入梯度", f"input gradient with {depth_shown} layers"),
        yticks=[],
    )
    for kind, rows in correlations.items():
        median_and_range(right, depths, rows.T, **kind_style(tr, kind))
    right.axhline(0.0, color=GREY, lw=1, ls=":")
    ticks = [d for d in (2, 4, 8, 16, 32, 50, 100) if depths[0] <= d <= depths[-1]]
    right.set(
        xscale="log",
        xticks=ticks,
        xticklabels=[str(d) for d in ticks],
        xlabel=tr("深度 L（层数，对数坐标）", "depth L (layers, log scale)"),
        ylabel=tr("相邻输入的梯度相关系数", "correlation of neighbouring gradients"),
        title=tr("梯度破碎", "shattered gradients"),
        ylim=(-0.3, 1.02),
    )
    right.minorticks_off()
    fig.legend(
        *left.get_legend_handles_labels(), loc="outside lower center", ncols=1 if tr.narrow else 2
    )
    return fig
