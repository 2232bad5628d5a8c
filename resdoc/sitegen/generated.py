"""The files a language's pass adds to the site: KaTeX, the examples' figures, example pages.

Each is a MkDocs ``File.generated`` backed by a file outside ``docs/``: KaTeX from
``node_modules``, figures and notebooks from the examples' cache.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from resdoc.sitegen import private
from resdoc.sitegen.conventions import FIGURE_VARIANTS, figure_file, figure_uri, variant_uri
from resdoc.sitegen.examples import Example
from resdoc.sitegen.notebooks import language_notebook, notebook_text, write_if_changed

KATEX_FILES = ("katex.min.css",)  # and its fonts: formulas are typeset at build time (math.py)


class ExamplePage(File):
    """A page rendered by mkdocs-jupyter from a notebook the build made (see hooks.on_pre_page)."""

    def is_documentation_page(self) -> bool:
        return True


def _file(config, src_uri: str, dest_uri: str, source: Path, cls=File) -> File:
    file = cls.generated(config, src_uri, abs_src_path=str(source))
    file.dest_uri = dest_uri  # the language's folder: "en/…" outside the default language
    return file


def katex_files(config, root: Path) -> list[File]:
    dist = root / "node_modules" / "katex" / "dist"
    if not (dist / "katex.min.js").is_file():
        raise PluginError(
            f"KaTeX is missing ({dist}). It comes from the npm registry at set-up: run `nox -s docs`, "
            "or `npm ci` in the project folder."
        )
    paths = [dist / name for name in KATEX_FILES] + sorted((dist / "fonts").glob("*.woff2"))
    uris = [f"assets/katex/{path.relative_to(dist).as_posix()}" for path in paths]
    return [_file(config, uri, uri, path) for uri, path in zip(uris, paths, strict=True)]


def example_files(
    config, root: Path, example: Example, lang: str, prefixes: dict[str, str]
) -> list[File]:
    """One language's figures of ``example``, its page, and the script and notebook offered
    for download. ``prefixes`` maps each language to its folder ("" or "en/")."""
    prefix = prefixes[lang]
    page_dir = f"examples/{example.name}/"
    files = []
    for name in example.figure_names():
        for suffix in FIGURE_VARIANTS.values():  # the page picks one (figures.py)
            src = variant_uri(figure_uri(example.name, name), suffix)
            svg = example.output / "figures" / figure_file(name, lang, suffix)
            files.append(_file(config, src, prefix + src, svg))

    def figure_src(example_name: str, name: str) -> str:
        return posixpath.relpath(figure_uri(example_name, name), page_dir)

    notebook = write_if_changed(
        notebook_text(language_notebook(example.output / "notebook.ipynb", lang, figure_src)),
        example.output / f"page.{lang}.ipynb",
    )
    page = _file(
        config,
        f"examples/{example.name}.ipynb",
        f"{prefix}{page_dir}index.html",
        notebook,
        ExamplePage,
    )
    private.mark_language(page, lang, {other: f"{p}{page_dir}" for other, p in prefixes.items()})
    files.append(page)
    for download, source in (
        (f"{example.name}.py", root / example.script),
        (f"{example.name}.ipynb", notebook),
    ):
        files.append(_file(config, page_dir + download, prefix + page_dir + download, source))
    return files
