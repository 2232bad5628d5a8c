"""Execute an example script cell by cell, as a notebook would, and save the notebook.

Run by the build in a fresh process: ``python -m resdoc.sitegen.cellrun SCRIPT OUTDIR``.
Each cell is compiled under the script's own file name and line numbers, so a traceback
points at ``examples/<name>.py:<line>``. Writes to OUTDIR:

- ``notebook.ipynb``: the cells with their printed output (a line said in both languages
  kept as both, for each language's page), their published figures, and ids by line
  (``cell-<N>``: the cell's source starts at line N of the script);
- ``modules.json``: the ``resdoc`` source files the example imported (the cache's inputs).

With ``RESDOC_TIME_LIMIT=N`` in its environment it stops itself after N s of CPU time,
raising ``TimeLimitExceeded`` where it was, so the build names the line it was running.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import json
import os
import signal
import sys
import time
import traceback
import warnings
from pathlib import Path

import nbformat

from resdoc import bilingual, publish
from resdoc.sitegen.mime import FIGURE_MIME, TEXT_MIME
from resdoc.sitegen.script import read_cells


class _CellOutputs:
    """A cell's outputs in the order they happened: printed text, lines said in both
    languages (``resdoc.bilingual.say``), published figures."""

    def __init__(self) -> None:
        self.outputs: list = []
        self.stdout = io.StringIO()

    def flush(self) -> None:
        """What was printed since the last output becomes an output of its own."""
        text = self.stdout.getvalue()
        if text:
            self.outputs.append(nbformat.v4.new_output("stream", name="stdout", text=text))
            self.stdout.seek(0)
            self.stdout.truncate()

    def show(self, mime: str, record: dict) -> None:
        self.flush()
        self.outputs.append(nbformat.v4.new_output("display_data", data={mime: record}))


def _display_outputs(value: object) -> dict:
    for method, mime in (("_repr_html_", "text/html"), ("_repr_svg_", "image/svg+xml")):
        if hasattr(value, method):
            return {mime: getattr(value, method)()}
    return {"text/plain": repr(value)}


def _is_docstring(source: str) -> bool:
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    return (
        len(body) == 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )


def _hands_to_the_site(statement: ast.stmt) -> bool:
    """A ``publish.…(…)`` call: what it returns (a number's text, a claim's sentences) is
    for the site's pages, not an output of the cell."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "publish"
    )


def _execute(cell_source: str, first_line: int, filename: str, namespace: dict):
    """Exec a cell; return the value of a trailing expression, like a notebook does (but
    not of a trailing ``publish`` call)."""
    padded = "\n" * (first_line - 1) + cell_source  # keep the script's line numbers
    tree = ast.parse(padded, filename)
    trailing = tree.body and isinstance(tree.body[-1], ast.Expr)
    last = tree.body.pop() if trailing and not _hands_to_the_site(tree.body[-1]) else None
    exec(compile(tree, filename, "exec"), namespace)
    if last is not None:
        return eval(compile(ast.Expression(last.value), filename, "eval"), namespace)
    return None


def run(script: Path, outdir: Path) -> None:
    import matplotlib.pyplot as plt

    # A label drawn as tofu boxes is a broken figure: fail instead of publishing it.
    warnings.filterwarnings("error", message=r"Glyph \d+ .* missing from font")

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    notebook.metadata["language_info"] = {"name": "python"}
    namespace = {"__name__": "__main__", "__file__": str(script)}
    count = 0
    for cell in read_cells(script):
        if cell.kind == "code" and _is_docstring(cell.source):
            continue  # the script's title, for readers of the .py; pages take theirs from markdown
        if cell.kind == "markdown":
            notebook.cells.append(
                nbformat.v4.new_markdown_cell(cell.source, metadata=cell.metadata)
            )
        else:
            count += 1
            cell_outputs = _CellOutputs()
            publish.display_hooks[:] = [functools.partial(cell_outputs.show, FIGURE_MIME)]
            bilingual.hooks[:] = [functools.partial(cell_outputs.show, TEXT_MIME)]
            stdout = cell_outputs.stdout
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stdout):
                value = _execute(cell.source, cell.first_line, str(script), namespace)
            cell_outputs.flush()
            outputs = cell_outputs.outputs
            if value is not None:
                outputs.append(
                    nbformat.v4.new_output(
                        "execute_result", data=_display_outputs(value), execution_count=count
                    )
                )
            plt.close("all")  # only published figures are shown
            notebook.cells.append(
                nbformat.v4.new_code_cell(
                    cell.source, outputs=outputs, execution_count=count, metadata=cell.metadata
                )
            )
        # the line the cell's source starts at in the script: the same id every build (nbformat's
        # are random), and on the page the cell's anchor (example_pages.py)
        notebook.cells[-1].id = f"cell-{cell.first_line}"
    nbformat.write(notebook, outdir / "notebook.ipynb")


class TimeLimitExceeded(Exception):
    """The example used up its CPU time (``# resdoc: time-limit = N`` or the default)."""


def limit_cpu_time(seconds: int) -> None:
    """SIGXCPU at ``seconds`` of CPU time (the kernel's RLIMIT_CPU) raises TimeLimitExceeded
    in the running line; a process that ignores it is killed 10 s of CPU time later.
    CPU time, not wall time: a loaded machine slows an example down but never stops it."""
    try:
        import resource
    except ImportError:  # not POSIX: only the build's wall-clock limit applies
        return

    def stop(signum, frame):
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)  # the kernel repeats it every second
        raise TimeLimitExceeded(
            f"used {seconds} s of CPU time, its time limit, and was stopped (a script that "
            "needs longer says so with a line `# resdoc: time-limit = N`)"
        )

    signal.signal(signal.SIGXCPU, stop)
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 10))


def imported_sources(package_dir: Path) -> list[str]:
    files = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if path and Path(path).resolve().is_relative_to(package_dir):
            files.add(Path(path).resolve().relative_to(package_dir.parent).as_posix())
    return sorted(files)


def provenance() -> dict:
    """What the numbers of this run depend on beyond the code: Python, torch and the CPU
    kernels torch chose (rounding differs between instruction sets)."""
    found = {"Python": sys.version.split()[0]}
    torch = sys.modules.get("torch")
    if torch is not None:
        found["torch"] = torch.__version__
        found["cpu"] = torch.backends.cpu.get_cpu_capability()
    return found


def main() -> int:
    script, outdir = Path(sys.argv[1]), Path(sys.argv[2])
    started = time.perf_counter()
    if os.environ.get("RESDOC_TIME_LIMIT"):
        limit_cpu_time(int(os.environ["RESDOC_TIME_LIMIT"]))
    try:
        run(script, outdir)
    except BaseException as error:  # noqa: BLE001 - any failure must reach the build, traced
        frames = traceback.extract_tb(error.__traceback__)
        in_script = [f for f in frames if Path(f.filename) == script]
        where = f"{script}:{in_script[-1].lineno}" if in_script else str(script)
        shown = "".join(traceback.format_exception(error)).replace(
            'File "<frozen runpy>"', "File <runpy>"
        )
        print(f"{where}: {type(error).__name__}: {error}\n\n{shown}", file=sys.stderr)
        return 1
    package_dir = Path(publish.__file__).resolve().parent
    (outdir / "modules.json").write_text(
        json.dumps(
            {
                "sources": imported_sources(package_dir),
                "seconds": time.perf_counter() - started,
                "provenance": provenance(),
            },
            indent=1,
        ),
        "utf-8",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
