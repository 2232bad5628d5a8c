"""Chinese text without stray gaps: line breaks and spaces a browser would show as spaces.

Chinese is written without spaces, so a line break inside a Chinese paragraph of a page's
Markdown (the pages wrap at about 110 columns) reaches the HTML as a newline, and the browser
shows it as a space: 残差 连接 instead of 残差连接. The rule, applied to every Chinese page's HTML:

- whitespace between two wide characters (Han, full-width punctuation, Chinese quotes and
  dashes) goes, also across inline tags: ``的\\n<a>第 4 章</a>`` becomes ``的<a>第 4 章</a>``;
- whitespace after or before full-width punctuation (。，；：、（） …) goes, whatever is on the
  other side: ``（Pre-LN）\\nPost-LN`` becomes ``（Pre-LN）Post-LN``;
- whitespace between Chinese and Latin letters or digits stays: Chinese typesetting puts a
  space there (深度 20 时), and the pages write one.

Code (``<pre>``, ``<code>``), scripts, styles and formulas are left exactly as they are.

>>> join_lines("<p>残差\\n连接把输入加到输出上。\\nPost-LN 在加法之后。</p>")
'<p>残差连接把输入加到输出上。Post-LN 在加法之后。</p>'
>>> join_lines("<p>见\\n<a href='x'>第 4 章</a>\\n的实验，深度\\n20 时</p>")
"<p>见<a href='x'>第 4 章</a>的实验，深度\\n20 时</p>"
>>> join_lines("<p>代码：\\n<code>a =\\n中 文</code></p>")
'<p>代码：<code>a =\\n中 文</code></p>'
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
FULL_WIDTH = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"  # 。、，：（）…
WIDE = f"{HAN}{FULL_WIDTH}\u201c\u201d\u2018\u2019\u2014\u2026"  # “”‘’—…

# whitespace (with any tags among it) after a wide character: dropped, tags kept, when a
# wide character follows or when the first one is full-width punctuation
_AFTER_WIDE = re.compile(rf"(?P<before>[{WIDE}])(?P<gap>(?:[ \t\r\n]+|<[^<>]+>)+)")
_TAG = re.compile(r"<[^<>]+>")
_SPACE = re.compile(r"[ \t\r\n]")
_FULL_WIDTH = re.compile(f"[{FULL_WIDTH}]")
# left exactly as written: code (also the hidden copy of a notebook cell that its copy button
# copies), scripts, styles and formulas (arithmatex's TeX, before KaTeX; KaTeX's MathML after)
_KEEP = re.compile(
    r"<(?P<tag>pre|code|script|style|textarea|math)\b.*?</(?P=tag)>"
    r"|<(?P<math>span|div) class=\"arithmatex\">.*?</(?P=math)>"
    r"|<div class=\"clipboard-copy-txt\"[^>]*>.*?</div>",
    re.S | re.I,
)


_WIDE = re.compile(f"[{WIDE}]")


def _join(text: str) -> str:
    if not _WIDE.search(text):  # most of an English page: nothing to do, and fast
        return text

    def after_wide(m: re.Match) -> str:
        following = text[m.end() : m.end() + 1]
        if not _SPACE.search(m["gap"]):
            return m[0]
        if _WIDE.match(following) or _FULL_WIDTH.match(m["before"]):
            return m["before"] + "".join(_TAG.findall(m["gap"]))
        return m[0]

    return _drop_space_before_full_width(_AFTER_WIDE.sub(after_wide, text))


def _drop_space_before_full_width(text: str) -> str:
    """Whitespace (and tags after it) before full-width punctuation, whatever precedes it.

    A walk back from each punctuation mark: a regular expression trying every whitespace of
    the page for tags and punctuation after it took ten times as long.
    """
    out, last = [], 0
    for mark in _FULL_WIDTH.finditer(text):
        start = mark.start()
        while start > last and text[start - 1] == ">":  # tags between space and mark stay
            tag = text.rfind("<", last, start - 1)
            if tag == -1:
                break
            start = tag
        space = start
        while space > last and text[space - 1] in " \t\r\n":
            space -= 1
        if space < start:
            out.append(text[last:space])
            last = start
    out.append(text[last:])
    return "".join(out)


def join_lines(html: str) -> str:
    """``html`` without the gaps described above, outside code, scripts and formulas."""
    out, start = [], 0
    for kept in _KEEP.finditer(html):
        out += [_join(html[start : kept.start()]), kept[0]]
        start = kept.end()
    out.append(_join(html[start:]))
    return "".join(out)


_BLOCKS = frozenset(
    [
        "pre",
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "table",
        "thead",
        "tbody",
        "tr",
        "td",
        "th",
        "br",
        "hr",
        "dl",
        "dt",
        "dd",
        "blockquote",
        "details",
        "summary",
        "figure",
        "figcaption",
        "nav",
        "header",
        "footer",
        "main",
        "article",
        "section",
        "aside",
        "label",
        "input",
        "img",
        "title",
        "head",
        "body",
        "html",
        "meta",
        "link",
        "svg",
        "button",
        "select",
        "option",
        "form",
    ]
)
HIDDEN = "\ufffc"  # stands for a formula or code in the visible text
_HIDDEN = frozenset(["pre", "code", "script", "style", "textarea", "math", "svg"])
_HIDDEN_CLASSES = frozenset(("katex", "arithmatex", "clipboard-copy-txt"))


class _Text(HTMLParser):
    """The text outside code and formulas; blocks separated by NUL."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: tuple[str, int] | None = None  # (tag, depth) of a hidden element

    def handle_starttag(self, tag, attrs) -> None:
        if self.skipping:
            if tag == self.skipping[0]:
                self.skipping = (tag, self.skipping[1] + 1)
            return
        classes = set((dict(attrs).get("class") or "").split())
        void = tag in ("br", "img", "input", "meta", "link", "hr")
        if (tag in _HIDDEN or classes & _HIDDEN_CLASSES) and not void:
            self.skipping = (tag, 1)
            self.parts.append(
                HIDDEN
            )  # a formula or code is not nothing: 第 $l$ 层 keeps its spaces
        if tag in _BLOCKS:
            self.parts.append("\0")

    def handle_endtag(self, tag) -> None:
        if self.skipping:
            if tag != self.skipping[0]:
                return
            depth = self.skipping[1] - 1
            self.skipping = (tag, depth) if depth else None
            if depth:
                return
        if tag in _BLOCKS:
            self.parts.append("\0")

    def handle_data(self, data) -> None:
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """The text a reader sees, outside code and formulas, blocks separated by NUL.

    >>> visible_text("<p>残差\\n<b>连接</b></p><p>公式<code>x</code></p>")
    '\\x00残差\\n连接\\x00\\x00公式\\ufffc\\x00'
    """
    parser = _Text()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


GAPS = re.compile(
    rf"[{WIDE}][ \t\r\n]+[{WIDE}]|[{FULL_WIDTH}][ \t\r\n]+[^\s\0]|[^\s\0][ \t\r\n]+[{FULL_WIDTH}]"
)


def gaps(html: str) -> list[str]:
    """Every gap :func:`join_lines` removes that is still in a page's visible text.

    >>> gaps("<p>残差\\n连接。 Post-LN</p>")
    ['差\\n连', '。 P']
    >>> gaps(join_lines("<p>残差\\n连接。 Post-LN</p>"))
    []
    """
    return [m[0] for m in GAPS.finditer(visible_text(html))]


_ASCII_BRACKETS = re.compile(
    rf"[{HAN}，。：；、]\s*\([^()\0]*\)|\([^()\0]*\)\s*[{HAN}]|\([^()\0]*[{HAN}][^()\0]*\)"
)
# A figure's panel label, an equation's number and a formula keep ASCII brackets in Chinese
# text: a reference reads like the "(a)" or "(3.1)" printed in the figure or beside the formula.
_LABEL = re.compile(r"\(([a-z]|\d+\.\d+)\)")
_FORMULA = re.compile(r"\([^()\0]*[+=×/^²√−][^()\0]*\)")
_HAN_IN = re.compile(f"[{HAN}]")


def ascii_brackets(text: str) -> list[str]:
    """ASCII brackets beside or around Chinese in visible text that should be full-width.

    >>> ascii_brackets("残差连接 (residual connection)；见图 (a) 与式 (3.1)，预测 (1 + 2s²)")
    ['接 (residual connection)']
    >>> ascii_brackets("(中文) 与 (b 面板)")
    ['(中文) 与', '(b 面板)']
    """
    found = []
    for match in _ASCII_BRACKETS.finditer(text):
        bracket = re.search(r"\([^()\0]*\)", match[0])[0]
        if _HAN_IN.search(bracket) or not (
            _LABEL.fullmatch(bracket) or _FORMULA.fullmatch(bracket)
        ):
            found.append(match[0])
    return found
