"""What the build installs: the lock agrees with pyproject.toml and is what the tests run in,
what the markup patches target is pinned, and every test of upstream output is run by
``nox -s docs-latest`` (marked ``upstream``)."""

from __future__ import annotations

import ast
import importlib
import re
import tomllib
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from resdoc.sitegen import markup
from tests.sites import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
LOCKS = ROOT / "requirements"


def _noxfile_constant(name: str):
    """A literal assigned at the top of noxfile.py (nox itself is not installed here)."""
    for node in ast.parse((ROOT / "noxfile.py").read_text("utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            return ast.literal_eval(node.value)
    raise LookupError(f"noxfile.py assigns no {name}")


LOCKED_GROUPS = _noxfile_constant("LOCKED_GROUPS")
WITH_PROJECT = _noxfile_constant("WITH_PROJECT")


def group(name: str) -> list[Requirement]:
    """A dependency group's requirements, included groups expanded."""
    requirements = []
    for spec in PYPROJECT["dependency-groups"][name]:
        if isinstance(spec, dict):
            requirements += group(spec["include-group"])
        else:
            requirements.append(Requirement(spec))
    return requirements


def direct(name: str) -> dict[str, Requirement]:
    """What the lock of group ``name`` must pin as pyproject.toml asks: the group's
    requirements, and the project's own dependencies where the group installs the project."""
    project = [Requirement(spec) for spec in PYPROJECT["project"]["dependencies"]]
    wanted = group(name) + (project if name in WITH_PROJECT else [])
    return {canonicalize_name(req.name): req for req in wanted}


# A pin of the lock, its annotations (what needs it) below it: `name==version` then `# via …`
_PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>\S+)\n(?P<via>(?:    #.*\n)*)", re.M)


def lock(name: str) -> dict[str, tuple[str, str]]:
    """requirements/<name>.txt as ``{package: (version, what needs it)}``."""
    text = (LOCKS / f"{name}.txt").read_text("utf-8")
    return {canonicalize_name(m["name"]): (m["version"], m["via"]) for m in _PIN.finditer(text)}


def test_every_dependency_group_has_a_lock_and_every_lock_a_group():
    assert set(LOCKED_GROUPS) == set(PYPROJECT["dependency-groups"])
    assert {path.stem for path in LOCKS.glob("*.txt")} == set(LOCKED_GROUPS)


@pytest.mark.parametrize("name", LOCKED_GROUPS)
def test_the_lock_pins_exactly_what_pyproject_asks_for(name):
    """Fails when pyproject.toml changed and the lock was not made again (`nox -s lock`):
    a pin added, removed or moved, or a lock edited by hand."""
    pinned = lock(name)
    # uv notes `resdoc (pyproject.toml)` / `resdoc (pyproject.toml:<group>)` below what
    # pyproject.toml asks for itself; everything else is there because another package needs it
    asked = {package for package, (_, via) in pinned.items() if "resdoc (pyproject.toml" in via}
    wanted = direct(name)
    stale = f"requirements/{name}.txt is stale: run `nox -s lock`"
    assert asked == set(wanted), (
        f"{stale} (not locked: {sorted(set(wanted) - asked)}; "
        f"locked, no longer asked for: {sorted(asked - set(wanted))})"
    )
    for package, requirement in wanted.items():
        version = pinned[package][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{stale} ({package} {version} is locked, pyproject.toml asks for {requirement})"
        )


def test_the_site_builds_with_the_versions_it_is_tested_with():
    docs, test = lock("docs"), lock("test")
    assert set(docs) <= set(test)
    differ = {
        name: (docs[name][0], test[name][0]) for name in docs if docs[name][0] != test[name][0]
    }
    assert not differ, f"requirements/docs.txt and test.txt disagree (docs, test): {differ}"


def test_the_tests_run_in_exactly_what_the_test_lock_pins():
    """nox installs requirements/test.txt; anything else here means the install went around
    the lock (or this environment is not nox's: `nox -s tests` makes it again)."""
    differ = {}
    for package, (version, _) in lock("test").items():
        try:
            found = metadata.version(package)
        except metadata.PackageNotFoundError:
            found = "missing"
        if found != version:
            differ[package] = (version, found)
    assert not differ, f"installed versions that are not the lock's (lock, installed): {differ}"


def test_every_package_whose_markup_a_patch_rewrites_is_pinned_directly():
    """markup.py's patches are written against one release of each package, and their error
    sends the reader to that pin in pyproject.toml."""
    patched = {v.package for v in vars(markup).values() if isinstance(v, markup.Patch)}
    pins = {
        canonicalize_name(req.name)
        for req in group("docs")
        if len(req.specifier) == 1 and next(iter(req.specifier)).operator == "=="
    }
    unpinned = {canonicalize_name(name) for name in patched} - pins
    assert patched and not unpinned, f"pin these in pyproject.toml's docs group: {unpinned}"


# --- which tests docs-latest runs: the marker `upstream` ------------------------------------

# The fixtures that build a site or hand a built one to a test (tests/conftest.py), and what
# tests/sites.py offers to build one.
SITE_FIXTURES = {"site", "built_site", "built_project", "rebuilt", "visits", "server"}
SITE_BUILDERS = {"build", "tiny_site", "copy_project", "BackgroundBuild"}
# Modules that build or read a site but check nothing a docs dependency makes, with why.
NOT_UPSTREAM = {
    "test_cache": "runs the example cache on a copy of the project (no site is built): what "
    "it checks, what runs again and why, is resdoc's own",
    "test_forkserver": "copies the project to run examples (no site is built): what it checks, "
    "that a forked example writes what a process of its own writes, is resdoc's own",
}


def _builds_or_reads_a_site(tree: ast.Module) -> bool:
    """A test or fixture takes a site fixture, or the module imports a site builder."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = {arg.arg for arg in node.args.args} & SITE_FIXTURES
        elif isinstance(node, ast.ImportFrom) and node.module == "tests.sites":
            names = {alias.name for alias in node.names} & SITE_BUILDERS
        else:
            continue
        if names:
            return True
    return False


def _module_marks(module) -> set[str]:
    marks = getattr(module, "pytestmark", [])
    return {mark.name for mark in (marks if isinstance(marks, list) else [marks])}


def test_every_test_module_that_builds_or_reads_a_site_is_marked_upstream():
    """So a new test of the built site is not forgotten by docs-latest: its module says
    `pytestmark = pytest.mark.upstream` (or is listed in NOT_UPSTREAM, saying why)."""
    unmarked = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        if not _builds_or_reads_a_site(ast.parse(path.read_text("utf-8"))):
            continue
        marks = _module_marks(importlib.import_module(f"tests.{path.stem}"))
        if ("upstream" in marks) == (path.stem in NOT_UPSTREAM):
            unmarked.append(path.name)
    assert not unmarked, f"mark upstream, or list in NOT_UPSTREAM with a reason: {unmarked}"
    assert set(NOT_UPSTREAM) <= {p.stem for p in (ROOT / "tests").glob("test_*.py")}
