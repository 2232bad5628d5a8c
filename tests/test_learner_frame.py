"""Every chapter gives the learner goals and exercises with difficulty, hint and answer, in
both languages, and asks for no name it has not shown (resdoc/sitegen/learner.py)."""

from pathlib import Path

import pytest

from resdoc.sitegen import learner
from resdoc.sitegen.conventions import SNIPPET
from resdoc.sitegen.listings import section_lines

ROOT = Path(__file__).resolve().parents[1]
PAGES = learner.chapter_pages(ROOT / "docs")


def shown(markdown: str) -> str:
    """The chapter before its exercises, with the code its includes show."""
    heading, _ = learner.exercises(markdown.splitlines())
    before = "\n".join(markdown.splitlines()[:heading])
    return before + "".join(section_lines(ROOT, m["target"])[0] for m in SNIPPET.finditer(before))


def test_every_chapter_zero_to_eleven_is_checked_in_both_languages():
    assert len(PAGES) == 2 * len(learner.CHAPTERS)
    assert {lang for _, lang in PAGES} == {"zh", "en"}


@pytest.mark.parametrize(("path", "lang"), PAGES, ids=[p.name for p, _ in PAGES])
def test_the_chapter_has_goals_and_exercises_a_reader_can_work_alone(path, lang):
    markdown = path.read_text("utf-8")
    where = path.relative_to(ROOT).as_posix()
    assert learner.findings(markdown, where, lang, shown(markdown)) == []


GOOD = """# T { #t }

Intro.

!!! abstract "After this chapter you can"

    - do one thing;
    - do another.

## Section { #s }

We use `fit_identity` here.

## Exercises { #exercises }

Difficulty: ★ basic, ★★ intermediate, ★★★ challenge.

1. ★ Change `fit_identity`.

    ??? tip "Hint"

        Look.

    ??? success "Answer"

        This.
"""


def test_a_complete_chapter_passes():
    assert learner.findings(GOOD, "x.en.md", "en") == []


@pytest.mark.parametrize(
    ("planted", "found"),
    [
        (
            GOOD.replace('    ??? success "Answer"\n\n        This.\n', ""),
            "exercise 1 has no answer",
        ),
        (GOOD.replace('    ??? tip "Hint"\n\n        Look.\n', ""), "exercise 1 has no hint"),
        (GOOD.replace("1. ★ Change", "1. Change"), "exercise 1 has no difficulty"),
        (GOOD.replace("`fit_identity`.", "`PAPER_RECIPE`."), "asks for PAPER_RECIPE"),
        (GOOD.replace("    - do another.\n", ""), "the goals block needs 2 or 3 items"),
        (GOOD.replace("!!! abstract", "!!! note"), "no goals block"),
        (GOOD.replace("Difficulty:", "Levels:"), "no difficulty legend"),
        (GOOD.replace("        This.\n", ""), "the block on its line"),
    ],
)
def test_a_planted_lapse_is_found_with_its_line(planted, found):
    problems = learner.findings(planted, "x.en.md", "en")
    assert any(found in problem for problem in problems), problems
    assert all(problem.startswith("x.en.md:") for problem in problems)
