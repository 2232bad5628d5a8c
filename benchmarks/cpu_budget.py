"""Where the test command's CPU goes: every process's CPU time through a whole `pytest` run,
summed by what started it.

    python benchmarks/cpu_budget.py [pytest arguments]

Each second it reads every process's user + system time from /proc (Linux only); at the
end each process counts, with the last time seen (so up to a second of a process's life may
be missed), towards the first of its ancestors that names a component: the examples (each
runs as ``<name>.running``), the browser audit (``tests.audit``), the clean venv made for the
downloads (``tests.outside``), a build's own MkDocs process, and pytest's process with its
browsers. The test run is CPU-bound on two cores (both busy from the first example to the
last browser test), so its wall time is about its CPU time over two: this says where a
saving would come from. Run it inside the test environment (``.nox/tests/bin/python``), on
an idle machine. Not a test: CPU times depend on the machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")

# What a command line contains, and the component it names. A process counts towards the
# first component that it or any of its ancestors names: an example started by a build that
# pytest started is an example, a browser the audit started is the audit's.
COMPONENTS = (
    (".running", "examples"),
    ("tests.audit", "browser audit"),
    ("tests.outside", "clean venv for the downloads"),
    ("mkdocs build", "MkDocs builds (their own process)"),
    ("chromium", "pytest's browsers"),
    ("pytest", "pytest's process"),
)


def snapshot() -> dict[int, tuple[float, int, str]]:
    """Each live process's (CPU seconds so far, parent, command line)."""
    seen = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) "
        seen[int(entry)] = ((int(fields[11]) + int(fields[12])) / TICK, int(fields[1]), command)
    return seen


def component(chain: list[str]) -> str:
    """The component of a process, from its command line and its ancestors' (``chain``)."""
    for mark, name in COMPONENTS:
        if any(mark in command for command in chain):
            return name
    return "other"


def main(arguments: list[str]) -> None:
    processes: dict[int, tuple[float, int, str]] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for pid, (cpu, parent, command) in snapshot().items():
                # a pid reused by another process keeps the first one's record: the newcomer's
                # time is lost, as is the last second of every process's
                old = processes.get(pid)
                if old is None or old[2] == command:
                    processes[pid] = (cpu, parent, command)
            done.wait(1.0)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", *arguments], cwd=ROOT)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()

    mine = os.getpid()
    budget = Counter()
    for pid, (cpu, _, _) in processes.items():
        ancestor, chain = pid, []
        while ancestor in processes and ancestor != mine and len(chain) < 50:
            chain.append(processes[ancestor][2])
            ancestor = processes[ancestor][1]
        if ancestor == mine:  # started by this run, not another program on the machine
            budget[component(chain)] += cpu
    total = sum(budget.values())
    print(f"\npytest exited {run.returncode} after {wall:.0f} s wall; {total:.0f} CPU-s in all:")
    for name, cpu in budget.most_common():
        print(f"  {name:36s} {cpu:7.0f} CPU-s  {100 * cpu / total:4.0f} %")
    print(f"  (CPU / 2 cores = {total / 2:.0f} s; the test command's budget is 360 s)")


if __name__ == "__main__":
    main(sys.argv[1:])
