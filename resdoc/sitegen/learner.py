"""A learner's frame on every chapter: goals at the top, exercises a reader can work alone.

A chapter of the course (0 to 11; the interview page is a list of questions, not a chapter
to learn from) opens, before its first section, with a goals block::

    !!! abstract "学完本章，你能"          (en: "After this chapter you can")

        - 两到三条具体的能力

and its exercises section (the heading ``{ #exercises }``) opens with the difficulty legend
and numbers its exercises; each starts with its difficulty (★ basic, ★★ intermediate,
★★★ challenge) and holds, in this order, a folded hint and a folded answer::

    1. ★★ 题目……

        ??? tip "提示"

            ……

        ??? success "答案"

            ……

An exercise may only ask for a name the chapter has shown: a name in backticks in the
question must appear in the chapter's prose, its code or the code it includes (or be
PyTorch's own, ``torch.``/``nn.``). ``findings`` names file and line for every lapse.

>>> page = '''# T { #t }
... intro
... ## 练习 { #exercises }
...
... 1. a question
... '''
>>> for problem in findings(page, "docs/chapters/01-x.zh.md", "zh"):
...     print(problem)
docs/chapters/01-x.zh.md:1: no goals block before the first section (write !!! abstract "学完本章，你能" with 2 or 3 items)
docs/chapters/01-x.zh.md:3: the exercises have no difficulty legend (a line starting 难度：)
docs/chapters/01-x.zh.md:5: exercise 1 has no difficulty (start it with ★, ★★ or ★★★)
docs/chapters/01-x.zh.md:5: exercise 1 has no hint (??? tip "提示")
docs/chapters/01-x.zh.md:5: exercise 1 has no answer (??? success "答案")
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

WORDS = {
    "zh": {"goals": "学完本章，你能", "legend": "难度：", "hint": "提示", "answer": "答案"},
    "en": {
        "goals": "After this chapter you can",
        "legend": "Difficulty:",
        "hint": "Hint",
        "answer": "Answer",
    },
}
CHAPTERS = range(12)  # 0 to 11: chapter 12 is the interview questions

_ITEM = re.compile(r"^(?P<number>\d+)\. (?P<text>.*)$")
_DIFFICULTY = re.compile(r"^★{1,3} ")
_BULLET = re.compile(r"^ {4}- \S")
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# PyTorch's own names are the reader's toolbox, not the chapter's to introduce.
_LIBRARY = re.compile(r"^(?:torch|nn|F)\.")


def _folded(kind: str, title: str) -> re.Pattern:
    return re.compile(rf'^ {{4}}\?\?\?\+? {kind} "{re.escape(title)}"\s*$')


def _goals_findings(lines: list[str], where: str, words: dict[str, str]) -> list[str]:
    title = re.compile(rf'^!!! abstract "{re.escape(words["goals"])}"\s*$')
    first_section = next((i for i, line in enumerate(lines) if line.startswith("## ")), len(lines))
    start = next((i for i in range(first_section) if title.match(lines[i])), None)
    if start is not None:
        body = []
        for line in lines[start + 1 : first_section]:
            if line.strip() and not line.startswith("    "):
                break
            body.append(line)
        if 2 <= sum(bool(_BULLET.match(line)) for line in body) <= 3:
            return []
        return [f"{where}:{start + 1}: the goals block needs 2 or 3 items (    - …)"]
    return [
        f"{where}:1: no goals block before the first section "
        f'(write !!! abstract "{words["goals"]}" with 2 or 3 items)'
    ]


def exercises(lines: list[str]) -> tuple[int | None, list[tuple[int, list[str]]]]:
    """The exercises heading's index and each exercise as (index of its first line, lines)."""
    heading = next((i for i, line in enumerate(lines) if "{ #exercises }" in line), None)
    if heading is None:
        return None, []
    items: list[tuple[int, list[str]]] = []
    for i in range(heading + 1, len(lines)):
        line = lines[i]
        if line.startswith("## "):
            break
        if _ITEM.match(line):
            items.append((i, [line]))
        elif items and (not line.strip() or line.startswith("    ")):
            items[-1][1].append(line)
    return heading, items


def _exercise_findings(
    lines: list[str], where: str, words: dict[str, str], shown: Callable[[str], bool]
) -> list[str]:
    heading, items = exercises(lines)
    if heading is None:
        return [f"{where}:1: no exercises section ({{ #exercises }})"]
    problems = []
    before_first = lines[heading + 1 : items[0][0] if items else len(lines)]
    if not any(line.startswith(words["legend"]) for line in before_first):
        problems.append(
            f"{where}:{heading + 1}: the exercises have no difficulty legend "
            f"(a line starting {words['legend']})"
        )
    if not items:
        problems.append(f"{where}:{heading + 1}: no numbered exercises")
    hint, answer = _folded("tip", words["hint"]), _folded("success", words["answer"])
    for start, item in items:
        number = _ITEM.match(item[0])["number"]
        at = f"{where}:{start + 1}: exercise {number}"
        if not _DIFFICULTY.match(_ITEM.match(item[0])["text"]):
            problems.append(f"{at} has no difficulty (start it with ★, ★★ or ★★★)")
        hints = [i for i, line in enumerate(item) if hint.match(line)]
        answers = [i for i, line in enumerate(item) if answer.match(line)]
        if not hints:
            problems.append(f'{at} has no hint (??? tip "{words["hint"]}")')
        if not answers:
            problems.append(f'{at} has no answer (??? success "{words["answer"]}")')
        if hints and answers and hints[0] > answers[0]:
            problems.append(f"{at} gives its answer before its hint")
        for block in hints[:1] + answers[:1]:
            if not any(line.startswith("        ") and line.strip() for line in item[block + 1 :]):
                problems.append(f"{at}: the block on its line {block + 1} is empty")
        question = " ".join(item[: min(hints + answers + [len(item)])])
        for code in re.findall(r"`([^`]+)`", question):
            if _LIBRARY.match(code):
                continue
            unknown = [name for name in _NAME.findall(code) if not shown(name)]
            if unknown:
                problems.append(
                    f"{at} asks for {', '.join(unknown)}, which the chapter never shows: "
                    "show it in the chapter or ask without it"
                )
    return problems


def findings(markdown: str, where: str, lang: str, shown_text: str | None = None) -> list[str]:
    """Every lapse of the frame in one chapter page. ``shown_text`` is what the reader has
    been shown (the page with its included code); by default the page without its exercises."""
    lines = markdown.splitlines()
    words = WORDS[lang]
    heading, _ = exercises(lines)
    if shown_text is None:
        shown_text = "\n".join(lines[:heading] if heading is not None else lines)
    names = set(_NAME.findall(shown_text))
    return _goals_findings(lines, where, words) + _exercise_findings(
        lines, where, words, names.__contains__
    )


def chapter_pages(docs: Path) -> list[tuple[Path, str]]:
    """The pages of chapters 0 to 11 with their language."""
    pages = []
    for path in sorted((docs / "chapters").glob("*.md")):
        number, lang = int(path.name[:2]), path.name.split(".")[-2]
        if number in CHAPTERS:
            pages.append((path, lang))
    return pages
