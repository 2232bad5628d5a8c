"""One look for every figure: fonts that have Chinese glyphs, a colour-blind-safe palette
in a light and a dark version, a wide and a narrow layout, and byte-identical SVG output
from one build to the next.

Every figure is published in each *variant*: a language, a colour scheme (the page's light or
dark palette) and a layout (``wide`` for a desktop's column, ``narrow`` for a phone's). The
``tr`` a drawing function receives says which: ``tr(zh, en)`` picks the language,
``tr.narrow`` asks for the narrow layout (stack the panels: :func:`panels`), and the scheme
is in the matplotlib settings the figure is drawn under.

Colours are named through matplotlib's colour cycle ("C0", "C1", …), which matplotlib
resolves when an artist is created: the same drawing code gives the light palette under
the light settings and the dark one under the dark settings, from the same data. Since the
schemes differ in nothing else, a figure is drawn once per language and layout, in the light
scheme, and its dark variant is that SVG with each light colour replaced by its dark twin
(:func:`dark_from_light`; tests/test_figures.py checks it against a dark drawing).

>>> scheme_colour("dark", RESIDUAL), scheme_colour("light", RESIDUAL)
('#56B4E9', '#0072B2')
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")  # build machines have no display
import matplotlib.pyplot as plt  # noqa: E402
from cycler import cycler  # noqa: E402
from matplotlib import font_manager  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from resdoc.bilingual import LANGUAGES  # noqa: E402

SCHEMES = ("light", "dark")  # Material's "default" and "slate" palettes
LAYOUTS = ("wide", "narrow")


@dataclass(frozen=True)
class Variant:
    """One way a figure is drawn besides its language: its layout and its colour scheme.

    >>> [v.name for v in VARIANTS], [v.suffix for v in VARIANTS]
    (['wide-light', 'wide-dark', 'narrow-light', 'narrow-dark'], ['', '.dark', '.narrow', '.narrow.dark'])
    """

    layout: str
    scheme: str

    @property
    def narrow(self) -> bool:
        return self.layout == "narrow"

    @property
    def name(self) -> str:
        return f"{self.layout}-{self.scheme}"

    @property
    def suffix(self) -> str:
        """What the variant adds to the figure's file name (nothing for the wide, light one)."""
        return "".join(f".{part}" for part in (self.layout, self.scheme) if part not in DEFAULTS)


DEFAULTS = ("wide", "light")
VARIANTS = tuple(Variant(layout, scheme) for layout in LAYOUTS for scheme in SCHEMES)

# The roles of the palette, as matplotlib colour-cycle names resolved per scheme.
PLAIN = "C0"  # vermillion: the stack without shortcuts
RESIDUAL = "C1"  # blue: the stack with shortcuts
ACCENT = "C2"  # bluish green: a third curve
GREY = "C3"  # predictions, guides
ORANGE = "C4"  # a fourth curve
PURPLE = "C5"  # a fifth curve
INK = "C6"  # the text's colour, for marks that must read as text (error bars, outlines)
PAPER = "C7"  # the page's background, for shapes that cover what is behind them
# Lines drawn over a colour map (viridis), the same in both schemes: a white that is not the
# light paper's #FFFFFF, which dark_from_light turns into the dark paper
ON_IMAGE = "#FDFDFD"

# Okabe–Ito, distinguishable with every common colour-vision deficiency. On the dark page the
# same hues, lighter, so that each keeps a contrast of at least 3:1 with the background
# (tests/test_figures.py checks); the backgrounds are Material's own page colours.
PALETTES: dict[str, tuple[str, ...]] = {
    #         PLAIN      RESIDUAL   ACCENT     GREY       ORANGE     PURPLE     INK        PAPER
    "light": ("#D55E00", "#0072B2", "#009E73", "#6B6B6B", "#E69F00", "#CC79A7", "#1F1F1F", "#FFFFFF"),
    "dark": ("#F5894A", "#56B4E9", "#3CC8A0", "#A3A3A3", "#F0B429", "#E3A3C9", "#D5D8DE", "#1E2129"),
}  # fmt: skip
GRID = {"light": ("#B0B0B0", 0.3), "dark": ("#FFFFFF", 0.14)}  # colour, alpha


def _light_to_dark() -> dict[str, str]:
    """Each colour of the light scheme, as matplotlib writes it into an SVG's style, and what
    the dark scheme has in its place: the palette's roles and the grid (colour and alpha)."""
    pairs = {light.lower(): dark.lower() for light, dark in zip(*PALETTES.values(), strict=True)}
    (grid, alpha), (dark_grid, dark_alpha) = GRID["light"], GRID["dark"]
    pairs[f"stroke: {grid.lower()}; stroke-opacity: {alpha}"] = (
        f"stroke: {dark_grid.lower()}; stroke-opacity: {dark_alpha}"
    )
    colours = [colour.lower() for colour in (*PALETTES["light"], grid, ON_IMAGE)]
    if len(set(colours)) != len(colours):  # one colour, two roles: which twin would it get?
        raise ValueError("the light scheme uses one colour for two roles: no dark twin for it")
    return pairs


_DARK_TWIN = _light_to_dark()
_LIGHT_COLOUR = re.compile("|".join(map(re.escape, _DARK_TWIN)))


def dark_from_light(svg: bytes) -> bytes:
    """The dark variant of a figure drawn in the light scheme: every light colour replaced by
    its dark twin, in one pass (so no replacement is replaced again).

    >>> dark_from_light(b'<path style="fill: #0072b2; stroke: #1f1f1f"/>')
    b'<path style="fill: #56b4e9; stroke: #d5d8de"/>'
    """
    text = svg.decode("utf-8")
    return _LIGHT_COLOUR.sub(lambda match: _DARK_TWIN[match.group(0)], text).encode("utf-8")


def scheme_colour(scheme: str, role: str) -> str:
    """The colour ``role`` (one of the names above, "C0"…) has in ``scheme``."""
    return PALETTES[scheme][int(role.removeprefix("C"))]


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


# A figure's width in inches, per layout. The narrow one is drawn for a phone's column (about
# 358 CSS px at 390 px; 4 in is 384 px, shown a little smaller), the wide one for a desktop's
# (about 688 px). Text sizes are chosen so that, shown at those widths, no text is smaller than
# 9 CSS px (tests/test_figures.py checks every published figure).
NARROW_WIDTH = 4.0
WIDE_WIDTH = 8.4


def rc_params(scheme: str = "light", narrow: bool = False) -> dict:
    palette = PALETTES[scheme]
    ink, paper = scheme_colour(scheme, INK), scheme_colour(scheme, PAPER)
    grid, grid_alpha = GRID[scheme]
    return {
        # a list of families, not the generic "sans-serif": matplotlib falls back glyph by glyph
        # only along font.family, so Latin comes from DejaVu and Han from the CJK font
        "font.family": ["DejaVu Sans", cjk_font()],
        "font.size": 9 if narrow else 10,
        "axes.unicode_minus": False,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.color": grid,
        "grid.alpha": grid_alpha,
        "axes.titlesize": 10 if narrow else 11,
        "axes.labelsize": 9 if narrow else 10,
        "legend.fontsize": 8.5 if narrow else 9,
        "legend.title_fontsize": 8.5 if narrow else 9,
        "legend.frameon": False,
        "lines.linewidth": 1.6 if narrow else 1.8,
        "axes.prop_cycle": cycler(color=list(palette)),
        "text.color": ink,
        "axes.labelcolor": ink,
        "axes.edgecolor": ink,
        "axes.titlecolor": ink,
        "xtick.color": ink,
        "ytick.color": ink,
        "legend.labelcolor": ink,
        "patch.edgecolor": ink,
        "figure.facecolor": paper,  # the page's own background: no card around a figure
        "axes.facecolor": paper,
        "savefig.facecolor": paper,
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
    {'color': 'C0', 'label': 'plain'}
    """
    colour, zh, en = KINDS[kind]
    return {"color": colour, "label": tr(zh, en)}


class Translator:
    """Picks the string of one language: ``tr("层", "layer")``; ``tr.narrow`` is true when
    the figure is drawn for a phone's column. It does not say the colour scheme: a drawing
    is the same in both but for its colours (its dark variant is the light one recoloured)."""

    def __init__(self, lang: str, narrow: bool = False):
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; expected one of {LANGUAGES}")
        self.lang = lang
        self.narrow = narrow

    def __call__(self, zh: str, en: str) -> str:
        return zh if self.lang == "zh" else en

    @property
    def width(self) -> float:
        """The figure's width in inches for this layout."""
        return NARROW_WIDTH if self.narrow else WIDE_WIDTH


def panels(
    tr: Translator, n: int, height: float, narrow_height: float, letters: bool = True, **options
):
    """``n`` panels side by side, ``height`` inches tall, in the wide layout; stacked, each
    ``narrow_height`` inches tall, in the narrow one. Returns ``(figure, axes)``.

    Since "left" is "top" on a phone, each panel's title starts with its letter, "(a)", "(b)",
    … (added when the figure is rendered), and captions name panels by letter; ``letters=False``
    where the figure's own labels already use letters for something else."""
    rows, cols = (n, 1) if tr.narrow else (1, n)
    size = (tr.width, narrow_height * n) if tr.narrow else (tr.width, height)
    fig, axes = plt.subplots(rows, cols, figsize=size, layout="constrained", **options)
    for letter, ax in zip("abcdefgh" if letters else "", np.atleast_1d(axes).flat, strict=False):
        ax.resdoc_letter = letter
    return fig, axes


def _letter_panels(fig: plt.Figure) -> None:
    """Put each panel's letter before its title, unless the title already starts with one."""
    for ax in fig.axes:
        letter = getattr(ax, "resdoc_letter", None)
        title = ax.get_title()
        if letter and not title.startswith(("(", "（")):
            ax.set_title(f"({letter}) {title}".rstrip())


@dataclass(frozen=True)
class Rendered:
    """One variant of a figure: its SVG, its size and its smallest text, in points."""

    svg: bytes
    width_pt: float
    height_pt: float
    min_font_pt: float


def smallest_text(fig: plt.Figure) -> float:
    """The size in points of the smallest visible text in ``fig``, once it is laid out."""
    sizes = [
        text.get_fontsize()
        for text in fig.findobj(Text)
        if text.get_visible() and text.get_text().strip()
    ]
    return min(sizes, default=float("inf"))


class LayoutError(ValueError):
    """A variant of a figure that a reader could not read whole: its layout engine gave up,
    or text of it lies outside the figure (a cut title, a note running off the edge)."""


def texts_outside(fig: plt.Figure, slack_px: float = 1.0) -> list[str]:
    """What of ``fig``, once drawn, reaches past its edges: each text drawn outside it (an
    axes' tick labels only where ticks are drawn, as the axes' own tight box counts them)."""
    renderer = fig.canvas.get_renderer()
    box = fig.bbox

    def outside(extent) -> bool:
        return (
            extent.x0 < box.x0 - slack_px
            or extent.x1 > box.x1 + slack_px
            or extent.y0 < box.y0 - slack_px
            or extent.y1 > box.y1 + slack_px
        )

    found = []
    for artist in fig.get_default_bbox_extra_artists():  # axes, legends, the figure's texts
        extent = artist.get_tightbbox(renderer)
        if extent is None or not outside(extent):
            continue
        texts = [artist] if isinstance(artist, Text) else artist.findobj(Text)
        drawn = [t for t in texts if t.get_visible() and t.get_text().strip()]
        parts = [t.get_text() for t in drawn if outside(t.get_window_extent(renderer))]
        if isinstance(artist, plt.Axes):  # tick labels beyond the view are kept, not drawn
            ticks = {t.get_text() for t in artist.get_xticklabels() + artist.get_yticklabels()}
            parts = [part for part in parts if part not in ticks] or ["its tick labels"]
        found += parts or [type(artist).__name__]
    return list(dict.fromkeys(found))  # a figure's legend or note is also its axes' child


def render(draw: Callable[[Translator], plt.Figure], lang: str, narrow: bool, scheme: str):
    """Call ``draw`` for one variant and return it as deterministic SVG bytes, with the
    figure's size and smallest text (for the pages' size attributes and the tests). A variant
    whose layout failed or whose text leaves the figure raises :class:`LayoutError`."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown colour scheme {scheme!r}; expected one of {SCHEMES}")
    variant = f"the {'narrow' if narrow else 'wide'} {lang} variant"
    with plt.rc_context(rc_params(scheme, narrow)), warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", UserWarning)
        fig = draw(Translator(lang, narrow))
        _letter_panels(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
        width, height = (float(v) * 72 for v in fig.get_size_inches())
        smallest = smallest_text(fig)
        outside = texts_outside(fig)
        plt.close(fig)
    for warning in said:  # matplotlib warns, and draws the figure anyway, squeezed
        if "layout not applied" in str(warning.message):
            raise LayoutError(f"{variant}: {warning.message}")
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    if outside:
        raise LayoutError(f"{variant}: text outside the figure: {outside}")
    return Rendered(buffer.getvalue(), width, height, smallest)
