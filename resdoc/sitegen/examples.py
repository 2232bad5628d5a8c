"""Run every ``examples/*.py`` at most once per change, in parallel, with a cache that is never stale.

An example's cache key is the hash of

- its script,
- every ``resdoc`` source file it imported when it last ran (recorded by the cell runner),
- the environment: Python's version, the CPU kernels torch uses, and the versions of the
  project's pinned dependencies.

Edit a function in ``resdoc`` and exactly the examples that imported its module run again;
the build log says which input changed. Examples run side by side, one per core (or
``RESDOC_WORKERS``), each on one thread, longest first: by their last run time, or before a
first run by their time limit. Each is a process of its own; a worker with more than one to
run forks those that import torch from a server that has imported it (``forkserver.py``).
Each has a time limit of CPU time (600 s, or ``# resdoc: time-limit = N`` in the script), so
a runaway example fails the build naming the line it was running instead of hanging it,
however loaded the machine; one that waits without computing is stopped after three times
its limit of wall-clock time.
A failing example leaves no output behind, so nothing stale can be shown in its place.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from mkdocs.exceptions import PluginError
from packaging.requirements import Requirement

from resdoc.sitegen.forkserver import ForkServer, imports_torch

MANIFEST = "manifest.json"
RUN_LOG = "runs.log"  # one line per execution: what the tests and benchmarks count


class ExampleError(PluginError):
    """An example raised: the message names its file and line and carries the traceback."""


@dataclass
class Example:
    script: Path  # relative to the project root
    output: Path  # absolute cache folder holding notebook.ipynb, results.json, figures/

    @property
    def name(self) -> str:
        return self.script.stem

    def results(self) -> dict:
        path = self.output / "results.json"
        return json.loads(path.read_text("utf-8")) if path.exists() else {}

    def provenance(self) -> dict:
        """Python, torch and CPU-kernel versions of the run that made the results."""
        path = self.output / "modules.json"
        return json.loads(path.read_text("utf-8")).get("provenance", {}) if path.exists() else {}

    def figure_names(self) -> list[str]:
        """The figures it published: ``<name>.json`` beside each one's SVG variants."""
        return sorted(path.stem for path in (self.output / "figures").glob("*.json"))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@functools.cache  # looking a version up scans every installed package
def installed_versions(names: tuple[str, ...]) -> dict[str, str]:
    """The installed version of each package named ("missing" when it is not installed)."""
    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "missing"
    return versions


def cpu_kernels() -> str:
    """What decides the CPU kernels torch runs (and so the rounding of every trained number):
    a level forced with ATEN_CPU_CAPABILITY, or the vector instruction sets this CPU has."""
    forced = os.environ.get("ATEN_CPU_CAPABILITY", "")
    flags: set[str] = set()
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("flags"):
                flags = set(line.partition(":")[2].split())
                break
    present = [
        flag for flag in ("avx2", "avx512f", "avx512bw", "avx512vl", "avx512dq") if flag in flags
    ]
    return f"forced={forced} cpu={'+'.join(present)}"


def environment(root: Path) -> dict[str, str]:
    """What an example's numbers depend on besides the files it read: Python, the CPU kernels
    and the installed version of every dependency pinned in pyproject.toml."""
    project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]
    names = sorted(Requirement(spec).name for spec in project["dependencies"])
    return {"Python": sys.version, "CPU kernels": cpu_kernels(), **installed_versions(tuple(names))}


def _changes(recorded: dict, current: dict) -> list[str]:
    """Why an example runs again: what differs between its manifest and its inputs now."""
    if recorded.get("env") != current["env"]:
        if not isinstance(recorded.get("env"), dict):  # a manifest of an older format
            return ["the environment changed"]
        names = sorted(set(recorded["env"]) | set(current["env"]))
        changed = [n for n in names if recorded["env"].get(n) != current["env"].get(n)]
        return [f"{name} changed" for name in changed]
    files = sorted(set(recorded["files"]) | set(current["files"]))
    return [f"{f} changed" for f in files if recorded["files"].get(f) != current["files"].get(f)]


def default_workers() -> int:
    """RESDOC_WORKERS, or one example per core this process may use."""
    if os.environ.get("RESDOC_WORKERS"):
        return max(1, int(os.environ["RESDOC_WORKERS"]))
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


DEFAULT_TIME_LIMIT = 600  # s of CPU time; an example overrides it: `# resdoc: time-limit = N`
HANG_FACTOR = 3  # an example still running after this many times its limit in wall time is stuck
_TIME_LIMIT = re.compile(r"^# resdoc: time-limit = (\d+)\s*$", re.MULTILINE)


def time_limit(script: Path) -> int:
    """Seconds of CPU time ``script`` may use."""
    found = _TIME_LIMIT.search(script.read_text("utf-8"))
    return int(found[1]) if found else DEFAULT_TIME_LIMIT


def run_log(cache_dir: Path) -> list[tuple[str, float]]:
    """(name, seconds) of every example executed with this cache, one entry per run, oldest first."""
    log = cache_dir / RUN_LOG
    lines = log.read_text("utf-8").splitlines() if log.exists() else []
    return [(name, float(seconds)) for name, seconds in (line.split("\t") for line in lines)]


class ExampleRunner:
    def __init__(self, root: Path, cache_dir: Path, workers: int | None = None, report=None):
        self.root = root
        self.cache_dir = cache_dir
        self.workers = workers or default_workers()
        self.report = report or (lambda message: None)  # progress, one line per event
        self.env = environment(root)
        self._servers = threading.local()  # each worker's fork server, if it has one
        self._started: list[ForkServer] = []
        self._serve = False  # whether workers start fork servers (run_all decides)

    def discover(self) -> list[Example]:
        scripts = sorted((self.root / "examples").glob("*.py"))
        return [Example(s.relative_to(self.root), self.cache_dir / s.stem) for s in scripts]

    def _inputs(self, example: Example, sources: list[str], before: dict | None = None) -> dict:
        """The manifest of ``example`` reading ``sources``: the hash of each file, taken from
        ``before`` (hashes taken when the run started) where it has one."""
        hashes = {}
        for source in [example.script.as_posix(), *sources]:
            if before and source in before:
                hashes[source] = before[source]
                continue
            path = self.root / source
            hashes[source] = _sha(path.read_bytes()) if path.exists() else "missing"
        return {"env": self.env, "files": hashes}

    def _files_now(self, example: Example) -> dict[str, str]:
        """The hash of the script and of every file of the package, before a run: a file
        edited while the example runs must leave its outputs stale, not fresh."""
        paths = [self.root / example.script, *sorted((self.root / "resdoc").rglob("*.py"))]
        return {p.relative_to(self.root).as_posix(): _sha(p.read_bytes()) for p in paths}

    def why_stale(self, example: Example) -> list[str]:
        """Why ``example`` must run (empty when its outputs are up to date)."""
        manifest = example.output / MANIFEST
        if not manifest.exists():
            return ["it has not run yet"]
        recorded = json.loads(manifest.read_text("utf-8"))
        sources = [s for s in recorded["files"] if s != example.script.as_posix()]
        return _changes(recorded, self._inputs(example, sources))

    def _execute(self, example: Example) -> float:
        scratch = example.output.with_name(example.output.name + ".running")
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(example.output, ignore_errors=True)  # never keep a stale result
        scratch.mkdir(parents=True)
        env = dict(os.environ)
        env.update(
            RESDOC_OUTPUT_DIR=str(scratch),
            RESDOC_EXAMPLE=example.name,
            OMP_NUM_THREADS="1",  # one core per example: examples run side by side
            MKL_NUM_THREADS="1",
            PYTHONPATH=os.pathsep.join([str(self.root), env.get("PYTHONPATH", "")]),
            MPLBACKEND="Agg",
            PYTHONHASHSEED="0",
        )
        before = self._files_now(example)
        limit = time_limit(self.root / example.script)
        env["RESDOC_TIME_LIMIT"] = str(limit)  # the example stops itself (resdoc.sitegen.cellrun)
        started = time.perf_counter()
        proc = self._launch([example.script.as_posix(), str(scratch)], env, HANG_FACTOR * limit)
        if proc is None:
            shutil.rmtree(scratch, ignore_errors=True)
            raise ExampleError(
                f"Example failed: {example.script} ran for {HANG_FACTOR * limit} s of wall-clock "
                f"time, {HANG_FACTOR} times its time limit of {limit} s of CPU time, and was "
                "stopped: it is waiting for something instead of computing"
            )
        seconds = time.perf_counter() - started
        if proc.returncode != 0:
            shutil.rmtree(scratch, ignore_errors=True)
            detail = proc.stderr.strip() or proc.stdout.strip() or f"exit code {proc.returncode}"
            if proc.returncode == -signal.SIGKILL and not detail.startswith(str(example.script)):
                detail = (
                    f"{example.script} was killed (past its time limit of {limit} s of CPU time?)"
                )
            raise ExampleError(f"Example failed: {detail}")
        sources = json.loads((scratch / "modules.json").read_text("utf-8"))["sources"]
        (scratch / MANIFEST).write_text(
            json.dumps(self._inputs(example, sources, before), indent=1), "utf-8"
        )
        scratch.rename(example.output)
        with open(self.cache_dir / RUN_LOG, "a", encoding="utf-8") as log:
            log.write(f"{example.name}\t{seconds:.3f}\n")
        return seconds

    def _launch(self, args: list[str], env: dict, timeout: float):
        """The cell runner with ``args`` in a process of its own: forked from this worker's
        fork server if it has one that accepts ``env``, else started afresh. Its completed
        process, or None if it was still running after ``timeout`` s (it is killed)."""
        server = getattr(self._servers, "server", None)
        if server is None and self._serve:
            server = self._servers.server = ForkServer(env, self.root)
            self._started.append(server)
        forked = imports_torch(self.root / args[0], self.root)
        if server is None or not forked or not server.accepts(env):
            command = [sys.executable, "-m", "resdoc.sitegen.cellrun", *args]
            try:
                return subprocess.run(
                    command, cwd=self.root, env=env, capture_output=True, text=True, timeout=timeout
                )
            except subprocess.TimeoutExpired:
                return None
        out, err = (Path(f"{args[1]}.{name}") for name in ("stdout", "stderr"))
        try:
            code = server.run(args, env, self.root, out, err, timeout)
            if code is None:
                return None
            printed = (path.read_text(errors="replace") for path in (out, err))
            return subprocess.CompletedProcess(args, code, *printed)
        finally:
            out.unlink(missing_ok=True)
            err.unlink(missing_ok=True)

    def run_all(self) -> tuple[list[Example], list[Example]]:
        """Bring every example up to date; return (all examples, those that were executed)."""
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        examples = self.discover()
        reasons = {e.name: self.why_stale(e) for e in examples}
        # longest first (by the last run, or before a first run by the time limit), so that no
        # long example starts last and runs alone while the other cores idle
        expected = dict(run_log(self.cache_dir))  # each example's last run
        stale = sorted(
            (e for e in examples if reasons[e.name]),
            key=lambda e: -expected.get(e.name, time_limit(self.root / e.script)),
        )
        if stale:
            self.report(
                f"running {len(stale)} of {len(examples)} examples on {self.workers} worker(s)"
            )
        for example in stale:
            self.report(f"{example.script}: runs because {', '.join(reasons[example.name])}")
        errors = []
        done = 0
        # a fork server per worker (forkserver.py) costs one start-up of torch & co. and saves
        # one per example after the first: worth it once a worker runs more than one
        self._servers, self._serve = threading.local(), len(stale) > self.workers
        try:
            with ThreadPoolExecutor(max_workers=self.workers) as pool:
                futures = {pool.submit(self._execute, e): e for e in stale}
                for future in as_completed(futures):
                    done += 1
                    example = futures[future]
                    try:
                        seconds = future.result()
                    except ExampleError as error:
                        self.report(f"[{done}/{len(stale)}] {example.script} failed")
                        errors.append(str(error))
                    else:
                        self.report(f"[{done}/{len(stale)}] {example.script} {seconds:.1f} s")
        finally:
            while self._started:
                self._started.pop().close()
        if errors:
            raise ExampleError("\n\n".join(errors))
        return examples, stale
