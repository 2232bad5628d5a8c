"""Figures: every variant drawn (light and dark, wide and narrow), legible on a phone and a
desktop, shown as the reader's screen and palette need, numbered, with a caption."""

import json
import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
from bs4 import BeautifulSoup

from resdoc import style
from resdoc.sitegen import conventions
from resdoc.sitegen.apparatus import Figure
from resdoc.sitegen.figures import present_figures
from resdoc.sitegen.pages import PageError
from tests.sites import COLUMN_PX, figure_records, parsed, variant_of

pytestmark = pytest.mark.upstream  # the slow tests read every figure of the built site

SIZES = {"wide-light": (691.2, 288), "narrow-light": (288, 345.6)}


@pytest.fixture
def figures(tmp_path):
    """``figure_info`` for one published figure, ``demo/chart``, with its variants' sizes."""
    sizes = {**SIZES, "wide-dark": SIZES["wide-light"], "narrow-dark": SIZES["narrow-light"]}
    record = {v: {"width_pt": w, "height_pt": h, "min_font_pt": 8} for v, (w, h) in sizes.items()}
    info = tmp_path / "chart.json"
    info.write_text(json.dumps({"zh": record, "en": record}), "utf-8")
    return lambda uri: info if uri == "figures/demo/chart.svg" else None


def test_a_figure_alone_in_its_paragraph_becomes_a_numbered_figure_with_its_caption(figures):
    html = '<p><img alt="a chart" src="../../figures/demo/chart.svg" title="What it means"></p>'
    numbered = [Figure("chart", "Figure 3.1")]
    figure = BeautifulSoup(present_figures(html, figures, "en", numbered), "html.parser").figure
    assert figure["id"] == "fig-chart" and "rd-figure" in figure["class"]
    assert figure.figcaption.get_text() == "Figure 3.1 What it means"
    light, dark = figure.select("picture")
    for picture, scheme in ((light, ""), (dark, ".dark")):
        source, img = picture.source, picture.img
        assert source["srcset"] == f"../../figures/demo/chart.narrow{scheme}.svg"
        assert source["media"] == "(max-width: 44.984375em)"
        assert (source["width"], source["height"]) == ("384", "461")
        assert (img["width"], img["height"]) == ("922", "384")
        assert img["loading"] == "lazy" and img["alt"] == "a chart" and not img.get("title")
    # Material hides the other palette's picture (its #only-light / #only-dark convention)
    assert light.img["src"] == "../../figures/demo/chart.svg#only-light"
    assert dark.img["src"] == "../../figures/demo/chart.dark.svg#only-dark"


def test_a_captions_formulas_are_left_for_katex_as_the_texts_are(figures):
    # arithmatex turns the Markdown title's $x_L$ into \\(x_L\\); the caption marks it as a
    # formula, as arithmatex marks one in the text, and math.py typesets it
    title = "the norm \\(\\lVert x_L\\rVert\\) against \\(L &lt; 9\\)"
    html = f'<p><img alt="a" src="../figures/demo/chart.svg" title="{title}"></p>'
    caption = BeautifulSoup(present_figures(html, figures, "en"), "html.parser").figcaption
    assert [span.get_text() for span in caption.select("span.arithmatex")] == [
        "\\(\\lVert x_L\\rVert\\)",
        "\\(L < 9\\)",
    ]
    assert caption.get_text() == "the norm \\(\\lVert x_L\\rVert\\) against \\(L < 9\\)"


def test_a_figure_among_other_content_gets_its_variants_and_other_images_stay(figures):
    html = '<div><img class="resdoc-figure" src="../figures/demo/chart.svg" alt="b"></div><img src="../logo.svg">'
    shown = BeautifulSoup(present_figures(html, figures, "zh"), "html.parser")
    assert len(shown.select("div > .rd-figure-art > picture")) == 2
    assert shown.select("img")[-1]["src"] == "../logo.svg"


def test_a_figure_that_is_not_the_one_numbered_fails_naming_the_page(figures):
    html = '<p><img alt="a" src="../figures/demo/chart.svg" title="c"></p>'
    with pytest.raises(PageError, match="p.md: figure 'chart' is not the one numbered"):
        present_figures(html, figures, "en", [Figure("other", "Figure 1.1")], "p.md")


def test_the_site_and_the_science_name_the_same_variants():
    assert {v.name: v.suffix for v in style.VARIANTS} == conventions.FIGURE_VARIANTS


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("role", [style.PLAIN, style.RESIDUAL, style.ACCENT, style.GREY,
                                  style.ORANGE, style.PURPLE])  # fmt: skip
def test_every_palette_colour_keeps_a_contrast_of_3_to_1_on_the_dark_page(role):
    paper = style.scheme_colour("dark", style.PAPER)
    assert contrast(style.scheme_colour("dark", role), paper) >= 3


def test_text_keeps_a_contrast_of_4_5_to_1_in_both_schemes():
    for scheme in style.SCHEMES:
        ink, paper = (style.scheme_colour(scheme, role) for role in (style.INK, style.PAPER))
        assert contrast(ink, paper) >= 4.5, scheme


def test_a_rendered_variant_records_its_size_and_smallest_text():
    def draw(tr):
        fig, (a, b) = style.panels(tr, 2, height=3, narrow_height=2)
        a.plot([0, 1], [0, 1], color=style.RESIDUAL)
        a.set_title(tr("标题", "title"))
        b.text(0.5, 0.5, "small", fontsize=7.5)
        return fig

    narrow = style.render(draw, "en", narrow=True, scheme="dark")
    assert (narrow.width_pt, narrow.height_pt) == (style.NARROW_WIDTH * 72, 4 * 72)
    assert narrow.min_font_pt == 7.5
    svg = narrow.svg.decode()
    assert style.scheme_colour("dark", style.RESIDUAL).lower() in svg.lower()  # the dark palette
    assert style.render(draw, "en", narrow=False, scheme="light").width_pt == style.WIDE_WIDTH * 72
    assert plt.get_fignums() == []


def test_a_variant_a_reader_could_not_read_whole_fails_naming_it():
    """A title wider than a phone's column (it ran off the figure), and a note that left its
    axes no room (matplotlib gave up the layout and drew the axes a sliver): each fails."""

    def long_title(tr):
        fig, ax = plt.subplots(figsize=(tr.width, 2), layout="constrained")
        ax.set_title(tr("短", "short") if not tr.narrow else "a title as long as " * 4)
        return fig

    assert style.render(long_title, "en", narrow=False, scheme="light").width_pt > 0
    with pytest.raises(style.LayoutError, match="the narrow en variant: text outside the figure"):
        style.render(long_title, "en", narrow=True, scheme="light")

    def crowded(tr):  # as chapter 10's training figure did on a phone: a note as wide as 2 figures
        fig, ax = plt.subplots(figsize=(tr.width, 2), layout="constrained")
        ax.annotate("注" * 120, (0, 0.5), xytext=(10, 0), textcoords="offset points")
        return fig

    with pytest.raises(style.LayoutError, match="the wide zh variant: .*layout not applied"):
        style.render(crowded, "zh", narrow=False, scheme="light")
    assert plt.get_fignums() == []


def _same_up_to_ids(svg: bytes) -> str:
    """``svg`` with its element ids renamed in order of appearance: matplotlib names a marker
    by a hash of its style, colour included, so the two schemes' ids differ."""
    text, ids = svg.decode(), {}
    for found in re.finditer(r'id="([^"]+)"', text):
        ids.setdefault(found.group(1), f"id{len(ids)}")
    return re.sub(
        r'(id="|href="#|url\(#)([^")]+)',
        lambda m: m.group(1) + ids.get(m.group(2), m.group(2)),
        text,
    )


@pytest.mark.parametrize("narrow", [False, True])
def test_the_recoloured_light_figure_is_the_dark_drawing(narrow):
    """What publish.figure ships as the dark variant (the light SVG recoloured) is what drawing
    in the dark scheme gives, for every role of the palette, the grid, bands, markers, error
    bars, bars, text and lines over a colour map."""

    def draw(tr):
        fig, (a, b) = style.panels(tr, 2, height=3, narrow_height=2)
        x = np.linspace(0, 1, 9)
        for i, role in enumerate((style.PLAIN, style.RESIDUAL, style.ACCENT, style.GREY)):
            a.plot(x, x + i, "o-", color=role, label=tr("线", "line"))
        style.median_band(a, x, [x, 2 * x, 3 * x], style.ORANGE)
        a.errorbar(x, x, yerr=0.1, fmt="none", ecolor=style.INK)
        a.bar([0.5], [1], color=style.PURPLE, edgecolor=style.PAPER, alpha=0.85)
        a.legend(title=tr("图例", "legend"))
        a.set(yscale="log", xlabel=tr("层", "layer"), title=tr("标题", "title"))
        a.annotate("→", (0.5, 1), color=style.INK, arrowprops={"arrowstyle": "->"})
        grid = np.add.outer(x, x)
        b.contourf(x, x, grid, levels=8, cmap="viridis")
        b.contour(x, x, grid, levels=4, colors=style.ON_IMAGE, alpha=0.7)
        b.plot(0.5, 0.5, marker="+", color=style.ON_IMAGE)
        return fig

    light = style.render(draw, "zh", narrow, "light").svg
    dark = style.render(draw, "zh", narrow, "dark").svg
    recoloured = style.dark_from_light(light)
    assert recoloured != light
    assert _same_up_to_ids(recoloured) == _same_up_to_ids(dark)


def test_a_colour_with_two_roles_in_the_light_scheme_fails(monkeypatch):
    monkeypatch.setattr(style, "ON_IMAGE", style.PALETTES["light"][7])  # the paper's white
    with pytest.raises(ValueError, match="one colour for two roles"):
        style._light_to_dark()


# --- every published figure (slow: the built site and its examples' outputs) ----------------


@pytest.mark.slow
def test_every_published_figure_has_every_variant_in_both_languages(site):
    records = figure_records(site)
    assert len(records) >= 20
    for (example, name), record in records.items():
        for lang, prefix in (("zh", ""), ("en", "en/")):
            assert set(record[lang]) == set(conventions.FIGURE_VARIANTS), (example, name)
            for suffix in conventions.FIGURE_VARIANTS.values():
                uri = conventions.variant_uri(conventions.figure_uri(example, name), suffix)
                assert (site / prefix / uri).is_file(), uri
            # dark is the same drawing in other colours: the same size
            assert record[lang]["wide-dark"]["width_pt"] == record[lang]["wide-light"]["width_pt"]


@pytest.mark.slow
def test_every_variant_shown_in_its_column_has_text_of_at_least_9_css_px(site):
    """Each variant at the width its column shows it (``COLUMN_PX``; never wider than its own
    width): a narrow one in a phone's 358 px, a wide one in a desktop's 688 px."""
    small = []
    for (example, name), record in figure_records(site).items():
        for lang, variants in record.items():
            for variant, size in variants.items():
                column = COLUMN_PX["phone" if variant.startswith("narrow") else "desktop"]
                shown = min(column, size["width_pt"] * 4 / 3)
                px = size["min_font_pt"] * shown / size["width_pt"]
                if px < 9:
                    small.append(f"{example}/{name} {lang} {variant}: {px:.1f} px")
    assert small == []


@pytest.mark.slow
def test_every_chapter_figure_is_numbered_in_page_order_with_a_caption(site):
    pages = sorted(site.glob("chapters/*/index.html")) + sorted(
        site.glob("en/chapters/*/index.html")
    )
    figures_seen = 0
    for page in pages:
        chapter = int(page.parent.name[:2])
        for k, figure in enumerate(parsed(page).select("article figure.rd-figure"), start=1):
            number = figure.select_one("figcaption .rd-figure-number").get_text()
            assert re.fullmatch(rf"(图|Figure) {chapter}\.{k}", number), (page, number)
            caption = figure.figcaption.get_text().removeprefix(number).strip()
            assert len(caption) > 20, (page, number)
            assert figure["id"].startswith("fig-")
            figures_seen += 1
    assert figures_seen >= 50  # 25 figures in each language


def test_variant_of_reads_a_figure_url():
    assert variant_of("/en/figures/03-x/chart.narrow.dark.svg") == (
        "en",
        "03-x",
        "chart",
        "narrow-dark",
    )
    assert variant_of("/figures/03-x/chart.svg") == ("zh", "03-x", "chart", "wide-light")
