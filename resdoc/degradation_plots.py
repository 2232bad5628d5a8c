"""Figures of chapter 06-degradation. Every label comes from ``tr(zh, en)``. A line is the
median over seeds; the band or error bar spans the lowest and highest seed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LogNorm

from resdoc.degradation import Run
from resdoc.style import GREY, ON_IMAGE, Translator, kind_style, median_band, panels


def _by_depth(runs: list[Run], kind: str, value) -> tuple[list[int], np.ndarray]:
    """Depths of ``kind`` and, per depth, (median, min, max) of ``value(run)`` over seeds."""
    depths = sorted({r.depth for r in runs if r.kind == kind})
    stats = []
    for depth in depths:
        values = [value(r) for r in runs if r.kind == kind and r.depth == depth]
        stats.append((np.median(values), min(values), max(values)))
    return depths, np.array(stats)


def error_by_depth_figure(runs: list[Run], tr: Translator) -> plt.Figure:
    """Final training error (left) and training loss (right, log scale) against depth."""
    fig, (left, right) = panels(tr, 2, height=3.4, narrow_height=2.7)
    for kind in dict.fromkeys(r.kind for r in runs):
        style = dict(marker="o", ms=4, capsize=3, **kind_style(tr, kind))
        for ax, value in ((left, lambda r: 100 * r.train_error), (right, lambda r: r.train_loss)):
            depths, s = _by_depth(runs, kind, value)
            ax.errorbar(depths, s[:, 0], yerr=[s[:, 0] - s[:, 1], s[:, 2] - s[:, 0]], **style)
    right.set_yscale("log")
    seeds = len({r.seed for r in runs})
    for ax in (left, right):
        ax.set_xticks(sorted({r.depth for r in runs}))
        ax.set_xlabel(tr("深度（块数）", "depth (blocks)"))
    left.set(
        ylabel=tr("训练误差（%）", "training error (%)"),
        title=tr(
            f"训练集上的错误率（{seeds} 个种子）", f"error on the training set ({seeds} seeds)"
        ),
    )
    right.set(
        ylabel=tr("训练损失", "training loss"),
        title=tr("训练集上的交叉熵", "cross-entropy on the training set"),
    )
    left.legend(loc="upper left")
    return fig


def curves_figure(runs: list[Run], tr: Translator) -> plt.Figure:
    """Training loss per epoch, one panel per kind, one band per depth (darker = deeper)."""
    kinds = list(dict.fromkeys(r.kind for r in runs))
    fig, axes = panels(tr, len(kinds), height=3.3, narrow_height=2.3, sharey=True)
    for ax, kind in zip(np.atleast_1d(axes), kinds, strict=True):
        depths = sorted({r.depth for r in runs if r.kind == kind})
        for i, depth in enumerate(depths):
            curves = np.array([r.history for r in runs if r.kind == kind and r.depth == depth])
            epochs = np.arange(1, curves.shape[1] + 1)
            shade = 0.3 + 0.7 * i / max(1, len(depths) - 1)
            ax.set_yscale("log")
            median_band(
                ax,
                epochs,
                curves,
                kind_style(tr, kind)["color"],
                band={"alpha": 0.15, "lw": None},
                alpha=shade,
                label=tr(f"{depth} 个块", f"{depth} blocks"),
            )
        ax.set(title=kind_style(tr, kind)["label"], xlabel=tr("轮次（epoch）", "epoch"))
        ax.legend(loc="lower left")
    for ax in np.atleast_1d(axes)[: None if tr.narrow else 1]:  # stacked: each its own label
        ax.set_ylabel(tr("训练损失", "training loss"))
    return fig


def signals_figure(profiles: dict[str, np.ndarray], tr: Translator) -> plt.Figure:
    """Per-layer std of the forward signal (left) and norm of the backward gradient (right,
    log scale), at initialization; ``profiles[kind]`` is (seeds, 2, layers)."""
    fig, (left, right) = panels(tr, 2, height=3.4, narrow_height=2.7)
    for kind, values in profiles.items():
        layers = np.arange(values.shape[2])
        for ax, which in ((left, 0), (right, 1)):
            series = values[:, which]
            median_band(
                ax,
                layers,
                series,
                kind_style(tr, kind)["color"],
                band={"alpha": 0.2, "lw": None},
                label=kind_style(tr, kind)["label"],
            )
    right.set_yscale("log")
    left.set_ylim(bottom=0)
    for ax in (left, right):
        ax.set_xlabel(tr("第 i 个块的输入 x_i", "input x_i of block i"))
    left.set(
        ylabel=tr("标准差", "standard deviation"),
        title=tr("前向：信号的标准差", "forward: std of the signal"),
    )
    right.set(
        ylabel=tr("‖∂ℓ/∂x_i‖", "‖∂ℓ/∂x_i‖"),
        title=tr("反向：梯度的范数", "backward: norm of the gradient"),
    )
    left.legend(loc="upper left")
    return fig


def landscape_figure(
    surfaces: dict[str, np.ndarray], coords: np.ndarray, depth: int, tr: Translator
) -> plt.Figure:
    """Loss slices around trained nets. ``surfaces[kind]`` is (seeds, α, β). Left and middle:
    contours of the first seed's 2-D slice, one shared log colour scale; right: the line
    β = 0 through the minimum, median and range over seeds, log scale."""
    names = {
        "plain": tr(f"无残差，{depth} 个块", f"plain, {depth} blocks"),
        "residual": tr(f"恒等捷径，{depth} 个块", f"identity shortcut, {depth} blocks"),
    }
    if tr.narrow:  # a phone: the two slices side by side, the line through them below
        fig, grid = plt.subplot_mosaic(
            [["plain", "residual"], ["line", "line"]],
            figsize=(tr.width, 5.4),
            layout="constrained",
            height_ratios=[1, 1.15],
        )
    else:
        fig, grid = plt.subplot_mosaic(
            [["plain", "residual", "line"]],
            figsize=(tr.width, 3.3),
            layout="constrained",
            width_ratios=[1, 1, 1.35],
        )
    axes = [grid["plain"], grid["residual"], grid["line"]]
    low = min(s.min() for s in surfaces.values())
    exponents = np.arange(np.floor(np.log10(low)), 4.5, 0.5)  # half a decade per level
    norm = LogNorm(10 ** exponents[0], 10 ** exponents[-1])
    for ax, kind in zip(axes[:2], ("plain", "residual"), strict=True):
        # rows of a surface are α: transpose so that α runs along the x axis
        filled = ax.contourf(
            coords,
            coords,
            surfaces[kind][0].T,
            levels=10**exponents,
            norm=norm,
            cmap="viridis",
            extend="max",
        )
        ax.contour(
            coords,
            coords,
            surfaces[kind][0].T,
            levels=10 ** exponents[::2],
            colors=ON_IMAGE,
            linewidths=0.6,
            alpha=0.7,
        )
        ax.plot(0, 0, marker="+", color=ON_IMAGE, ms=9, mew=1.5)
        title = names[kind].replace("，", "\n").replace(", ", "\n")  # two lines: narrow panels
        ax.set(title=title, xlabel="α", ylabel="β", aspect="equal")
        ax.grid(False)
    where = {"location": "top", "shrink": 0.8} if tr.narrow else {"shrink": 0.9}
    bar = fig.colorbar(filled, ax=axes[:2], ticks=10.0 ** exponents[::2], **where)
    bar.set_label(tr("训练损失（对数刻度）", "training loss (log scale)"))
    right = axes[2]
    middle = len(coords) // 2
    for kind in ("plain", "residual"):
        colour = kind_style(tr, kind)["color"]
        median_band(right, coords, surfaces[kind][:, :, middle], colour, label=names[kind])
    right.axvline(0, color=GREY, lw=0.8, ls=":")
    seeds = len(surfaces["plain"])
    br = "" if tr.narrow else "\n"  # wide: the title fits the narrower third of the row
    right.set(
        yscale="log",
        xlabel=tr("α（β = 0）", "α (β = 0)"),
        ylabel=tr("训练损失", "training loss"),
        title=tr(
            f"过极小点的一条线{br}（{seeds} 个种子）",
            f"a line through the minimum{br}({seeds} seeds)",
        ),
    )
    right.legend(loc="lower right", fontsize=8)
    return fig
