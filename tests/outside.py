"""An example's downloads, run as a reader runs them: outside the build and the repository.

The package is built as a wheel from a copy of its sources and installed into a clean venv
(no system site packages; torch 2.13.0 comes from the wheel pip finds on disk, as the pin in
pyproject.toml demands). A downloaded script then runs from an empty folder with that venv's
Python, and so does the code of the downloaded notebook, cell after cell.

``python -m tests.outside prepare FOLDER`` makes the venv in FOLDER/venv (the test session
starts it in the background, see tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import venv
from pathlib import Path

from tests.sites import ROOT, copy_project

READY = "ready.json"  # written last: the venv is complete


def prepare(folder: Path) -> Path:
    """A clean venv with the wheel of ``resdoc`` installed, in ``folder/venv``."""
    started, cpu = time.perf_counter(), _children_cpu()
    sources = copy_project(folder / "sources", with_content=False)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder / "dist"), "."],
        cwd=sources,
        check=True,
    )
    [wheel] = (folder / "dist").glob("resdoc-*.whl")
    venv.create(folder / "venv", with_pip=True, system_site_packages=False, clear=True)
    python = folder / "venv" / "bin" / "python"
    # --no-compile: byte-compiling all of torch's and matplotlib's sources was two thirds of
    # the install's CPU (21 of 23 s user, against 7); a run compiles what it imports
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-input", "--no-compile", str(wheel)],
        check=True,
    )
    record = {"wheel": wheel.name, "seconds": time.perf_counter() - started}
    record["cpu_seconds"] = _children_cpu() - cpu
    (folder / READY).write_text(json.dumps(record), "utf-8")
    return python


def _children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def environment(lang: str) -> dict[str, str]:
    """What a reader's shell has, as far as the example cares: no PYTHONPATH, no build
    variables; one thread and a fixed hash seed, as the build runs examples, so the numbers
    printed are the page's."""
    keep = ("PATH", "HOME", "LANG", "TMPDIR", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0", RESDOC_LANG=lang)
    env["MPLBACKEND"] = "Agg"
    return env


def run(python: Path, script: Path, lang: str) -> subprocess.CompletedProcess:
    """``python script`` in the script's folder, as a reader runs a download."""
    return subprocess.run(
        [str(python), script.name],
        cwd=script.parent,
        env=environment(lang),
        capture_output=True,
        text=True,
    )


def notebook_code(notebook: dict) -> str:
    """A notebook's code cells, in order, as one script (what "run all" executes)."""
    cells = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
    return "\n\n".join(cells) + "\n"


def printed(notebook: dict) -> str:
    """What a notebook's cells printed (their stdout), in order."""
    return "".join(
        "".join(output["text"])
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        if output["output_type"] == "stream" and output["name"] == "stdout"
    )


def without_saved_figures(stdout: str) -> str:
    """A hand run's output less the lines naming the figures it saved (the build shows them
    on the page instead)."""
    said = ("figure saved to ", "图已保存到 ")  # resdoc.publish._show_by_hand
    kept = [line for line in stdout.splitlines(keepends=True) if not line.startswith(said)]
    return "".join(kept)


if __name__ == "__main__":
    if sys.argv[1:2] != ["prepare"] or len(sys.argv) != 3:
        sys.exit("usage: python -m tests.outside prepare FOLDER")
    os.chdir(ROOT)
    print(prepare(Path(sys.argv[2]).resolve()))
