"""Sessions of the resdoc project: `nox -s docs`, `docs-live`, `tests`, `lint`.

Every dependency is pinned in pyproject.toml (dependency groups); KaTeX comes from the
npm registry through package.json / package-lock.json, with node and npm taken from PyPI.
"""

from __future__ import annotations

import nox

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
    """Run every test: resdoc, the build, the cache, and every snippet in docs/ and resdoc/."""
    install(session, "test")
    session.run("pytest", *session.posargs, env=BUILD_ENV)


@nox.session(python="3.11")
def lint(session: nox.Session) -> None:
    """Check style with ruff."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "lint"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
