"""Material's search entries of a page, kept while the page stays the same.

Material's search plugin parses each page's HTML for its entries on every build: about half
of a warm build of these pages, whose typeset formulas make long HTML, though a page's
entries change only when the page does. :func:`install` replaces the plugin's indexing
(``private.py``, "search-entries"): a page whose address, title, content, table of contents
and search metadata are those of the last build gets the entries it got then, from
``<cache>/search/`` (one file per page, so editing does not pile files up); any other page is
indexed by Material, and its entries kept for the next build. The key also holds what else
decides the entries: Material's version, the index's configuration and jieba's dictionaries.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from resdoc.sitegen import private
from resdoc.sitegen.examples import installed_versions

_folder = Path()  # where the entries are kept: set by install, before indexing is replaced


def install(cache: Path) -> None:
    """Keep search entries in ``cache / "search"`` from now on (each build calls it)."""
    global _folder
    _folder = cache / "search"
    _folder.mkdir(parents=True, exist_ok=True)
    private.replace_search_indexing(_cached)


def _cached(index_page):
    def add_entry_from_context(self, page):
        entries = private.search_entries(self)
        key = page_key(page, self.config)
        file = _folder / f"{hashlib.sha256(page.url.encode()).hexdigest()[:24]}.json"
        kept = json.loads(file.read_text("utf-8")) if file.is_file() else None
        if kept is not None and kept["key"] == key:
            entries.extend(kept["entries"])
            return None
        start = len(entries)
        index_page(self, page)
        file.write_text(json.dumps({"key": key, "entries": entries[start:]}), "utf-8")
        return None

    return add_entry_from_context


def _toc(items) -> list:
    return [[item.id, item.url, item.title, _toc(item.children)] for item in items]


def page_key(page, index_config: dict) -> str:
    """A digest of everything Material's entries for ``page`` are made from."""
    config = json.dumps(index_config, sort_keys=True, default=str)
    dictionaries = tuple(
        (path, Path(path).stat().st_mtime_ns)
        for path in (index_config.get("jieba_dict"), index_config.get("jieba_dict_user"))
        if path and Path(path).is_file()
    )
    meta = {key: page.meta.get(key) for key in ("search", "tags", "title")}
    made_of = [_salt(config, dictionaries), page.url, str(page.title), page.content, _toc(page.toc)]
    made_of.append(json.dumps(meta, sort_keys=True, default=str))
    return hashlib.sha256(json.dumps(made_of).encode()).hexdigest()


@functools.cache
def _salt(config: str, dictionaries: tuple[tuple[str, int], ...]) -> str:
    """Material's and jieba's versions, the index's configuration and jieba's dictionaries,
    each given with its modification time (so an edited dictionary is read again)."""
    digest = hashlib.sha256(config.encode())
    digest.update(json.dumps(installed_versions(("mkdocs-material", "jieba"))).encode())
    for path, _ in dictionaries:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()
