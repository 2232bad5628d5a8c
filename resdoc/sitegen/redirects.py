"""Pages that moved keep their old addresses: a small page there sends the reader on.

A bookmark or a link from elsewhere to an old address lands on the page that took its place,
in each language. The page works without JavaScript (``<meta http-equiv="refresh">``) and
says where the page went, for a reader whose browser does not follow it.

>>> MOVED["chapters/12-conv-resnets/"]
'chapters/07-conv-resnets/'
>>> print(redirect_page("chapters/12-conv-resnets/", "chapters/07-conv-resnets/", "en"))
<!doctype html>
<html lang="en">...<meta http-equiv="refresh" content="0; url=../07-conv-resnets/">...
"""

from __future__ import annotations

import html
import posixpath
from pathlib import Path

from resdoc.sitegen.ui_text import MOVED_PAGE

# old address -> new address (folders under a language's root). Chapter 12, on convolutional
# residual networks, is read after chapter 6: it became chapter 7, and chapters 7-11 moved up one.
_RENUMBERED = {
    "07-ffn": "08-ffn",
    "08-transformer-block": "09-transformer-block",
    "09-applications": "10-applications",
    "10-misconceptions": "11-misconceptions",
    "11-interview": "12-interview",
    "12-conv-resnets": "07-conv-resnets",
}
_PROSE_ONLY = ("10-misconceptions", "11-interview")  # chapters without an example page
MOVED = {
    f"{folder}/{old}/": f"{folder}/{new}/"
    for folder in ("chapters", "examples")
    for old, new in _RENUMBERED.items()
    if folder == "chapters" or old not in _PROSE_ONLY
}


def redirect_page(old: str, new: str, lang: str) -> str:
    """The page left at ``old`` (a folder URL), sending the reader to ``new``."""
    target = html.escape(posixpath.relpath(new, old) + "/", quote=True)
    title, moved_to = MOVED_PAGE[lang]
    return (
        "<!doctype html>\n"
        f'<html lang="{"zh-CN" if lang == "zh" else lang}"><head><meta charset="utf-8">'
        f"<title>{title}</title>"
        f'<meta http-equiv="refresh" content="0; url={target}">'
        f'<link rel="canonical" href="{target}"><meta name="robots" content="noindex">'
        f'</head><body><p>{moved_to} <a href="{target}">{target}</a>.</p></body></html>\n'
    )


def write_redirects(site: Path, prefixes: dict[str, str]) -> list[Path]:
    """Write a redirect page at every old address whose new page the site has, in every
    language's folder; returns the pages written. (A site built with part of the pages, as the
    tests' tiny one, gets only their redirects; the tests check that the real site has all.)

    Raises ``ValueError`` when an old address is a real page again: a redirect must never
    hide a page.
    """
    written = []
    for lang, prefix in prefixes.items():
        for old, new in MOVED.items():
            page, target = site / prefix / old / "index.html", site / prefix / new / "index.html"
            if not target.is_file():
                continue
            if page.is_file() and 'http-equiv="refresh"' not in page.read_text("utf-8"):
                raise ValueError(f"redirect {prefix}{old}: a page of the site lives there now")
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(redirect_page(old, new, lang), "utf-8")
            written.append(page)
    return written
