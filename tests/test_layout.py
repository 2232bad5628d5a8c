"""One id per chapter: a chapter's page, example, science module and test file share its id,
and every module of the science package belongs to a chapter or is one of the shared ones."""

from pathlib import Path

import pytest

from resdoc.sitegen.conventions import read_config

ROOT = Path(__file__).parent.parent
CHAPTERS = sorted(p.name.removesuffix(".zh.md") for p in (ROOT / "docs/chapters").glob("*.zh.md"))
PROSE_ONLY = {"11-misconceptions", "12-interview"}  # they gather the other chapters' evidence
SHARED = {
    "__init__", "bilingual", "data", "gradients", "models", "numerals", "publish", "quantifiers", "style",
    "training",
}  # fmt: skip
PAGES_WITH_SCIENCE = {"explorer"}  # docs/explorer.*.md is not a chapter but has its own module


def module_of(chapter: str) -> str:
    """``03-gradient-flow`` → ``gradient_flow``."""
    return chapter.split("-", 1)[1].replace("-", "_")


def test_module_of_a_chapter_id():
    assert module_of("09-transformer-block") == "transformer_block"


def nav_entries() -> list[str]:
    config = read_config(ROOT / "mkdocs.yml")

    def walk(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                yield from walk(value)

    return list(walk(config["nav"]))


@pytest.mark.parametrize("chapter", [c for c in CHAPTERS if c not in PROSE_ONLY])
def test_every_chapter_has_its_example_module_test_and_nav_entries(chapter):
    module = module_of(chapter)
    expected = [
        f"docs/chapters/{chapter}.en.md",
        f"examples/{chapter}.py",
        f"resdoc/{module}.py",
        f"tests/test_{module}.py",
    ]
    missing = [path for path in expected if not (ROOT / path).is_file()]
    assert not missing, f"chapter {chapter} lacks {missing}"
    nav = nav_entries()
    assert f"chapters/{chapter}.md" in nav and f"examples/{chapter}.ipynb" in nav


def test_the_nav_lists_chapters_and_examples_in_the_order_of_their_numbers():
    """The number in a chapter's id is the one every page shows (resdoc/sitegen/chapters.py):
    the nav reads 0, 1, 2, ... and the examples follow the chapters' order."""
    nav = nav_entries()
    chapters = [
        e.removeprefix("chapters/").removesuffix(".md") for e in nav if e.startswith("chapters/")
    ]
    examples = [
        e.removeprefix("examples/").removesuffix(".ipynb") for e in nav if e.startswith("examples/")
    ]
    assert chapters == CHAPTERS
    assert [int(c[:2]) for c in CHAPTERS] == list(range(len(CHAPTERS)))
    assert examples == [c for c in CHAPTERS if c not in PROSE_ONLY]


def test_every_example_belongs_to_a_chapter():
    examples = {p.stem for p in (ROOT / "examples").glob("*.py")}
    assert examples <= set(CHAPTERS) - PROSE_ONLY, examples - set(CHAPTERS)


def stray_modules(modules: set[str]) -> set[str]:
    """The modules that are neither a chapter's nor shared. A chapter's science is
    ``<module>.py``, its figures ``<module>_plots.py``, and a long chapter may split off more
    parts named ``<module>_<part>.py``."""
    owners = {module_of(c) for c in CHAPTERS if c not in PROSE_ONLY} | PAGES_WITH_SCIENCE
    return {
        m
        for m in modules - SHARED
        if not any(m == owner or m.startswith(f"{owner}_") for owner in owners)
    }


def test_every_science_module_belongs_to_a_chapter_or_is_shared():
    strays = stray_modules({p.stem for p in (ROOT / "resdoc").glob("*.py")})
    assert not strays, f"not a chapter's module nor a shared one: {strays}"


def test_a_module_named_after_no_chapter_is_a_stray():
    named = {"attention", "ffn", "ffn_plots", "ffn_gates", "models", "ffnx"}
    assert stray_modules(named) == {"attention", "ffnx"}
