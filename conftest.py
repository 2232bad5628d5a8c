"""Every snippet on the site runs under pytest (Sybil).

- docs/**/*.md, both languages, content tabs included: ``python`` and ``pycon`` fences.
  A ``>>>`` session is a doctest (its printed output is checked); other code is executed;
  a fence holding only ``--8<--`` includes is expanded and compiled (the included code
  lives in ``resdoc`` and is exercised by its own tests and docstrings).
- resdoc/**/*.py: the ``>>>`` examples in docstrings.
"""

from __future__ import annotations

import doctest
import os
from pathlib import Path

from sybil import Region, Sybil
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown import CodeBlockParser
from sybil.parsers.rest import DocTestParser

from resdoc.sitegen.conventions import SNIPPET
from resdoc.sitegen.pages import snippet_text

os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def expand_includes(source: str) -> str:
    """The code a fence of ``--8<-- "file:section"`` lines shows on the page."""
    parts = []
    for line in filter(str.strip, source.splitlines()):
        match = SNIPPET.match(line)
        if not match:
            raise ValueError(f"mixes snippet includes with code: {line!r}")
        parts.append(snippet_text(ROOT, match["target"]))
    return "\n".join(parts)


def compile_included(example) -> None:
    compile(expand_includes(example.parsed), str(example.path), "exec")


class PageCodeParser:
    """``python``/``pycon`` fences: doctest sessions, plain code, or snippet includes."""

    def __init__(self) -> None:
        self.doctests = DocTestStringParser(DocTestEvaluator(FLAGS))
        self.python = PythonEvaluator()
        self.fences = [CodeBlockParser(language) for language in ("python", "pycon")]

    def __call__(self, document):
        for fences in self.fences:
            for region in fences(document):
                source = region.parsed
                if source.lstrip().startswith(">>>"):
                    for doctest_region in self.doctests(source, document.path):
                        doctest_region.adjust(region, source)
                        yield doctest_region
                elif source.lstrip().startswith("--8<--"):
                    yield Region(region.start, region.end, source, compile_included)
                else:
                    yield Region(region.start, region.end, source, self.python)


pytest_collect_file = (
    Sybil(parsers=[PageCodeParser()], patterns=["docs/*.md", "docs/**/*.md"], path=".")
    + Sybil(
        parsers=[DocTestParser(optionflags=FLAGS)],
        patterns=["resdoc/*.py", "resdoc/**/*.py"],
        path=".",
    )
).pytest()
