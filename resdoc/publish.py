"""What an example hands to the site: figures and numbers.

An example calls :func:`figure` and :func:`number` (or :func:`text`); the docs build
embeds them in the pages, where Markdown refers to them as
``![alt](../figures/<example>/<name>.svg)`` and ``{{ result:<example>/<key> }}``.

Outputs go to ``$RESDOC_OUTPUT_DIR`` (set by the build), or to
``build/examples/<example>/`` when a script is run by hand.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

from resdoc.style import LANGUAGES, Translator, render_svg

_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")

# Filled by the build's cell runner so a published figure shows up in its cell.
display_hooks: list[Callable[[dict], None]] = []


def example_name() -> str:
    main = getattr(sys.modules.get("__main__"), "__file__", None) or "interactive"
    return os.environ.get("RESDOC_EXAMPLE") or Path(main).stem


def output_dir() -> Path:
    path = Path(os.environ.get("RESDOC_OUTPUT_DIR") or Path("build", "examples", example_name()))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _check_name(kind: str, name: str) -> None:
    if not _NAME.match(name):
        raise ValueError(
            f"{kind} name {name!r} must be lower-case letters, digits, '_', '-' or '.'"
        )


def figure(name: str, draw: Callable[[Translator], object], alt: tuple[str, str]) -> None:
    """Save ``draw(tr)`` as ``<name>.zh.svg`` and ``<name>.en.svg``.

    ``draw`` builds a matplotlib figure, taking every label from ``tr(zh, en)``;
    ``alt`` is the figure's description for screen readers, (zh, en).
    """
    _check_name("figure", name)
    folder = output_dir() / "figures"
    folder.mkdir(exist_ok=True)
    for lang in LANGUAGES:
        (folder / f"{name}.{lang}.svg").write_bytes(render_svg(draw, lang))
    record = {
        "example": example_name(),
        "name": name,
        "alt": dict(zip(LANGUAGES, alt, strict=True)),
    }
    for hook in display_hooks:
        hook(record)


def _store(key: str, value: object, text: str) -> None:
    _check_name("result", key)
    path = output_dir() / "results.json"
    results = json.loads(path.read_text("utf-8")) if path.exists() else {}
    results[key] = {"value": value, "text": text}
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False, sort_keys=True), "utf-8")


def number(key: str, value: float, fmt: str = "{:.4g}") -> str:
    """Record a number for the prose, shown as ``fmt.format(value)``; returns that text."""
    text = fmt.format(value)
    _store(key, float(value), text)
    return text


def text(key: str, value: str) -> str:
    """Record a piece of text (e.g. printed output) for the prose; returns it."""
    _store(key, value, value)
    return value
