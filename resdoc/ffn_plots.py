"""Figures of chapter 08-ffn. Every label comes from ``tr(zh, en)``.

Each random quantity is drawn as its median over the seeds (line) and its range (band).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import torch

from resdoc.style import ACCENT, GREY, PLAIN, RESIDUAL, Translator, median_band, panels


def _band(ax, x, values: torch.Tensor, **style) -> None:
    """Median over seeds (rows of ``values``) as a line, min–max as a shaded band; the median
    of an even number of seeds is the mean of the middle two, as in the pages' tables."""
    median_band(ax, x, values.numpy(), style.pop("color"), **style)


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
    scales, table: dict[str, dict[str, torch.Tensor]], n_seeds: int, tr: Translator
) -> plt.Figure:
    r"""Left: additivity gap $\lVert f(x+y) - f(x) - f(y)\rVert / \lVert f(x+y)\rVert$; right:
    homogeneity gap $\lVert f(2x) - 2f(x)\rVert / \lVert 2f(x)\rVert$; against the input scale."""
    fig, (left, right) = panels(tr, 2, height=3.8, narrow_height=2.8, sharey=True)
    for name, style in _map_styles(tr).items():
        _band(left, scales, table[name]["additivity"], ms=4, **style)
        _band(right, scales, table[name]["homogeneity"], ms=4, **style)
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
    if tr.narrow:  # stacked: the lower panel needs its own y label
        right.set_ylabel(left.get_ylabel())
    for ax in (left, right):
        ax.set_xticks(scales, [f"{s:g}" for s in scales])
        ax.minorticks_off()
    left.legend(loc="upper left", fontsize=8)
    fig.suptitle(
        tr(
            f"{n_seeds} 个随机种子：线为中位数，阴影为范围",
            f"{n_seeds} random seeds: line = median, band = range",
        ),
        fontsize=9 if not tr.narrow else 8.5,
    )
    return fig


def _stack_styles(tr: Translator) -> dict[str, dict]:
    return {
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


def rank_collapse_figure(stacks: dict[str, dict[str, torch.Tensor]], tr: Translator) -> plt.Figure:
    r"""Left: $\mathrm{res}(X_l)$ against depth $l$ (log scale), how close the tokens are to all
    being the same vector. Right: what the tokens share, $\lVert \mathbf{1}\bar{x}^\top \rVert_F$, and how
    they differ, $\lVert X_l - \mathbf{1}\bar{x}^\top \rVert_F$, in the stack with shortcuts and in Pre-LN."""
    styles = _stack_styles(tr)
    fig, (left, right) = panels(tr, 2, height=4.2, narrow_height=2.8)
    for kind, parts in stacks.items():
        _band(left, range(parts["res"].shape[1]), parts["res"], **styles[kind])
    left.set(
        yscale="log",
        xlabel=tr("深度 l（层数）", "depth l (layers)"),
        ylabel=r"$\|X_l - \mathbf{1}\bar{x}^\top\| \,/\, \|X_l\|$",
        title=tr("各词元离“全都相同”有多远", "how far the tokens are from all being equal"),
    )
    for kind in ("attention+shortcut", "pre-ln"):
        colour, layers = styles[kind]["color"], range(stacks[kind]["shared"].shape[1])
        _band(right, layers, stacks[kind]["shared"], color=colour, lw=2)
        _band(right, layers, stacks[kind]["differing"], color=colour, lw=1.6, ls=":")
    right.plot([], [], color=GREY, lw=2, label=tr("共有部分 ‖1x̄ᵀ‖", "shared part ‖1x̄ᵀ‖"))
    right.plot(
        [],
        [],
        color=GREY,
        lw=1.6,
        ls=":",
        label=tr("差异部分 ‖X − 1x̄ᵀ‖", "differing part ‖X − 1x̄ᵀ‖"),
    )
    right.legend(loc="upper left", fontsize=8)
    right.set(
        yscale="log",
        xlabel=tr("深度 l（层数）", "depth l (layers)"),
        ylabel=tr("范数", "norm"),
        title=tr("蓝：注意力 + 捷径；灰：Pre-LN", "blue: attention + shortcut; grey: Pre-LN"),
    )
    fig.legend(
        *left.get_legend_handles_labels(),
        loc="outside lower center",
        ncols=1 if tr.narrow else 2,
        fontsize=8,
    )
    return fig
