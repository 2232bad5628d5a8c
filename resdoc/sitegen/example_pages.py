"""Example pages: mkdocs-jupyter's HTML for a notebook, and what the site changes in it: the
chapter's number in the title, the downloads and how to run them right under it, every code
cell anchored ``cell-<N>`` by the script line its code starts at, and the statements that
only hand numbers and claims to the site folded where they stand (``bookkeeping.py``).

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
from html import escape
from pathlib import Path

import markdown

from resdoc.sitegen import bookkeeping, chapters, markup, private
from resdoc.sitegen.examples import installed_versions
from resdoc.sitegen.ui_text import DOWNLOAD_LABELS, FOLD_LABELS, RUN_IT

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


CPU_TORCH = "https://download.pytorch.org/whl/cpu"  # where pip finds torch 2.13.0's CPU build


def heading_ids(toc) -> list[str]:
    """The ids of a table of contents' headings, in page order."""
    return [id_ for item in toc for id_ in [item.id, *heading_ids(item.children)]]


def code_sources(notebook: dict) -> list[str]:
    """The sources of a notebook's code cells, in order."""
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


def _pre(lines: list[str]) -> str:
    return f'<div class="highlight-ipynb hl-python" tabindex="0"><pre>{chr(10).join(lines)}\n</pre></div>'


def folded(source: str, pre: str, lang: str, where: str) -> str:
    """A code cell's highlighted source (``pre``, one line of HTML per line of ``source``) with
    each run of bookkeeping statements folded into a collapsed block where it stands."""
    found = bookkeeping.parts(source)
    lines = pre.split("\n")[:-1]  # Pygments ends the last line with a newline too
    if len(lines) != len(source.split("\n")):
        raise markup.MarkupChanged(
            f"{where}: a code cell's highlighted source has {len(lines)} lines for the "
            f"{len(source.splitlines())} of its source: Pygments or nbconvert changed how they "
            "lay out lines. Update resdoc/sitegen/example_pages.py (folded)."
        )
    if all(part.kind == "lesson" for part in found):
        return _pre(lines)
    words = FOLD_LABELS[lang]
    shown = []
    for part in found:
        first, end = part.lines
        if part.kind == "lesson":
            shown.append(_pre(lines[first:end]))
            continue
        what, count = words["what"][part.numbers, part.claims], end - first
        summary = words["summary"].format(what=what, lines=count, s=words["plural"] * (count > 1))
        if part.defines:
            names = words["joiner"].join(f"<code>{name}</code>" for name in part.defines)
            summary += words["defines"].format(names=names)
        code = source.split("\n")[first]
        indent = len(code) - len(code.lstrip(" "))
        shown.append(
            f'<details class="rd-bookkeeping" style="--rd-indent: {indent}">'
            f"<summary>{summary}</summary>{_pre(lines[first:end])}</details>"
        )
    return "".join(shown)


def run_it_yourself(example: str, lang: str, repo_url: str | None) -> str:
    """How a reader installs ``resdoc`` and runs this example's downloads, as a collapsed box.
    ``repo_url`` (RESDOC_REPO_URL) is the repository's address, when the build knows it."""
    words = RUN_IT[lang]
    commands = []
    if repo_url:
        url = escape(repo_url, quote=True)
        repo = words["repo"].format(url=url)
        commands += [
            f"git clone {url}",
            f"cd {escape(repo_url.rstrip('/').rsplit('/', 1)[-1])}",
        ]
    else:
        repo = words["local"]
    commands += [
        "python3.11 -m venv .venv",
        ". .venv/bin/activate",
        f"pip install . \\\n    --extra-index-url {CPU_TORCH}",
    ]
    install = "\n".join(commands)
    return (
        f'<details class="tip rd-run-it"><summary>{words["title"]}</summary>'
        f"<p>{words['needs'].format(repo=repo)}</p>"
        f"<pre><code>{install}</code></pre>"
        f"<p>{words['then']}</p><pre><code>python {example}.py</code></pre>"
        f"<p>{words['notebook'].format(name=example)}</p></details>"
    )


def page_body(
    html: str,
    toc,
    example: str,
    lang: str,
    css_href: str | None,
    where: str,
    notebook: dict,
    chapter: int | None = None,
    repo_url: str | None = None,
) -> str:
    """What the site shows of a rendered notebook (its inline styles already split off): the
    chapter's number in the title, downloads and how to run them under it, each code cell
    anchored by its line in the script (``cell-<N>``) with its bookkeeping folded, the shared
    notebook CSS, headings the TOC can reach, and nothing loaded from outside the site.
    ``where`` names the page in errors."""
    html = markup.heading_ids(html, heading_ids(toc), where)
    html = markup.notebook_page(html, where)
    sources = code_sources(notebook)
    html = markup.notebook_in_language(html, lang, where, len(sources))
    html = markup.notebook_cells(html, len(notebook["cells"]), len(sources), where)
    html = markup.code_inputs(
        html, lambda k, pre: folded(sources[k - 1], pre, lang, where), len(sources), where
    )
    script_label, notebook_label, produced = DOWNLOAD_LABELS[lang]
    bar = (
        '<p class="resdoc-downloads">'
        f'<a class="md-button" href="{example}.py" download>{script_label}</a> '
        f'<a class="md-button" href="{example}.ipynb" download>{notebook_label}</a>'
        f"<br><small>{produced.format(script=f'<code>examples/{example}.py</code>')}</small></p>"
    )
    label = "" if chapter is None else chapters.label_html(chapter, lang) + " "
    html = markup.around_title(html, label, bar + run_it_yourself(example, lang, repo_url), where)
    if css_href:
        html = f'<link rel="stylesheet" href="{css_href}">' + html
    return html
