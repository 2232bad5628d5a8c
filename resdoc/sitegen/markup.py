"""Every change the site makes to other packages' HTML, each one counted.

Material for MkDocs and nbconvert (through mkdocs-jupyter) write markup the site fixes up
with regular expressions. Markup is not an API: an upgrade can rename a class and a patch
would silently stop doing anything. So each patch says how many matches it expects on a
page, and a page where it finds another number fails the build with :class:`MarkupChanged`,
naming the patch, the package and the version the patch was written against.

>>> Patch("a greeting", "nbconvert", re.compile("hello"), "hi").apply("hello", 1, "p.md")
'hi'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from mkdocs.exceptions import PluginError

from resdoc.sitegen import ui_text
from resdoc.sitegen.examples import installed_versions
from resdoc.sitegen.ui_text import NOT_FOUND

ANY = range(1, 1_000_000)  # "at least once"


class MarkupChanged(PluginError):
    """A patch found more or fewer matches than it expects: the patched markup changed."""


@dataclass(frozen=True)
class Patch:
    purpose: str  # what the patch is for, in the error message
    package: str  # whose markup it patches
    pattern: re.Pattern
    replacement: str | Callable[[re.Match], str]

    def apply(self, text: str, expected: int | range, where: str) -> str:
        """``text`` patched; raises :class:`MarkupChanged` unless the match count is ``expected``."""
        patched, found = self.pattern.subn(self.replacement, text)
        if found not in (expected if isinstance(expected, range) else (expected,)):
            wanted = f"at least {expected.start}" if isinstance(expected, range) else str(expected)
            version = installed_versions((self.package,))[self.package]
            raise MarkupChanged(
                f"{where}: the markup patch for {self.purpose} expects {wanted} match(es) of "
                f"{self.pattern.pattern!r} in {self.package}'s HTML and found {found} "
                f"({self.package} {version} installed; see pyproject.toml for the pinned one). "
                "Update the patch in resdoc/sitegen/markup.py to the new markup, or remove it "
                "if the new version no longer needs it."
            )
        return patched


# --- Material for MkDocs (every page) --------------------------------------------------------

# Material fetches "sitemap.xml" next to every <link rel="alternate"> in the page head to map
# pages between languages. mkdocs-static-i18n points those links at the page itself, so each
# page would request a non-existent <page>/sitemap.xml (a 404 per page and language). The
# header's language switcher carries the same per-page links, so the head links go: one per
# language.
HEAD_ALTERNATES = Patch(
    "the head's language alternates (404s for <page>/sitemap.xml)",
    "mkdocs-material",
    re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">'),
    "",
)

# Accessibility (axe-core, tests/test_site_browser.py): the search dialog needs a name ...
SEARCH_DIALOG = Patch(
    "the search dialog's accessible name",
    "mkdocs-material",
    re.compile(r'(<div class="md-search" data-md-component="search" role="dialog")'),
    r'\1 aria-label="{label}"',
)

# ... and the footer's previous/next links have an aria-label that differs from their
# visible text: without it, their text names them (one link per neighbouring page).
FOOTER_LABELS = Patch(
    "the footer links' accessible names",
    "mkdocs-material",
    re.compile(r'(class="md-footer__link md-footer__link--(?:prev|next)") aria-label="[^"]*"'),
    r"\1",
)


# Material's configuration of the page, a JSON object in a script: read it as JSON, whatever
# the order of its keys, and write it back as Jinja's `tojson` does (sorted keys, HTML-safe).
CONFIG = Patch(
    "the page's configuration (__config)",
    "mkdocs-material",
    re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S),
    "",
)


def _tojson(value) -> str:
    text = json.dumps(value, sort_keys=True)
    for char in "<>&'":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def with_config(html: str, change: Callable[[dict], dict], where: str) -> str:
    """The page with its ``__config`` replaced by ``change(config)``."""
    patch = Patch(
        CONFIG.purpose,
        CONFIG.package,
        CONFIG.pattern,
        lambda m: m[1] + _tojson(change(json.loads(m[2]))) + m[3],
    )
    return patch.apply(html, 1, where)


# The search toggle and field whose use makes the page fetch the index (search.ON_DEMAND).
SEARCH_ELEMENTS = Patch(
    "the search toggle and field (search.ON_DEMAND listens to them)",
    "mkdocs-material",
    re.compile(r'id="__search"|class="md-search__input'),
    r"\g<0>",
)


# Material's search worker splits a Chinese query into the longest words its index has, but
# never tries the whole query as one word (its loop stops one character short): 预热 became
# 预 (matching 预激活), 层归一化 became 层. The loop, one character longer.
SEARCH_WORKER_SEGMENT = Patch(
    "the search worker's Chinese query segmentation",
    "mkdocs-material",
    re.compile(r"for\(let (\w+)=(\w+)\+1;\1<(\w+)\.length;\1\+\+\)\3\.slice\(\2,\1\)in "),
    lambda m: m[0].replace(f"{m[1]}<{m[3]}.length", f"{m[1]}<={m[3]}.length"),
)


# An English text Material has no translation for, on every page: the title of a heading's
# permalink (Python-Markdown's toc extension, one setting for every language). (Material's
# footer credit, "Made with", is off: extra.generator in mkdocs.yml; each language's
# copyright line gives the credit in its language.)
PERMALINK_TITLE = Patch(
    "the headings' permalink title",
    "markdown",
    re.compile(r'(<a class="headerlink" href="[^"]*") title="Permanent link"'),
    r'\1 title="{title}"',
)


# Material writes its language code, "zh", into <html lang>: a browser or a screen reader then
# has to guess the script, and some systems pick a Traditional or Japanese font for it. The
# page says which Chinese it is. zh-CN rather than zh-Hans: screen readers' voice tables and
# older systems' font fallback know the region tag; both mean Simplified Chinese.
LANGUAGE_TAGS = {"zh": "zh-CN"}
HTML_LANG = Patch(
    "the page's language tag",
    "mkdocs-material",
    re.compile(r'<html lang="(?P<lang>[^"]+)"'),
    lambda m: f'<html lang="{LANGUAGE_TAGS.get(m["lang"], m["lang"])}"',
)


def language_tag(html: str, where: str) -> str:
    """The page with its ``<html lang>`` naming the script of its Chinese (zh-CN, not zh)."""
    return HTML_LANG.apply(html, 1, where)


def in_language(html: str, lang: str, where: str, permalinks: int = 0) -> str:
    """Material's page with the permalink titles in ``lang``.
    ``permalinks``: the headings Python-Markdown gave one, the entries of the page's table of
    contents (counted against them, not against the markup the patch looks for)."""
    if lang not in ui_text.PERMALINK_TITLE:
        return html
    permalink = Patch(
        PERMALINK_TITLE.purpose,
        PERMALINK_TITLE.package,
        PERMALINK_TITLE.pattern,
        PERMALINK_TITLE.replacement.format(title=ui_text.PERMALINK_TITLE[lang]),
    )
    return permalink.apply(html, permalinks, where)


# Material's 404 page says "404 - Not found" in every language (a fixed heading in its
# 404.html template, with no translation key): the site says it in the page's language.
NOT_FOUND_HEADING = Patch(
    "the 404 page's heading in the page's language",
    "mkdocs-material",
    re.compile(r"<h1>404 - Not found</h1>"),
    "",
)


# ... and its language switcher and head alternates keep the links i18n last gave them, a
# page of the previous language pass: each language's home page instead.
NOT_FOUND_LINKS = Patch(
    "the 404 page's language links",
    "mkdocs-material",
    re.compile(r'(<(?:a|link rel="alternate") href=")[^"]*(" hreflang="(?P<lang>[\w-]+)")'),
    "",
)


def not_found_page(html: str, lang: str, homes: dict[str, str]) -> str:
    """Material's 404 page with its heading and a way home in ``lang``; its language links
    lead to ``homes``, each language's home page."""
    text = NOT_FOUND[lang].format(home=homes[lang])
    where = f"404.html ({lang})"
    heading = Patch(
        NOT_FOUND_HEADING.purpose,
        NOT_FOUND_HEADING.package,
        NOT_FOUND_HEADING.pattern,
        lambda m: text,
    )
    links = Patch(
        NOT_FOUND_LINKS.purpose,
        NOT_FOUND_LINKS.package,
        NOT_FOUND_LINKS.pattern,
        lambda m: f"{m[1]}{homes[m['lang']]}{m[2]}",
    )
    html = links.apply(heading.apply(html, 1, where), 2 * len(homes), where)  # switcher, head
    return in_language(html, lang, where)


# With repo_url set, Material links the repository in the header and in the navigation
# drawer, and its script fetches the repository's stars and forks from the host's API on the
# reader's first page: a request outside the site. Without the component's name the link stays
# and nothing is fetched (Material has no setting for it).
REPO_FACTS = Patch(
    "the repository link's facts, fetched from outside the site",
    "mkdocs-material",
    re.compile(r'(<a href="[^"]*" title="[^"]*" class="md-source") data-md-component="source">'),
    r"\1>",
)


def material_page(
    html: str, where: str, languages: int, label: str, neighbours: int, repo_links: int = 0
) -> str:
    """Material's page markup, fixed: ``languages`` head alternates removed, the search dialog
    named ``label``, ``neighbours`` footer links (previous and next pages) named by their text,
    ``repo_links`` repository links that fetch nothing."""
    html = REPO_FACTS.apply(html, repo_links, where)
    head, end_of_head, body = html.partition("</head>")
    head = HEAD_ALTERNATES.apply(head, languages, where)
    search = Patch(
        SEARCH_DIALOG.purpose,
        SEARCH_DIALOG.package,
        SEARCH_DIALOG.pattern,
        SEARCH_DIALOG.replacement.format(label=label),
    )
    body = search.apply(body, 1, where)
    return head + end_of_head + FOOTER_LABELS.apply(body, neighbours, where)


# --- nbconvert, through mkdocs-jupyter (example pages) --------------------------------------

# nbconvert configures MathJax (from a CDN, or an empty src as mkdocs-jupyter sets it); the
# site typesets notebook math with KaTeX at build time (math.py).
MATHJAX_CONFIG = Patch(
    "nbconvert's MathJax loader",
    "nbconvert",
    re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S),
    "",
)
# nbconvert's mermaid loader imports mermaid from a CDN when a notebook has diagrams; ours have none.
MERMAID_LOADER = Patch(
    "nbconvert's mermaid loader (a CDN import)",
    "nbconvert",
    re.compile(
        r"<script type=\"module\">(?:(?!</script>).)*?mermaid(?:(?!</script>).)*</script>", re.S
    ),
    "",
)
# Any other script from outside the site: there is none today, and a new one fails the build
# rather than being dropped silently (the page may need it: decide, then patch).
CDN_SCRIPTS = Patch(
    "scripts loaded from outside the site",
    "nbconvert",
    re.compile(r"<script[^>]*\bsrc=\"(?:https?:)?//[^\"]*\"[^>]*>\s*</script>", re.S),
    "",
)
# Long code lines scroll sideways: a keyboard user must be able to focus the cell to scroll it.
CODE_CELLS = Patch(
    "keyboard focus on code cells",
    "nbconvert",
    re.compile(r'<div class="highlight-ipynb hl-python">'),
    '<div class="highlight-ipynb hl-python" tabindex="0">',
)
# What a code cell shows besides its code stays out of the search index (Material's
# documented `data-search-exclude`, removed from the page once it is indexed): its prompt, the
# copy button's feedback and the code's copy for the clipboard, one each per code cell. (The
# code and the outputs are <pre> blocks, left out of the index by search.py. Material's
# exclusion ends at the first closing tag of the excluded element's kind, so it only works
# on elements without nested ones of their kind, such as these.)
UNSEARCHED_CELL_PARTS = (
    ("the notebook's input prompts", r'<div class="jp-InputPrompt jp-InputArea-prompt">(?=[^\s<])'),
    ("the copy button's feedback", r'<span class="notice" hidden="">'),
    ("the code's copy for the clipboard", r'<div class="clipboard-copy-txt"'),
)
OUTPUT_PROMPTS = r'<div class="jp-OutputPrompt jp-OutputArea-prompt">(?=[^\s<])'  # Out[5]: ...


def unsearched_cell_parts(html: str, where: str, cells: int) -> str:
    """A notebook page whose ``cells`` code cells' prompts and copy buttons are not indexed
    (counted against the notebook's code cells, not against the page's own markup)."""
    parts = [(purpose, pattern, cells) for purpose, pattern in UNSEARCHED_CELL_PARTS]
    parts.append(("the outputs' prompts", OUTPUT_PROMPTS, range(cells + 1)))  # some cells
    for purpose, pattern, expected in parts:
        patch = Patch(
            f"{purpose} left out of the search index",
            "nbconvert",
            re.compile(pattern),
            lambda m: (
                m[0]
                .replace("<div ", '<div data-search-exclude="ui" ', 1)
                .replace("<span ", '<span data-search-exclude="ui" ', 1)
            ),
        )
        html = patch.apply(html, expected, where)
    return html


# The notebook's English UI on a Chinese page: the input prompts, and the copy button's name
# and feedback (one each per code cell).
NOTEBOOK_UI = {
    lang: (
        (
            "the notebook's input prompts",
            r'(<div class="jp-InputPrompt jp-InputArea-prompt">)In\xa0\[(\d*)\]:',
            r"\1[\2]:",  # as JupyterLab prompts: a language of their own
        ),
        (
            "the notebook copy button's name",
            r'aria-label="Copy to Clipboard"',
            f'aria-label="{words["name"]}"',
        ),
        ("the notebook copy button's feedback", r">Copied!<", f">{words['copied']}<"),
    )
    for lang, words in ui_text.NOTEBOOK_COPY.items()
}


def notebook_in_language(html: str, lang: str, where: str, code_cells: int) -> str:
    """The notebook's prompts and copy buttons in ``lang`` (counted: one per code cell of
    the notebook, not per code cell the markup seems to have)."""
    for purpose, pattern, replacement in NOTEBOOK_UI.get(lang, ()):
        html = Patch(purpose, "mkdocs-jupyter", re.compile(pattern), replacement).apply(
            html, code_cells, where
        )
    return html


# nbconvert's Markdown cells, whose $…$ math.py typesets: the wrapper div, its body ending at
# the div that closes it (a cell's Markdown may hold divs of its own).
MARKDOWN_CELL = re.compile(r'<div class="[^"]*\bjp-RenderedMarkdown\b[^"]*"[^>]*>')
_DIV_TAG = re.compile(r"<div\b|</div>")


def markdown_cells(html: str, expected: int, where: str) -> list[tuple[int, int]]:
    """The (start, end) of each Markdown cell's body in nbconvert's ``html``; ``expected``:
    the Markdown cells of the notebook (counted against them, not against the markup)."""
    spans, pos = [], 0
    while (opening := MARKDOWN_CELL.search(html, pos)) is not None:
        depth, end = 1, opening.end()
        for tag in _DIV_TAG.finditer(html, opening.end()):
            depth += 1 if tag[0] == "<div" else -1
            if depth == 0:
                end = tag.start()
                break
        else:
            break  # no closing div: counted below, and the build fails
        spans.append((opening.end(), end))
        pos = end
    if len(spans) != expected:
        version = installed_versions(("nbconvert",))["nbconvert"]
        raise MarkupChanged(
            f"{where}: nbconvert's Markdown cells, whose formulas the site typesets: "
            f"{expected} in the notebook, {len(spans)} matching {MARKDOWN_CELL.pattern!r} "
            f"followed by their closing </div> (nbconvert {version} installed; see "
            "pyproject.toml for the pinned one). Update markdown_cells in "
            "resdoc/sitegen/markup.py to the new markup."
        )
    return spans


# Cell anchors (`cell-<N>`: the cell starts at line N of the script) and the copy buttons.
# nbconvert gives each cell the id "cell-id=<the notebook's cell id>" (the cell runner sets
# those to cell-<N>); mkdocs-jupyter gives the hidden text each copy button copies the id
# cell-<k>, the k-th code cell, which would collide with the anchors: it becomes rd-copy-<k>.
CELL_IDS = Patch(
    "cell anchors from the notebook's cell ids",
    "nbconvert",
    re.compile(r'(<div class="jp-Cell [^"]*" )id="cell-id=(cell-\d+)"'),
    r'\1id="\2"',
)
COPY_TEXTS = Patch(
    "the copy buttons' hidden texts",
    "mkdocs-jupyter",
    re.compile(r'<div class="clipboard-copy-txt" id="cell-(\d+)">'),
    r'<div class="clipboard-copy-txt" id="rd-copy-\1">',
)
COPY_BUTTONS = Patch(
    "the copy buttons' targets",
    "mkdocs-jupyter",
    re.compile(r'(<clipboard-copy [^>]*\bfor=")cell-(\d+)"'),
    r'\1rd-copy-\2"',
)
# A code cell's highlighted source, followed by its copy text (which numbers the code cells).
CODE_INPUT = re.compile(
    r'<div class="highlight-ipynb hl-python" tabindex="0"><pre>(?P<code>.*?)</pre></div>'
    r'(?P<copy>\s*<div class="clipboard-copy-txt" id="rd-copy-(?P<k>\d+)">)',
    re.S,
)
TITLE = re.compile(r'(?P<open><h1 id="[^"]*">)(?P<title>.*?</h1>)', re.S)


def notebook_cells(html: str, cells: int, code_cells: int, where: str) -> str:
    """Each cell's anchor ``cell-<N>``; the copy buttons' own ids out of their way."""
    html = CELL_IDS.apply(html, cells, where)
    html = COPY_TEXTS.apply(html, code_cells, where)
    return COPY_BUTTONS.apply(html, code_cells, where)


def code_inputs(html: str, show: Callable[[int, str], str], code_cells: int, where: str) -> str:
    """Every code cell's highlighted source (the inside of its <pre>) as ``show(k, pre)``
    returns it, ``k`` counting the code cells from 1."""
    patch = Patch(
        "the code cells' sources",
        "mkdocs-jupyter",
        CODE_INPUT,
        lambda m: show(int(m["k"]), m["code"]) + m["copy"],
    )
    return patch.apply(html, code_cells, where)


def around_title(html: str, label: str, after: str, where: str) -> str:
    """``label`` inside the first <h1>, before its text; ``after`` right after it."""
    patch = Patch(
        "the page title", "nbconvert", TITLE, lambda m: f"{m['open']}{label}{m['title']}{after}"
    )
    return patch.apply(html, 1, where)


HEADINGS = re.compile(r'<h([1-6]) id="[^"]*">(.*?)</h\1>', re.S)


def heading_ids(html: str, ids: list[str], where: str) -> str:
    """nbconvert drops Chinese from heading ids (leaving id=""), while the page's table of
    contents links to python-markdown's ids: give the headings, in order, the TOC's ids."""
    remaining = iter(ids)

    def rename(match: re.Match) -> str:
        id_ = next(remaining, None)
        if id_ is None:  # more headings than the TOC has: counted, and the build fails
            return match[0]
        inner = re.sub(r'(class="anchor-link" href=")#[^"]*"', rf'\1#{id_}"', match[2])
        return f'<h{match[1]} id="{id_}">{inner}</h{match[1]}>'

    patch = Patch("heading ids matching the table of contents", "nbconvert", HEADINGS, rename)
    return patch.apply(html, len(ids), where) if ids else html


def notebook_page(html: str, where: str) -> str:
    """nbconvert's page without anything it would load from outside the site."""
    html = MATHJAX_CONFIG.apply(html, 1, where)
    html = MERMAID_LOADER.apply(html, 1, where)
    html = CDN_SCRIPTS.apply(html, 0, where)
    return CODE_CELLS.apply(html, ANY, where)


def split_styles(html: str, where: str) -> tuple[str, str]:
    """The page without its inline <style> blocks, and their CSS: nbconvert inlines about
    600 kB of notebook CSS into every page, of which the site serves only what the page
    uses, in a file beside it (notebook_css.py, hooks.NOTEBOOK_CSS)."""
    # str.find, not a regular expression: a lazy `.*?` over 600 kB took 20 ms a page
    kept, css, pos = [], [], 0
    while (start := html.find("<style", pos)) != -1:
        body = html.index(">", start) + 1
        end = html.index("</style>", body)
        kept.append(html[pos:start])
        css.append(html[body:end])
        pos = end + len("</style>")
    kept.append(html[pos:])
    if not css:
        version = installed_versions(("nbconvert",))["nbconvert"]
        raise MarkupChanged(
            f"{where}: nbconvert {version} inlined no <style> block: the notebook CSS "
            "beside the page would be empty. Update split_styles in resdoc/sitegen/markup.py."
        )
    return "".join(kept), "\n".join(css)
