"""Figures of chapter 03-gradient-flow. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import torch

from resdoc.style import ACCENT, GREY, PLAIN, RESIDUAL, Translator

COLOURS = {"plain": PLAIN, "residual": RESIDUAL, "residual-scaled": ACCENT}


def label(tr: Translator, kind: str) -> str:
    return {
        "plain": tr("无残差（plain）", "plain"),
        "residual": tr("有残差（residual）", "residual"),
        "residual-scaled": tr("有残差，末层 ×1/√L", "residual, last layer ×1/√L"),
    }[kind]


def gradient_profile_figure(
    panels: dict[str, dict[str, list[float]]], tr: Translator
) -> plt.Figure:
    """One panel per initialisation: $\\lVert \\partial L/\\partial x_l \\rVert$ over that at the output, log scale."""
    titles = {
        "default": tr("PyTorch 默认初始化", "PyTorch default init"),
        "he": tr("He 初始化", "He init"),
    }
    fig, axes = plt.subplots(1, len(panels), figsize=(8.4, 3.5), layout="constrained", sharey=True)
    for ax, (init, profiles) in zip(axes, panels.items(), strict=True):
        for kind, grads in profiles.items():
            ratio = np.array(grads) / grads[-1]
            ax.semilogy(
                np.arange(len(grads)),
                ratio,
                "o-",
                ms=2.5,
                color=COLOURS[kind],
                label=label(tr, kind),
            )
        ax.axhline(1.0, color=GREY, lw=1, ls="--")
        ax.set(xlabel=tr("层 l（0 = 输入）", "layer l (0 = input)"), title=titles[init])
        ax.legend(loc="best")
    axes[0].set_ylabel(tr("‖∂L/∂xₗ‖ ÷ 输出处的值", "‖∂L/∂xₗ‖ ÷ its value at the output"))
    return fig


def shattered_figure(
    examples: dict[str, tuple[torch.Tensor, torch.Tensor]],
    depths,
    correlations: dict[str, list[list[float]]],
    depth_shown: int,
    tr: Translator,
) -> plt.Figure:
    """Left: $\\mathrm{d}f/\\mathrm{d}x$ against $x$ at one depth, standardised and offset.
    Right: correlation of gradients at neighbouring inputs against depth (median, range over seeds)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.6, 3.6), layout="constrained")
    for offset, (kind, (x, grads)) in enumerate(examples.items()):
        g = (grads - grads.mean()) / grads.std()
        left.plot(x, g - 5 * offset, lw=1, color=COLOURS[kind], label=label(tr, kind))
    left.set(
        xlabel=tr("输入 x", "input x"),
        ylabel=tr("df/dx（标准化，错开）", "df/dx (standardised, offset)"),
        title=tr(f"{depth_shown} 个块时的输入梯度", f"input gradient with {depth_shown} blocks"),
        yticks=[],
    )
    for kind, rows in correlations.items():
        values = np.array(rows)
        right.fill_between(
            depths, values.min(axis=1), values.max(axis=1), color=COLOURS[kind], alpha=0.18, lw=0
        )
        right.plot(
            depths,
            np.median(values, axis=1),
            "o-",
            ms=3,
            color=COLOURS[kind],
            label=label(tr, kind),
        )
    right.set(
        xlabel=tr("深度（块数）", "depth (blocks)"),
        ylabel=tr("相邻输入的梯度相关系数", "correlation of neighbouring gradients"),
        title=tr("梯度破碎", "shattered gradients"),
        ylim=(None, 1.02),
    )
    right.legend(loc="lower left")
    return fig
