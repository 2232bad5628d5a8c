"""MkDocs hooks of the resdoc site (``hooks:`` in mkdocs.yml).

- ``on_pre_build``: bring every example up to date (cached; see ``examples.py``).
- ``on_files``: add what the build generates, for the language being built: KaTeX from
  ``node_modules``, the examples' figures, and one rendered page per example. This runs
  after mkdocs-static-i18n (priority -100), which would otherwise drop or mis-place them.
- ``on_page_markdown``: fill ``{{ result:… }}`` and check snippet includes, naming the page.
- ``on_page_content``: give example pages their download links; strip the CDN scripts
  that mkdocs-jupyter adds (MathJax, mermaid): the site loads nothing from outside.
"""

from __future__ import annotations

import logging
import os
import posixpath
import re
from importlib import metadata
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from resdoc.build.examples import Example, ExampleRunner
from resdoc.build.notebooks import language_notebook, write_if_changed
from resdoc.build.pages import check_snippets, fill_results
from resdoc.build.translations import lagging_pages, missing_twins

log = logging.getLogger("mkdocs.resdoc")

KATEX_FILES = ("katex.min.css", "katex.min.js", "contrib/auto-render.min.js")
LANGUAGES = ("zh", "en")
BEHIND_NOTICE = {
    "zh": '!!! warning "译文可能落后"\n    本页的英文版在这份中文译文之后改动过，这里可能缺少最新内容。\n\n',
    "en": '!!! warning "This translation may be behind"\n    The Chinese original of this page changed after '
    "this translation was last updated; recent changes may be missing here.\n\n",
}
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

_state: dict = {}


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def _language(config) -> str:
    i18n = config.plugins.get("i18n")
    return i18n.current_language if i18n is not None else config.theme.get("language", "en")


def _prefix(config, lang: str) -> str:
    i18n = config.plugins.get("i18n")
    default = i18n.default_language if i18n is not None else lang
    return "" if lang == default else f"{lang}/"


def on_pre_build(config) -> None:
    root = _root(config)
    cache = Path(os.environ.get("RESDOC_CACHE_DIR") or root / ".cache" / "resdoc")
    runner = ExampleRunner(root, cache / "examples")
    examples, executed = runner.run_all()
    for example in executed:
        log.info("resdoc: ran example %s", example.script)
    _state.update(root=root, examples=examples, results={e.name: e.results() for e in examples})
    # mkdocs-jupyter evicts every cached page it did not render in this build; with one build
    # per language, each language would evict the other's: one folder per language. Its key
    # is the notebook and its options only, so the renderer's versions name the folder.
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None:
        renderer = "-".join(metadata.version(name) for name in ("mkdocs-jupyter", "nbconvert"))
        jupyter.config["cache_dir"] = str(
            cache / "mkdocs-jupyter" / f"{_language(config)}-{renderer}"
        )


class _GeneratedPage(File):
    """A page rendered by mkdocs-jupyter from a notebook the build made."""

    def is_documentation_page(self) -> bool:
        return True


class _Alternate:
    def __init__(self, url: str):
        self.url = url


def _file(config, src_uri: str, dest_uri: str, abs_src_path: Path, cls=File) -> File:
    file = cls(src_uri, None, config.site_dir, config.use_directory_urls, dest_uri=dest_uri)
    file.abs_src_path = str(abs_src_path)
    file.generated_by = "resdoc"
    return file


def _katex_files(config, root: Path) -> list[File]:
    dist = root / "node_modules" / "katex" / "dist"
    if not (dist / "katex.min.js").is_file():
        raise PluginError(
            f"KaTeX is missing ({dist}). It comes from the npm registry at set-up: run `nox -s docs`, "
            "or `npm ci` in the project folder."
        )
    paths = [dist / name for name in KATEX_FILES] + sorted((dist / "fonts").glob("*.woff2"))
    return [
        _file(
            config,
            f"assets/katex/{p.relative_to(dist).as_posix()}",
            f"assets/katex/{p.relative_to(dist).as_posix()}",
            p,
        )
        for p in paths
    ]


def _example_files(config, example: Example, lang: str) -> list[File]:
    prefix = _prefix(config, lang)
    page_dir = f"examples/{example.name}/"
    files = []
    for svg in example.figures():
        name, svg_lang = svg.name.removesuffix(".svg").rsplit(".", 1)
        if svg_lang == lang:
            src = f"figures/{example.name}/{name}.svg"
            files.append(_file(config, src, prefix + src, svg))

    def figure_src(example_name: str, name: str) -> str:
        return posixpath.relpath(f"figures/{example_name}/{name}.svg", page_dir)

    notebook = write_if_changed(
        language_notebook(example.output / "notebook.ipynb", lang, figure_src),
        example.output / f"page.{lang}.ipynb",
    )
    page = _file(
        config,
        f"examples/{example.name}.ipynb",
        f"{prefix}{page_dir}index.html",
        notebook,
        _GeneratedPage,
    )
    page.locale = page.locale_alternate_of = lang
    page.alternates = {
        other: _Alternate(f"{_prefix(config, other)}{page_dir}") for other in LANGUAGES
    }
    files.append(page)
    root = _state["root"]
    files.append(
        _file(
            config,
            f"{page_dir}{example.name}.py",
            f"{prefix}{page_dir}{example.name}.py",
            root / example.script,
        )
    )
    files.append(
        _file(
            config,
            f"{page_dir}{example.name}.ipynb",
            f"{prefix}{page_dir}{example.name}.ipynb",
            notebook,
        )
    )
    return files


@event_priority(-200)  # after mkdocs-static-i18n (-100), which re-creates every file
def on_files(files: Files, config) -> Files:
    problems = missing_twins(Path(config.docs_dir))
    if problems:
        raise PluginError("Every page needs both languages:\n" + "\n".join(problems))
    _state["lagging"] = lagging_pages(Path(config.docs_dir))  # once per build, not once per page
    lang = _language(config)
    generated = _katex_files(config, _state["root"])
    for example in _state["examples"]:
        generated += _example_files(config, example, lang)
    for file in generated:
        files.append(file)
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    check_snippets(markdown, page.file.src_uri, _state["root"])
    markdown = fill_results(markdown, page.file.src_uri, _state["results"])
    lang = _language(config)
    name = page.file.src_uri.removesuffix(".md").removesuffix(f".{lang}")
    if page.file.src_uri.endswith(".md") and _state["lagging"].get(name) == lang:
        title, _, body = markdown.partition("\n")  # the notice goes under the page title
        markdown = f"{title}\n\n{BEHIND_NOTICE[lang]}{body}"
    return markdown


_EXTERNAL_SCRIPT = re.compile(r"<script[^>]*\bsrc=\"https?://[^\"]*\"[^>]*>\s*</script>", re.S)
_MATHJAX_CONFIG = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
# nbconvert's mermaid loader imports mermaid from a CDN when a notebook has diagrams; ours have none.
_MERMAID_LOADER = re.compile(
    r"<script type=\"module\">(?:(?!</script>).)*?mermaid(?:(?!</script>).)*</script>", re.S
)


def _toc_ids(items) -> list[str]:
    return [id_ for item in items for id_ in [item.id, *_toc_ids(item.children)]]


_HEADING = re.compile(r'<h([1-6]) id="[^"]*">(.*?)</h\1>', re.S)


def _match_heading_ids(html: str, toc) -> str:
    """nbconvert drops Chinese from heading ids (leaving id=""), while the page's table of
    contents links to python-markdown's ids: give the headings, in order, the TOC's ids."""
    ids = iter(_toc_ids(toc))

    def rename(match: re.Match) -> str:
        id_ = next(ids, None)
        if id_ is None:
            return match[0]
        inner = re.sub(r'(class="anchor-link" href=")#[^"]*"', rf'\1#{id_}"', match[2])
        return f'<h{match[1]} id="{id_}">{inner}</h{match[1]}>'

    return _HEADING.sub(rename, html)


# nbconvert inlines the same ~600 kB of notebook CSS into every example page: serve it once.
_INLINE_STYLE = re.compile(r"<style[^>]*>.*?</style>", re.S)
NOTEBOOK_CSS = "assets/stylesheets/notebook.css"


def _share_notebook_css(html: str, page, config) -> str:
    css = "\n".join(
        style.split(">", 1)[1].rsplit("</style>", 1)[0] for style in _INLINE_STYLE.findall(html)
    )
    if not css:
        return html
    path = Path(config.site_dir) / NOTEBOOK_CSS
    if not path.exists() or path.read_text("utf-8") != css:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(css, "utf-8")
    href = "../" * page.url.count("/") + NOTEBOOK_CSS
    return f'<link rel="stylesheet" href="{href}">' + _INLINE_STYLE.sub("", html)


def on_page_content(html: str, page, config, files) -> str:
    if not isinstance(page.file, _GeneratedPage):
        return html
    html = _share_notebook_css(html, page, config)
    html = _match_heading_ids(html, page.toc)
    # long code lines scroll sideways: a keyboard user must be able to focus the cell to scroll it
    html = html.replace(
        '<div class="highlight-ipynb hl-python">',
        '<div class="highlight-ipynb hl-python" tabindex="0">',
    )
    html = _MERMAID_LOADER.sub("", _MATHJAX_CONFIG.sub("", _EXTERNAL_SCRIPT.sub("", html)))
    name = Path(page.file.src_uri).stem
    script_label, notebook_label, produced = DOWNLOAD_LABELS[_language(config)]
    bar = (
        '<p class="resdoc-downloads">'
        f'<a class="md-button" href="{name}.py" download>{script_label} ({name}.py)</a> '
        f'<a class="md-button" href="{name}.ipynb" download>{notebook_label} ({name}.ipynb)</a>'
        f"<br><small>{produced.format(script=f'<code>examples/{name}.py</code>')}</small></p>"
    )
    return bar + html


# Material fetches "sitemap.xml" next to every <link rel="alternate"> in the page head to map
# pages between languages. mkdocs-static-i18n points those links at the page itself, so each
# page would request a non-existent <page>/sitemap.xml (a 404 per page and language). The
# header's language switcher carries the same per-page links, so the head links can go.
_HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')


# Accessibility fixes to Material's markup (axe-core, tests/test_site_browser.py): the search
# dialog needs a name, and the footer links' aria-label differs from their visible text.
SEARCH_LABEL = {"zh": "搜索", "en": "Search"}
_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog"'
_FOOTER_LABEL = re.compile(
    r'(class="md-footer__link md-footer__link--(?:prev|next)") aria-label="[^"]*"'
)


def on_post_page(output: str, page, config) -> str:
    output = _HEAD_ALTERNATE.sub("", output)
    label = SEARCH_LABEL.get(_language(config), "Search")
    output = output.replace(_SEARCH_DIALOG, f'{_SEARCH_DIALOG} aria-label="{label}"')
    return _FOOTER_LABEL.sub(r"\1", output)
