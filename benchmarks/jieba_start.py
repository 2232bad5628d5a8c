"""How long jieba takes to start: its own way, and from the build's pickle.

    python benchmarks/jieba_start.py [--repeats 7]

Each start runs in a fresh process, as a build does, and times only the dictionary load:

- ``jieba``: ``jieba.initialize()``, which reads jieba's own cache (a ``marshal`` file in
  the temp folder, made by the first start);
- ``pickle``: ``resdoc.sitegen.segmenter.start``, which reads the build's pickle of the same
  prefix dictionary (made by the first start into a scratch folder).

Prints the median and range of each in seconds, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile

STARTS = {
    "jieba": "jieba.initialize()",
    "pickle": "segmenter.start(jieba.dt, Path(sys.argv[1]))",
}
TIMED = """
import sys, time
from pathlib import Path
import jieba
from resdoc.sitegen import segmenter
jieba.setLogLevel(60)
started = time.perf_counter()
{start}
assert jieba.dt.initialized
print(time.perf_counter() - started)
"""


def seconds(start: str, cache: str) -> float:
    code = TIMED.format(start=start)
    out = subprocess.run([sys.executable, "-c", code, cache], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        for start in STARTS.values():
            seconds(start, cache)  # the first start of each makes its cache file
        times = {name: [] for name in STARTS}
        for _ in range(args.repeats):  # interleaved: both see the same machine load
            for name, start in STARTS.items():
                times[name].append(seconds(start, cache))
    for name, runs in times.items():
        print(
            f"{name:6s} median {statistics.median(runs):.3f} s  range {min(runs):.3f}-{max(runs):.3f} s"
        )
    ratio = statistics.median(times["jieba"]) / statistics.median(times["pickle"])
    print(f"jieba / pickle: {ratio:.1f}x")


if __name__ == "__main__":
    main()
