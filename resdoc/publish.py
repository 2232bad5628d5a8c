"""What an example hands to the site: figures, numbers and the claims it checked.

An example calls :func:`figure`, :func:`number` (or :func:`text`), :func:`setting` and
:func:`claim`; the docs build embeds them in the pages, where Markdown refers to them as
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
from typing import TYPE_CHECKING

from resdoc.bilingual import LANGUAGES, reader_language, say
from resdoc.numerals import MINUS, typeset
from resdoc.quantifiers import advice, overclaims

if TYPE_CHECKING:
    from resdoc.style import Translator

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
    """Save ``draw(tr)`` in every variant: ``<name><variant>.<lang>.svg`` for each language,
    light and dark colours, wide and narrow layout (``resdoc.style``), and ``<name>.json``,
    each variant's size and smallest text in points.

    ``draw`` builds a matplotlib figure, taking every label from ``tr(zh, en)`` and its
    layout from ``tr.narrow``; ``alt`` is the figure's description for screen readers, (zh, en).
    The data are computed once, before: ``draw`` only draws them, once per language and
    layout (the dark variant is the light one recoloured: ``resdoc.style.dark_from_light``).
    """
    _check_name("figure", name)
    if "." in name:  # the variants' files are <name>.dark.zh.svg, <name>.narrow.zh.svg, ...
        raise ValueError(f"figure name {name!r} must not contain '.'")
    # matplotlib comes in here, with the first figure: the docs build's hooks import this
    # module for shown_text, and every build (each tiny one the tests make too) would pay
    # 0.3 s of start-up for it
    from resdoc.style import VARIANTS, LayoutError, dark_from_light, render

    folder = output_dir() / "figures"
    folder.mkdir(exist_ok=True)
    sizes: dict[str, dict[str, dict]] = {}
    for lang in LANGUAGES:
        drawn = {}  # per layout, drawn once, in the light scheme: the dark one is recoloured
        for variant in VARIANTS:
            if variant.layout not in drawn:
                try:
                    drawn[variant.layout] = render(draw, lang, variant.narrow, "light")
                except LayoutError as error:
                    raise LayoutError(f"figure {name!r}, {error}") from None
            rendered = drawn[variant.layout]
            svg = rendered.svg if variant.scheme == "light" else dark_from_light(rendered.svg)
            (folder / f"{name}{variant.suffix}.{lang}.svg").write_bytes(svg)
            sizes.setdefault(lang, {})[variant.name] = {
                "width_pt": round(rendered.width_pt, 2),
                "height_pt": round(rendered.height_pt, 2),
                "min_font_pt": rendered.min_font_pt,
            }
    (folder / f"{name}.json").write_text(json.dumps(sizes, indent=1, sort_keys=True), "utf-8")
    record = {
        "example": example_name(),
        "name": name,
        "alt": dict(zip(LANGUAGES, alt, strict=True)),
    }
    for hook in display_hooks or [_show_by_hand]:  # the build's cell runner, or a reader's run
        hook(record)


def _show_by_hand(record: dict) -> None:
    """A figure of a script run by hand, in the reader's language: shown in Jupyter, else
    its file named."""
    path = output_dir() / "figures" / f"{record['name']}.{reader_language()}.svg"
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and hasattr(shell, "kernel"):
        from IPython.display import SVG, display

        display(SVG(filename=str(path)))
    else:
        say(f"图已保存到 {path}", f"figure saved to {path}")


def _load(name: str) -> dict:
    path = output_dir() / name
    return json.loads(path.read_text("utf-8")) if path.exists() else {}


def _save(name: str, data: dict) -> None:
    # no indent: json's C encoder then does the work (an example's results are written once per
    # number it records, 415 times in ch 4; indented, that took 6 s of its run)
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    (output_dir() / name).write_text(text, "utf-8")


def _store(key: str, record: dict) -> None:
    _check_name("result", key)
    results = _load("results.json")
    results[key] = record
    _save("results.json", results)


def _seed_list(seeds: Iterable[int] | None) -> list[int] | None:
    return None if seeds is None else [int(seed) for seed in seeds]


def _script_line() -> int | None:
    """The line of the example script that is recording: the outermost one, the statement
    of the cell being run (a helper the script defines may be the one calling publish; the
    page links the number to the cell that ran it)."""
    frame, line = sys._getframe(1), None
    while frame is not None:
        if Path(frame.f_code.co_filename).stem == example_name():
            line = frame.f_lineno
        frame = frame.f_back
    return line


# What a recorded number is. A result was measured or computed by the example: the page marks
# it and links it to the cell that computed it. A setting was chosen by the author (seeds,
# widths, depths, sizes, learning rates, step counts, a constant, a figure quoted from a
# paper): the page shows it as plain text.
KINDS = ("result", "setting")


def _record(key: str, value, text: str, seeds, kind: str, **extra) -> None:
    if kind not in KINDS:
        raise ValueError(f"{key!r}: kind {kind!r} is not one of {KINDS}")
    record = {"value": value, "text": text, "seeds": _seed_list(seeds), "kind": kind}
    line = _script_line()
    if line is not None:
        record["line"] = line
    _store(key, record | extra)


def number(key: str, value: float, fmt: str = "{:.4g}", seeds: Iterable[int] | None = None) -> str:
    """Record a measured (or computed) result for the prose, shown as ``fmt.format(value)``
    typeset for prose (:func:`resdoc.numerals.typeset`: ``4.8 × 10⁻³²``, ``−0.3``); returns
    that text. ``seeds``: the random seeds the number was aggregated over.

    A number the author chose (a seed count, a width, a learning rate) is a :func:`setting`.
    """
    text = typeset(fmt.format(value))
    _record(key, float(value), text, seeds, "result")
    return text


def setting(key: str, value: float, fmt: str = "{:g}") -> str:
    """Record a number the author chose, not measured: a seed count, a width, a depth, a
    size, a learning rate, a step count, a constant, a figure quoted from a paper. Pages
    show it as plain text (no "measured" mark); returns that text."""
    text = typeset(fmt.format(value))
    _record(key, float(value), text, None, "setting")
    return text


def text(
    key: str,
    value: str,
    seeds: Iterable[int] | None = None,
    zh: str | None = None,
    kind: str = "result",
) -> str:
    """Record a piece of text (e.g. printed output) for the prose; returns it. ``zh``: the
    text Chinese pages show instead, when punctuation or words differ. ``kind="setting"``
    for a text the author chose (a shape such as "56×56")."""
    extra = {"texts": {"zh": zh}} if zh is not None else {}
    _record(key, value, value, seeds, kind, **extra)
    return value


def shown_text(record: dict, lang: str, inside_brackets: bool = False) -> str:
    """The text a page in ``lang`` shows for a recorded result (a text may differ by language;
    inside a parenthesis, a spread is written without brackets of its own).

    >>> shown_text({"text": "1 (0–2)", "texts": {"zh": "1（0–2）"}}, "zh")
    '1（0–2）'
    >>> shown_text({"text": "1 (0–2)", "inside": {"en": "1, range 0–2"}}, "en", True)
    '1, range 0–2'
    """
    if inside_brackets and lang in record.get("inside", {}):
        return record["inside"][lang]
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


def spread_texts(middle: str, low: str, high: str) -> dict[str, dict[str, str]]:
    """How a median and its range over seeds are written: ``text`` in running prose, ``inside``
    in a parenthesis (no brackets inside brackets), per language; the range only when the
    seeds differ (else the value alone: the mark's tooltip says every seed gave it).

    >>> spread_texts("1.06", "1.04", "1.06")["text"]
    {'en': '1.06 (1.04–1.06)', 'zh': '1.06（1.04–1.06）'}
    >>> spread_texts("1.06", "1.04", "1.06")["inside"]
    {'en': '1.06, range 1.04–1.06', 'zh': '1.06，范围 1.04–1.06'}
    >>> spread_texts("100%", "100%", "100%")["text"]
    {'en': '100%', 'zh': '100%'}
    """
    if low == high:
        alone = {"en": middle, "zh": middle}
        return {"text": alone, "inside": alone}
    if low.startswith(MINUS):  # "−0.3–−0.1" would read as a subtraction: spell the range out
        en_range, zh_range = f"{low} to {high}", f"{low} 至 {high}"
    else:
        en_range, zh_range = f"{low}–{high}", f"{low}–{high}"
    return {
        "text": {"en": f"{middle} ({en_range})", "zh": f"{middle}（{zh_range}）"},
        "inside": {"en": f"{middle}, range {en_range}", "zh": f"{middle}，范围 {zh_range}"},
    }


def spread(key: str, values: Iterable[float], seeds: Iterable[int], fmt: str = "{:.3g}") -> Spread:
    """Record a quantity measured once per seed: ``<key>`` is its median, ``<key>_min`` and
    ``<key>_max`` its range, ``<key>_spread`` the text "median (min–max)" (see
    :func:`spread_texts`). Returns the values.
    """
    values = tuple(float(value) for value in values)
    seeds = _seed_list(seeds)
    if len(values) != len(seeds):
        raise ValueError(f"{key!r}: {len(values)} values for {len(seeds)} seeds")
    measured = Spread(values)
    middle = number(key, measured.median, fmt, seeds)
    low = number(f"{key}_min", measured.low, fmt, seeds)
    high = number(f"{key}_max", measured.high, fmt, seeds)
    texts = spread_texts(middle, low, high)
    _record(
        f"{key}_spread",
        texts["text"]["en"],
        texts["text"]["en"],
        seeds,
        "result",
        texts={"zh": texts["text"]["zh"]},
        inside=texts["inside"],
        same=low == high,
    )
    return measured


class ClaimFailed(AssertionError):
    """A claim's condition does not hold for the numbers this run measured."""


class ClaimOverstates(ValueError):
    """A claim's sentence speaks of every item ("in every seed") its condition does not check
    one by one (see :mod:`resdoc.quantifiers`)."""


_OWN_RESULT = re.compile(r"\{\{\s*([a-z0-9][a-z0-9_.-]*)\s*\}\}")


def claim(
    key: str,
    holds: bool,
    zh: str,
    en: str,
    evidence: str = "",
    every: str | Iterable[str] = (),
) -> tuple[str, str]:
    """Check a sentence that interprets measured results, then record it for the pages.

    ``holds`` is the condition, computed from the numbers (use aggregates over seeds, with a
    margin a change of machine cannot cross). ``zh`` and ``en`` are the sentence; inside it,
    ``{{ key }}`` shows a number this example already recorded (with its provenance marker).
    ``evidence`` says, in words and numbers, what was compared: it is printed if the claim fails.
    ``every`` names what the condition checks one by one ("seed", ("seed", "depth"), see
    :data:`resdoc.quantifiers.ITEMS`): only then may the sentence say "in every seed", "at any
    depth", "所有种子都…". A condition on a median or a mean names nothing, and its sentence
    says "typically", "on average", "the median" (raises :class:`ClaimOverstates` otherwise).

    Pages show the sentence with ``{{ claim:<example>/<key> }}``. Returns ``(zh, en)`` with the
    numbers filled in as plain text, for figure alt texts.

    Raises :class:`ClaimFailed` when ``holds`` is false: the example stops at this line and
    the build fails, naming the claim.
    """
    _check_name("claim", key)
    every = (every,) if isinstance(every, str) else tuple(every)
    for lang, sentence in (("zh", zh), ("en", en)):
        problems = overclaims(sentence, lang, every)
        if problems:
            raise ClaimOverstates(
                f"claim {key!r} says more than its condition checks ({lang}): "
                f"{'; '.join(problems)}; {advice(every)}: {sentence!r}"
            )
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
