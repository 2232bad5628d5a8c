"""Example pages: mkdocs-jupyter's HTML for a notebook, and what the site changes in it.

mkdocs-jupyter's converter (``mkdocs_jupyter.convert.nb2html``) renders each language's
notebook. Importing it (nbconvert, jupytext) takes about a second, more than a warm build
spends on every example page together, so it is imported only when a notebook changed; the
HTML it made is kept beside the notebook, keyed by the notebook's bytes, the converter's
options and the renderer's versions.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path

import markdown

from resdoc.build.examples import installed_versions

RENDERER = ("mkdocs-jupyter", "nbconvert", "pygments")
# mkdocs-jupyter's own defaults, as its plugin passes them (it gives "" where nb2html has others)
CONVERTER_OPTIONS = {"execute": False, "theme": "", "custom_mathjax_url": ""}


@dataclass
class RenderedNotebook:
    html: str
    toc_tokens: list  # python-markdown's, as mkdocs.structure.toc.get_toc takes them
    title: str | None


def _key(notebook: Path) -> str:
    digest = hashlib.sha256(notebook.read_bytes())
    digest.update(repr(installed_versions(RENDERER)).encode())
    digest.update(repr(sorted(CONVERTER_OPTIONS.items())).encode())
    return digest.hexdigest()


def _headings(notebook: Path) -> tuple[list, str | None]:
    """The table of contents of the notebook's Markdown cells (headings live only there)."""
    cells = json.loads(notebook.read_text("utf-8"))["cells"]
    sources = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]
    md = markdown.Markdown(extensions=["toc"])
    md.convert("\n\n".join(sources))
    title = next((token["name"] for token in md.toc_tokens if token["level"] == 1), None)
    return md.toc_tokens, title


def render(notebook: Path) -> RenderedNotebook:
    """The notebook as mkdocs-jupyter renders it, converted at most once per change."""
    cached = notebook.with_suffix(".rendered.json")
    key = _key(notebook)
    if cached.exists():
        record = json.loads(cached.read_text("utf-8"))
        if record.pop("key") == key:
            return RenderedNotebook(**record)
    from mkdocs_jupyter.convert import nb2html  # slow to import: see the module docstring

    toc_tokens, title = _headings(notebook)
    rendered = RenderedNotebook(nb2html(str(notebook), **CONVERTER_OPTIONS), toc_tokens, title)
    cached.write_text(json.dumps({"key": key, **asdict(rendered)}), "utf-8")
    return rendered


DOWNLOAD_LABELS = {
    "zh": (
        "下载脚本",
        "下载 notebook",
        "本页由构建时运行 {script} 生成：代码、输出和图都来自那一次运行。",
    ),
    "en": (
        "Download the script",
        "Download the notebook",
        "This page was produced by running {script} at build time: code, output and figures come from that run.",
    ),
}

_EXTERNAL_SCRIPT = re.compile(r"<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>", re.S)
_MATHJAX_CONFIG = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
# nbconvert's mermaid loader imports mermaid from a CDN when a notebook has diagrams; ours have none.
_MERMAID_LOADER = re.compile(
    r"<script type=\"module\">(?:(?!</script>).)*?mermaid(?:(?!</script>).)*</script>", re.S
)
_HEADING = re.compile(r'<h([1-6]) id="[^"]*">(.*?)</h\1>', re.S)


def split_styles(html: str) -> tuple[str, str]:
    """The page without its inline <style> blocks, and their CSS: nbconvert inlines the
    same ~600 kB of notebook CSS into every page, of which the site serves only what the page
    uses (notebook_css.py)."""
    # str.find, not a regular expression: a lazy `.*?` over 600 kB took 20 ms a page
    kept, css, pos = [], [], 0
    while (start := html.find("<style", pos)) != -1:
        body = html.index(">", start) + 1
        end = html.index("</style>", body)
        kept.append(html[pos:start])
        css.append(html[body:end])
        pos = end + len("</style>")
    kept.append(html[pos:])
    return "".join(kept), "\n".join(css)


def heading_ids(toc) -> list[str]:
    """The ids of a table of contents' headings, in page order."""
    return [id_ for item in toc for id_ in [item.id, *heading_ids(item.children)]]


def _match_heading_ids(html: str, toc) -> str:
    """nbconvert drops Chinese from heading ids (leaving id=""), while the page's table of
    contents links to python-markdown's ids: give the headings, in order, the TOC's ids."""
    ids = iter(heading_ids(toc))

    def rename(match: re.Match) -> str:
        id_ = next(ids, None)
        if id_ is None:
            return match[0]
        inner = re.sub(r'(class="anchor-link" href=")#[^"]*"', rf'\1#{id_}"', match[2])
        return f'<h{match[1]} id="{id_}">{inner}</h{match[1]}>'

    return _HEADING.sub(rename, html)


def page_body(html: str, toc, example: str, lang: str, css_href: str | None) -> str:
    """What the site shows of a rendered notebook: downloads on top, the shared notebook
    CSS, headings the TOC can reach, and nothing loaded from outside the site."""
    html = _match_heading_ids(html, toc)
    # long code lines scroll sideways: a keyboard user must be able to focus the cell to scroll it
    html = html.replace(
        '<div class="highlight-ipynb hl-python">',
        '<div class="highlight-ipynb hl-python" tabindex="0">',
    )
    html = _MERMAID_LOADER.sub("", _MATHJAX_CONFIG.sub("", _EXTERNAL_SCRIPT.sub("", html)))
    script_label, notebook_label, produced = DOWNLOAD_LABELS[lang]
    if css_href:
        html = f'<link rel="stylesheet" href="{css_href}">' + html
    bar = (
        '<p class="resdoc-downloads">'
        f'<a class="md-button" href="{example}.py" download>{script_label} ({example}.py)</a> '
        f'<a class="md-button" href="{example}.ipynb" download>{notebook_label} ({example}.ipynb)</a>'
        f"<br><small>{produced.format(script=f'<code>examples/{example}.py</code>')}</small></p>"
    )
    return bar + html
