"""Figures of chapter 04-add-norm. Every label comes from ``tr(zh, en)``; every curve is the
median over seeds, with a band or bars from the smallest to the largest seed."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from resdoc.style import (
    ACCENT,
    GREY,
    KINDS,
    PLAIN,
    RESIDUAL,
    Translator,
    kind_style,
    median_band,
    panels,
)

MARKERS = {
    "post": "o-",
    "post_warmup": "s-",
    "pre": "^-",
}  # distinct shapes: curves overlap at 100 %


def setting_label(tr: Translator, name: str) -> str:
    return {
        "post": tr("Post-LN，无预热", "Post-LN, no warm-up"),
        "post_warmup": tr("Post-LN，有预热", "Post-LN, warm-up"),
        "pre": tr("Pre-LN，无预热", "Pre-LN, no warm-up"),
    }[name]


def _spread(ax, x, values, colour, label, style="o-", band=True, **kw):
    """Median over seeds (axis 0) as a line, the range as a band (or error bars)."""
    if band:
        median_band(ax, x, values, colour, style, ms=3.5, label=label, **kw)
    else:
        values = np.asarray(values)
        mid, low, high = np.median(values, 0), values.min(0), values.max(0)
        ax.errorbar(
            x,
            mid,
            yerr=(mid - low, high - mid),
            fmt=style,
            color=colour,
            label=label,
            capsize=3,
            **kw,
        )


def _sqrt_guide(ax, depths, anchor: float, tr: Translator) -> None:
    r"""A dashed $\propto\sqrt{L}$ line through ``anchor`` at the smallest depth."""
    depths = np.asarray(depths)
    ax.plot(
        depths,
        anchor * np.sqrt(depths / depths[0]),
        "--",
        lw=1,
        color=GREY,
        label=tr("∝ √L", "∝ √L"),
    )


def _depth_axis(ax, depths) -> None:
    ax.set_xscale("log")
    ax.set_xticks(depths, [str(d) for d in depths])
    ax.minorticks_off()


def init_grad_figure(study: dict, profile_depth: int, tr: Translator) -> plt.Figure:
    r"""Left: per-layer $\lVert \partial\ell/\partial W_2 \rVert$ at ``profile_depth``; right: the
    last block's norm against depth."""
    fig, (left, right) = panels(tr, 2, height=3.4, narrow_height=2.8)
    depths = sorted(study)
    for kind in ("post", "pre"):
        profile = study[profile_depth][kind]
        style = kind_style(tr, kind)
        _spread(left, np.arange(1, profile_depth + 1), profile, style["color"], style["label"])
        last = np.array([study[L][kind][:, -1] for L in depths]).T  # (seeds, depths)
        _spread(right, depths, last, style["color"], style["label"])
    n_seeds = len(study[profile_depth]["post"])
    left.set(
        yscale="log",
        xlabel=tr("层 l（1 = 最靠近输入）", "layer l (1 = nearest the input)"),
        ylabel=tr("‖∂ℓ/∂W₂‖（前馈第二层）", "‖∂ℓ/∂W₂‖ (second FFN layer)"),
        title=tr(f"{profile_depth} 层，初始化时", f"{profile_depth} layers, at initialization"),
    )
    right.set(
        xlabel=tr("层数 L", "number of layers L"),
        ylabel=tr("最后一层的 ‖∂ℓ/∂W₂‖", "last layer's ‖∂ℓ/∂W₂‖"),
        title=tr("最后一层随层数的变化", "last layer against depth"),
        ylim=(0, None),
    )
    _depth_axis(right, depths)
    left.legend(
        loc="best", title=tr(f"{n_seeds} 个种子：中位数与范围", f"{n_seeds} seeds: median, range")
    )
    return fig


def ratio_figure(study: dict, tr: Translator) -> plt.Figure:
    r"""Left: Post-LN over Pre-LN, last layer, per seed, against depth; right: the Pre-LN residual
    stream's growth $\lVert x_L \rVert / \lVert x_0 \rVert$. Both beside a $\sqrt{L}$ guide."""
    fig, (left, right) = panels(tr, 2, height=3.4, narrow_height=2.8)
    depths = sorted(study)
    ratio = np.array([study[L]["post"][:, -1] / study[L]["pre"][:, -1] for L in depths]).T
    growth = np.array([study[L]["growth"] for L in depths]).T
    for ax, values, colour, label in (
        (left, ratio, ACCENT, tr("Post-LN ÷ Pre-LN", "Post-LN ÷ Pre-LN")),
        (right, growth, RESIDUAL, tr("Pre-LN 的 ‖x_L‖/‖x₀‖", "Pre-LN's ‖x_L‖/‖x₀‖")),
    ):
        _spread(ax, depths, values, colour, label, band=False)
        _sqrt_guide(ax, depths, float(np.median(values[:, 0])), tr)
        _depth_axis(ax, depths)
        ax.set(xlabel=tr("层数 L", "number of layers L"), ylim=(0, None))
        ax.legend(loc="upper left")
    left.set(
        ylabel=tr("最后一层梯度之比", "ratio of last-layer gradients"),
        title=tr("Post-LN 与 Pre-LN 最后一层梯度之比", "Post-LN over Pre-LN, last layer"),
    )
    right.set(
        ylabel=tr("输出与输入的范数之比", "norm of output over input"),
        title=tr("Pre-LN 残差流的增长", "growth of Pre-LN's residual stream"),
    )
    return fig


def warmup_figure(accuracy: dict, curves: dict, shown: float, tr: Translator) -> plt.Figure:
    """Left: training loss per step at learning rate ``shown``; right: held-out accuracy at the
    end against the learning rate. Median over seeds, with the range."""
    fig, (left, right) = panels(tr, 2, height=3.7, narrow_height=2.6)
    for offset, (name, per_lr) in zip((-0.04, 0.0, 0.04), accuracy.items(), strict=True):
        smooth = np.array([np.convolve(c, np.ones(5) / 5, mode="valid") for c in curves[name]])
        steps = np.arange(smooth.shape[1]) + 5  # 5-step moving average
        colour = KINDS[name][0]  # the settings' own labels say whether they warm up
        _spread(left, steps, smooth, colour, setting_label(tr, name), style="-")
        lrs = sorted(per_lr)
        shifted = np.array(lrs) * 10**offset  # side by side, so the bars do not hide each other
        acc = [100 * np.asarray(per_lr[lr]) for lr in lrs]
        mid = np.array([np.median(a) for a in acc])
        err = (mid - [a.min() for a in acc], [a.max() for a in acc] - mid)
        right.errorbar(shifted, mid, yerr=err, fmt=MARKERS[name], color=colour, capsize=3)
    left.axhline(np.log(10), ls=":", lw=1.2, color=GREY)
    left.text(
        steps[-1],
        np.log(10),
        tr("随机猜测 ln 10", "chance, ln 10"),
        ha="right",
        va="bottom",
        color=GREY,
    )
    left.set(
        xlabel=tr("训练步数", "training step"),
        ylabel=tr("训练损失（5 步平均）", "training loss (5-step mean)"),
        title=tr(
            f"学习率 {shown:g}，{len(curves['post'])} 个种子",
            f"learning rate {shown:g}, {len(curves['post'])} seeds",
        ),
        ylim=(0, None),
    )
    right.axhline(10, ls=":", lw=1.2, color=GREY)
    right.set(
        xscale="log",
        xlabel=tr("峰值学习率", "peak learning rate"),
        ylabel=tr("留出批次的准确率（%）", "held-out accuracy (%)"),
        title=tr("训练结束时：中位数与范围", "at the end: median and range"),
        ylim=(0, 105),
    )
    right.set_xticks(lrs, [f"{lr:g}" for lr in lrs])
    right.minorticks_off()
    fig.legend(
        *left.get_legend_handles_labels(), loc="outside lower center", ncols=1 if tr.narrow else 3
    )
    return fig


def final_ln_figure(profiles: list[dict], exponent: float, late: int, tr: Translator) -> plt.Figure:
    r"""Pre-LN at initialization, one stack of L blocks per seed. Left: what the head sees after
    block l, without a final LN ($\lVert x_l \rVert$) and with one ($\lVert \mathrm{LN}(x_l) \rVert$),
    and the blocks' writes $\lVert x_l - x_0 \rVert$ with the fitted $l^p$. Right: each block's
    write relative to the stream it is added to, beside $1/\sqrt{l}$ through block ``late``."""
    fig, (left, right) = panels(tr, 2, height=3.5, narrow_height=2.8)
    runs = {key: np.array([p[key] for p in profiles]) for key in profiles[0]}
    depth = np.arange(1, runs["stream"].shape[1])  # l = 1..L, after block l
    for key, colour, label in (
        ("stream", PLAIN, tr("无最终 LN：‖x_l‖", "no final LN: ‖x_l‖")),
        ("head_in", RESIDUAL, tr("有最终 LN：‖LN(x_l)‖", "final LN: ‖LN(x_l)‖")),
        ("writes", ACCENT, tr("各块写入之和：‖x_l − x₀‖", "sum of writes: ‖x_l − x₀‖")),
    ):
        median = median_band(left, depth, runs[key][:, 1:], colour, "-", label=label)
    fit = median[0] * depth**exponent  # through the writes' median at l = 1
    label = tr(f"∝ l^{exponent:.2f}（拟合）", f"∝ l^{exponent:.2f} (fit)")  # no mathtext: CJK
    left.plot(depth, fit, "--", lw=1, color=GREY, label=label)
    left.set(
        ylabel=tr("输出层看到的范数", "norm the head sees"),
        title=tr("残差流的范数", "norm of the stream"),
    )
    left.legend(loc="upper left", fontsize=8)
    share = median_band(right, depth, runs["relative"], RESIDUAL, "-", label="‖F_l‖ / ‖x_l‖")
    guide = share[late - 1] * np.sqrt(late / depth)
    right.plot(depth, guide, "--", lw=1, color=GREY, label="∝ 1/√l")
    right.set(
        ylabel=tr("写入与残差流的范数之比", "write over stream"),
        title=tr("每块写入占残差流的比例", "each block's write, relative"),
    )
    right.legend(
        loc="lower left",
        title=tr(f"{len(profiles)} 个种子：中位数与范围", f"{len(profiles)} seeds: median, range"),
    )
    ticks = [1, 2, 4, 8, 16, 32, 64]
    for ax, yticks in ((left, [3, 5, 10, 20, 40]), (right, [0.05, 0.1, 0.2, 0.3, 0.5])):
        ax.set(xscale="log", yscale="log", xlabel=tr("块 l", "block l"))
        ax.set_xticks(
            [t for t in ticks if t <= depth[-1]], [str(t) for t in ticks if t <= depth[-1]]
        )
        ax.set_yticks(yticks, [f"{t:g}" for t in yticks])
        ax.minorticks_off()
    return fig


def amplification_figure(study: dict, depths, tr: Translator) -> plt.Figure:
    r"""Left: the relative output change per relative parameter change against depth, Post-LN,
    Pre-LN and Admin; right: Admin's $\omega_i$ along the deepest stack."""
    fig, (left, right) = panels(tr, 2, height=3.4, narrow_height=2.8)
    admin = {"color": ACCENT, "label": tr("Post-LN + Admin 的 ω", "Post-LN + Admin's ω")}
    for kind, style, marker in (
        ("post", kind_style(tr, "post"), "o-"),
        ("pre", kind_style(tr, "pre"), "^-"),
        ("admin", admin, "s-"),
    ):
        _spread(left, depths, study["change"][kind], style["color"], style["label"], marker, False)
    _depth_axis(left, depths)
    n_seeds = len(study["omegas"])
    left.set(
        xlabel=tr("层数 L", "number of layers L"),
        ylabel=tr("输出相对变化 ÷ 参数相对变化", "output change ÷ parameter change"),
        title=tr("初始化时的放大", "amplification at initialization"),
        ylim=(0, None),
    )
    left.legend(
        loc="upper left",
        title=tr(f"{n_seeds} 个种子：中位数与范围", f"{n_seeds} seeds: median, range"),
    )
    layers = np.arange(1, study["omegas"].shape[1] + 1)
    median_band(right, layers, study["omegas"], ACCENT, "-")
    right.set(
        xlabel=tr("残差层 i（每块两个）", "residual layer i (two per block)"),
        ylabel="ω",
        title=tr(f"Admin 的 ω，{max(depths)} 层", f"Admin's ω, {max(depths)} layers"),
        ylim=(0, None),
    )
    return fig
