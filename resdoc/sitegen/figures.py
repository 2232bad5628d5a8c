"""Figures in the built pages: the variant a reader's screen needs, their sizes, captions.

Every figure is published in four variants per language (``resdoc.style``): light and dark
colours, a wide layout for a desktop's column and a narrow one drawn for a phone's. A
figure's ``<img>`` becomes two ``<picture>``s, one per colour scheme: Material shows the one
of the reader's palette (it hides ``img[src$="#only-dark"]`` under its light palette and
``#only-light`` under its dark one, following ``prefers-color-scheme`` and then the toggle),
and each picks its layout by the screen's width (``<source media>``). Each ``<img>`` and
``<source>`` carries its variant's own width and height, so the page does not jump as
figures load, and loads lazily: the browser fetches only the variant it shows, when the
reader scrolls near it (a hidden picture is never fetched).

An image alone in its paragraph (a figure in a page's Markdown) becomes a ``<figure>`` with
its number and its caption (``apparatus.py``), the image's title in the Markdown. A caption
may hold formulas, ``$x_L$``: arithmatex leaves them in the title as ``\\(x_L\\)``, and
here they become formulas that ``math.py`` typesets, as in the text.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path

from resdoc.sitegen.apparatus import Figure, figure_id
from resdoc.sitegen.conventions import FIGURE_VARIANTS, variant_uri
from resdoc.sitegen.pages import PageError, plain_text

PX_PER_PT = 4 / 3  # matplotlib sizes an SVG in points
# Material's own breakpoint below which its content column is a phone's (about 358 px at 390)
NARROW_MEDIA = "(max-width: 44.984375em)"
SCHEME_FRAGMENT = {"light": "#only-light", "dark": "#only-dark"}  # Material's convention

_IMG = re.compile(r'<img\b[^>]*?\bsrc="(?P<src>[^"]*?figures/[^"/]+/(?P<name>[^"/.]+)\.svg)"[^>]*>')
_ALONE = re.compile(rf"<p>\s*(?P<img>{_IMG.pattern})\s*</p>")
_ATTRIBUTE = re.compile(r'\s(?P<key>[a-z-]+)="(?P<value>[^"]*)"')
_CAPTION_FORMULA = re.compile(r"\\\((.+?)\\\)")  # arithmatex's \(…\) inside an image title


def variant_sizes(info: Path, lang: str) -> dict[str, tuple[int, int]]:
    """Width and height in CSS pixels of each variant, from ``<name>.json`` (in points)."""
    variants = json.loads(info.read_text("utf-8"))[lang]
    return {
        name: (round(v["width_pt"] * PX_PER_PT), round(v["height_pt"] * PX_PER_PT))
        for name, v in variants.items()
    }


def pictures(src: str, alt: str, sizes: dict[str, tuple[int, int]]) -> str:
    """The two ``<picture>`` elements of a figure whose wide, light SVG is at ``src``."""
    parts = []
    for scheme, fragment in SCHEME_FRAGMENT.items():
        if parts:  # a measured number in the alt text is counted once (pages.mark_measured)
            alt = plain_text(alt)
        wide = variant_uri(src, FIGURE_VARIANTS[f"wide-{scheme}"])
        narrow = variant_uri(src, FIGURE_VARIANTS[f"narrow-{scheme}"])
        (nw, nh), (w, h) = sizes[f"narrow-{scheme}"], sizes[f"wide-{scheme}"]
        parts.append(
            f'<picture><source media="{NARROW_MEDIA}" srcset="{narrow}" width="{nw}" '
            f'height="{nh}"><img src="{wide}{fragment}" alt="{alt}" width="{w}" height="{h}" '
            'loading="lazy" decoding="async"></picture>'
        )
    return "".join(parts)


def _formula(match: re.Match) -> str:
    return f'<span class="arithmatex">\\({match[1]}\\)</span>'


def present_figures(
    page_html: str,
    figure_info: Callable[[str], Path | None],
    lang: str,
    numbered: list[Figure] | None = None,
    page: str = "",
) -> str:
    """Every figure ``<img>`` in ``page_html`` as its variants; those alone in a paragraph as a
    ``<figure>`` with the number in ``numbered`` (the page's figures in order) and the caption.

    ``figure_info("figures/<example>/<name>.svg")`` is the figure's ``<name>.json``, or None for
    an image that is not one of the build's figures (left as it is).
    """
    numbers = iter(numbered or [])

    def attributes(tag: str) -> dict[str, str]:
        return {m["key"]: m["value"] for m in _ATTRIBUTE.finditer(tag)}

    def sizes_of(match: re.Match) -> dict | None:
        uri = re.search(r"figures/[^\"]+\.svg", match["src"])[0]
        info = figure_info(uri)
        return None if info is None else variant_sizes(info, lang)

    def figure(match: re.Match) -> str:
        sizes = sizes_of(match)
        if sizes is None:
            return match[0]
        attrs = attributes(match["img"])
        shown = next(numbers, None)
        if numbered is not None and (shown is None or shown.name != match["name"]):
            raise PageError(f"{page}: figure {match['name']!r} is not the one numbered here")
        art = pictures(attrs["src"], attrs.get("alt", ""), sizes)
        caption = _CAPTION_FORMULA.sub(_formula, attrs.get("title", ""))
        number = shown.label if shown is not None else None
        if number:
            caption = f'<span class="rd-figure-number">{html.escape(number)}</span> {caption}'
        caption = f"<figcaption>{caption}</figcaption>" if caption.strip() else ""
        ident = f' id="{figure_id(match["name"])}"' if number else ""
        return f'<figure class="rd-figure"{ident}>{art}{caption}</figure>'

    def inline(match: re.Match) -> str:  # an image among other content: a notebook's output
        sizes = sizes_of(match)
        if sizes is None:
            return match[0]
        attrs = attributes(match[0])
        return f'<span class="rd-figure-art">{pictures(attrs["src"], attrs.get("alt", ""), sizes)}</span>'

    page_html = _ALONE.sub(figure, page_html)
    if next(numbers, None) is not None:
        raise PageError(f"{page}: a numbered figure is missing from the page's HTML")
    return _IMG.sub(inline, page_html)  # a variant's src ends in "#only-…": it never matches
