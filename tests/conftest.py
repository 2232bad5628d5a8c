"""Shared fixtures: one full build of the real site per test session, and one browser.

The build is cold (a copy of the project with an empty cache: every example runs) and starts
in the background as soon as the tests are collected. The tests that need the built site run
last; the others run meanwhile, on the core the examples leave idle. A second build (its
cache less one example) starts as soon as the first is done, and its tests run at the very
end. A session that selects no test needing the site (``-m "not slow"``) builds nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.audit import BackgroundAudit
from tests.browser import chromium, serve
from tests.outside import READY
from tests.sites import ROOT, Background, BackgroundBuild, copy_project, run_times

_BUILD = pytest.StashKey[BackgroundBuild]()
_REBUILD = pytest.StashKey["Rebuild | None"]()  # None: collected, not started yet
_AUDIT = pytest.StashKey["BackgroundAudit | None"]()  # the same
_VENV = pytest.StashKey[tuple[Background, Path]]()  # the clean venv being made, and its folder


def _needs_site(item: pytest.Item) -> bool:
    names = getattr(item, "fixturenames", ())
    return "built_project" in names or "built_site" in names


def _needs_build(item: pytest.Item) -> bool:
    names = getattr(item, "fixturenames", ())
    return "built_project" in names or (
        "built_site" in names and not os.environ.get("RESDOC_TEST_SITE")
    )


@pytest.hookimpl(trylast=True)  # after pytest's own reordering by fixture
def pytest_collection_modifyitems(session, config, items):
    """The tests of the built site go last, in their order, and of those the tests of its
    second build (which runs meanwhile) at the very end; the first build starts now."""

    def rank(item):
        names = getattr(item, "fixturenames", ())
        return _needs_site(item) + ("rebuilt" in names) + 2 * ("visits" in names)

    items.sort(key=rank)  # stable: the order within a rank stays
    if not config.option.collectonly and any(
        "clean_venv" in getattr(item, "fixturenames", ()) for item in items
    ):  # installing torch & co. into a fresh venv takes a while: start it now, beside the build
        folder = config._tmp_path_factory.mktemp("outside")
        command = [sys.executable, "-m", "tests.outside", "prepare", str(folder)]
        config.stash[_VENV] = (Background(command, folder / "prepare.log", cwd=ROOT), folder)
    if any("visits" in getattr(item, "fixturenames", ()) for item in items):
        config.stash[_AUDIT] = None
    if config.option.collectonly or not any(_needs_build(item) for item in items):
        return
    folder = config._tmp_path_factory.mktemp("built")  # the tmp_path_factory fixture's
    config.stash[_BUILD] = BackgroundBuild(copy_project(folder / "project"), folder / "build.log")
    if any("rebuilt" in getattr(item, "fixturenames", ()) for item in items):
        config.stash[_REBUILD] = None


def pytest_unconfigure(config):
    if _VENV in config.stash:
        config.stash[_VENV][0].stop()
    if _BUILD in config.stash:
        config.stash[_BUILD].stop()  # a run stopped early (-x, Ctrl-C) stops the build too
    if config.stash.get(_REBUILD, None) is not None:
        config.stash[_REBUILD].build.stop()
    if config.stash.get(_AUDIT, None) is not None:
        config.stash[_AUDIT].stop()


@pytest.fixture(scope="session")
def built_project(request, tmp_path_factory):
    """A copy of the project, built once (every example run, cold cache)."""
    build = request.config.stash.get(_BUILD, None)
    if build is None:  # requested without being collected as such: build now
        folder = tmp_path_factory.mktemp("built")
        build = BackgroundBuild(copy_project(folder / "project"), folder / "build.log")
        request.config.stash[_BUILD] = build
    result = build.result()
    assert result.returncode == 0, result.stderr[-5000:]
    if request.config.stash.get(_REBUILD, 0) is None:  # wanted: it runs while the tests do
        request.config.stash[_REBUILD] = start_rebuild(build.project, tmp_path_factory)
    _start_audit(request.config, build.project / "site", tmp_path_factory)
    return build.project


def _start_audit(config, site: Path, tmp_path_factory) -> None:
    """The browser audit of every page (tests/audit.py), if wanted (None in the stash: the
    session has tests of it) and not started yet."""
    if config.stash.get(_AUDIT, 0) is None:
        config.stash[_AUDIT] = BackgroundAudit(site, tmp_path_factory.mktemp("audit"))


@dataclass
class Rebuild:
    project: Path  # the built project, whose first build is in site/ and .cache/resdoc/
    cache: Path  # the second build's cache: a copy of the first's, less one example's outputs
    rerun: str  # that example: the quickest with figures
    build: BackgroundBuild  # the second build, into site-again/

    @property
    def site(self) -> Path:
        return self.project / "site-again"

    @property
    def result(self) -> subprocess.CompletedProcess:
        return self.build.result()


def start_rebuild(project: Path, tmp_path_factory) -> Rebuild:
    """Start building ``project`` a second time into site-again/, from a copy of its example
    cache from which the outputs of its quickest example with figures were removed: the build
    runs that example again from scratch, and reuses everything else."""
    first = project / ".cache" / "resdoc"
    with_figures = [
        (seconds, name)
        for name, seconds in run_times(first)
        if any((first / "examples" / name / "figures").glob("*.svg"))
    ]
    assert with_figures, "no example with figures ran"
    rerun = min(with_figures)[1]
    folder = tmp_path_factory.mktemp("rebuilt")
    cache = folder / "cache"
    shutil.copytree(first, cache, ignore=shutil.ignore_patterns("*.running"))
    shutil.rmtree(cache / "examples" / rerun)
    second = BackgroundBuild(project, folder / "build.log", cache=cache, site_dir="site-again")
    return Rebuild(project, cache, rerun, second)


@pytest.fixture(scope="session")
def rebuilt(request, built_project, tmp_path_factory) -> Rebuild:
    """built_project built a second time (see start_rebuild), started as soon as the first
    build was done; this waits for it."""
    rebuild = request.config.stash.get(_REBUILD, None)
    if rebuild is None:
        rebuild = request.config.stash[_REBUILD] = start_rebuild(built_project, tmp_path_factory)
    rebuild.result  # noqa: B018 - waits for the build
    return rebuild


@pytest.fixture(scope="session")
def built_site(request) -> Path:
    """The built site; RESDOC_TEST_SITE=path/to/site reuses one built earlier (for quick iteration)."""
    if os.environ.get("RESDOC_TEST_SITE"):
        site = Path(os.environ["RESDOC_TEST_SITE"]).resolve()
        _start_audit(request.config, site, request.getfixturevalue("tmp_path_factory"))
        return site
    return request.getfixturevalue("built_project") / "site"


@pytest.fixture(scope="session")
def visits(request, built_site, tmp_path_factory) -> dict:
    """What every page did and showed in a reader's browser (tests/audit.py), from the audit
    started in the background the moment the site was built."""
    request.config.stash.setdefault(_AUDIT, None)  # wanted now, if not known to be before
    _start_audit(request.config, built_site, tmp_path_factory)
    found = request.config.stash[_AUDIT].findings()
    if isinstance(found, str):
        pytest.skip(found)
    return found


@pytest.fixture(scope="session")
def searches(request, visits) -> dict:
    """What the site's search answered to each query of tests/audit.py's SEARCHES, per
    language's home page ("" or "en/"), in the same audit process as ``visits``."""
    found = request.config.stash[_AUDIT].searches()
    if isinstance(found, str):
        pytest.skip(found)
    return found


@pytest.fixture(scope="session")
def clean_venv(request) -> Path:
    """The Python of a clean venv with resdoc installed from its wheel (tests/outside.py),
    made in the background since the tests were collected."""
    making, folder = request.config.stash[_VENV]
    result = making.result()
    assert result.returncode == 0 and (folder / READY).is_file(), result.stdout[-5000:]
    return folder / "venv" / "bin" / "python"


@pytest.fixture(scope="session")
def site(built_site) -> Path:
    return built_site


@pytest.fixture(scope="session")
def server(built_site):
    """The built site served on 127.0.0.1, for the whole session."""
    with serve(built_site) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session (skips without Debian's chromium)."""
    with chromium() as browser:
        yield browser
