"""Throw-away copies of the project for build tests: the real one, or a tiny one to break."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from functools import cache
from pathlib import Path

from bs4 import BeautifulSoup

from resdoc.sitegen.examples import run_log

ROOT = Path(__file__).resolve().parents[1]

TINY_EXAMPLE = '''"""Tiny example · a figure and a number."""

# %% [markdown] lang="zh"
# # 小示例

# %% [markdown] lang="en"
# # Tiny example

# %%
import matplotlib.pyplot as plt

from resdoc import publish


def draw(tr):
    fig, ax = plt.subplots(figsize=(3, 2), layout="constrained")
    ax.plot([0, 1], [0, ANSWER])
    ax.set_title(tr("答案", "answer"))
    return fig


ANSWER = 42
publish.number("answer", ANSWER, "{:d}")
publish.figure("line", draw, alt=("一条线", "a line"))
publish.claim(
    "positive",
    ANSWER > 0,
    zh="答案 {{ answer }} 是正数",
    en="the answer, {{ answer }}, is positive",
    evidence=f"answer = {ANSWER}",
)
'''

TINY_PAGE = {
    "zh": "# 首页\n\n答案是 {{ result:tiny/answer }}。{{ claim:tiny/positive }}。\n\n"
    "![一条线](figures/tiny/line.svg)\n",
    "en": "# Home\n\nThe answer is {{ result:tiny/answer }}. {{ claim:tiny/positive }}.\n\n"
    "![a line](figures/tiny/line.svg)\n",
}


def copy_project(dest: Path, with_content: bool = True) -> Path:
    """Copy what a build needs into ``dest``; node_modules is linked, not copied."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "resdoc", dest / "resdoc", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "mkdocs.yml", "README.md"):
        shutil.copy(ROOT / name, dest / name)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    if with_content:
        shutil.copytree(ROOT / "docs", dest / "docs")
        shutil.copytree(ROOT / "examples", dest / "examples")
    return dest


def tiny_site(dest: Path) -> Path:
    """A two-page, one-example site built with the real configuration and hooks."""
    copy_project(dest, with_content=False)
    # the real configuration with a nav of its own: `nav:` is its last section, replaced as
    # text (a YAML round trip would lose MkDocs' !ENV tags)
    config = (dest / "mkdocs.yml").read_text("utf-8")
    head, nav, rest = config.partition("\nnav:\n")
    assert nav and not re.search(r"^\S", rest, re.M), "mkdocs.yml: `nav:` must be the last section"
    nav = "\nnav:\n  - index.md\n  - examples/tiny.ipynb\n"
    (dest / "mkdocs.yml").write_text(head + nav, "utf-8")
    (dest / "docs").mkdir()
    shutil.copytree(ROOT / "docs" / "assets", dest / "docs" / "assets")
    for lang, text in TINY_PAGE.items():
        (dest / "docs" / f"index.{lang}.md").write_text(text, "utf-8")
    (dest / "examples").mkdir()
    (dest / "examples" / "tiny.py").write_text(TINY_EXAMPLE, "utf-8")
    return dest


def _build_command(
    project: Path,
    cache: Path | None,
    site_url: str | None,
    site_dir: str,
    repo_url: str | None = None,
) -> tuple[list[str], dict[str, str]]:
    # the caller's RESDOC_CACHE_DIR, RESDOC_SITE_URL and RESDOC_REPO_URL are not the copy's
    unset = ("RESDOC_SITE_URL", "RESDOC_CACHE_DIR", "RESDOC_REPO_URL")
    env = {name: value for name, value in os.environ.items() if name not in unset}
    env.update(OMP_NUM_THREADS="1", NO_MKDOCS_2_WARNING="1")
    if cache is not None:
        env["RESDOC_CACHE_DIR"] = str(cache)
    if site_url is not None:
        env["RESDOC_SITE_URL"] = site_url
    if repo_url is not None:
        env["RESDOC_REPO_URL"] = repo_url
    env["PYTHONPATH"] = str(project)  # the copy's resdoc, not the installed one
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", site_dir], env


def build(
    project: Path,
    cache: Path | None = None,
    site_url: str | None = None,
    site_dir: str = "site",
    repo_url: str | None = None,
) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` in ``project`` into ``site_dir``; the cache defaults to
    ``project/.cache/resdoc`` (whatever RESDOC_CACHE_DIR the tests run with). ``site_url`` is
    the published address (RESDOC_SITE_URL), ``repo_url`` the repository's (RESDOC_REPO_URL),
    both unset by default."""
    command, env = _build_command(project, cache, site_url, site_dir, repo_url)
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True)


class Background:
    """``command`` started now, in a process group of its own, its output going to ``log``;
    ``result()`` waits for it, ``stop()`` kills it and everything it started."""

    def __init__(self, command: list[str], log: Path, cwd: Path, env: dict | None = None):
        self.log = log
        with open(log, "w", encoding="utf-8") as output:
            self.process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                text=True,
                start_new_session=True,  # stop() ends what it started too (examples, Chromium)
            )

    def result(self) -> subprocess.CompletedProcess:
        returncode = self.process.wait()
        output = self.log.read_text("utf-8")
        return subprocess.CompletedProcess(self.process.args, returncode, output, output)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


class BackgroundBuild(Background):
    """``build(project, cache, site_dir=site_dir)`` started now, in another process. The test
    session starts the real site's cold build this way before its first test, so the tests
    that do not need the site run while the examples do, and its second build as soon as the
    first is done (see tests/conftest.py)."""

    def __init__(self, project: Path, log: Path, cache: Path | None = None, site_dir="site"):
        command, env = _build_command(project, cache, None, site_dir)
        self.project = project
        super().__init__(command, log, cwd=project, env=env)


def run_times(cache: Path) -> list[tuple[str, float]]:
    """(name, seconds) of every example executed so far, one entry per run."""
    return run_log(cache / "examples")


def executions(cache: Path) -> list[str]:
    """Names of the examples executed so far, one entry per run."""
    return [name for name, _ in run_times(cache)]


@cache
def parsed(page: Path) -> BeautifulSoup:
    """A built page, parsed once per session however many tests read it (again if it was
    written again). Read it, do not change it: the next test gets the same tree."""
    stat = page.stat()
    return _parsed(page.resolve(), stat.st_mtime_ns, stat.st_size)


@cache
def _parsed(page: Path, mtime_ns: int, size: int) -> BeautifulSoup:
    return BeautifulSoup(page.read_text("utf-8"), "html.parser")


# The text column's width in CSS px where each layout of a figure is shown (resdoc/style.py):
# Material's at a 390 px phone and at a 1280 px desktop.
COLUMN_PX = {"phone": 358, "desktop": 688}


def figure_records(site: Path) -> dict[tuple[str, str], dict]:
    """``{(example, name): {lang: {variant: size}}}`` for every figure the examples published:
    each variant's size and smallest text in points (``<name>.json`` in the examples' outputs,
    in the cache beside the site: ``<project>/.cache/resdoc/examples``)."""
    examples = site.resolve().parent / ".cache" / "resdoc" / "examples"
    found = {}
    for info in sorted(examples.glob("*/figures/*.json")):
        if (site / "figures" / info.parent.parent.name).is_dir():  # an example of this site
            found[info.parent.parent.name, info.stem] = json.loads(info.read_text("utf-8"))
    return found


def variant_of(path: str) -> tuple[str, str, str, str]:
    """(language, example, figure, variant) of a figure's URL path on the site."""
    from resdoc.sitegen.conventions import FIGURE_VARIANTS

    lang = "en" if path.startswith("/en/") else "zh"
    example, file = path.removeprefix("/en/").removeprefix("/").split("/")[1:3]
    name, _, suffix = file.removesuffix(".svg").partition(".")
    variants = {suffix: variant for variant, suffix in FIGURE_VARIANTS.items()}
    return lang, example, name, variants["." + suffix if suffix else ""]
