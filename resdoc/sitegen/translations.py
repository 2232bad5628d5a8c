"""Both languages say the same thing: twins, structure, and which translation is behind.

Every page exists as ``name.zh.md`` and ``name.en.md``. The pair must have the same
structure — heading anchors, display formulas (with their labels), figures, snippet includes,
and result, claim, figure and equation references, in the same order. ``docs/translations.json`` records the hash of both files
when they were last known to agree; when one side changes and the other does not, the
other side is *behind*: its page shows readers a notice and ``check`` reports it.

    python -m resdoc.sitegen.translations check          # report missing twins, structure, behind
    python -m resdoc.sitegen.translations sync PAGE...   # record PAGE's pair as agreeing
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from resdoc.sitegen.conventions import LANGUAGES, PLACEHOLDER, SNIPPET

RECORD = "translations.json"
ROOT_DOCS = Path(__file__).resolve().parents[2] / "docs"

_STRUCTURE = {
    "anchor": re.compile(r"^#{1,6} .*\{ *#([\w-]+) *\}", re.M),
    "formula": re.compile(r"\$\$(.+?)\$\$", re.S),
    "figure": re.compile(r'!\[[^\]]*\]\(([^)\s]+\.svg)(?:\s+"[^"]*")?\)'),  # "caption" optional
    "snippet": SNIPPET,
    "placeholder": PLACEHOLDER,
}


def pairs(docs: Path) -> dict[str, dict[str, Path]]:
    """``{"chapters/01-shortcut": {"zh": path, "en": path}}`` for every page found."""
    found: dict[str, dict[str, Path]] = {}
    for path in sorted(docs.rglob("*.md")):
        stem, _, lang = path.relative_to(docs).as_posix().removesuffix(".md").rpartition(".")
        found.setdefault(stem if lang in LANGUAGES else f"{stem}.{lang}", {})[lang] = path
    return found


def missing_twins(docs: Path) -> list[str]:
    problems = []
    for page, files in pairs(docs).items():
        for lang in LANGUAGES:
            if lang not in files:
                have = ", ".join(str(p) for p in files.values())
                problems.append(f"{have}: no {lang} twin (expected {page}.{lang}.md)")
    return problems


def structure(markdown: str) -> dict[str, list[str]]:
    """The language-independent skeleton of a page, in order of appearance."""
    skeleton = {kind: pattern.findall(markdown) for kind, pattern in _STRUCTURE.items()}
    skeleton["placeholder"] = [f"{kind}:{ref}" for kind, ref in skeleton["placeholder"]]
    skeleton["formula"] = [re.sub(r"\s+", "", f) for f in skeleton["formula"]]
    return skeleton


def structure_differences(zh: Path, en: Path) -> list[str]:
    a, b = structure(zh.read_text("utf-8")), structure(en.read_text("utf-8"))
    return [
        f"{zh} / {en}: {kind}s differ: {a[kind]} vs {b[kind]}" for kind in a if a[kind] != b[kind]
    ]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def load_record(docs: Path) -> dict:
    path = docs / RECORD
    return json.loads(path.read_text("utf-8")) if path.exists() else {}


def _lagging(files: dict[str, Path], recorded: dict | None) -> str | None:
    if recorded is None or set(files) != set(LANGUAGES):
        return "en"  # never recorded as translated: the source language is zh
    changed = [lang for lang in LANGUAGES if _sha(files[lang]) != recorded[lang]]
    return LANGUAGES[1 - LANGUAGES.index(changed[0])] if len(changed) == 1 else None


def lagging_pages(docs: Path) -> dict[str, str]:
    """``{page: language that is behind}`` for the whole site, read in one pass."""
    record = load_record(docs)
    found = {page: _lagging(files, record.get(page)) for page, files in pairs(docs).items()}
    return {page: lang for page, lang in found.items() if lang}


def sync(docs: Path, pages: list[str]) -> None:
    record = load_record(docs)
    for page in pages:
        files = pairs(docs)[page]
        record[page] = {lang: _sha(files[lang]) for lang in LANGUAGES}
    (docs / RECORD).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", "utf-8")


def check(docs: Path) -> list[str]:
    problems = missing_twins(docs)
    record = load_record(docs)
    for page, files in pairs(docs).items():
        if set(files) != set(LANGUAGES):
            continue
        problems += structure_differences(files["zh"], files["en"])
        lagging = _lagging(files, record.get(page))
        if lagging:
            problems.append(
                f"{files[lagging]}: translation is behind its twin "
                f"(update it, then `python -m resdoc.sitegen.translations sync {page}`)"
            )
        elif record[page] != {lang: _sha(files[lang]) for lang in LANGUAGES}:
            problems.append(
                f"{files['zh']} and {files['en']} both changed since they were last recorded as agreeing: "
                f"check they say the same thing, then `python -m resdoc.sitegen.translations sync {page}`"
            )
    return problems


def main(argv: list[str]) -> int:
    docs = ROOT_DOCS
    if argv[:1] == ["sync"]:
        sync(docs, argv[1:] or list(pairs(docs)))
        return 0
    problems = check(docs)
    print("\n".join(problems) or "translations: all pages agree")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
