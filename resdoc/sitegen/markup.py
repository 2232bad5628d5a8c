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

import re
from collections.abc import Callable
from dataclasses import dataclass

from mkdocs.exceptions import PluginError

from resdoc.sitegen.examples import installed_versions

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


# Two English texts Material has no translation for, on every page: the title of a heading's
# permalink (Python-Markdown's toc extension, one setting for every language) and the
# footer's credit (a fixed phrase in Material's copyright partial).
PERMALINK_TITLE = Patch(
    "the headings' permalink title",
    "markdown",
    re.compile(r'(<a class="headerlink" href="[^"]*") title="Permanent link"'),
    r'\1 title="{title}"',
)
FOOTER_CREDIT = Patch(
    "the footer's credit",
    "mkdocs-material",
    re.compile(
        r'Made with(\s*<a href="https://squidfunk\.github\.io/mkdocs-material/"[^>]*>'
        r"\s*Material for MkDocs\s*</a>)"
    ),
    r"{before}\1{after}",
)
UI_TEXT = {"zh": {"title": "本节链接", "before": "本站使用", "after": " 构建"}}


def in_language(html: str, lang: str, where: str) -> str:
    """Material's page with the permalink titles and the footer credit in ``lang``."""
    if lang not in UI_TEXT:
        return html
    words = UI_TEXT[lang]
    permalink = Patch(
        PERMALINK_TITLE.purpose,
        PERMALINK_TITLE.package,
        PERMALINK_TITLE.pattern,
        PERMALINK_TITLE.replacement.format(title=words["title"]),
    )
    html = permalink.apply(html, html.count('<a class="headerlink"'), where)
    credit = Patch(
        FOOTER_CREDIT.purpose,
        FOOTER_CREDIT.package,
        FOOTER_CREDIT.pattern,
        FOOTER_CREDIT.replacement.format(before=words["before"], after=words["after"]),
    )
    return credit.apply(html, 1, where)


# Material's 404 page says "404 - Not found" in every language (a fixed heading in its
# 404.html template, with no translation key): the site says it in the page's language.
NOT_FOUND_HEADING = Patch(
    "the 404 page's heading in the page's language",
    "mkdocs-material",
    re.compile(r"<h1>404 - Not found</h1>"),
    "",
)
NOT_FOUND = {
    "zh": '<h1>404：找不到这个页面</h1>\n<p>这个地址上没有页面。回到<a href="{home}">首页</a>，或用上方的搜索。</p>',
    "en": "<h1>404: page not found</h1>\n<p>There is no page at this address. Go back to the "
    '<a href="{home}">home page</a>, or search above.</p>',
}


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


def material_page(html: str, where: str, languages: int, label: str, neighbours: int) -> str:
    """Material's page markup, fixed: ``languages`` head alternates removed, the search dialog
    named ``label``, ``neighbours`` footer links (previous and next pages) named by their text."""
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
# The notebook's English UI on a Chinese page: the input prompts, and the copy button's name
# and feedback (one each per code cell).
NOTEBOOK_UI = {
    "zh": (
        (
            "the notebook's input prompts",
            r'(<div class="jp-InputPrompt jp-InputArea-prompt">)In\xa0\[(\d*)\]:',
            r"\1[\2]:",  # as JupyterLab prompts: a language of their own
        ),
        (
            "the notebook copy button's name",
            r'aria-label="Copy to Clipboard"',
            'aria-label="复制到剪贴板"',
        ),
        ("the notebook copy button's feedback", r">Copied!<", ">已复制<"),
    )
}


def notebook_in_language(html: str, lang: str, where: str) -> str:
    """The notebook's prompts and copy buttons in ``lang`` (counted: one per code cell)."""
    cells = html.count('<div class="highlight-ipynb hl-python"')
    for purpose, pattern, replacement in NOTEBOOK_UI.get(lang, ()):
        html = Patch(purpose, "mkdocs-jupyter", re.compile(pattern), replacement).apply(
            html, cells, where
        )
    return html


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
    """The page without its inline <style> blocks, and their CSS: nbconvert inlines the
    same ~600 kB of notebook CSS into every page, which the site serves once instead."""
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
            f"{where}: nbconvert {version} inlined no <style> block: the notebook CSS the site "
            "serves once (assets/stylesheets/notebook.css) would be empty. Update split_styles "
            "in resdoc/sitegen/markup.py."
        )
    return "".join(kept), "\n".join(css)
