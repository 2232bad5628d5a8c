"""Examples started from a process that has already imported their heavy dependencies.

Each example runs in a process of its own (``resdoc.sitegen.cellrun``), and each used to
spend about 3 s of CPU importing torch, NumPy, matplotlib and scikit-learn before its first
line ran: half a minute of a cold build's eleven examples. A fork server imports them once;
each example is a fork of it, still a process of its own, which runs the cell runner. Each
of the build's workers has its own server and runs one example at a time in it.

A fork starts where the server stood: the same interpreter and environment, nothing of
torch run yet (no thread pool, no random draw). So the server starts with the very
environment the examples get but for the variables that name the example (``PER_EXAMPLE``),
and an example whose environment differs otherwise runs as a plain process instead
(``ForkServer.accepts``). The server imports other packages and the cell runner, which every
example imports too: the ``resdoc`` sources an example imports, which key its cache, are
found the same either way.

``python -m resdoc.sitegen.forkserver MODULE...`` imports the modules, then reads one request
per line on its stdin (JSON: the cell runner's arguments, the environment, the folder and the
output files), forks, answers ``{"pid": …}`` and, once that example has ended,
``{"returncode": …}``.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import traceback
from pathlib import Path

# What an example that imports torch has imported by its first cell's end, in that order: the
# cell runner, matplotlib (the runner's, with the backend the examples get: MPLBACKEND) and
# torch, which imports NumPy; about 2.5 s of CPU. Not scikit-learn (some examples load its
# digits): importing it sets variables of the environment, which a fork could not undo.
PRELOAD = ("resdoc.sitegen.cellrun", "matplotlib.pyplot", "torch")
# The variables that differ from one example to the next; the server starts without them.
PER_EXAMPLE = ("RESDOC_OUTPUT_DIR", "RESDOC_EXAMPLE", "RESDOC_TIME_LIMIT")


def shared_environment(example_env: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in example_env.items() if name not in PER_EXAMPLE}


def imports_torch(script: Path, root: Path) -> bool:
    """Whether ``script``, or a ``resdoc`` module it imports (read, not run), imports torch:
    such an example would have imported all of PRELOAD itself. Another is not forked from
    the server, whose torch it would carry (its record of what it ran on would name torch)."""
    seen, todo = set(), [script]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            if any(name.split(".")[0] == "torch" for name in names):
                return True
            for name in names:
                if name.split(".")[0] == "resdoc":
                    module = root.joinpath(*name.split("."))
                    todo += [module.with_suffix(".py"), module / "__init__.py"]
    return False


class ForkServer:
    """One server process, started now; ``run`` runs an example in it and waits for it."""

    def __init__(self, env: dict[str, str], cwd: Path, preload: tuple[str, ...] = PRELOAD):
        self.env = shared_environment(env)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "resdoc.sitegen.forkserver", *preload],
            cwd=cwd,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.answers: queue.Queue = queue.Queue()  # the server's lines; None once it ended
        threading.Thread(target=self._read, daemon=True).start()
        self.ready: bool | None = None  # known once the server has imported PRELOAD

    def _read(self) -> None:
        for line in self.process.stdout:
            self.answers.put(json.loads(line))
        self.answers.put(None)

    def accepts(self, env: dict[str, str]) -> bool:
        """Whether an example with environment ``env`` starts here as it would in a process
        of its own: the server is up, and only the variables that name the example differ."""
        return self._ready() and shared_environment(env) == self.env

    def _ready(self) -> bool:
        if self.ready is None:  # waits for the imports, once
            answer = self.answers.get()
            self.ready = answer is not None and answer["ready"]
        return self.ready

    def run(self, args: list[str], env: dict, cwd: Path, out: Path, err: Path, timeout: float):
        """The cell runner with ``args``, forked from the server, its output written to
        ``out`` and ``err``: its exit code (negative: the signal that ended it), or None if it
        was still running after ``timeout`` seconds of wall-clock time (it is killed)."""
        if not self._ready():
            raise RuntimeError("resdoc's fork server did not start (see its messages above)")
        request = {"args": args, "env": env, "cwd": str(cwd), "out": str(out), "err": str(err)}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        pid = self._answer(None)["pid"]
        try:
            return self._answer(timeout)["returncode"]
        except queue.Empty:  # waiting for something instead of computing
            os.kill(pid, signal.SIGKILL)
            self._answer(None)
            return None

    def _answer(self, timeout: float | None) -> dict:
        answer = self.answers.get(timeout=timeout)
        if answer is None:
            raise RuntimeError(f"resdoc's fork server ended (exit code {self.process.wait()})")
        return answer

    def close(self) -> None:
        self.process.stdin.close()  # the server ends with its input
        self.process.wait()


def _become_the_example(request: dict, channel: int) -> None:
    """In the fork: the example's environment, folder and output files; the cell runner's
    exit code is the process's."""
    code = 1
    try:
        os.close(channel)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for fd, path in ((1, request["out"]), (2, request["err"])):
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
        from resdoc.sitegen import cellrun

        # as `python -m resdoc.sitegen.cellrun` would: the runner is the main module (the
        # server's is not among the sources the example read; multiprocessing, which torch
        # imports, has kept it as __mp_main__ too) with its arguments
        for alias in ("__main__", "__mp_main__"):
            if alias in sys.modules:
                sys.modules[alias] = cellrun
        sys.argv = [cellrun.__file__, *request["args"]]
        code = cellrun.main()
    except BaseException:  # noqa: BLE001 - shown as a process of its own would show it
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def serve(preload: list[str]) -> None:
    # the answers go to a copy of stdout; what the imports or a fork print goes to stderr
    channel = os.dup(1)
    os.dup2(2, 1)
    answers = os.fdopen(channel, "w", buffering=1)
    environment = dict(os.environ)
    for module in preload:
        importlib.import_module(module)
    # a fork keeps what the imports did; a change to the environment, it would keep wrongly
    answers.write(json.dumps({"ready": dict(os.environ) == environment}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _become_the_example(request, channel)
        answers.write(json.dumps({"pid": pid}) + "\n")
        _, status = os.waitpid(pid, 0)
        answers.write(json.dumps({"returncode": os.waitstatus_to_exitcode(status)}) + "\n")


if __name__ == "__main__":
    serve(sys.argv[1:])
