"""Figure <img> tags get the figure's size; wide (two-panel) figures are marked and focusable."""

import pytest

from resdoc.sitegen.figures import size_figures, svg_size

SVG = '<?xml version="1.0"?>\n<svg width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg"></svg>'


@pytest.fixture
def figures(tmp_path):
    paths = {"figures/demo/wide.svg": (691.2, 288), "figures/demo/square.svg": (345.6, 345.6)}
    for uri, (w, h) in paths.items():
        (tmp_path / uri).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / uri).write_text(SVG.format(w=w, h=h), "utf-8")
    return lambda uri: tmp_path / uri if uri in paths else None


def test_size_in_css_pixels_from_points(figures):
    assert svg_size(figures("figures/demo/wide.svg")) == (922, 384)


def test_figures_are_sized_and_lazy_and_wide_ones_marked_and_focusable(figures):
    html = (
        '<p><img alt="a" src="../../figures/demo/wide.svg"></p>'
        '<img class="resdoc-figure" src="../figures/demo/square.svg" alt="b"/>'
        '<img src="../assets/logo.svg">'
    )
    assert size_figures(html, figures) == (
        '<p><img alt="a" src="../../figures/demo/wide.svg" width="922" height="384"'
        ' loading="lazy" decoding="async" tabindex="0" class="resdoc-wide"></p>'
        '<img class="resdoc-figure" src="../figures/demo/square.svg" alt="b"'
        ' width="461" height="461" loading="lazy" decoding="async"/>'
        '<img src="../assets/logo.svg">'
    )


def test_a_figure_without_a_viewbox_names_its_file(tmp_path):
    (tmp_path / "bad.svg").write_text("<svg></svg>", "utf-8")
    with pytest.raises(ValueError, match="bad.svg: no viewBox"):
        svg_size(tmp_path / "bad.svg")
