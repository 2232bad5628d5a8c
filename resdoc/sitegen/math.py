"""Formulas typeset at build time: KaTeX's HTML in the page, no KaTeX JavaScript in the browser.

Pages mark formulas two ways. Markdown pages go through pymdownx.arithmatex (generic mode):
``<span class="arithmatex">\\(…\\)</span>`` and ``<div class="arithmatex">\\[…\\]</div>``.
Example pages are notebooks rendered by nbconvert, whose Markdown cells keep ``$…$`` and
``$$…$$`` as text. Both are rendered by one long-lived node process running the ``katex``
package from node_modules (``katex_server.js``): starting node per formula would cost about
as much as the whole warm build. A formula KaTeX rejects fails the build, naming the page and
the TeX. Rendered formulas are remembered for the life of the process (both languages share
most of them; ``mkdocs serve`` rebuilds often).

A formula in a sentence and the punctuation that closes it ("$x$，", "$x$.") stay on one line:
the browser treats a formula as boxes it may always break after, so on a phone a line could
start with that comma (a word joiner, U+2060, does not stop Chromium there). A formula of one
piece and its mark go in one span that does not wrap (``rd-nobreak``); in a formula of
several pieces (KaTeX breaks after a relation or an operator) the mark is drawn inside the
last piece (``rd-mark``), since the whole kept together could run past a phone's column.

KaTeX writes HTML only (no MathML beside it, which was a third of a chapter's elements) and
hides it from screen readers; each formula is named instead: ``role="math"`` and the formula
as it is read in plain characters (``tex_text.readable``, as in search results).
"""

from __future__ import annotations

import atexit
import functools
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

from resdoc.sitegen import markup, warm
from resdoc.sitegen.tex_text import readable
from resdoc.sitegen.ui_text import FORMULA_LABEL

SERVER = Path(__file__).with_name("katex_server.js")

_ARITHMATEX = re.compile(r'<(span|div) class="arithmatex">\s*\\([(\[])(.*?)\\[)\]]\s*</\1>', re.S)
# text outside code: math inside <code>/<pre> stays as written
_CODE = re.compile(r"(<(pre|code)\b.*?</\2>)", re.S)
# punctuation that may not start a line (Chinese and ASCII): kept with the formula before it
_CLOSING = re.compile(r"[，。、；：）！？」』》,.;:)!?]")
_DOLLARS = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<![\\$])\$(?!\s)(.+?)(?<![\\\s])\$", re.S)


_FONT_FACE = re.compile(r"@font-face\{([^}]*)\}")
_STYLE_RULE = re.compile(r"([^{}@]+)\{([^{}]*font-family[^{}]*)\}")
_KATEX_CLASSES = re.compile(r'<span class="([^"]*)"')
FIRST_SCREEN_PARAGRAPHS = 3


def _declaration(block: str, name: str, default: str) -> str:
    match = re.search(rf"(?:^|;){name}:([^;]+)", block)
    return match[1].strip() if match else default


@functools.cache
def _font_rules(css_path: Path) -> tuple[list, dict]:
    """From katex.min.css: which classes select which font, and each font's woff2 file."""
    css = css_path.read_text("utf-8")
    fonts = {}
    for face in _FONT_FACE.findall(css):
        key = tuple(_declaration(face, n, "") for n in ("font-family", "font-weight", "font-style"))
        fonts[key] = re.search(r"url\((fonts/[^)]+\.woff2)\)", face)[1]
    rules = []
    for selectors, block in _STYLE_RULE.findall(css):
        key = (
            _declaration(block, "font-family", ""),
            _declaration(block, "font-weight", "400"),
            _declaration(block, "font-style", "normal"),
        )
        for selector in selectors.split(","):
            needs = set(re.findall(r"\.([\w-]+)", selector)) - {"katex"}
            if key in fonts and needs:
                rules.append((needs, fonts[key]))
    return rules, fonts


def first_screen(page_html: str) -> str:
    """What a phone shows first: the article up to its first section heading, at most its
    first ``FIRST_SCREEN_PARAGRAPHS`` paragraphs (all of a fragment without an article)."""
    start = page_html.find("<article")
    if start < 0:
        return page_html
    end = page_html.find("<h2", start)
    end = len(page_html) if end < 0 else end
    pos = start
    for _ in range(FIRST_SCREEN_PARAGRAPHS):
        found = page_html.find("</p>", pos, end)
        if found < 0:
            break
        pos = found + len("</p>")
    else:
        end = pos
    return page_html[start:end]


def font_preloads(page_html: str, root: Path, site_root: str) -> str:
    """<link>s for the KaTeX fonts the page's formulas use: preloaded, those of the first
    screen's formulas (without, a font is found only at layout, after first paint, and the
    lines shift when it swaps in: CLS 0.26 on chapter 3 on a phone); prefetched, the others,
    so that they do not compete with the first screen on a slow network (on a phone's
    simulated 4G, Lighthouse's largest paint came 0.5-1 s later with all of them preloaded)
    and are in the cache before the reader scrolls to them."""
    rules, fonts = _font_rules(root / "node_modules" / "katex" / "dist" / "katex.min.css")

    def used_in(part: str) -> set[str]:
        classes = {c for value in _KATEX_CLASSES.findall(part) for c in value.split()}
        used = {fonts["KaTeX_Main", "400", "normal"]}  # the .katex default
        return used | {font for needs, font in rules if needs <= classes}

    first = used_in(first_screen(page_html))
    return "".join(
        f'<link rel="{"preload" if font in first else "prefetch"}" '
        f'href="{site_root}assets/katex/{font}" as="font" type="font/woff2" crossorigin>'
        for font in sorted(used_in(page_html))
    )


class KatexError(PluginError):
    pass


class Katex:
    """One node process rendering TeX with the project's KaTeX."""

    def __init__(self, root: Path, cache: Path | None = None):
        katex = root.resolve() / "node_modules" / "katex"
        node = shutil.which("node")
        if node is None or not (katex / "package.json").is_file():
            raise PluginError(
                f"Typesetting formulas needs node and KaTeX ({katex}): run `nox -s docs`, "
                "or `npm ci` in the project folder."
            )
        self._process = subprocess.Popen(
            [node, str(SERVER), str(katex)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self._done: dict[tuple[str, bool], str] = {}
        self._used: set[tuple[str, bool]] = set()
        # the formulas of the last build, typeset (warm.py): KaTeX's version is in the key
        self._kept_at = cache and cache / "katex.json"
        self._made_of = warm.key((katex / "package.json").read_bytes())
        if self._kept_at:
            kept = warm.recall(self._kept_at, self._made_of) or []
            self._done.update(((tex, display), named) for tex, display, named in kept)
        self._kept = set(self._done)
        atexit.register(self.close)

    def keep(self) -> None:
        """Keep the formulas this build typeset for the next build, if they changed."""
        if self._kept_at and self._used != self._kept:
            done = [[tex, display, self._done[tex, display]] for tex, display in sorted(self._used)]
            warm.keep(self._kept_at, self._made_of, done)
            self._kept = set(self._used)

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.stdin.close()
            self._process.wait(timeout=10)

    def render(self, formulas: list[tuple[str, bool]], where: str) -> list[str]:
        """KaTeX's HTML for each (tex, display) pair; the first rejected one fails the build."""
        todo = sorted({f for f in formulas if f not in self._done})
        if todo:
            self._process.stdin.write(json.dumps(todo) + "\n")
            self._process.stdin.flush()
            reply_line = self._process.stdout.readline()
            if not reply_line:
                raise PluginError(f"{where}: the KaTeX process stopped ({self._process.poll()})")
            replies = json.loads(reply_line)
            for (tex, display), reply in zip(todo, replies, strict=True):
                if "error" in reply:
                    kind = "display" if display else "inline"
                    raise KatexError(
                        f"{where}: KaTeX rejects the {kind} formula `{tex}`: {reply['error']}"
                    )
                self._done[tex, display] = _named(reply["html"], tex)
        self._used.update(formulas)
        return [self._done[f] for f in formulas]


_katex: dict[Path, Katex] = {}


def renderer(root: Path, cache: Path | None = None) -> Katex:
    """The build's KaTeX process, started on first use (node loads KaTeX in about 0.3 s),
    keeping its formulas in ``cache`` (``Katex.keep``)."""
    if root not in _katex:
        _katex[root] = Katex(root, cache)
    return _katex[root]


_KATEX = '<span class="katex">'


def _named(katex_html: str, tex: str) -> str:
    """KaTeX's HTML (hidden from screen readers) named by the formula as it is read."""
    if _KATEX not in katex_html:  # KaTeX changed its markup: nothing would be named
        raise PluginError(f"KaTeX's HTML has no {_KATEX} to name: {katex_html[:80]}")
    name = html.escape(readable(tex), quote=True)
    return katex_html.replace(_KATEX, f'<span class="katex" role="math" aria-label="{name}">', 1)


def _display(katex_html: str, lang: str) -> str:
    # A formula wider than the column scrolls sideways in its box, a shadow at the cut edge
    # saying that it goes on (extra.css): the keyboard reaches the box too, by its name.
    box = (
        f'<span class="katex-display" tabindex="0" role="group" aria-label="{FORMULA_LABEL[lang]}">'
    )
    return katex_html.replace('<span class="katex-display">', box, 1)


def typeset(
    page_html: str,
    where: str,
    root: Path,
    site_root: str,
    markdown_cells: int = 0,
    lang: str = "zh",
) -> str:
    """The page with every formula typeset: arithmatex's, and the ``$…$`` of the notebook's
    ``markdown_cells`` Markdown cells (``markup.markdown_cells`` finds them, counted), and the
    fonts they use preloaded; ``site_root`` leads from the page to the site's root, ``lang``
    is the page's language (its formulas' names)."""
    found = [(html.unescape(m[3]), m[2] == "[") for m in _ARITHMATEX.finditer(page_html)]
    spans = markup.markdown_cells(page_html, markdown_cells, where)
    cells = [_split_dollars(page_html[start:end]) for start, end in spans]
    in_cells = [f for pieces in cells for f in pieces if isinstance(f, tuple)]
    if not found and not in_cells:
        return page_html
    typeset_ = renderer(root).render(found + in_cells, where)
    in_text, in_cell = iter(typeset_[: len(found)]), iter(typeset_[len(found) :])

    # the cells first: their spans are positions in the page as it came
    out, pos = [], 0
    for (start, end), pieces in zip(spans, cells, strict=True):
        out.append(page_html[pos:start])
        for p, after in zip(pieces, [*pieces[1:], ""], strict=True):
            if isinstance(p, str):
                out.append(p)
            elif p[1]:
                out.append(_display(next(in_cell), lang))
            else:
                out.append(_kept_with(next(in_cell), after if isinstance(after, str) else ""))
        pos = end
    out.append(page_html[pos:])

    def arithmatex(match: re.Match) -> str:
        if match[2] == "[":
            return f'<div class="arithmatex">{_display(next(in_text), lang)}</div>'
        after = match.string[match.end() : match.end() + 1]
        return _kept_with(f'<span class="arithmatex">{next(in_text)}</span>', after)

    page_html = _DROP_AFTER.sub("", _ARITHMATEX.sub(arithmatex, "".join(out)))
    head, end_of_head, body = page_html.partition("</head>")
    if not end_of_head:  # a fragment (tests): nothing to preload into
        return page_html
    return head + font_preloads(body, root, site_root) + end_of_head + body


_NAME = re.compile(r'aria-label="[^"]*"')
_KEPT_END = "<!--rd-kept-->"  # marks the punctuation moved into the span, dropped after it
_DROP_AFTER = re.compile(rf"{_KEPT_END}[{_CLOSING.pattern[1:-1]}]")
_LAST_PIECE_END = "</span></span></span>"  # KaTeX's last piece, its HTML, the formula


def _kept_with(formula: str, text_after: str) -> str:
    """An in-line formula, and the punctuation that closes it kept on its line."""
    if not _CLOSING.match(text_after):
        return formula
    mark = text_after[0]
    if formula.count('class="katex-base"') == 1:
        return f'<span class="rd-nobreak">{formula}{mark}</span>{_KEPT_END}'
    # several pieces: nowrap could run past a phone's column, so the mark joins the last piece
    # (the formula's HTML is hidden from screen readers: its name says the mark instead)
    if not formula.endswith(_LAST_PIECE_END):
        raise markup.MarkupChanged(
            f"KaTeX's in-line HTML no longer ends with {_LAST_PIECE_END!r}: {formula[-80:]!r}. "
            "Update resdoc/sitegen/math.py (_kept_with)."
        )
    cut = len(formula) - len(_LAST_PIECE_END)
    inside = f'{formula[:cut]}<span class="rd-mark">{mark}</span>{formula[cut:]}'
    return _NAME.sub(lambda m: f'{m[0][:-1]}{html.escape(mark)}"', inside, count=1) + _KEPT_END


def _split_dollars(cell_html: str) -> list:
    """A Markdown cell's HTML as text pieces and (tex, display) formulas, code left alone."""
    pieces: list = []
    for i, part in enumerate(_CODE.split(cell_html)):
        if i % 3 == 2:  # the tag name captured by _CODE's inner group
            continue
        if i % 3 == 1:
            pieces.append(part)
            continue
        pos = 0
        for m in _DOLLARS.finditer(part):
            pieces.append(part[pos : m.start()])
            display = m[1] is not None
            pieces.append((html.unescape(m[1] if display else m[2]), display))
            pos = m.end()
        pieces.append(part[pos:])
    return pieces
