"""Two builds of the site compared.

- :func:`compare`: page by page, as a reader reads them: the text of each page's article,
  its measured numbers, figures and formulas (``staged_build.py``; the header, navigation and
  footer are the generator's own);
- :func:`compare_files`: file by file, byte for byte, each kind of changed line counted over
  the files it is in (``nox -s docs-properdocs``)::

    python -m resdoc.sitegen.compare_sites --files SITE_A SITE_B
"""

from __future__ import annotations

import argparse
import difflib
import html
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ARTICLE = re.compile(  # the page's body in Material's layout (and Zensical's)
    r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S
)
_HIDDEN = re.compile(r"<(script|style)\b.*?</\1>", re.S)
_TAG = re.compile(r"<[^>]+>")
_MEASURED = re.compile(r'<a class="rd-measured"[^>]*>([^<]*)</a>')
_FIGURE = re.compile(r'<figure\b[^>]*\bid="([^"]*)"')
_FORMULA = re.compile(r'<span class="katex"[^>]*>')


@dataclass(frozen=True)
class Reading:
    """What a reader gets from one page's article."""

    words: tuple[str, ...]
    numbers: tuple[str, ...]  # the measured numbers, in page order
    figures: tuple[str, ...]  # the figures' ids, in page order
    formulas: int

    @classmethod
    def of(cls, page_html: str) -> Reading:
        match = ARTICLE.search(page_html)
        article = match[1] if match else ""
        text = html.unescape(_TAG.sub(" ", _HIDDEN.sub(" ", article)))
        return cls(
            words=tuple(text.split()),
            numbers=tuple(_MEASURED.findall(article)),
            figures=tuple(_FIGURE.findall(article)),
            formulas=len(_FORMULA.findall(article)),
        )


@dataclass
class Report:
    pages: int = 0
    differences: dict[str, list[str]] = field(default_factory=dict)  # page -> what differs
    summary: list[str] = field(default_factory=list)  # compare_files: each change, counted

    @property
    def same(self) -> bool:
        return not self.differences

    def text(self) -> str:
        lines = [f"{self.pages - len(self.differences)} of {self.pages} pages read the same"]
        for page, found in self.differences.items():
            lines += [f"{page}:", *(f"  {line}" for line in found)]
        return "\n".join(lines)


def _word_diff(ours: tuple[str, ...], theirs: tuple[str, ...], shown: int = 6) -> list[str]:
    changes = []
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            before, after = " ".join(ours[i1:i2])[:120], " ".join(theirs[j1:j2])[:120]
            changes.append(f"text, word {i1}: {before!r} -> {after!r}")
    return changes[:shown] + ([f"... {len(changes) - shown} more"] if len(changes) > shown else [])


def differences(ours: Reading, theirs: Reading) -> list[str]:
    found = []
    for name in ("numbers", "figures"):
        a, b = getattr(ours, name), getattr(theirs, name)
        if a != b:
            found.append(
                f"{name}: {len(a)} here, {len(b)} there; first differing: "
                f"{next(((x, y) for x, y in zip(a, b, strict=False) if x != y), None)}"
            )
    if ours.formulas != theirs.formulas:
        found.append(f"formulas: {ours.formulas} here, {theirs.formulas} there")
    if ours.words != theirs.words:
        found += _word_diff(ours.words, theirs.words)
    return found


def compare(ours: Path, theirs: Path, pages: dict[str, list[str]], prefixes: dict[str, str]):
    """Each language's ``pages`` (addresses such as ``chapters/04-add-norm/``) of site
    ``ours`` against the same page of site ``theirs``."""
    report = Report()
    for lang, urls in pages.items():
        for url in sorted(urls):
            where = f"{prefixes[lang]}{url}index.html"
            readings = []
            for site in (ours, theirs):
                path = site / where
                readings.append(Reading.of(path.read_text("utf-8")) if path.is_file() else None)
            report.pages += 1
            if None in readings:
                report.differences[where] = [
                    "missing from " + ("ours" if readings[0] is None else "theirs")
                ]
            elif found := differences(*readings):
                report.differences[where] = found
    return report


def compare_files(ours: Path, theirs: Path) -> Report:
    """Every file of two sites, byte for byte; a changed text file is described by the lines
    that changed, and a change made in many files is listed once, with their number."""
    report = Report()
    names = {p.relative_to(site).as_posix() for site in (ours, theirs) for p in site.rglob("*")}
    changes: Counter[str] = Counter()
    for name in sorted(names):
        a, b = ours / name, theirs / name
        if a.is_dir() or b.is_dir():
            continue
        report.pages += 1
        if not (a.is_file() and b.is_file()):
            report.differences[name] = ["missing from " + ("ours" if b.is_file() else "theirs")]
        elif a.read_bytes() != b.read_bytes():
            try:
                before, after = (p.read_text("utf-8").splitlines() for p in (a, b))
            except UnicodeDecodeError:
                report.differences[name] = ["binary files differ"]
                continue
            diff = difflib.unified_diff(before, after, lineterm="", n=0)
            lines = [
                line.strip() for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")
            ]
            report.differences[name] = lines
            changes[" / ".join(lines[:4])[:300]] += 1
    report.summary = [f"{count} file(s): {change}" for change, count in changes.most_common()]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Two builds of the site compared file by file.")
    parser.add_argument("--files", action="store_true", help="byte for byte (the only mode here)")
    parser.add_argument("ours", type=Path)
    parser.add_argument("theirs", type=Path)
    args = parser.parse_args(argv)
    report = compare_files(args.ours, args.theirs)
    same = report.pages - len(report.differences)
    print(f"{same} of {report.pages} files the same; the others, by what changed in them:")
    print("\n".join(f"  {line}" for line in report.summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
