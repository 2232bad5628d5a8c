"""Figures of chapter 02-addition. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt

from resdoc.style import Translator, kind_style, panels


def growth_figure(depths, table: dict[str, dict[str, list[int]]], tr: Translator) -> plt.Figure:
    """Left: output width against the number of blocks; right: parameter count. Add vs concat."""
    fig, (left, right) = panels(tr, 2, height=3.4, narrow_height=2.6)
    for kind, columns in table.items():
        style = kind_style(tr, kind)
        left.plot(depths, columns["width"], "o-", ms=3, **style)
        right.plot(depths, [p / 1e6 for p in columns["params"]], "o-", ms=3, **style)
    left.set(
        xlabel=tr("块数 L", "number of blocks L"),
        ylabel=tr("输出宽度", "output width"),
        title=tr("每个样本的特征数", "features per example"),
    )
    right.set(
        xlabel=tr("块数 L", "number of blocks L"),
        ylabel=tr("参数量（百万）", "parameters (millions)"),
        title=tr("参数量", "parameter count"),
    )
    left.legend(loc="upper left")
    return fig
