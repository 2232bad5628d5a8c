"""Figures of chapter 03-gradient-flow. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import torch

from resdoc.style import GREY, KINDS, Translator, kind_style, median_band
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


def spectrum_figure(
    depths,
    mean_square: dict[str, np.ndarray],
    predicted: dict[str, list[float]],
    spectra: dict[str, np.ndarray],
    depth_shown: int,
    tr: Translator,
) -> plt.Figure:
    r"""(a) The mean squared singular value of $\partial x_L/\partial x_0$ against depth
    (``mean_square[kind]``: (seeds, depths)), mean-field theory's $\chi^L$ dashed
    (``predicted[kind]``, per depth). (b) The sorted singular values at ``depth_shown``, over the
    largest (``spectra[kind]``: (seeds, width)); the dotted line is float64's resolution."""
    fig, (a, b) = arrange(tr, 2, height=3.2, narrow_height=2.7)
    for kind, rows in mean_square.items():
        median_and_range(a, depths, rows, **kind_style(tr, kind), log=True)
        a.plot(depths, predicted[kind], "--", lw=1, color=GREY)
    a.plot([], [], "--", lw=1, color=GREY, label=tr("平均场预测 χᴸ", "mean field: χᴸ"))
    a.set(  # a linear depth axis: an exponential in L is a straight line
        xticks=list(depths),
        xlabel=tr("块数 L", "blocks L"),
        ylabel=tr("奇异值平方的均值", "mean squared singular value"),
        title=tr("雅可比矩阵的大小", "the Jacobian's size"),
    )
    a.legend(loc="upper left", fontsize=8)
    b.set_yscale("log")
    for kind, rows in spectra.items():  # colours as in (a), whose legend names them
        k = np.arange(1, rows.shape[1] + 1)
        median_band(b, k, rows / rows[:, :1], KINDS[kind][0], "-")
    resolution = rows.shape[1] * np.finfo(np.float64).eps  # below this, rounding, not signal
    b.axhline(
        resolution, color=GREY, lw=1, ls=":", label=tr("float64 的分辨率", "float64 resolution")
    )
    b.set(
        xlabel=tr("奇异值序号 k（从大到小）", "singular value k (largest first)"),
        ylabel=tr("σₖ ÷ 最大奇异值", "σₖ ÷ the largest"),
        title=tr(f"L = {depth_shown} 时的奇异值谱", f"the spectrum at L = {depth_shown}"),
        ylim=(resolution / 100, 3),
        xlim=(1, rows.shape[1]),
    )
    b.legend(loc="lower left", fontsize=8)
    return fig
