"""What an example hands to the site: figures, numbers and the claims it checked.

An example calls :func:`figure`, :func:`number` (or :func:`text`) and :func:`claim`; the docs
build embeds them in the pages, where Markdown refers to them as
``![alt](../figures/<example>/<name>.svg)``, ``{{ result:<example>/<key> }}`` and
``{{ claim:<example>/<key> }}``.

A claim is a sentence that interprets measured numbers ("the plain net's error grows with
depth"), written next to the condition that makes it true. If the condition does not hold,
the example stops at the claim's line, so the build fails and the sentence is never published
beside numbers that contradict it.

Outputs go to ``$RESDOC_OUTPUT_DIR`` (set by the build), or to
``.cache/hand-run/<example>/`` when a script is run by hand.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from resdoc.style import LANGUAGES, Translator, render_svg

_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")

# Filled by the build's cell runner so a published figure shows up in its cell.
display_hooks: list[Callable[[dict], None]] = []


def example_name() -> str:
    main = getattr(sys.modules.get("__main__"), "__file__", None) or "interactive"
    return os.environ.get("RESDOC_EXAMPLE") or Path(main).stem


def output_dir() -> Path:
    path = Path(os.environ.get("RESDOC_OUTPUT_DIR") or Path(".cache", "hand-run", example_name()))
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


def _load(name: str) -> dict:
    path = output_dir() / name
    return json.loads(path.read_text("utf-8")) if path.exists() else {}


def _save(name: str, data: dict) -> None:
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True)
    (output_dir() / name).write_text(text, "utf-8")


def _store(key: str, record: dict) -> None:
    _check_name("result", key)
    results = _load("results.json")
    results[key] = record
    _save("results.json", results)


def _seed_list(seeds: Iterable[int] | None) -> list[int] | None:
    return None if seeds is None else [int(seed) for seed in seeds]


def number(key: str, value: float, fmt: str = "{:.4g}", seeds: Iterable[int] | None = None) -> str:
    """Record a number for the prose, shown as ``fmt.format(value)``; returns that text.

    ``seeds``: the random seeds the number was aggregated over (shown to readers beside it).
    """
    text = fmt.format(value)
    _store(key, {"value": float(value), "text": text, "seeds": _seed_list(seeds)})
    return text


def text(key: str, value: str, seeds: Iterable[int] | None = None, zh: str | None = None) -> str:
    """Record a piece of text (e.g. printed output) for the prose; returns it. ``zh``: the
    text Chinese pages show instead, when punctuation or words differ."""
    record = {"value": value, "text": value, "seeds": _seed_list(seeds)}
    if zh is not None:
        record["texts"] = {"zh": zh}
    _store(key, record)
    return value


def shown_text(record: dict, lang: str) -> str:
    """The text a page in ``lang`` shows for a recorded result (a text may differ by language).

    >>> shown_text({"text": "1 (0–2)", "texts": {"zh": "1（0–2）"}}, "zh")
    '1（0–2）'
    """
    return record.get("texts", {}).get(lang, record["text"])


@dataclass(frozen=True)
class Spread:
    """One quantity measured once per seed."""

    values: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)


def spread(key: str, values: Iterable[float], seeds: Iterable[int], fmt: str = "{:.3g}") -> Spread:
    """Record a quantity measured once per seed: ``<key>`` is its median, ``<key>_min`` and
    ``<key>_max`` its range, ``<key>_spread`` the text "median (min–max)". Returns the values.
    """
    values = tuple(float(value) for value in values)
    seeds = _seed_list(seeds)
    if len(values) != len(seeds):
        raise ValueError(f"{key!r}: {len(values)} values for {len(seeds)} seeds")
    measured = Spread(values)
    middle = number(key, measured.median, fmt, seeds)
    low = number(f"{key}_min", measured.low, fmt, seeds)
    high = number(f"{key}_max", measured.high, fmt, seeds)
    if measured.low < 0:  # "-0.3–-0.1" would read as a subtraction: spell the range out
        text(
            f"{key}_spread", f"{middle} ({low} to {high})", seeds, zh=f"{middle}（{low} 至 {high}）"
        )
    else:
        text(f"{key}_spread", f"{middle} ({low}–{high})", seeds, zh=f"{middle}（{low}–{high}）")
    return measured


class ClaimFailed(AssertionError):
    """A claim's condition does not hold for the numbers this run measured."""


_OWN_RESULT = re.compile(r"\{\{\s*([a-z0-9][a-z0-9_.-]*)\s*\}\}")


def claim(key: str, holds: bool, zh: str, en: str, evidence: str = "") -> tuple[str, str]:
    """Check a sentence that interprets measured results, then record it for the pages.

    ``holds`` is the condition, computed from the numbers (use aggregates over seeds, with a
    margin a change of machine cannot cross). ``zh`` and ``en`` are the sentence; inside it,
    ``{{ key }}`` shows a number this example already recorded (with its provenance marker).
    ``evidence`` says, in words and numbers, what was compared: it is printed if the claim fails.

    Pages show the sentence with ``{{ claim:<example>/<key> }}``. Returns ``(zh, en)`` with the
    numbers filled in as plain text, for figure alt texts.

    Raises :class:`ClaimFailed` when ``holds`` is false: the example stops at this line and
    the build fails, naming the claim.
    """
    _check_name("claim", key)
    if not _is_boolean(holds):  # a tuple or a number would always pass
        raise TypeError(f"claim {key!r}: the condition must be a bool, not {type(holds).__name__}")
    if not bool(holds):
        detail = f" ({evidence})" if evidence else ""
        raise ClaimFailed(f"claim {key!r} does not hold{detail}: {en!r}")
    results = _load("results.json")

    def resolve(sentence: str, lang: str, markup: bool) -> str:
        def substitute(match: re.Match) -> str:
            name = match[1]
            if name not in results or "claim" in results[name]:
                raise KeyError(f"claim {key!r} shows {{{{ {name} }}}}, which is not recorded yet")
            if markup:
                return f"{{{{ result:{example_name()}/{name} }}}}"
            return shown_text(results[name], lang)

        return _OWN_RESULT.sub(substitute, sentence)

    sentences = {"zh": resolve(zh, "zh", True), "en": resolve(en, "en", True)}
    _store(key, {"claim": sentences, "evidence": evidence})
    return resolve(zh, "zh", False), resolve(en, "en", False)


def _is_boolean(value: object) -> bool:
    """True for a bool, and for a numpy or torch boolean scalar (what comparisons give)."""
    dtype = str(getattr(value, "dtype", ""))
    return isinstance(value, bool) or (dtype in ("bool", "torch.bool") and value.ndim == 0)
