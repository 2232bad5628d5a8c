"""Figures of chapter 09-transformer-block. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch

from resdoc.style import ACCENT, GREY, INK, PAPER, PLAIN, RESIDUAL, Translator, median_band, panels

BOX_H, GAP = 0.5, 0.32


@dataclass(frozen=True)
class Geometry:
    """Where a layer diagram puts things, in data units, and its text sizes in points."""

    box_w: float  # a sublayer's box
    shortcut_x: float  # the shortcut's vertical line
    side_x: float  # cross-attention's input from the encoder
    xlim: tuple[float, float]
    label: float  # text in a box
    small: float  # the shortcut's and the side input's labels
    head: float  # an arrow head's size, in points


WIDE = Geometry(2.6, 1.5, -2.2, (-2.75, 2.05), label=8.5, small=8, head=10)
# a phone: three layers side by side in 4 in, each about 1.3 in wide; wider boxes, short labels
NARROW = Geometry(2.8, 1.6, -2.2, (-2.75, 2.1), label=8, small=7.5, head=6)


def _arrow(ax, start, end, colour=GREY, head=10):
    """An arrow from ``start`` to ``end`` in data coordinates."""
    ax.add_patch(
        FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=head, color=colour, lw=1.3)
    )


def _draw_layer(ax, steps, title: str, tr: Translator) -> float:
    """Draw ``steps`` bottom to top. A step is ``"split"`` (a shortcut leaves here), ``"+"``
    (the latest shortcut comes back), or ``(label, colour)`` / ``(label, colour, side_input)``.
    Returns the height the drawing takes, its "output" label included."""
    g = NARROW if tr.narrow else WIDE
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
        _arrow(ax, (0, y), (0, y + GAP), head=g.head)
        if step == "+":
            centre = y + GAP + 0.18
            ax.add_patch(Circle((0, centre), 0.18, fc=PAPER, ec=RESIDUAL, lw=1.5))
            ax.text(0, centre, "+", ha="center", va="center", fontsize=12, color=RESIDUAL)
            start = splits.pop()  # the shortcut: out to the right, up, back into the sum
            ax.plot([0, g.shortcut_x, g.shortcut_x], [start, start, centre], color=RESIDUAL, lw=1.5)
            if not labelled:
                ax.text(
                    g.shortcut_x + 0.1,
                    (start + centre) / 2,
                    tr("捷径", "shortcut"),
                    color=RESIDUAL,
                    rotation=90,
                    ha="left",
                    va="center",
                    fontsize=g.small,
                )
                labelled = True
            _arrow(ax, (g.shortcut_x, centre), (0.18, centre), RESIDUAL, g.head)
        else:
            label, colour = step[0], step[1]
            ax.add_patch(
                FancyBboxPatch(
                    (-g.box_w / 2, y + GAP),
                    g.box_w,
                    BOX_H,
                    boxstyle="round,pad=0.03",
                    fc=PAPER,
                    ec=colour,
                    lw=1.5,
                )
            )
            ax.text(0, y + GAP + BOX_H / 2, label, ha="center", va="center", fontsize=g.label)
            if len(step) == 3:  # cross-attention: keys and values from the encoder
                middle = y + GAP + BOX_H / 2
                ax.text(g.side_x, middle, step[2], ha="center", va="center", fontsize=g.small)
                _arrow(ax, (g.side_x + 0.4, middle), (-g.box_w / 2, middle), head=g.head)
        y = top
    _arrow(ax, (0, y), (0, y + GAP), head=g.head)
    ax.text(0, y + GAP + 0.05, tr("输出", "output"), ha="center", va="bottom", fontsize=9)
    ax.set_title(title, fontsize=9 if tr.narrow else 10)
    ax.set(xlim=g.xlim, aspect="equal")
    ax.axis("off")
    return y + GAP + 0.6  # the label's height, about 0.5


def block_figure(tr: Translator) -> plt.Figure:
    """Encoder and decoder layer (Post-LN, as in 2017) and the Pre-LN encoder layer; every
    blue line is a shortcut that skips one sublayer. Narrow: shorter labels (MHA, FFN, LN)."""
    short = tr.narrow
    mha = (
        tr("自注意力", "MHA") if short else tr("多头自注意力", "multi-head self-attention"),
        PLAIN,
    )
    masked = (
        tr("掩码自注意力", "masked MHA")
        if short
        else tr("掩码多头自注意力", "masked self-attention"),
        PLAIN,
    )
    cross = (tr("交叉注意力", "cross-attn") if short else tr("交叉注意力", "cross-attention"), PLAIN,
             tr("编码器\n输出", "encoder\noutput"))  # fmt: skip
    ffn = (tr("前馈 FFN", "FFN") if short else tr("前馈网络 FFN", "feed-forward FFN"), PLAIN)
    ln = (tr("归一化 LN", "LN") if short else tr("层归一化 LN", "LayerNorm"), ACCENT)
    newline = "\n" if short else ""  # narrow: the layer's kind under its name
    size = (tr.width, 3.6) if short else (tr.width, 5.3)
    fig, axes = plt.subplots(1, 3, figsize=size, layout="constrained")
    columns = (
        (
            ["split", mha, "+", ln, "split", ffn, "+", ln],
            tr(f"编码器层{newline}（Post-LN）", f"encoder layer{newline} (Post-LN)"),
        ),
        (
            ["split", masked, "+", ln, "split", cross, "+", ln, "split", ffn, "+", ln],
            tr(f"解码器层{newline}（Post-LN）", f"decoder layer{newline} (Post-LN)"),
        ),
        (
            ["split", ln, mha, "+", "split", ln, ffn, "+"],
            tr(f"编码器层{newline}（Pre-LN）", f"encoder layer{newline} (Pre-LN)"),
        ),
    )
    heights = [
        _draw_layer(ax, steps, title, tr) for ax, (steps, title) in zip(axes, columns, strict=True)
    ]
    for ax in axes:  # one scale for the three: the tallest, the decoder's, fits under its title
        ax.set_ylim(-0.45, max(heights))
    return fig


def shares_figure(shares: dict[str, np.ndarray], labels: list[str], tr: Translator) -> plt.Figure:
    r"""Each term's share $\langle \cdot, x_L \rangle / \lVert x_L \rVert^2$ of the final stream, for
    ``shares`` = {"init": (seeds, terms), "trained": (seeds, terms)}: bars at the median, whiskers
    from the smallest to the largest seed."""
    fig, ax = plt.subplots(figsize=(tr.width, 3.2 if tr.narrow else 3.4), layout="constrained")
    x = np.arange(len(labels))
    names = {"init": tr("初始化时", "at initialization"), "trained": tr("训练后", "trained")}
    colours = {"init": GREY, "trained": RESIDUAL}
    for offset, (state, runs) in zip((-0.2, 0.2), shares.items(), strict=True):
        mid = np.median(runs, 0)
        err = (mid - runs.min(0), runs.max(0) - mid)
        ax.bar(x + offset, mid, 0.38, color=colours[state], alpha=0.85, label=names[state])
        ax.errorbar(x + offset, mid, yerr=err, fmt="none", ecolor=INK, capsize=2, lw=0.8)
    ax.axhline(0, color=GREY, lw=0.8)
    ax.set_xticks(x, labels, rotation=90 if tr.narrow else 0)  # narrow: nine labels in 4 in
    sep = "\n" if tr.narrow else " "
    ax.set(
        ylabel=tr("占 ‖x_L‖² 的份额", "share of ‖x_L‖²"),
        title=tr(  # a phone's column holds half of it
            f"最终残差流 = 嵌入{sep}+ 每个子层的写入",
            f"final stream = embedding{sep}+ every sublayer's write",
        ),
    )
    n_seeds = len(next(iter(shares.values())))
    ax.legend(title=tr(f"{n_seeds} 个种子：中位数与范围", f"{n_seeds} seeds: median, range"))
    return fig


def gpt2_init_figure(
    depths: list[int],
    final: dict[bool, np.ndarray],
    predicted: dict[bool, np.ndarray],
    profile: dict[bool, np.ndarray],
    tr: Translator,
) -> plt.Figure:
    r"""Pre-LN stacks at initialization, unscaled (``False``) and with every output projection
    times $1/\sqrt{N}$ (``True``): (a) $\mathrm{RMS}(x_N)/\mathrm{RMS}(x_0)$ against the number of
    residual layers (``final[s]``: (seeds, depths)), what adding variances predicts dashed
    (``predicted[s]``, per depth); (b) the squared RMS along the deepest stack, residual layer by
    residual layer (``profile[s]``: (seeds, N + 1))."""
    fig, (a, b) = panels(tr, 2, height=3.0, narrow_height=2.6)
    colours = {False: PLAIN, True: RESIDUAL}
    labels = {
        False: tr("不缩放", "unscaled"),
        True: tr("输出投影 ×1/√N", "output projections ×1/√N"),
    }
    for scaled, runs in final.items():
        median_band(a, depths, runs, colours[scaled], "o-", ms=4, label=labels[scaled])
        a.plot(depths, predicted[scaled], "--", lw=1, color=GREY)
    a.plot([], [], "--", lw=1, color=GREY, label=tr("预测：方差相加", "predicted: variances add"))
    a.set(
        xscale="log",
        xlabel=tr("残差层数 N", "residual layers N"),
        ylabel=r"$\mathrm{RMS}(x_N)\,/\,\mathrm{RMS}(x_0)$",
        title=tr("不同深度的堆叠", "stacks of different depths"),
    )
    a.set_xticks(depths, [str(d) for d in depths])
    a.minorticks_off()
    a.legend(loc="upper left", fontsize=8)
    layers = np.arange(next(iter(profile.values())).shape[1])  # 0 … N
    for scaled, runs in profile.items():
        median_band(b, layers, np.asarray(runs) ** 2, colours[scaled], "-", label=labels[scaled])
    b.set(
        xlabel=tr("残差层 k", "residual layer k"),
        ylabel=r"$\mathrm{RMS}(x_k)^2\,/\,\mathrm{RMS}(x_0)^2$",
        title=tr(f"沿 N = {layers[-1]} 的堆叠逐层看", f"layer by layer, N = {layers[-1]}"),
        xlim=(0, layers[-1]),
        ylim=(0, None),
    )
    b.legend(loc="upper left", fontsize=8)
    return fig


def parallel_figure(
    difference: np.ndarray,
    attention: np.ndarray,
    stream: dict[str, np.ndarray],
    tr: Translator,
) -> plt.Figure:
    r"""A serial Pre-LN stack at initialization and its parallel twin with the same weights, layer
    by layer: (a) how much the parallel layer's write differs from the serial one's, relative to
    it (``difference``: (seeds, layers)), beside $\mathrm{RMS}(\mathrm{MHA}_l)/\mathrm{RMS}(x_{l-1})$,
    what the attention's write changes in the serial FFN's input (``attention``, the same shape);
    (b) $\mathrm{RMS}(x_l)/\mathrm{RMS}(x_0)$ along each stack (``stream["serial"]``,
    ``stream["parallel"]``: (seeds, layers + 1))."""
    fig, (a, b) = panels(tr, 2, height=3.0, narrow_height=2.6)
    layers = np.arange(1, difference.shape[1] + 1)  # 1 … L
    median_band(
        a,
        layers,
        attention,
        GREY,
        "--",
        lw=1,
        label=tr("注意力写入 / 残差流", "MHA write / stream"),
    )
    median_band(
        a,
        layers,
        difference,
        RESIDUAL,
        "-",
        label=tr("并行与串行写入之差", "parallel vs serial write"),
    )
    a.set(
        xlabel=tr("层 l", "layer l"),
        ylabel=tr("相对大小（RMS 之比）", "relative size (ratio of RMS)"),
        title=tr("同一输入上，每层的写入", "each layer's write, same input"),
        xlim=(1, layers[-1]),
        ylim=(0, None),
    )
    a.legend(loc="upper right", fontsize=8)
    zero_to_l = np.arange(difference.shape[1] + 1)  # 0 … L
    styles = {
        "serial": (PLAIN, "-", tr("串行", "serial")),
        "parallel": (RESIDUAL, "--", tr("并行", "parallel")),
    }
    for kind, runs in stream.items():
        colour, line, label = styles[kind]
        median_band(b, zero_to_l, runs, colour, line, label=label)
    b.set(
        xlabel=tr("层 l", "layer l"),
        ylabel=r"$\mathrm{RMS}(x_l)\,/\,\mathrm{RMS}(x_0)$",
        title=tr("残差流的增长", "the stream's growth"),
        xlim=(0, zero_to_l[-1]),
    )
    b.legend(loc="upper left", fontsize=8)
    return fig
