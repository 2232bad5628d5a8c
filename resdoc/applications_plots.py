"""Figures of chapter 10-applications. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import torch

from resdoc.applications import Run
from resdoc.numerals import typeset
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

TOP = 20.0  # upper end of the loss axis


def scheme_label(tr: Translator, scheme: str) -> str:
    """The legend label of a scheme, with its formula."""
    return {
        "plain": tr("无捷径 ReLU(F(x))", "no shortcut ReLU(F(x))"),
        "residual": tr("残差 x + F(x)", "residual x + F(x)"),
        "rezero": tr("ReZero x + αF(x)，α₀ = 0", "ReZero x + αF(x), α₀ = 0"),
        "fixup": tr("Fixup 规则（W₂ = 0）", "Fixup rule (W₂ = 0)"),
    }[scheme]


def first_nan(losses: list[float]) -> int | None:
    """Index of the first non-finite loss, or ``None``.

    >>> first_nan([2.3, 1e14, float("nan")]), first_nan([1.0])
    (2, None)
    """
    return next((i for i, v in enumerate(losses) if not math.isfinite(v)), None)


def training_figure(runs: dict[str, list[Run]], depth: int, tr: Translator) -> plt.Figure:
    """Training loss per step (log scale): the median over seeds as a line, the range as a band.
    A scheme whose runs leave the scale or become NaN is marked by a triangle at the top and a
    note with the seeds' initial losses and first NaN steps."""
    colours = {"plain": PLAIN, "residual": GREY, "rezero": RESIDUAL, "fixup": ACCENT}
    fig, ax = plt.subplots(
        figsize=(tr.width, 3.8) if tr.narrow else (6.6, 4.4), layout="constrained"
    )
    steps = max(len(run.loss) for seeds in runs.values() for run in seeds)
    sep = "\n" if tr.narrow else ""  # a phone's column holds a clause of a title or note a line
    for scheme, seeds in runs.items():
        colour, label = colours[scheme], scheme_label(tr, scheme)
        nans = [first_nan(run.loss) for run in seeds]
        if any(n is not None for n in nans) or max(max(run.loss) for run in seeds) > TOP:
            ax.plot(0, TOP * 0.8, "^", ms=8, color=colour, clip_on=False, label=label)
            first = [run.loss[0] for run in seeds]
            low, high = (typeset(f"{loss:.0e}") for loss in (min(first), max(first)))
            hit = sorted(n for n in nans if n is not None)
            span = "" if not hit else f"{hit[0]}" if hit[0] == hit[-1] else f"{hit[0]}–{hit[-1]}"
            nan_zh = f"，{sep}{len(hit)}/{len(seeds)} 个种子从第 {span} 步起为 NaN" if hit else ""
            nan_en = (
                f";{sep or ' '}NaN from step {span} on in {len(hit)}/{len(seeds)} seeds"
                if hit
                else ""
            )
            ax.annotate(
                tr(
                    f"{label}：{sep}初始损失 {low}–{high}{nan_zh}（超出坐标）",
                    f"{label}:{sep or ' '}initial loss {low}–{high}{nan_en} (off scale)",
                ),
                (0, TOP * 0.8),
                xytext=(10, 0),
                textcoords="offset points",
                color=colour,
                fontsize=8,
                va="top" if tr.narrow else "center",
            )
            continue
        losses = torch.tensor([run.loss for run in seeds])  # (seeds, steps)
        ax.semilogy(losses.median(0).values, color=colour, lw=1.4, label=label)
        ax.fill_between(
            range(losses.shape[1]),
            losses.min(0).values,
            losses.max(0).values,
            color=colour,
            alpha=0.2,
            lw=0,
        )
    ax.axhline(math.log(10), color=GREY, lw=0.8, ls=":")
    ax.text(  # on a phone, under its line: the off-scale note above takes the column's width
        steps - 1,
        math.log(10) / 1.15 if tr.narrow else math.log(10) * 1.15,
        tr("猜测：ln 10", "guessing: ln 10"),
        ha="right",
        va="top" if tr.narrow else "bottom",
        color=GREY,
        fontsize=8,
    )
    n_seeds = len(next(iter(runs.values())))
    ax.set(
        yscale="log",
        xlabel=tr("训练步数", "training step"),
        ylabel=tr("训练损失（交叉熵）", "training loss (cross-entropy)"),
        title=tr(
            f"{depth} 个无归一化的残差块，同一学习率；{sep}{n_seeds} 个种子的中位数与范围",
            f"{depth} un-normalized blocks, one learning rate;{sep or ' '}median and range of "
            f"{n_seeds} seeds",
        ),
    )
    ax.set_ylim(top=TOP)
    fig.legend(loc="outside lower center", ncols=1 if tr.narrow else 2, fontsize=8)
    return fig


def branch_scaling_figure(
    depths: list[int],
    growth: dict[str, np.ndarray],
    predicted: dict[str, list[float]],
    change: dict[str, np.ndarray],
    tr: Translator,
) -> plt.Figure:
    """(a) The stream's RMS growth over L blocks at initialization without scaling and (b) with
    branches scaled by 1/√L or 1/L (``growth[s]`` is (seeds, depths)), predictions dashed;
    (c) how far one SGD step moves $x_L$ (``change[s]``, (seeds, depths))."""
    fig, (a, b, c) = panels(tr, 3, height=3.3, narrow_height=2.5)
    colours = {"none": PLAIN, "sqrt": RESIDUAL, "linear": ACCENT}
    labels = {
        "none": tr("不缩放 x + F(x)", "no scaling x + F(x)"),
        "sqrt": r"$x + \mathcal{F}(x)/\sqrt{L}$",
        "linear": r"$x + \mathcal{F}(x)/L$",
    }
    growth_label = r"$\mathrm{RMS}(x_L)\,/\,\mathrm{RMS}(x_0)$"
    for ax, kinds in ((a, ("none",)), (b, ("sqrt", "linear"))):
        for scaling in kinds:
            median_band(
                ax, depths, growth[scaling], colours[scaling], "o-", ms=4, label=labels[scaling]
            )
            ax.plot(depths, predicted[scaling], "--", lw=1, color=GREY)
        ax.plot(
            [],
            [],
            "--",
            lw=1,
            color=GREY,
            label=tr("预测 (1 + 2s²)^(L/2)", "predicted (1 + 2s²)^(L/2)"),
        )
        ax.set(xscale="log", xlabel=tr("块数 L", "blocks L"), ylabel=growth_label)
        ax.set_xticks(depths, [str(d) for d in depths])
        ax.legend(loc="upper left", fontsize=8)
    a.set(yscale="log", title=tr("(a) 初始化时，不缩放", "(a) at initialization, unscaled"))
    b.set(ylim=(0, 4), title=tr("(b) 初始化时，缩放分支", "(b) at initialization, scaled"))
    b.legend(loc="center right", fontsize=8)
    for scaling, runs in change.items():
        median_band(c, depths, runs, colours[scaling], "o-", ms=4, label=labels[scaling])
    c.set(
        xscale="log",
        yscale="log",
        xlabel=tr("块数 L", "blocks L"),
        ylabel=r"$\mathrm{RMS}(\Delta x_L)\,/\,\mathrm{RMS}(x_0)$",
        title=tr("(c) 同一学习率的一步 SGD", "(c) one SGD step, one rate"),  # seeds: the caption
    )
    c.set_xticks(depths, [str(d) for d in depths])
    c.legend(loc="lower left", fontsize=8)
    return fig


def skip_rescale_figure(
    stream: dict[str, np.ndarray],
    weights: dict[str, np.ndarray],
    predicted: dict[str, tuple[np.ndarray, np.ndarray]],
    tr: Translator,
) -> plt.Figure:
    r"""One stack of $L$ blocks at initialization under each rule of ``SKIP_RULES``: (a) the
    stream's RMS after every block (``stream[r]``: (seeds, L + 1)); (b) how large each block's
    write is in $x_L$, log scale (``weights[r]``: (seeds, L)). ``predicted[r]``: both dashed."""
    fig, (a, b) = panels(tr, 2, height=3.3, narrow_height=2.8)
    colours = {
        "sum": PLAIN,
        "rescaled": RESIDUAL,
        "scaled_0.3": ACCENT,
        "scaled_0.1": ORANGE,
        "sqrt": PURPLE,
    }
    labels = {
        "sum": "x + F(x)",
        "rescaled": "(x + F(x))/√2",
        "scaled_0.3": "x + 0.3·F(x)",
        "scaled_0.1": "x + 0.1·F(x)",
        "sqrt": "x + F(x)/√L",
    }
    depth = next(iter(weights.values())).shape[1]
    for rule, runs in stream.items():
        median_band(a, np.arange(depth + 1), runs, colours[rule], "-", lw=1.4, label=labels[rule])
        a.plot(np.arange(depth + 1), predicted[rule][0], "--", lw=0.9, color=GREY)
        median_band(b, np.arange(depth), weights[rule], colours[rule], "-", lw=1.4)
        b.plot(np.arange(depth), predicted[rule][1], "--", lw=0.9, color=GREY)
    a.plot([], [], "--", lw=0.9, color=GREY, label=tr("预测", "predicted"))
    a.set(
        xlabel=tr("块 l", "block l"),
        ylabel=r"$\mathrm{RMS}(x_l)\,/\,\mathrm{RMS}(x_0)$",
        title=tr("残差流的大小", "the size of the stream"),
        xlim=(0, depth),
        ylim=(0, None),
    )
    a.legend(loc="upper left", fontsize=8, ncols=2)
    b.set(
        yscale="log",
        xlabel=tr("块 l", "block l"),
        ylabel=r"$\mathrm{RMS}(a^{L-l} s\,F_l)\,/\,\mathrm{RMS}(x_L)$",
        title=tr(
            f"各块在 L = {depth} 的输出里的权重", f"each block's weight in the output, L = {depth}"
        ),
        xlim=(0, depth - 1),
    )
    return fig


def ode_figure(
    depths: list[int],
    error: dict[str, np.ndarray],
    move: dict[str, np.ndarray],
    tr: Translator,
) -> plt.Figure:
    r"""The ODE view, log-log against the number of blocks $L$ (runs: (seeds, depths)): (a) how far
    the $L$-block output is from the ODE's solution, ``error[kind]`` for weights shared by every block
    or smooth in depth, with $1/L$ dashed; (b) how far the output moves from $x_0$ (solid) and how
    far re-drawing every odd block moves it (dotted), ``move[key]`` for ``key`` in ``shared``,
    ``iid_linear``, ``iid_linear_redraw``, ``iid_sqrt``, ``iid_sqrt_redraw``, with $1/\sqrt{L}$ dashed."""
    fig, (a, b) = panels(tr, 2, height=3.3, narrow_height=2.8)
    d = np.array(depths, dtype=float)
    median_band(
        a, d, error["shared"], RESIDUAL, "o-", lw=1.4, ms=3, label=tr("共享权重", "shared weights")
    )
    median_band(
        a,
        d,
        error["smooth"],
        ACCENT,
        "s-",
        lw=1.4,
        ms=3,
        label=tr("随深度平滑变化", "smooth in depth"),
    )
    guide = np.median(error["shared"][:, 0]) * d[0] / d
    a.plot(d, guide, "--", lw=0.9, color=GREY, label="∝ 1/L")
    a.set(
        xscale="log",
        yscale="log",
        xlabel=tr("块数 L（步长 h = 1/L）", "blocks L (step h = 1/L)"),
        ylabel=r"$\mathrm{RMS}(x_L - x(1))\,/\,\mathrm{RMS}(x(1) - x_0)$",
        title=tr("与 ODE 解的距离", "distance to the ODE's solution"),
    )
    a.legend(loc="lower left", fontsize=8)
    lines = {  # solid: how far x_L is from x_0; dotted: how far re-drawing the odd blocks moves it
        "shared": (RESIDUAL, tr("共享权重，1/L", "shared, 1/L")),
        "iid_linear": (PLAIN, tr("独立权重，1/L", "independent, 1/L")),
        "iid_sqrt": (PURPLE, tr("独立权重，1/√L", "independent, 1/√L")),
    }
    for key, (colour, label) in lines.items():
        median_band(b, d, move[key], colour, "-", lw=1.4, label=label)
        if f"{key}_redraw" in move:
            median_band(b, d, move[f"{key}_redraw"], colour, ":", lw=1.6)
    b.plot(
        [], [], ":", lw=1.6, color=GREY, label=tr("点线：重抽奇数块", "dotted: odd blocks re-drawn")
    )
    b.plot(
        d,
        np.median(move["iid_linear"][:, 0]) * (d[0] / d) ** 0.5,
        "--",
        lw=0.9,
        color=GREY,
        label="∝ 1/√L",
    )
    b.set(
        xscale="log",
        yscale="log",
        xlabel=tr("块数 L", "blocks L"),
        ylabel=r"$\mathrm{RMS}(\cdot)\,/\,\mathrm{RMS}(x_0)$",
        title=tr("输出移动了多远", "how far the output moves"),
        ylim=(1e-3 if tr.narrow else 4e-3, 2.5),  # room for the legend below the lines
    )
    b.legend(loc="lower left", fontsize=8, ncols=1 if tr.narrow else 2)
    for ax in (a, b):
        ax.set_xticks(d, [str(int(v)) for v in d])
        ax.minorticks_off()
    return fig
