"""What a warm build keeps from the last one: the results of the machinery's slow, pure steps
(an example page's body, KaTeX's HTML of a formula), each kept with a digest of what made it:
its inputs and the machinery's own sources (``resdoc/sitegen``), so that an edit to either
makes it again. A kept result is one JSON file, written whole or not at all."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

MACHINERY = Path(__file__).parent


def machinery_sources() -> list[Path]:
    """The machinery's sources: its Python modules and its node script (not their caches)."""
    return sorted(path for path in MACHINERY.glob("*") if path.suffix in (".py", ".js"))


@functools.cache
def machinery() -> str:
    """A digest of :func:`machinery_sources`."""
    digest = hashlib.sha256()
    for path in machinery_sources():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def key(*parts: str | bytes) -> str:
    """A digest of ``parts`` and of the machinery."""
    digest = hashlib.sha256(machinery().encode())
    for part in parts:
        digest.update(b"\0" + (part.encode() if isinstance(part, str) else part))
    return digest.hexdigest()


def recall(path: Path, made_of: str) -> dict | None:
    """What :func:`keep` wrote to ``path``, if it was made of ``made_of`` (a :func:`key`)."""
    try:
        kept = json.loads(path.read_text("utf-8"))
    except (FileNotFoundError, ValueError):
        return None
    return kept.get("value") if kept.get("made_of") == made_of else None


def keep(path: Path, made_of: str, value) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps({"made_of": made_of, "value": value}), "utf-8")
    partial.replace(path)  # a build stopped half-way leaves the last whole one
