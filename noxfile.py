"""Sessions of the resdoc project: `nox -s docs`, `docs-live`, `tests`, `crossmachine`, `lint`,
and `docs-latest` (the build against the newest releases of its dependencies).

Every dependency is pinned in pyproject.toml (dependency groups); KaTeX comes from the
npm registry through package.json / package-lock.json, with node and npm taken from PyPI.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nox
from packaging.requirements import Requirement

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["lint", "tests"]

PYPROJECT = nox.project.load_toml("pyproject.toml")
BUILD_ENV = {
    "OMP_NUM_THREADS": "1",  # examples run two at a time on two cores
    "NO_MKDOCS_2_WARNING": "1",  # silence mkdocs-material's end-of-life banner
    "PYTHONWARNINGS": "ignore::DeprecationWarning",
}


def install(session: nox.Session, *groups: str) -> None:
    requirements = [
        req for group in groups for req in nox.project.dependency_groups(PYPROJECT, group)
    ]
    session.install("-e", ".", *requirements)
    # KaTeX (and its fonts) from the npm registry, exactly as locked; never committed.
    session.run("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", silent=True)


@nox.session(python="3.11")
def docs(session: nox.Session) -> None:
    """Build the site into site/, running every example whose inputs changed."""
    install(session, "docs")
    session.run("mkdocs", "build", "--strict", *session.posargs, env=BUILD_ENV)


@nox.session(name="docs-live", python="3.11")
def docs_live(session: nox.Session) -> None:
    """Serve the site on http://127.0.0.1:8000 and rebuild on every edit."""
    install(session, "docs")
    session.run("mkdocs", "serve", "--livereload", *session.posargs, env=BUILD_ENV)


@nox.session(python="3.11")
def tests(session: nox.Session) -> None:
    """Run every test: resdoc, the build, the cache, and every snippet in docs/ and resdoc/.
    The fast loop, `nox -s tests -- -m "not slow"`, skips what builds a site or tests the
    built one (CONTRIBUTING.md, "Running the tests")."""
    install(session, "test")
    session.run("pytest", *session.posargs, env=BUILD_ENV)


# PyTorch picks its CPU kernels by the instruction set, and trained numbers follow their
# rounding; ATEN_CPU_CAPABILITY forces a level, so one machine stands in for others.
CPU_LEVELS = ("default", "avx2", "avx512")


@nox.session(python="3.11")
def crossmachine(session: nox.Session) -> None:
    """At every CPU-kernel level this machine has: the fast tests, then a cold build (every
    example runs again, every claim is checked). Levels can be named: -- default avx2."""
    install(session, "test")
    highest = (
        session.run(
            "python",
            "-c",
            "import torch; print(torch.backends.cpu.get_cpu_capability())",
            silent=True,
        )
        .strip()
        .lower()
    )
    available = (
        CPU_LEVELS[: CPU_LEVELS.index(highest) + 1]
        if highest in CPU_LEVELS
        else ("default", highest)
    )
    levels = session.posargs or available
    for level in levels:
        session.log(f"ATEN_CPU_CAPABILITY={level}")
        env = {**BUILD_ENV, "ATEN_CPU_CAPABILITY": level}
        session.run("pytest", "-q", "-m", "not slow", env=env)
        scratch = Path(session.create_tmp()) / f"crossmachine-{level}"
        shutil.rmtree(scratch, ignore_errors=True)
        env["RESDOC_CACHE_DIR"] = str(scratch / "cache")  # empty: every example runs
        session.run("mkdocs", "build", "--strict", "--site-dir", str(scratch / "site"), env=env)


# What the site's build and its tests check, run by docs-latest against new releases.
SITE_TESTS = (
    "tests/test_machinery.py",
    "tests/test_pages.py",
    "tests/test_example_pages.py",
    "tests/test_segmenter.py",
    "tests/test_bad_input.py",
    "tests/test_build.py",
    "tests/test_links.py",
    "tests/test_site_browser.py",
)


SHOW_VERSIONS = """
import sys
from importlib.metadata import version
for name in sys.argv[1:]:
    print(f"  {name:22s} {version(name)}")
"""


@nox.session(name="docs-latest", python="3.11")
def docs_latest(session: nox.Session) -> None:
    """The build, its build tests and browser tests with the newest release of every docs
    dependency (unpinned, and their own dependencies upgraded too), so an upgrade's breakage
    shows up as a named failure before anyone moves a pin. The science stays pinned (torch
    2.13.0: another version is a multi-GB download), and so do the test tools."""
    docs = [Requirement(spec).name for spec in nox.project.dependency_groups(PYPROJECT, "docs")]
    tools = [
        spec
        for spec in nox.project.dependency_groups(PYPROJECT, "test")
        if Requirement(spec).name not in docs
    ]
    session.install("--upgrade", "--upgrade-strategy", "eager", "-e", ".", *docs, *tools)
    session.run("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", silent=True)
    # what this run got: the docs dependencies, and the ones whose markup or API they pass on
    shown = [*docs, "nbconvert", "markdown", "pygments", "jinja2"]
    session.run("python", "-c", SHOW_VERSIONS, *shown, silent=False)
    site = Path(session.create_tmp()) / "site"
    session.run("mkdocs", "build", "--strict", "--site-dir", str(site), env=BUILD_ENV)
    env = {**BUILD_ENV, "RESDOC_TEST_SITE": str(site)}
    session.run("pytest", "-p", "no:cacheprovider", *SITE_TESTS, *session.posargs, env=env)


@nox.session(python="3.11")
def lint(session: nox.Session) -> None:
    """Check style with ruff."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
