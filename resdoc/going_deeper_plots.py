"""Figures of chapter 05-going-deeper. Every label comes from ``tr(zh, en)``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from resdoc.style import ACCENT, GREY, PLAIN, RESIDUAL, Translator


def lesion_figure(accuracy: dict[str, list[float]], tr: Translator) -> plt.Figure:
    """Test accuracy with block i deleted; dashed: the intact net; dotted: chance (10 %)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.4), layout="constrained")
    labels = {
        "plain": tr("无残差（plain）", "plain"),
        "residual": tr("有残差（residual）", "residual"),
    }
    for kind, values in accuracy.items():
        colour = PLAIN if kind == "plain" else RESIDUAL
        blocks = np.arange(len(values) - 1)
        ax.plot(blocks, 100 * np.array(values[1:]), "o-", ms=4, color=colour, label=labels[kind])
        ax.axhline(100 * values[0], ls="--", lw=1, color=colour)
    ax.axhline(10, ls=":", lw=1.2, color=GREY, label=tr("随机猜测（10%）", "chance (10%)"))
    ax.plot(
        [], [], "--", lw=1, color=GREY, label=tr("虚线：不删除任何块", "dashed: no block deleted")
    )
    ax.set(
        xlabel=tr("测试时删除的块 i", "block i deleted at test time"),
        ylabel=tr("测试准确率（%）", "test accuracy (%)"),
        ylim=(0, 105),
        title=tr("删掉一个块之后", "after deleting one block"),
    )
    ax.set_xticks(np.arange(len(next(iter(accuracy.values()))) - 1))
    ax.legend(loc="center right")
    return fig


def path_figure(
    counts: list[int],
    per_path: dict[str, list[float]],
    share: dict[str, list[float]],
    tr: Translator,
) -> plt.Figure:
    """(a) paths per length, (b) gradient along one path per length, (c) share of the total."""
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(10.2, 3.3), layout="constrained")
    k = np.arange(len(counts))
    a.bar(k, 100 * np.array(counts) / sum(counts), color=GREY, width=0.8)
    a.set(
        xlabel=tr("路径长度 k", "path length k"),
        ylabel=tr("占全部 2ⁿ 条路径的百分比", "share of all 2ⁿ paths (%)"),
        title=tr("(a) 长度为 k 的路径：C(n, k) 条", "(a) paths of length k: C(n, k)"),
    )
    colours = {"init": ACCENT, "trained": RESIDUAL}
    names = {"init": tr("初始化时", "at initialisation"), "trained": tr("训练后", "after training")}
    for key, values in per_path.items():
        positive = np.array(values) > 0
        b.semilogy(
            k[positive],
            np.array(values)[positive],
            "o-",
            ms=3,
            color=colours[key],
            label=names[key],
        )
        c.plot(k, 100 * np.array(share[key]), "o-", ms=3, color=colours[key], label=names[key])
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
