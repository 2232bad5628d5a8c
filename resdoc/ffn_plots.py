"""Figures of chapter 07-ffn. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt

from resdoc.style import ACCENT, GREY, PLAIN, RESIDUAL, Translator


def _map_styles(tr: Translator) -> dict[str, dict]:
    """Colour, marker and label of each map in the linearity figure."""
    return {
        "attention": dict(
            color=PLAIN, marker="o", label=tr("自注意力 A(x)", "self-attention A(x)")
        ),
        "ffn": dict(color=ACCENT, marker="s", label=tr("前馈网络 FFN(x)", "feed-forward FFN(x)")),
        "frozen": dict(
            color=RESIDUAL,
            marker="^",
            label=tr("冻结权重 P 的注意力", "attention with P frozen"),
        ),
        "linear": dict(color=GREY, marker="x", ls="--", label=tr("线性映射 xW", "linear map xW")),
    }


def linearity_figure(
    scales, table: dict[str, dict[str, list[float]]], tr: Translator
) -> plt.Figure:
    """Left: additivity gap $\\lVert f(x+y) - f(x) - f(y)\\rVert / \\lVert f(x+y)\\rVert$; right:
    homogeneity gap $\\lVert f(2x) - 2f(x)\\rVert / \\lVert 2f(x)\\rVert$; against the input scale."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.6, 3.6), layout="constrained", sharey=True)
    for name, style in _map_styles(tr).items():
        left.plot(scales, table[name]["additivity"], ms=4, **style)
        right.plot(scales, table[name]["homogeneity"], ms=4, **style)
    left.set(
        xscale="log",
        xlabel=tr("输入尺度 s（输入为 s·x, s·y）", "input scale s (inputs s·x, s·y)"),
        ylabel=tr("相对偏差（线性映射为 0）", "relative gap (0 for a linear map)"),
        title=tr("可加性：f(x+y) 与 f(x)+f(y)", "additivity: f(x+y) vs f(x)+f(y)"),
    )
    right.set(
        xscale="log",
        xlabel=tr("输入尺度 s（输入为 s·x）", "input scale s (input s·x)"),
        title=tr("齐次性：f(2x) 与 2f(x)", "homogeneity: f(2x) vs 2f(x)"),
    )
    for ax in (left, right):
        ax.set_xticks(scales, [f"{s:g}" for s in scales])
        ax.minorticks_off()
    left.legend(loc="upper left", fontsize=8)
    return fig


def rank_collapse_figure(curves: dict[str, list[float]], tr: Translator) -> plt.Figure:
    """$\\mathrm{res}(X_l) = \\lVert X_l - \\mathbf{1}\\bar{x}^\\top\\rVert / \\lVert X_l\\rVert$ against
    depth $l$, log scale: how close the tokens are to all being the same vector."""
    styles = {
        "attention": dict(color=PLAIN, label=tr("纯注意力 X ← A(X)", "pure attention X ← A(X)")),
        "attention+shortcut": dict(
            color=RESIDUAL,
            label=tr("注意力 + 捷径 X ← X + A(X)", "attention + shortcut X ← X + A(X)"),
        ),
        "attention+ffn+shortcut": dict(
            color=ACCENT,
            label=tr("注意力 + FFN，各带捷径", "attention + FFN, each with a shortcut"),
        ),
        "pre-ln": dict(
            color=GREY,
            ls="--",
            label=tr(
                "同上，分支前加层归一化（Pre-LN）", "same, LayerNorm before each branch (Pre-LN)"
            ),
        ),
    }
    fig, ax = plt.subplots(figsize=(6.4, 4.4), layout="constrained")
    for kind, curve in curves.items():
        ax.semilogy(range(len(curve)), curve, **styles[kind])
    ax.set(
        xlabel=tr("深度 l（层数）", "depth l (layers)"),
        ylabel=r"$\|X_l - \mathbf{1}\bar{x}^\top\| \,/\, \|X_l\|$",
        title=tr(
            "各词元离“全都相同”有多远（越小越接近秩 1）",
            "how far the tokens are from all being equal (small = rank one)",
        ),
    )
    fig.legend(loc="outside lower center", ncols=2, fontsize=8)
    return fig
