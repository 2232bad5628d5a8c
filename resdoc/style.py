"""One look for every figure: fonts that have Chinese glyphs, a colour-blind-safe palette,
and byte-identical SVG output from one build to the next."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")  # build machines have no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402

LANGUAGES = ("zh", "en")

# Okabe–Ito: distinguishable with every common colour-vision deficiency.
PLAIN = "#D55E00"  # vermillion: the stack without shortcuts
RESIDUAL = "#0072B2"  # blue: the stack with shortcuts
ACCENT = "#009E73"  # green: a third curve
GREY = "#6B6B6B"  # predictions, guides
ORANGE = "#E69F00"  # a fourth curve
PURPLE = "#CC79A7"  # a fifth curve

# Every kind of network the figures compare, with one colour and one legend label
# (zh, en), so a kind looks and reads the same in every chapter's figures.
KINDS: dict[str, tuple[str, str, str]] = {
    "plain": (PLAIN, "无残差（plain）", "plain"),
    "residual": (RESIDUAL, "有残差（residual）", "residual"),
    "scaled": (ACCENT, "缩放捷径 0.5·x + F(x)", "scaled shortcut 0.5·x + F(x)"),
    "residual-scaled": (ACCENT, "有残差，末层 ×1/√L", "residual, last layer ×1/√L"),
    "residual-2": (ORANGE, "有残差，每两层一条捷径", "residual, shortcut every 2 layers"),
    "plain-no-bn": (PURPLE, "无残差，无批量归一化", "plain, no batch normalization"),
    "add": (RESIDUAL, "相加 x + F(x)", "add x + F(x)"),
    "concat": (PLAIN, "拼接 [x; F(x)]", "concatenate [x; F(x)]"),
    "post": (PLAIN, "Post-LN", "Post-LN"),
    "post_warmup": (ACCENT, "Post-LN，有预热", "Post-LN, warm-up"),
    "pre": (RESIDUAL, "Pre-LN", "Pre-LN"),
    "rezero": (PURPLE, "ReZero x + αF(x)，α₀ = 0", "ReZero x + αF(x), α₀ = 0"),
    "fixup": (ORANGE, "Fixup 规则（W₂ = 0）", "Fixup rule (W₂ = 0)"),
}

_SYSTEM_CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "WenQuanYi Micro Hei",
    "Source Han Sans SC",
)

FONT_HELP = (
    "No font with Chinese glyphs was found for the figures. The project's set-up installs one "
    "(`pip install -e .` brings the pinned 'pylopdf-fonts-zh-cn' package, Noto Sans SC); on Debian "
    "`apt-get install fonts-noto-cjk` also works (then delete ~/.cache/matplotlib)."
)


class MissingFontError(RuntimeError):
    pass


@cache
def cjk_font() -> str:
    """The family name of a font with Chinese glyphs, registered with matplotlib."""
    try:
        import pylopdf_fonts_zh_cn

        path = Path(pylopdf_fonts_zh_cn.sans_path())
        font_manager.fontManager.addfont(str(path))
        return font_manager.FontProperties(fname=str(path)).get_name()
    except ImportError:
        pass
    installed = {f.name for f in font_manager.fontManager.ttflist}
    for name in _SYSTEM_CJK_FONTS:
        if name in installed:
            return name
    raise MissingFontError(FONT_HELP)


def rc_params() -> dict:
    return {
        # a list of families, not the generic "sans-serif": matplotlib falls back glyph by glyph
        # only along font.family, so Latin comes from DejaVu and Han from the CJK font
        "font.family": ["DejaVu Sans", cjk_font()],
        "axes.unicode_minus": False,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.titlesize": 11,
        "axes.labelsize": 10,
        "legend.fontsize": 9,
        "legend.frameon": False,
        "lines.linewidth": 1.8,
        "figure.facecolor": "white",  # figures sit on a white card in dark mode too
        "svg.fonttype": "path",  # glyphs become outlines: no font needed to view
        "svg.hashsalt": "resdoc",  # stable element ids: identical SVG bytes per build
    }


def median_band(
    ax, x, runs, colour: str, *fmt: str, band: dict | None = None, **line
) -> np.ndarray:
    """Quantities measured once per seed (axis 0 of ``runs``): their median as a line, their
    min–max as a band behind it. ``band`` overrides the band's style; ``fmt`` and ``line`` style
    the line. Returns the median."""
    runs = np.asarray(runs)
    median = np.median(runs, axis=0)
    ax.fill_between(
        x,
        runs.min(axis=0),
        runs.max(axis=0),
        **{"color": colour, "alpha": 0.18, "lw": 0, **(band or {})},
    )
    ax.plot(x, median, *fmt, color=colour, **line)
    return median


def kind_style(tr: Translator, kind: str) -> dict[str, str]:
    """The ``color`` and ``label`` of ``kind`` (a key of :data:`KINDS`), for a plotting call.

    >>> kind_style(Translator("en"), "plain")
    {'color': '#D55E00', 'label': 'plain'}
    """
    colour, zh, en = KINDS[kind]
    return {"color": colour, "label": tr(zh, en)}


class Translator:
    """Picks the string of one language: ``tr("层", "layer")``."""

    def __init__(self, lang: str):
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; expected one of {LANGUAGES}")
        self.lang = lang

    def __call__(self, zh: str, en: str) -> str:
        return zh if self.lang == "zh" else en


def render_svg(draw: Callable[[Translator], plt.Figure], lang: str) -> bytes:
    """Call ``draw`` for one language and return the figure as deterministic SVG bytes."""
    import io

    with plt.rc_context(rc_params()):
        fig = draw(Translator(lang))
        buffer = io.BytesIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
        plt.close(fig)
    return buffer.getvalue()
