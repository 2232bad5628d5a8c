"""Sessions of the resdoc project: `nox -s docs`, `docs-live`, `tests`, `crossmachine`, `lint`,
`examples-outside` (every example's downloads run in a clean venv), `docs-latest` (the build
against the newest releases of its dependencies), `docs-properdocs` and `docs-zensical` (the
site built by the generators that may replace MkDocs) and `lock`.

Every direct dependency is pinned in pyproject.toml (dependency groups); `nox -s lock`
resolves each group, transitive dependencies included, into requirements/<group>.txt, and
the sessions install exactly that. KaTeX comes from the npm registry through package.json /
package-lock.json, with node and npm taken from PyPI.

torch is the one package pip fetches itself: its CPU build (2.13.0+cpu) is not on PyPI, and
pip knows where this machine keeps it (a wheel folder here, PIP_EXTRA_INDEX_URL elsewhere);
uv, nox's backend where it is installed, looks in no such place and would take PyPI's
multi-GB CUDA build. So pip copies that one wheel into .nox/.cache/wheels, and pip or uv
install the lock with that folder as --find-links; a lock pin of torch that pip cannot find
stops the install there instead of downloading another torch.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import nox
from packaging.requirements import Requirement

nox.options.default_venv_backend = "uv|venv"  # uv where it is installed (requirements/nox.txt)
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["lint", "tests"]

PYPROJECT = nox.project.load_toml("pyproject.toml")
BUILD_ENV = {
    "OMP_NUM_THREADS": "1",  # examples run two at a time on two cores
    "NO_MKDOCS_2_WARNING": "1",  # silence mkdocs-material's end-of-life banner
    "PYTHONWARNINGS": "ignore::DeprecationWarning",
}


LOCKS = Path("requirements")  # requirements/<group>.txt, written by `nox -s lock`
# What the lock is resolved for: the CPU build of torch 2.13.0 is a CPython 3.11 wheel for
# x86-64 Linux (pymdown-extensions 13 needs 3.11.5 or later).
LOCK_PYTHON, LOCK_PLATFORM = "3.11.5", "x86_64-manylinux_2_28"
WHEEL_PLATFORM = "manylinux_2_28_x86_64"  # the same platform, as pip spells it
TORCH_BUILD = "cpu"  # the local version label of torch's CPU build: torch==2.13.0+cpu
COMPILED = {"UV_COMPILE_BYTECODE": "1"}  # uv writes .pyc files as pip does (pip ignores it)
# KaTeX and axe-core as package-lock.json locks them; not Lighthouse, a dev dependency that only
# `benchmarks/pages.py --lighthouse` needs (`npm ci` alone installs it)
NPM_CI = ("--omit=dev", "--no-audit", "--no-fund", "--loglevel=error")


def locked_pin(group: str, name: str) -> str | None:
    """The lock's line for package ``name`` (``name==version``), if the group has it."""
    for line in (LOCKS / f"{group}.txt").read_text("utf-8").splitlines():
        if line.startswith(f"{name}=="):
            return line.split()[0]
    return None


def torch_wheels(session: nox.Session, pin: str) -> Path:
    """A folder holding the wheel of ``pin`` (torch's CPU build), copied there by pip, which
    finds it where this machine keeps it. Fetched once; every session's install reads it."""
    folder = session.cache_dir / "wheels"
    version = pin.partition("==")[2]
    if not list(folder.glob(f"torch-{version}-*.whl")):
        if importlib.util.find_spec("pip") is None:
            session.error("nox's own Python has no pip to fetch torch with: install nox with pip")
        try:
            session.run_install(  # as an install step: it runs under --install-only too
                *(sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"),
                *("--python-version", "3.11", "--platform", WHEEL_PLATFORM),
                *("--dest", str(folder), pin),
                external=True,
                silent=True,
            )
        except nox.command.CommandFailed:
            session.error(
                f"pip found no {pin} (the CPU build the lock pins). Give pip the folder or "
                "index that has it: PIP_FIND_LINKS=/path/to/wheels, or "
                "PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu"
            )
    return folder


def install(session: nox.Session, group: str) -> None:
    """The project (editable) and exactly what requirements/<group>.txt pins, with pip or uv."""
    lock = LOCKS / f"{group}.txt"
    torch = locked_pin(group, "torch")
    wheels = ["--find-links", str(torch_wheels(session, torch))] if torch else []
    # the lock is complete: only it; compiled as pip does, so the first import compiles nothing
    session.install("--no-deps", *wheels, "-r", str(lock), env=COMPILED)
    session.install("--no-deps", "-e", ".")  # its dependencies are the lock's
    # KaTeX (and its fonts) from the npm registry, exactly as locked; never committed.
    session.run("npm", "ci", *NPM_CI, silent=True)


@nox.session(python="3.11")
def docs(session: nox.Session) -> None:
    """Build the site into site/, running every example whose inputs changed."""
    install(session, "docs")
    session.run("mkdocs", "build", "--strict", *session.posargs, env=BUILD_ENV)


@nox.session(name="docs-live", python="3.11")
def docs_live(session: nox.Session) -> None:
    """Serve the site on http://127.0.0.1:8000; after an edit, build again the pages whose
    inputs changed (resdoc/sitegen/live.py; benchmarks/live_preview.py times it)."""
    install(session, "docs")
    session.run("mkdocs", "serve", "--livereload", "--dirty", *session.posargs, env=BUILD_ENV)


@nox.session(name="docs-properdocs", python="3.11")
def docs_properdocs(session: nox.Session) -> None:
    """The site built by ProperDocs (MkDocs 1.x continued) from the same mkdocs.yml and hooks,
    compared file by file with MkDocs' build (same example cache): the exit path when MkDocs
    1.6.1 stops working. Not part of the test command."""
    install(session, "properdocs")
    scratch = Path(session.create_tmp())
    for generator in ("mkdocs", "properdocs"):
        site = str(scratch / f"site-{generator}")
        session.run(generator, "build", "--strict", "--quiet", "--site-dir", site, env=BUILD_ENV)
    ours, theirs = (str(scratch / f"site-{g}") for g in ("mkdocs", "properdocs"))
    session.run("python", "-m", "resdoc.sitegen.compare_sites", "--files", ours, theirs)


@nox.session(name="docs-zensical", python="3.11")
def docs_zensical(session: nox.Session) -> None:
    """The Markdown pages built by Zensical (with zensical-i18n) from the stages of
    resdoc/sitegen/stages.py, each page's text, numbers, figures and formulas compared with
    MkDocs' build: the exit path when Material reaches its end of life. The example pages and
    search stay MkDocs-only (resdoc/sitegen/staged_build.py). Not part of the test command."""
    install(session, "zensical")
    scratch = Path(session.create_tmp())
    ours = str(scratch / "site-mkdocs")
    session.run("mkdocs", "build", "--strict", "--quiet", "--site-dir", ours, env=BUILD_ENV)
    out = str(scratch / "zensical")
    session.run(
        "python",
        "-m",
        "resdoc.sitegen.staged_build",
        "zensical",
        out,
        "--compare",
        ours,
        env=BUILD_ENV,
    )


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


@nox.session(name="examples-outside", python="3.11")
def examples_outside(session: nox.Session) -> None:
    """Every example's downloads run as a reader runs them: the site built (examples cached),
    resdoc's wheel installed into a clean venv, each page's script and notebook downloaded
    and run from an empty folder; they must print what the page printed (tests/outside.py).
    Runs every example's computation again: minutes. The test command does the quickest."""
    install(session, "test")
    site = Path(session.create_tmp()) / "examples-outside-site"
    session.run("mkdocs", "build", "--strict", "--site-dir", str(site), env=BUILD_ENV)
    env = {**BUILD_ENV, "RESDOC_TEST_SITE": str(site), "RESDOC_OUTSIDE": "all"}
    session.run(
        "pytest", "-p", "no:cacheprovider", "tests/test_outside.py", *session.posargs, env=env
    )


SHOW_VERSIONS = """
import sys
from importlib.metadata import version
for name in sys.argv[1:]:
    print(f"  {name:22s} {version(name)}")
"""


@nox.session(name="docs-latest", python="3.11")
def docs_latest(session: nox.Session) -> None:
    """The build and every test marked `upstream` (what checks the docs dependencies' output
    and internals) with the newest release of every docs dependency: unpinned, their own
    dependencies upgraded too, the lock ignored. So an upgrade's breakage shows up as a named
    failure before anyone moves a pin. The science stays pinned (torch as locked, its CPU
    build: another is a multi-GB download), and so do the test tools."""
    docs = [Requirement(spec).name for spec in nox.project.dependency_groups(PYPROJECT, "docs")]
    tools = [
        spec
        for spec in nox.project.dependency_groups(PYPROJECT, "test")
        if Requirement(spec).name not in docs
    ]
    torch = locked_pin("test", "torch")
    wheels = ["--find-links", str(torch_wheels(session, torch))]
    # uv's --upgrade upgrades everything unpinned, as pip's eager strategy does
    eager = [] if session.venv_backend == "uv" else ["--upgrade-strategy", "eager"]
    session.install("--upgrade", *eager, *wheels, torch, "-e", ".", *docs, *tools, env=COMPILED)
    session.run("npm", "ci", *NPM_CI, silent=True)
    session.run("python", "-c", SHOW_VERSIONS, *docs, silent=False)  # what this run got
    site = Path(session.create_tmp()) / "site"
    session.run("mkdocs", "build", "--strict", "--site-dir", str(site), env=BUILD_ENV)
    env = {**BUILD_ENV, "RESDOC_TEST_SITE": str(site)}
    session.run("pytest", "-p", "no:cacheprovider", "-m", "upstream", *session.posargs, env=env)


@nox.session(python="3.11")
def lint(session: nox.Session) -> None:
    """Check style with ruff."""
    session.install("--no-deps", "-r", str(LOCKS / "lint.txt"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


LOCKED_GROUPS = ("test", "docs", "lint", "nox", "properdocs", "zensical")
WITH_PROJECT = {
    "test",
    "docs",
    "properdocs",
    "zensical",
}  # groups installed with the project: its dependencies too


@nox.session(python="3.11")
def lock(session: nox.Session) -> None:
    """Resolve every dependency group of pyproject.toml, with every transitive dependency,
    into requirements/<group>.txt (uv pip compile). Versions already locked stay unless a
    pin asks otherwise; `nox -s lock -- --upgrade` moves every unpinned one to its newest
    release, `-- --upgrade-package NAME` one of them."""
    [uv] = [
        s for s in nox.project.dependency_groups(PYPROJECT, "nox") if Requirement(s).name == "uv"
    ]
    session.install(uv)
    [torch] = [spec for spec in PYPROJECT["project"]["dependencies"] if spec.startswith("torch")]
    wheels = torch_wheels(session, f"{torch}+{TORCH_BUILD}")
    LOCKS.mkdir(exist_ok=True)
    for group in LOCKED_GROUPS:
        session.run(
            *("uv", "pip", "compile", "--quiet"),
            *(["pyproject.toml"] if group in WITH_PROJECT else []),
            *("--group", group),
            *("--python-version", LOCK_PYTHON, "--python-platform", LOCK_PLATFORM),
            *("--find-links", str(wheels), "--custom-compile-command", "nox -s lock"),
            *("--output-file", str(LOCKS / f"{group}.txt"), *session.posargs),
        )
