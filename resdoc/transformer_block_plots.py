"""Figures of chapter 08-transformer-block. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch

from resdoc.style import ACCENT, GREY, PLAIN, RESIDUAL, Translator

BOX_W, BOX_H, GAP = 2.35, 0.5, 0.32


def _arrow(ax, start, end, colour=GREY):
    """An arrow from ``start`` to ``end`` in data coordinates."""
    ax.add_patch(
        FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=10, color=colour, lw=1.3)
    )


def _draw_layer(ax, steps, title: str, tr: Translator) -> None:
    """Draw ``steps`` bottom to top. A step is ``"split"`` (a shortcut leaves here), ``"+"``
    (the latest shortcut comes back), or ``(label, colour)`` / ``(label, colour, side_input)``."""
    y, splits, labelled = 0.0, [], False
    ax.text(0, y - 0.1, "x", ha="center", va="top", fontsize=11)
    for step in steps:
        if step == "split":
            ax.plot([0, 0], [y, y + GAP], color=GREY, lw=1.3)
            ax.plot(0, y + GAP / 2, "o", ms=4, color=RESIDUAL)
            splits.append(y + GAP / 2)
            y += GAP
            continue
        top = y + GAP + (0.36 if step == "+" else BOX_H)
        _arrow(ax, (0, y), (0, y + GAP))
        if step == "+":
            centre = y + GAP + 0.18
            ax.add_patch(Circle((0, centre), 0.18, fc="white", ec=RESIDUAL, lw=1.5))
            ax.text(0, centre, "+", ha="center", va="center", fontsize=12, color=RESIDUAL)
            start = splits.pop()  # the shortcut: out to the right, up, back into the sum
            ax.plot([0, 1.35, 1.35], [start, start, centre], color=RESIDUAL, lw=1.5)
            if not labelled:
                ax.text(
                    1.45,
                    (start + centre) / 2,
                    tr("捷径", "shortcut"),
                    color=RESIDUAL,
                    rotation=90,
                    ha="left",
                    va="center",
                    fontsize=8,
                )
                labelled = True
            _arrow(ax, (1.35, centre), (0.18, centre), RESIDUAL)
        else:
            label, colour = step[0], step[1]
            ax.add_patch(
                FancyBboxPatch(
                    (-BOX_W / 2, y + GAP),
                    BOX_W,
                    BOX_H,
                    boxstyle="round,pad=0.03",
                    fc="white",
                    ec=colour,
                    lw=1.5,
                )
            )
            ax.text(0, y + GAP + BOX_H / 2, label, ha="center", va="center", fontsize=8.5)
            if len(step) == 3:  # cross-attention: keys and values from the encoder
                ax.text(-2.15, y + GAP + BOX_H / 2, step[2], ha="center", va="center", fontsize=8)
                _arrow(ax, (-1.75, y + GAP + BOX_H / 2), (-BOX_W / 2, y + GAP + BOX_H / 2))
        y = top
    _arrow(ax, (0, y), (0, y + GAP))
    ax.text(0, y + GAP + 0.05, tr("输出", "output"), ha="center", va="bottom", fontsize=9)
    ax.set_title(title, fontsize=10)
    ax.set(xlim=(-2.7, 1.9), ylim=(-0.45, 8.6), aspect="equal")
    ax.axis("off")


def block_figure(tr: Translator) -> plt.Figure:
    """Encoder and decoder layer (Post-LN, as in 2017) and the Pre-LN encoder layer; every
    blue line is a shortcut that skips one sublayer."""
    mha = (tr("多头自注意力", "multi-head self-attention"), PLAIN)
    masked = (tr("掩码多头自注意力", "masked self-attention"), PLAIN)
    cross = (tr("交叉注意力", "cross-attention"), PLAIN, tr("编码器\n输出", "encoder\noutput"))
    ffn = (tr("前馈网络 FFN", "feed-forward FFN"), PLAIN)
    ln = (tr("层归一化 LN", "LayerNorm"), ACCENT)
    fig, axes = plt.subplots(1, 3, figsize=(9.6, 6.0), layout="constrained")
    _draw_layer(
        axes[0],
        ["split", mha, "+", ln, "split", ffn, "+", ln],
        tr("编码器层（Post-LN）", "encoder layer (Post-LN)"),
        tr,
    )
    _draw_layer(
        axes[1],
        ["split", masked, "+", ln, "split", cross, "+", ln, "split", ffn, "+", ln],
        tr("解码器层（Post-LN）", "decoder layer (Post-LN)"),
        tr,
    )
    _draw_layer(
        axes[2],
        ["split", ln, mha, "+", "split", ln, ffn, "+"],
        tr("编码器层（Pre-LN）", "encoder layer (Pre-LN)"),
        tr,
    )
    return fig


def shares_figure(shares: dict[str, np.ndarray], labels: list[str], tr: Translator) -> plt.Figure:
    """Each term's share $\\langle \\cdot, x_L \\rangle / \\lVert x_L \\rVert^2$ of the final stream, for
    ``shares`` = {"init": (seeds, terms), "trained": (seeds, terms)}: bars at the median, whiskers
    from the smallest to the largest seed."""
    fig, ax = plt.subplots(figsize=(8.4, 3.4), layout="constrained")
    x = np.arange(len(labels))
    names = {"init": tr("初始化时", "at initialization"), "trained": tr("训练后", "trained")}
    colours = {"init": GREY, "trained": RESIDUAL}
    for offset, (state, runs) in zip((-0.2, 0.2), shares.items(), strict=True):
        mid = np.median(runs, 0)
        err = (mid - runs.min(0), runs.max(0) - mid)
        ax.bar(x + offset, mid, 0.38, color=colours[state], alpha=0.85, label=names[state])
        ax.errorbar(x + offset, mid, yerr=err, fmt="none", ecolor="black", capsize=2, lw=0.8)
    ax.axhline(0, color=GREY, lw=0.8)
    ax.set_xticks(x, labels)
    ax.set(
        ylabel=tr("占 ‖x_L‖² 的份额", "share of ‖x_L‖²"),
        title=tr(
            "最终残差流 = 嵌入 + 每个子层的写入",
            "final stream = embedding + every sublayer's write",
        ),
    )
    n_seeds = len(next(iter(shares.values())))
    ax.legend(title=tr(f"{n_seeds} 个种子：中位数与范围", f"{n_seeds} seeds: median, range"))
    return fig
