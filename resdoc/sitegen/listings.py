"""Code shown in a chapter, as a reader reads it: an included section of ``resdoc/`` with its
docstrings cut to their first paragraph and their and the comments' formulas in plain
characters, and a line under it saying where the whole file lives.

A chapter includes code with ``--8<-- "resdoc/m.py:name"`` inside a fenced block (the section
between ``# --8<-- [start:name]`` and ``# --8<-- [end:name]``). The module's docstrings write
formulas in TeX (``$\\sqrt{d}$``), which a code block shows as typed, right under the typeset
formula of the text. :func:`expand` includes each section itself, before pymdownx.snippets
would: each docstring keeps its first paragraph (the details and doctests are the file's, the
text around the block says the rest), and every ``$…$`` of a docstring or comment is written
by :func:`tex_text.readable` (``√d``); the code itself is left exactly as it runs. After the block it adds where the
section comes from: the file and its lines, and the runnable example that uses it.

>>> readable_code('def f(x):\\n    r\"\"\"$y = x + \\\\mathcal{F}(x)$.\"\"\"\\n    return x  # $\\\\sqrt{d}$\\n')
'def f(x):\\n    r\"\"\"y = x + F(x).\"\"\"\\n    return x  # √d\\n'
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from resdoc.sitegen.conventions import SNIPPET, snippet_section
from resdoc.sitegen.tex_text import plain as _plain
from resdoc.sitegen.ui_text import LISTING_NOTE as _NOTE

_MARKER = re.compile(r"^\s*#\s*--8<-- \[(?:start|end):[^\]]+\]\s*$")
_LINE_ENDS = (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})")


_DOCSTRING = re.compile(r'(?P<open>[rRuU]?("""|\'\'\'))(?P<body>.*?)(?P=open)?\Z', re.S)
_PARAGRAPH_END = re.compile(r"\n[ \t]*\n")


def _summary(string: str) -> str:
    """A triple-quoted docstring's first paragraph: the rest (details, doctests) is the file's."""
    found = _DOCSTRING.match(string)
    if not found or not _PARAGRAPH_END.search(found["body"]):
        return string
    quote = found["open"].lstrip("rRuU")
    return found["open"] + _PARAGRAPH_END.split(found["body"], 1)[0].rstrip() + quote


def readable_code(code: str) -> str:
    """``code`` with each docstring (a string that is a statement of its own) cut to its first
    paragraph, and the formulas of docstrings and comments in plain characters; the code
    itself exactly as it runs."""
    lines = code.splitlines(keepends=True)
    edits = []  # (start, end) positions and the new text, applied from the end
    previous, depth = tokenize.NEWLINE, 0  # a string is a statement after a line's end
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            statement = depth == 0 and previous in _LINE_ENDS
            if token.type == tokenize.COMMENT or (token.type == tokenize.STRING and statement):
                edits.append((token.start, token.end, _plain(_summary(token.string))))
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
            if token.type not in (tokenize.COMMENT, tokenize.NL):
                previous = token.type
    except (tokenize.TokenError, IndentationError):
        pass  # a fragment that does not end where Python would: what was read is rewritten
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    for (row, col), (end_row, end_col), text in reversed(edits):
        start, end = offsets[row - 1] + col, offsets[end_row - 1] + end_col
        code = code[:start] + text + code[end:]
    return code


def section_lines(base: Path, target: str) -> tuple[str, int, int]:
    """The code ``--8<-- "file:section"`` includes (its inner section markers left out, as
    pymdownx.snippets leaves them out) and its first and last line in the file."""
    file, _, section = target.partition(":")
    if not (base / file).is_file():
        raise LookupError(f"Snippet at path {file!r} could not be found")
    text = (base / file).read_text("utf-8")
    found = snippet_section(section).search(text) if section else None
    if section and not found:  # pymdownx.snippets' words, for the include it would have read
        raise LookupError(f"Snippet section {section!r} could not be located in {file}")
    body = found[1] if found else text
    first = text.count("\n", 0, found.start(1)) + 1 if found else 1
    kept = [line for line in body.split("\n") if not _MARKER.match(line)]
    return "\n".join(kept), first, first + body.count("\n")


def expand(markdown: str, base: Path, source_note) -> str:
    """``markdown`` with each ``--8<-- "file:section"`` inside a fenced block replaced by the
    section's code (:func:`readable_code`), and after each such block the line
    ``source_note(targets)`` gives, ``targets`` being ``(file, first line, last line)`` of
    each section the block shows. A commented include (``;--8<--``) is left to pymdownx."""
    out: list[str] = []
    fence = None  # the open fence's (indent, marker)
    shown: list[tuple[str, int, int]] = []
    for line in markdown.split("\n"):
        opened = _FENCE.match(line)
        include = SNIPPET.match(line)
        if fence is None and opened:
            fence = (opened["indent"], opened["fence"])
        elif fence is not None and opened and opened["fence"].startswith(fence[1]):
            out.append(line)
            if shown:
                out += ["", fence[0] + source_note(shown)]
            fence, shown = None, []
            continue
        elif fence is not None and include and not line.lstrip().startswith(";"):
            indent = line[: len(line) - len(line.lstrip())]
            code, first, last = section_lines(base, include["target"])
            out += [indent + row if row else row for row in readable_code(code).split("\n")]
            shown.append((include["target"].partition(":")[0], first, last))
            continue
        out.append(line)
    return "\n".join(out)


def source_note(shown, lang: str, example: str | None, repo_url: str | None) -> str:
    """The line under a block of included code: each section's file and lines (a link to
    them in the repository, when the build knows its address), and the chapter's runnable
    example (``example``, a link from the page), which imports them."""
    sentence, one, glue, runs = _NOTE[lang]
    parts = []
    for file, first, last in shown:
        name = f"`{file}`"
        if repo_url:
            name = f"[{name}]({repo_url.rstrip('/')}/blob/HEAD/{file}#L{first}-L{last})"
        parts.append(one.format(file=name, first=first, last=last))
    if example:
        parts.append(runs.format(example=example))
    return sentence.format(files=glue.join(parts)) + "\n{: .rd-listing-source }"
