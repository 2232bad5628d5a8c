"""Chapter numbers, taken from the chapter's id: one place decides them, every page shows them.

A chapter's id starts with its number (``03-gradient-flow``), and the nav lists the chapters
in that order (``tests/test_layout.py`` checks). The build puts the number where a reader of
a textbook looks for it: above the chapter's title ("第 3 章" / "Chapter 3"), in the nav, in
the browser's title and in print, on the chapter and on its runnable example alike.

>>> number_of("chapters/03-gradient-flow.zh.md"), number_of("examples/12-interview.ipynb")
(3, 12)
>>> number_of("glossary.en.md") is None
True
>>> print(label_heading("# 梯度流 { #gradient-flow }\\n\\n正文", 3, "zh"))
# <span class="rd-chapter-number">第 3 章</span> 梯度流 { #gradient-flow }
<BLANKLINE>
正文
>>> numbered_title("Gradient flow", 3)
'3 · Gradient flow'
"""

from __future__ import annotations

import re

from resdoc.sitegen.ui_text import CHAPTER_LABEL

_CHAPTER = re.compile(
    r"^(?:chapters|examples)/(?P<number>\d\d)-[a-z0-9-]+(?:\.[a-z]+)?\.(?:md|ipynb)$"
)
_H1 = re.compile(r"^# (?P<title>.+)$", re.M)


def number_of(src_uri: str) -> int | None:
    """The chapter number of a chapter page or a chapter's example page, else None."""
    match = _CHAPTER.match(src_uri)
    return int(match["number"]) if match else None


def label_html(number: int, lang: str) -> str:
    """The "第 N 章" / "Chapter N" above a title: put inside the <h1>, before its text.

    >>> label_html(6, "en")
    '<span class="rd-chapter-number">Chapter 6</span>'
    """
    return f'<span class="rd-chapter-number">{CHAPTER_LABEL[lang].format(n=number)}</span>'


def label_heading(markdown: str, number: int, lang: str) -> str:
    """``markdown`` with "第 N 章" / "Chapter N" above the text of its title (the first
    ``# `` heading). A page without one is returned as it is."""
    label = label_html(number, lang)
    return _H1.sub(lambda m: f"# {label} {m['title']}", markdown, 1)


def numbered_title(title: str, number: int) -> str:
    """The title the nav, the footer and the browser show: "3 · Gradient flow"."""
    return f"{number} · {title}"
