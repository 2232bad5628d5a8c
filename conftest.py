"""Every snippet on the site runs under pytest (Sybil).

- docs/**/*.md, both languages, content tabs included: ``python`` and ``pycon`` fences.
  A ``>>>`` session is a doctest (its printed output is checked); other code is executed;
  a fence holding only ``--8<--`` includes is expanded and compiled (the included code
  lives in ``resdoc`` and is exercised by its own tests and docstrings).
- resdoc/**/*.py: the ``>>>`` examples in docstrings.
"""

from __future__ import annotations

import doctest
import functools
import os
from pathlib import Path

import markdown
from sybil import Region, Sybil
from sybil.evaluators.doctest import DocTestEvaluator
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.abstract.doctest import DocTestStringParser
from sybil.parsers.markdown import CodeBlockParser
from sybil.parsers.rest import DocTestParser

from resdoc.sitegen.conventions import SNIPPET, read_config

os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).parent
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@functools.cache
def _snippets():
    """pymdownx.snippets' preprocessor, configured as mkdocs.yml configures it for the site:
    includes expand here exactly as on the page (sections, line ranges, missing ones)."""
    config = read_config(ROOT / "mkdocs.yml")
    [options] = [
        entry["pymdownx.snippets"]
        for entry in config["markdown_extensions"]
        if isinstance(entry, dict) and "pymdownx.snippets" in entry
    ]
    options = {**options, "base_path": [str(ROOT / path) for path in options["base_path"]]}
    md = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options}
    )
    return md.preprocessors["snippet"]


def expand_includes(source: str) -> str:
    """The code a fence of ``--8<-- "file:section"`` lines shows on the page."""
    lines = list(filter(str.strip, source.splitlines()))
    for line in lines:
        if not SNIPPET.match(line):
            raise ValueError(f"mixes snippet includes with code: {line!r}")
    return "\n".join(_snippets().run(lines))


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
