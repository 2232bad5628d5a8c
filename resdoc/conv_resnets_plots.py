"""Figures of chapter 07-conv-resnets. Every label comes from ``tr(zh, en)``; a line is the
median over seeds, the band spans the lowest and highest seed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from resdoc.style import (
    ACCENT,
    GREY,
    ORANGE,
    PLAIN,
    PURPLE,
    RESIDUAL,
    Translator,
    median_band,
    panels,
)

ORDERING_STYLE = {  # colour, line style
    "original": (PLAIN, "-"),
    "bn_after_add": (GREY, "--"),
    "relu_before_add": (ACCENT, ":"),
    "relu_only_preact": (PURPLE, "-."),
    "full_preact": (RESIDUAL, "-"),
}
GATE_COLOURS = (PLAIN, ORANGE, PURPLE, ACCENT)


def ordering_label(tr: Translator, ordering: str) -> str:
    return {
        "original": tr("（a）原始：相加后 ReLU", "(a) original: ReLU after addition"),
        "bn_after_add": tr("（b）相加后 BN", "(b) BN after addition"),
        "relu_before_add": tr("（c）相加前 ReLU", "(c) ReLU before addition"),
        "relu_only_preact": tr("（d）仅 ReLU 预激活", "(d) ReLU-only pre-activation"),
        "full_preact": tr("（e）完全预激活", "(e) full pre-activation"),
    }[ordering]


def paths_figure(orderings: dict, highway: dict, tr: Translator) -> plt.Figure:
    """Left: the gradient along the shortcuts alone against blocks crossed, per block ordering.
    Right: the same for highway stacks (carry path) per gate bias, and for a residual stack."""
    fig, (left, right) = panels(
        tr, 2, height=3.6, narrow_height=2.9, letters=False
    )  # (a)–(e): blocks
    # (e) first and thick: (c), (d) and (e) all lie exactly at 1, drawn on top of each other
    for ordering in sorted(orderings, key=lambda o: o != "full_preact"):
        runs, (colour, style) = orderings[ordering], ORDERING_STYLE[ordering]
        x = np.arange(len(runs["profile"][0]))
        width = 4.5 if ordering == "full_preact" else 1.8
        label = ordering_label(tr, ordering)
        median_band(left, x, runs["profile"], colour, style, lw=width, label=label)
    left.set(
        xlabel=tr("跨过的块数", "blocks crossed"),
        ylabel=tr("梯度范数之比", "gradient norm ratio"),
        title=tr("只沿捷径回传的梯度", "gradient along the shortcuts alone"),
        ylim=(0, 2.1),
    )
    handles, labels = left.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=labels.__getitem__)  # (a) … (e)
    left.legend([handles[i] for i in order], [labels[i] for i in order], loc="upper left",
                ncol=1 if tr.narrow else 2, fontsize=8)  # fmt: skip
    gates = [name for name in highway if name != "residual"]
    for name, colour in zip(gates, GATE_COLOURS, strict=False):
        x = np.arange(len(highway[name]["carry"][0]))
        median_band(
            right,
            x,
            highway[name]["carry"],
            colour,
            "-",
            label=tr(f"高速公路网络，b_T = {name:g}", f"highway, b_T = {name:g}").replace("-", "−"),
        )
    x = np.arange(len(highway["residual"]["carry"][0]))
    median_band(
        right,
        x,
        highway["residual"]["carry"],
        RESIDUAL,
        "-",
        label=tr("残差 x + H(x)", "residual x + H(x)"),
    )
    right.set_yscale("log")
    right.set(
        xlabel=tr("跨过的层数", "layers crossed"),
        ylabel=tr("梯度范数之比", "gradient norm ratio"),
        title=tr("只沿携带路径回传的梯度", "gradient along the carry path alone"),
    )
    right.legend(loc="lower left", fontsize=8)
    return fig
