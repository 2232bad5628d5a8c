"""Figures in the built pages: their size, and a mark on the wide ones.

Every ``<img>`` of a published figure gets the figure's own width and height, so the page
does not jump as figures load, and loads lazily: the browser fetches a figure when the reader
scrolls near it, so a first visit does not download every figure of a long chapter.

A figure at least twice as wide as tall (two panels side by side) is marked
``resdoc-wide``: on a phone it keeps a readable width and scrolls sideways
(docs/assets/stylesheets/extra.css) instead of shrinking its labels to a few pixels. It is
focusable, so a keyboard can scroll it too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

WIDE = 2.0  # width / height from which a figure scrolls on a phone
PX_PER_PT = 4 / 3  # matplotlib sizes an SVG in points

_IMG = re.compile(r'<img\b[^>]*?\bsrc="[^"]*?(?P<uri>figures/[^"/]+/[^"/]+\.svg)"[^>]*>')
_VIEWBOX = re.compile(rb'viewBox="0 0 ([\d.]+) ([\d.]+)"')


def svg_size(path: Path) -> tuple[int, int]:
    """Width and height in CSS pixels, from the SVG's viewBox (in points)."""
    with path.open("rb") as file:
        match = _VIEWBOX.search(file.read(4096))
    if match is None:
        raise ValueError(f"{path}: no viewBox in the SVG's opening tag")
    width, height = (float(number) * PX_PER_PT for number in match.groups())
    return round(width), round(height)


def size_figures(html: str, figure_path: Callable[[str], Path | None]) -> str:
    """Give each figure ``<img>`` in ``html`` its size, and mark the wide ones.

    ``figure_path("figures/<example>/<name>.svg")`` is the SVG behind a figure, or None
    for an image that is not one of the build's figures (left as it is).
    """

    def sized(match: re.Match) -> str:
        tag, path = match[0], figure_path(match["uri"])
        if path is None:
            return tag
        width, height = svg_size(path)
        extra = f' width="{width}" height="{height}" loading="lazy" decoding="async"'
        if width >= WIDE * height:
            extra += ' tabindex="0"'
            if ' class="' in tag:
                tag = tag.replace(' class="', ' class="resdoc-wide ', 1)
            else:
                extra += ' class="resdoc-wide"'
        end = "/>" if tag.endswith("/>") else ">"
        return tag.removesuffix(end).rstrip() + extra + end

    return _IMG.sub(sized, html)
