"""Figures of chapter 05-going-deeper. Every label comes from ``tr(zh, en)``. A line is the
median over seeds; the band or error bar spans the lowest and highest seed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from resdoc.style import (
    ACCENT,
    GREY,
    ORANGE,
    PURPLE,
    RESIDUAL,
    Translator,
    kind_style,
    median_band,
    panels,
)


def _median_range(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of (seeds, n): median, distance down to the minimum, up to the maximum."""
    median = np.median(values, 0)
    return median, median - values.min(0), values.max(0) - median


def lesion_figure(accuracy: dict[str, np.ndarray], tr: Translator) -> plt.Figure:
    """Test accuracy with block i deleted; ``accuracy[kind]`` is (seeds, 1 + blocks), column 0
    the intact net (dashed); dotted: chance (10 %)."""
    fig, ax = plt.subplots(
        figsize=(tr.width, 3.0) if tr.narrow else (6.4, 3.4), layout="constrained"
    )
    for kind, values in accuracy.items():
        median, down, up = _median_range(100 * values[:, 1:])
        blocks = np.arange(len(median))
        style = dict(fmt="o-", ms=4, capsize=3, **kind_style(tr, kind))
        ax.errorbar(blocks, median, yerr=[down, up], **style)
        ax.axhline(100 * np.median(values[:, 0]), ls="--", lw=1, color=style["color"])
    ax.axhline(10, ls=":", lw=1.2, color=GREY, label=tr("随机猜测（10%）", "chance (10%)"))
    ax.plot(
        [], [], "--", lw=1, color=GREY, label=tr("虚线：不删除任何块", "dashed: no block deleted")
    )
    seeds = len(next(iter(accuracy.values())))
    ax.set(
        xlabel=tr("测试时删除的块 i", "block i deleted at test time"),
        ylabel=tr("测试准确率（%）", "test accuracy (%)"),
        ylim=(0, 105),
        title=tr(f"删掉一个块之后（{seeds} 个种子）", f"after deleting one block ({seeds} seeds)"),
    )
    ax.set_xticks(blocks)
    ax.legend(loc="center right")
    return fig


def path_figure(
    counts: list[int],
    per_path: dict[str, np.ndarray],
    share: dict[str, np.ndarray],
    tr: Translator,
) -> plt.Figure:
    """(a) paths per length, (b) gradient along one path per length, (c) share of the total;
    ``per_path[when]`` and ``share[when]`` are (seeds, lengths)."""
    fig, (a, b, c) = panels(tr, 3, height=3.3, narrow_height=2.5)
    k = np.arange(len(counts))
    a.bar(k, 100 * np.array(counts) / sum(counts), color=GREY, width=0.8)
    a.set(
        xlabel=tr("路径长度 k", "path length k"),
        ylabel=tr("占全部 2ⁿ 条路径的百分比", "share of all 2ⁿ paths (%)"),
        title=tr("(a) 长度为 k 的路径：C(n, k) 条", "(a) paths of length k: C(n, k)"),
    )
    colours = {"init": ACCENT, "trained": RESIDUAL}
    names = {"init": tr("初始化时", "at initialization"), "trained": tr("训练后", "after training")}
    for key in per_path:
        for ax, values, scale in ((b, per_path[key], 1), (c, share[key], 100)):
            values = scale * np.asarray(values)
            ax.fill_between(k, values.min(0), values.max(0), color=colours[key], alpha=0.2)
            ax.plot(k, np.median(values, 0), "o-", ms=3, color=colours[key], label=names[key])
    b.set_yscale("log")
    b.set(
        xlabel=tr("路径长度 k", "path length k"),
        ylabel=tr("单条路径的梯度范数", "gradient norm of one path"),
        title=tr("(b) 每条路径送回的梯度", "(b) gradient along one path"),
    )
    c.set(
        xlabel=tr("路径长度 k", "path length k"),
        ylabel=tr("占总梯度的百分比", "share of the total gradient (%)"),
        title=tr("(c) (a) × (b)：各长度的总贡献", "(c) (a) × (b): total per length"),
    )
    b.legend(loc="lower left")
    return fig


def stochastic_lesion_figure(accuracy: dict[str, np.ndarray], tr: Translator) -> plt.Figure:
    """(a) Test accuracy with block i deleted, residual nets trained normally and with stochastic
    depth (``accuracy[kind]`` is (seeds, 1 + blocks), column 0 the intact net, dashed);
    (b) each seed's drop, intact minus the mean over blocks, one line per seed joining the pair."""
    fig, (a, b) = panels(tr, 2, height=3.6, narrow_height=2.9)
    colours = {"residual": RESIDUAL, "stochastic": ACCENT}
    labels = {
        "residual": tr("普通训练", "trained normally"),
        "stochastic": tr("随机深度训练", "trained with stochastic depth"),
    }
    for kind, values in accuracy.items():
        blocks = np.arange(values.shape[1] - 1)
        median_band(a, blocks, 100 * values[:, 1:], colours[kind], "o-", ms=4, label=labels[kind])
        a.axhline(100 * np.median(values[:, 0]), ls="--", lw=1, color=colours[kind])
    a.plot(
        [], [], "--", lw=1, color=GREY, label=tr("虚线：不删除任何块", "dashed: no block deleted")
    )
    seeds = len(accuracy["residual"])
    a.set(
        xlabel=tr("测试时删除的块 i", "block i deleted at test time"),
        ylabel=tr("测试准确率（%）", "test accuracy (%)"),
        title=tr(
            f"(a) 删掉一个块之后（{seeds} 个种子）", f"(a) after deleting one block ({seeds} seeds)"
        ),
    )
    a.set_xticks(blocks)
    a.legend(loc="best")
    drops = {k: 100 * (v[:, 0] - v[:, 1:].mean(1)) for k, v in accuracy.items()}
    b.plot([0, 1], [drops["residual"], drops["stochastic"]], "-", color=GREY, lw=1, alpha=0.6)
    for x, kind in enumerate(drops):
        b.plot(np.full(seeds, x), drops[kind], "o", ms=6, color=colours[kind])
    b.set_xticks([0, 1], [labels[k] for k in drops])
    b.set(
        xlim=(-0.5, 1.5),
        ylim=(0, None),
        ylabel=tr("平均下降（百分点）", "mean drop (points)"),
        title=tr(
            "(b) 每个种子：删一个块平均损失的准确率",
            "(b) per seed: accuracy lost per deleted block",
        ),
    )
    return fig


def reversible_figure(
    depths: list[int],
    errors: dict[str, np.ndarray],
    kept: dict[str, list[int]],
    tr: Translator,
) -> plt.Figure:
    """Stacks of reversible blocks at initialization: (a) the relative error of inverting them,
    ``errors[dtype]`` (seeds, depths), each format's unit roundoff dotted; (b) the KiB autograd
    keeps for the backward pass, ``kept[kind]`` (one count per depth: the same for every seed)."""
    fig, (a, b) = panels(tr, 2, height=3.2, narrow_height=2.7)
    colours = {"float32": RESIDUAL, "float64": ORANGE}
    for dtype, runs in errors.items():
        median_band(a, depths, runs, colours[dtype], "o-", ms=4, label=dtype)
    for roundoff in (2.0**-24, 2.0**-53):
        a.axhline(roundoff, ls=":", lw=1, color=GREY)
    a.plot([], [], ":", lw=1, color=GREY, label=tr("单位舍入误差", "unit roundoff"))
    a.set(
        xscale="log",
        yscale="log",
        xlabel=tr("可逆块数", "reversible blocks"),
        ylabel=r"$\Vert \hat{x} - x \Vert \,/\, \Vert x \Vert$",
        title=tr("先前向再求逆：重建误差", "forward, then inverted: the error"),
    )
    a.legend(loc="center right", fontsize=8)
    styles = {
        "residual": (PURPLE, "o-", tr("普通残差堆叠", "ordinary residual stack")),
        "checkpointed": (ACCENT, "s-", tr("每块一个检查点", "checkpoint every block")),
        "reversible": (RESIDUAL, "^-", tr("可逆堆叠，反向时重建", "reversible, reconstructing")),
    }
    for kind, counts in kept.items():
        colour, fmt, label = styles[kind]
        b.plot(depths, np.asarray(counts) / 1024, fmt, ms=4, color=colour, label=label)
    b.set(
        xscale="log",
        yscale="log",
        xlabel=tr("块数", "blocks"),
        ylabel=tr("为反向保存的激活值（KiB）", "activations kept for backward (KiB)"),
        title=tr("自动求导保存了多少", "what autograd keeps"),
    )
    b.legend(loc="upper left", fontsize=8)
    for ax in (a, b):
        ax.set_xticks(depths, [str(d) for d in depths])
        ax.minorticks_off()
    return fig


def refinement_figure(writes: np.ndarray, readout: np.ndarray, tr: Translator) -> plt.Figure:
    r"""Trained residual nets: (a) each block's write $\lVert \mathcal{F}_l(x_l) \rVert / \lVert x_l \rVert$,
    ``writes`` (seeds, blocks); (b) the net's own head applied to $x_l$, ``readout`` (seeds, 1 + blocks),
    test accuracy in %."""
    fig, (a, b) = panels(tr, 2, height=3.2, narrow_height=2.6)
    blocks = np.arange(writes.shape[1])
    median_band(a, blocks, writes, RESIDUAL, "o-", ms=4)
    a.set(
        ylim=(0, None),
        xlabel=tr("块 l", "block l"),
        ylabel=r"$\Vert \mathcal{F}_l(x_l) \Vert \,/\, \Vert x_l \Vert$",
        title=tr("每个块写入的相对大小", "how much each block writes"),
    )
    a.set_xticks(blocks)
    stages = np.arange(readout.shape[1])
    median_band(b, stages, 100 * readout, RESIDUAL, "o-", ms=4)
    b.axhline(10, ls=":", lw=1.2, color=GREY, label=tr("随机猜测（10%）", "chance (10%)"))
    b.set(
        ylim=(0, 105),
        xlabel=tr("读出的残差流 x_l（l 个块之后）", "stream read, x_l (after l blocks)"),
        ylabel=tr("测试准确率（%）", "test accuracy (%)"),
        title=tr("网络自己的分类头读 x_l", "the net's own head reads x_l"),
    )
    b.set_xticks(stages)
    b.legend(loc="center right", fontsize=8)
    return fig
