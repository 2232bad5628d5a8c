"""One search index per language, so a reader downloads only their own language's.

Material's search plugin writes one ``search/search_index.json``; mkdocs-static-i18n fills it
with the pages of every language, and every page fetches it (about half the bytes of a
first visit). After the last language's pass, the index is split by the language of each
entry's address: the default language's stays at ``search/``, another language's goes to
``<lang>/search/`` with addresses relative to ``<lang>/``. A page finds the index, and
resolves the addresses of results, from the ``base`` of Material's ``__config``; a page of
another language gets ``<base>/<lang>`` (``language_base``). Only search uses ``base`` with
the features this site turns on (no versions, no instant navigation).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

INDEX = Path("search") / "search_index.json"
_BASE = re.compile(
    r'(<script id="__config" type="application/json">\{"annotate": [^,]*, "base": ")([^"]*)"'
)


def split_index(site_dir: Path, prefixes: dict[str, str]) -> None:
    """Split the merged index by language; ``prefixes`` maps a language to "" or "<lang>/"."""
    merged = json.loads((site_dir / INDEX).read_text("utf-8"))
    others = {lang: prefix for lang, prefix in prefixes.items() if prefix}
    for lang, prefix in prefixes.items():
        if prefix:
            docs = [
                {**doc, "location": doc["location"].removeprefix(prefix)}
                for doc in merged["docs"]
                if doc["location"].startswith(prefix)
            ]
            config = {**merged["config"], "lang": [lang]}
        else:
            docs = [
                doc
                for doc in merged["docs"]
                if not any(doc["location"].startswith(p) for p in others.values())
            ]
            config = merged["config"]
        path = site_dir / prefix / INDEX
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps({"config": config, "docs": docs}, ensure_ascii=False, separators=(",", ":")),
            "utf-8",
        )


def language_base(page_html: str, prefix: str) -> str:
    """Point a page of a non-default language at its language's root, where its index is."""
    if not prefix:
        return page_html
    return _BASE.sub(lambda m: f'{m[1]}{m[2]}/{prefix.rstrip("/")}"', page_html, count=1)
