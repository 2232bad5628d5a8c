"""Figures of the Python demo chapter (00-python-demo). Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from resdoc.gradients import LayerProfile
from resdoc.python_demo import per_layer_gain
from resdoc.style import GREY, Translator, kind_style, median_band, panels


def _band(ax, xs, runs: np.ndarray, colour: str, label: str) -> np.ndarray:
    """Median over seeds (rows of ``runs``) as a line, min–max as a band, log scale."""
    ax.set_yscale("log")
    return median_band(ax, xs, runs, colour, "o-", ms=3, label=label)


def layer_norms_figure(profiles: dict[str, list[LayerProfile]], tr: Translator) -> plt.Figure:
    r"""Left: $\lVert \partial L/\partial x_l \rVert$; right: $\lVert \partial L/\partial W_l \rVert$;
    median and range over the seeds, log scale."""
    fig, (left, right) = panels(tr, 2, height=3.4, narrow_height=2.7)
    for kind, runs in profiles.items():
        style = kind_style(tr, kind)
        colour, label = style["color"], style["label"]
        depth = len(runs[0].weight_grads)
        layers = np.arange(depth + 1)
        grads = np.array([run.activation_grads for run in runs])
        median = _band(left, layers, grads, colour, label)
        # what the variance argument predicts, anchored at the median output gradient
        gain = per_layer_gain(kind == "residual")
        left.semilogy(layers, median[-1] * gain ** (depth - layers), "--", color=GREY, lw=1)
        weights = np.array([run.weight_grads for run in runs])
        _band(right, np.arange(depth), weights, colour, label)
    left.plot(
        [],
        [],
        "--",
        color=GREY,
        lw=1,
        label=tr("方差推算的斜率", "slope from the variance argument"),
    )
    seeds = len(next(iter(profiles.values())))
    left.set(
        xlabel=tr("层 l（0 = 输入）", "layer l (0 = input)"),
        ylabel=r"$\|\partial L/\partial x_l\|$",
        title=tr("激活梯度", "activation gradients"),
    )
    right.set(
        xlabel=tr("块 l", "block l"),
        ylabel=r"$\|\partial L/\partial W_l\|$",
        title=tr("权重梯度", "weight gradients"),
    )
    left.legend(loc="center left" if tr.narrow else "best")  # narrow: between the two lines
    fig.suptitle(
        tr(f"中位数与范围（{seeds} 个随机种子）", f"median and range over {seeds} seeds"),
        fontsize=9 if tr.narrow else 10,
    )
    return fig


def total_norm_figure(depths, norms: dict[str, list[list[float]]], tr: Translator) -> plt.Figure:
    """The original notes' single number against depth: median and range over seeds, log scale."""
    fig, ax = plt.subplots(
        figsize=(tr.width, 2.9) if tr.narrow else (5.6, 3.4), layout="constrained"
    )
    seeds = len(norms["plain"][0])
    for kind, rows in norms.items():
        style = kind_style(tr, kind)
        _band(ax, depths, np.array(rows).T, style["color"], style["label"])  # rows: per depth
    ax.set(
        xlabel=tr("深度（块数）", "depth (blocks)"),
        ylabel=tr("总梯度范数", "total gradient norm"),
        title=tr(f"中位数与范围（{seeds} 个随机种子）", f"median and range over {seeds} seeds"),
    )
    ax.legend(loc="best")
    return fig
