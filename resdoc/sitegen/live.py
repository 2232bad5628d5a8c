"""The live preview's rebuilds (``nox -s docs-live``: ``mkdocs serve --dirty``): after an edit,
only the pages whose inputs changed are built again, so the edit shows in about a second.

MkDocs' dirty build builds a page again when its source is newer than the page it wrote
last. That misses what else a page is made of here, so :func:`rebuild_what_changed` widens
it: a page is built again when its source, its twin in the other language (whose notice of a
translation that is behind it shows) or any input every page shares is newer than the page:
the configuration, the site's assets and data (``docs/`` but its pages), the machinery
(``resdoc/sitegen``), KaTeX's lock, and every example's outputs (an example run again, after
an edit to its script or to a ``resdoc`` module it imports, rewrites them). An edit that
changes what other pages show of a page (its title, in every page's navigation; what it
cites, on the references page) builds every page again.

A page not built again keeps the page it wrote; its title in the navigation of the pages
that are built again is the one it had when it was last built (:func:`keep_titles`), not
the one MkDocs makes up for a page it did not read, and its search entries are the ones it
had (:func:`complete_search_index`). ``nox -s docs`` builds everything.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from pathlib import Path

from mkdocs.structure.files import File, Files

from resdoc.sitegen import warm

_titles: dict[tuple[str, str], str] = {}  # (language, page) -> its title when last built
_entries: dict[str, list[dict]] = {}  # page -> its search entries when last built
_TITLE = re.compile(r"^# (.+)$", re.MULTILINE)


def _not_the_dirty_warning(record: logging.LogRecord) -> bool:
    return not record.getMessage().startswith("A 'dirty' build is being performed")


def allow_dirty_builds() -> None:
    """Keep MkDocs' warning that a dirty build's navigation may be wrong from failing the
    strict preview: the pages that show another page's title or citations are built again
    here (:func:`rebuild_what_changed`, :func:`keep_titles`)."""
    logging.getLogger("mkdocs.commands.build").addFilter(_not_the_dirty_warning)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _shared_inputs(root: Path, docs: Path, cache: Path) -> list[Path]:
    """What every page is made with, besides its own source."""
    paths = [root / "mkdocs.yml", root / "package-lock.json"]
    paths += [p for p in docs.rglob("*") if p.is_file() and p.suffix != ".md"]
    paths += warm.machinery_sources()
    paths += [p for p in (cache / "examples").glob("*/*") if p.is_file()]
    return paths


def _facts(docs: Path, lang: str, cited: dict) -> str:
    """What other pages show of each page of ``lang``: its title (in every page's navigation)
    and where each work is cited (on the references page), as a digest."""
    titles = {}
    for path in sorted(docs.rglob(f"*.{lang}.md")):
        found = _TITLE.search(path.read_text("utf-8"))
        titles[path.relative_to(docs).as_posix()] = found and found[1]
    return hashlib.sha256(json.dumps([titles, cited], default=str).encode()).hexdigest()


def _twin(source: Path, lang: str, languages: tuple[str, ...]) -> list[Path]:
    stem = source.name.removesuffix(f".{lang}.md")
    return [source.with_name(f"{stem}.{other}.md") for other in languages if other != lang]


def rebuild_what_changed(
    files: Files,
    root: Path,
    docs: Path,
    cache: Path,
    lang: str,
    languages: tuple[str, ...],
    cited: dict,
) -> None:
    """Have MkDocs' dirty build build again each page of ``lang`` whose inputs changed (see
    the module's docstring): each page's ``is_modified`` answers for it. ``cited``: each
    work's citations in ``lang`` (``citations.Bibliography.cited``)."""
    newest = max(map(_mtime, _shared_inputs(root, docs, cache)), default=0.0)
    record = cache / f"live-facts.{lang}.json"
    facts = _facts(docs, lang, cited)
    if not record.is_file() or record.read_text("utf-8") != facts:
        newest = float("inf")  # every page shows what changed: build them all
        record.write_text(facts, "utf-8")
    for file in files.documentation_pages():
        sources = [Path(file.abs_src_path)]
        if file.abs_src_path.endswith(f".{lang}.md"):
            sources += _twin(sources[0], lang, languages)
        changed = max([newest, *map(_mtime, sources)])
        file.is_modified = _modified_since(file, changed)


def _modified_since(file: File, changed: float):
    def is_modified() -> bool:
        return not os.path.isfile(file.abs_dest_path) or _mtime(Path(file.abs_dest_path)) < changed

    return is_modified


def keep_titles(files: Files, lang: str, dirty: bool) -> None:
    """Each page read in this build leaves its title (as the hooks set it: numbered); a page a
    dirty build did not read gets the one it left."""
    for file in files.documentation_pages():
        page, key = file.page, (lang, file.src_uri)
        if page is None:
            continue
        if not dirty or file.is_modified():
            _titles[key] = page.title
        elif key in _titles:
            page.title = _titles[key]


def complete_search_index(path: Path) -> None:
    """The merged search index at ``path`` (both languages), written by a dirty build with
    the entries of the pages it built, completed with each other page's entries from the
    build that last built it."""
    index = json.loads(path.read_text("utf-8"))
    built: dict[str, list[dict]] = {}
    for doc in index["docs"]:
        built.setdefault(doc["location"].partition("#")[0], []).append(doc)
    _entries.update(built)
    index["docs"] = [doc for docs in _entries.values() for doc in docs]
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), "utf-8")
