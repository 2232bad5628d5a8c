"""Read an example script in jupytext's percent format into cells that keep their line numbers."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

_HEADER = re.compile(r"^# %%(?P<rest>.*)$")


@dataclass
class Cell:
    kind: str  # "code" or "markdown"
    source: str
    first_line: int  # 1-based line of the source's first line in the script
    metadata: dict = field(default_factory=dict)


def _parse_header(rest: str) -> tuple[str, dict]:
    kind = "code"
    rest = rest.strip()
    if rest.startswith("[markdown]"):
        kind, rest = "markdown", rest[len("[markdown]") :]
    metadata = {}
    for token in shlex.split(rest):
        key, eq, value = token.partition("=")
        if eq:
            metadata[key] = value
    return kind, metadata


def read_cells(path: Path) -> list[Cell]:
    """Split a percent-format script into cells.

    Text before the first ``# %%`` (the docstring title) becomes a code cell of its own.
    Markdown cells lose their leading ``# ``; ``lang="zh"`` style metadata is kept.
    """
    lines = path.read_text("utf-8").splitlines()
    cells: list[Cell] = []
    kind, metadata, start, body = "code", {}, 1, []

    def close() -> None:
        while body and not body[-1].strip():
            body.pop()
        skipped = 0
        while body and not body[0].strip():
            body.pop(0)
            skipped += 1
        if body:
            if kind == "markdown":
                text = "\n".join(re.sub(r"^# ?", "", line) for line in body)
            else:
                text = "\n".join(body)
            cells.append(Cell(kind, text, start + skipped, metadata))

    for number, line in enumerate(lines, start=1):
        match = _HEADER.match(line)
        if match:
            close()
            kind, metadata = _parse_header(match["rest"])
            start, body = number + 1, []
        else:
            body.append(line)
    close()
    return cells
