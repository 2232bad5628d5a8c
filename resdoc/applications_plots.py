"""Figures of chapter 09-applications. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt

from resdoc.applications import Run
from resdoc.style import ACCENT, GREY, PLAIN, RESIDUAL, Translator

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


def training_figure(runs: dict[str, Run], depth: int, tr: Translator) -> plt.Figure:
    """Training loss per step (log scale); a run that leaves the scale or becomes NaN is marked
    by a triangle at the top and a note."""
    colours = {"plain": PLAIN, "residual": GREY, "rezero": RESIDUAL, "fixup": ACCENT}
    fig, ax = plt.subplots(figsize=(6.6, 4.2), layout="constrained")
    for scheme, run in runs.items():
        ax.semilogy(run.loss, color=colours[scheme], lw=1.4, label=scheme_label(tr, scheme))
        nan = first_nan(run.loss)
        if nan is not None or max(run.loss[: nan or None]) > TOP:  # off the scale: say so
            ax.plot(0, TOP * 0.8, "^", ms=8, color=colours[scheme], clip_on=False)
            ax.annotate(
                tr(
                    f"{scheme_label(tr, scheme)}：初始损失 {run.loss[0]:.0e}，第 {nan} 步起为 NaN（超出坐标）",
                    f"{scheme_label(tr, scheme)}: initial loss {run.loss[0]:.0e}, NaN from step {nan} on (off scale)",
                ),
                (0, TOP * 0.8),
                xytext=(10, 0),
                textcoords="offset points",
                color=colours[scheme],
                fontsize=8,
                va="center",
            )
    ax.axhline(math.log(10), color=GREY, lw=0.8, ls=":")
    ax.text(
        len(run.loss) - 1,
        math.log(10) * 1.15,
        tr("猜测：ln 10", "guessing: ln 10"),
        ha="right",
        va="bottom",
        color=GREY,
        fontsize=8,
    )
    ax.set(
        xlabel=tr("训练步数", "training step"),
        ylabel=tr("训练损失（交叉熵）", "training loss (cross-entropy)"),
        title=tr(
            f"{depth} 个无归一化的残差块，同一学习率",
            f"{depth} un-normalised blocks, one learning rate",
        ),
    )
    ax.set_ylim(top=TOP)
    fig.legend(loc="outside lower center", ncols=2, fontsize=8)
    return fig
