"""Cold and warm build times of the site, and the examples' own compute time.

    python benchmarks/build_times.py [--cold 3] [--warm 5]

- cold: an empty example cache, so every example runs;
- warm: nothing changed since the previous build, so none runs;
- compute: the sum of the examples' run times as the build logged them (runs.log).

Prints medians and ratios (the machine is shared and noisy). Run it inside the docs
environment (e.g. `.nox/docs/bin/python benchmarks/build_times.py`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from resdoc.sitegen.examples import run_log  # noqa: E402  (the build's own reader of runs.log)


def build(cache: Path, site: Path) -> float:
    env = dict(
        os.environ, OMP_NUM_THREADS="1", NO_MKDOCS_2_WARNING="1", RESDOC_CACHE_DIR=str(cache)
    )
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site)],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return time.perf_counter() - started


def compute_seconds(cache: Path) -> float:
    return sum(seconds for _, seconds in run_log(cache / "examples"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", type=int, default=3, help="cold builds to time")
    parser.add_argument("--warm", type=int, default=5, help="warm builds to time")
    args = parser.parse_args()
    cold, warm, compute = [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        for run in range(args.cold):
            cache, site = Path(scratch, f"cache{run}"), Path(scratch, f"site{run}")
            cold.append(build(cache, site))
            compute.append(compute_seconds(cache))
        for _ in range(args.warm):
            warm.append(build(cache, site))
    examples = len(list((ROOT / "examples").glob("*.py")))
    cold_m, warm_m, compute_m = map(statistics.median, (cold, warm, compute))
    print(f"examples: {examples}")
    print(
        f"cold build:        median {cold_m:6.1f} s  over {len(cold)} runs  {[round(t, 1) for t in cold]}"
    )
    print(
        f"warm build:        median {warm_m:6.1f} s  over {len(warm)} runs  {[round(t, 1) for t in warm]}"
    )
    print(f"examples' compute: median {compute_m:6.1f} s  (sum of per-example run times)")
    print(f"cold - compute:    {cold_m - compute_m:6.1f} s   (target <= 15 s)")
    print(f"cold / warm:       {cold_m / warm_m:6.1f} x")


if __name__ == "__main__":
    main()
