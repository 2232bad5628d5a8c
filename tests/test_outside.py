"""A reader downloads an example's script and notebook from its page and runs them with the
package installed from its wheel in a clean venv (tests/outside.py): they run, print what the
page printed, in the page's language, and hand their numbers to ``.cache/hand-run/``.

The test command runs the quickest example; ``nox -s examples-outside`` runs every one
(RESDOC_OUTSIDE=all), which repeats every example's computation.
"""

from __future__ import annotations

import json
import os
import subprocess
import urllib.request
from pathlib import Path

import pytest

from resdoc.sitegen.examples import run_log, time_limit
from tests.outside import environment, notebook_code, printed, run, without_saved_figures
from tests.sites import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.upstream]


def _examples() -> list[str]:
    names = sorted(p.stem for p in (ROOT / "examples").glob("*.py"))
    if os.environ.get("RESDOC_OUTSIDE") == "all":
        return names
    # the quickest, by its last run with this checkout's cache or, on a clean clone, by its
    # time limit (the order the cold build starts them in, reversed)
    times = dict(run_log(ROOT / ".cache" / "resdoc" / "examples"))
    limit = {name: time_limit(ROOT / "examples" / f"{name}.py") for name in names}
    return [min(names, key=lambda name: times.get(name, limit[name]))]


def _download(server: str, page: str, file: str, folder: Path) -> Path:
    folder.mkdir(parents=True)
    with urllib.request.urlopen(f"{server}{page}{file}") as response:  # noqa: S310 - our server
        (folder / file).write_bytes(response.read())
    return folder / file


@pytest.mark.parametrize("name", _examples())
def test_the_downloaded_script_runs_in_a_clean_venv_and_prints_what_the_page_printed(
    clean_venv, server, tmp_path, name
):
    script = _download(server, f"examples/{name}/", f"{name}.py", tmp_path / "reader")
    result = run(clean_venv, script, "zh")
    assert result.returncode == 0, result.stderr[-3000:]
    page = json.loads(urllib.request.urlopen(f"{server}examples/{name}/{name}.ipynb").read())
    assert without_saved_figures(result.stdout) == printed(page)  # in Chinese, as the zh page
    results = json.loads(
        (script.parent / ".cache" / "hand-run" / name / "results.json").read_text()
    )
    assert results, "the script recorded no number"


@pytest.mark.parametrize("name", _examples())
def test_the_downloaded_notebook_runs_cell_after_cell_in_a_clean_venv(
    clean_venv, server, tmp_path, name
):
    notebook = _download(server, f"en/examples/{name}/", f"{name}.ipynb", tmp_path / "reader")
    page = json.loads(notebook.read_text("utf-8"))
    code = notebook.with_name(f"{name}.py")
    code.write_text(notebook_code(page), "utf-8")
    result = run(clean_venv, code, "en")
    assert result.returncode == 0, result.stderr[-3000:]
    assert without_saved_figures(result.stdout) == printed(page)  # in English, as the en page
    assert not any("\u4e00" <= char <= "\u9fff" for char in printed(page)), "Chinese on en page"


def test_every_science_module_imports_from_the_wheel_without_the_repository(clean_venv, tmp_path):
    """The installed package reads nothing of the repository (no docs/, no mkdocs.yml)."""
    science = sorted(p.stem for p in (ROOT / "resdoc").glob("*.py") if p.stem != "__init__")
    imports = "; ".join(f"import resdoc.{name}" for name in science)
    code = f"{imports}; import resdoc; print(resdoc.__file__)"
    result = subprocess.run(
        [str(clean_venv), "-c", code],
        cwd=tmp_path,
        env=environment("en"),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert Path(result.stdout.strip()).is_relative_to(clean_venv.parent.parent)  # the venv's copy
