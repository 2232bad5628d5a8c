"""Example pages: mkdocs-jupyter's HTML for a notebook, and what the site changes in it.

mkdocs-jupyter's converter (``mkdocs_jupyter.convert.nb2html``, see ``private.py``) renders each language's
notebook. Importing it (nbconvert, jupytext) takes about a second, more than a warm build
spends on every example page together, so it is imported only when a notebook changed; the
HTML it made is kept beside the notebook, keyed by the notebook's bytes, the converter's
options and the renderer's versions.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import markdown

from resdoc.sitegen import markup, private
from resdoc.sitegen.examples import installed_versions

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
    nb2html = private.nb2html()  # slow to import: see the module docstring

    toc_tokens, title = _headings(notebook)
    rendered = RenderedNotebook(nb2html(str(notebook), **CONVERTER_OPTIONS), toc_tokens, title)
    cached.write_text(json.dumps({"key": key, **asdict(rendered)}), "utf-8")
    return rendered


DOWNLOAD_LABELS = {
    "zh": (
        "下载脚本（{file}）",
        "下载 notebook（{file}）",
        "本页由构建时运行 {script} 生成：代码、输出和图都来自那一次运行。",
    ),
    "en": (
        "Download the script ({file})",
        "Download the notebook ({file})",
        "This page was produced by running {script} at build time: code, output and figures come from that run.",
    ),
}


def heading_ids(toc) -> list[str]:
    """The ids of a table of contents' headings, in page order."""
    return [id_ for item in toc for id_ in [item.id, *heading_ids(item.children)]]


def page_body(html: str, toc, example: str, lang: str, css_href: str | None, where: str) -> str:
    """What the site shows of a rendered notebook (its inline styles already split off):
    downloads on top, the shared notebook CSS, headings the TOC can reach, and nothing
    loaded from outside the site. ``where`` names the page in errors."""
    html = markup.heading_ids(html, heading_ids(toc), where)
    html = markup.notebook_page(html, where)
    html = markup.notebook_in_language(html, lang, where)
    script_label, notebook_label, produced = DOWNLOAD_LABELS[lang]
    if css_href:
        html = f'<link rel="stylesheet" href="{css_href}">' + html
    bar = (
        '<p class="resdoc-downloads">'
        f'<a class="md-button" href="{example}.py" download>{script_label.format(file=f"{example}.py")}</a> '
        f'<a class="md-button" href="{example}.ipynb" download>'
        f"{notebook_label.format(file=f'{example}.ipynb')}</a>"
        f"<br><small>{produced.format(script=f'<code>examples/{example}.py</code>')}</small></p>"
    )
    return bar + html
