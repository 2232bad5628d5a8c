"""How well the live preview keeps up: the warm build against the bare build, and the time
from saving a chapter to seeing the edit in `mkdocs serve`.

    python benchmarks/live_preview.py [--builds 5] [--edits 5] [--root DIR] [--page PAGE]

- warm build: `mkdocs build --strict` with every example cached (the project's cache,
  .cache/resdoc, or RESDOC_CACHE_DIR: build the site once first);
- bare build: the same mkdocs.yml with `hooks: []`, so none of resdoc's work runs (no
  examples, no figures, no example pages, no KaTeX, no search split, no markup patches):
  what MkDocs, Material, i18n and the search plugin cost on these pages by themselves. It is
  not strict: without the hooks the figures and example pages it links to do not exist;
- edit to visible: `mkdocs serve --livereload --dirty` (as `nox -s docs-live` runs it), warmed by
  one edit; then each edit appends a line with a new word to docs/chapters/01-shortcut.zh.md
  (--page) and the page is fetched every 50 ms until the word is on it. The page is restored.

--root runs it in another copy of the project (tests/sites.tiny_site makes a small one).

Warm and bare builds alternate, so a busy moment of the shared machine hits both; medians
and the median of the paired differences are printed. Targets (issue 22, part 5): warm <=
bare + 1 s, an edit visible within 2 s. Run it inside the docs environment (e.g.
`.nox/docs/bin/python benchmarks/live_preview.py`). Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "docs" / "chapters" / "01-shortcut.zh.md"
ENV = dict(os.environ, OMP_NUM_THREADS="1", NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))


def page_url(page: str) -> str:
    """The served address of a default-language page: chapters/01-shortcut.zh.md is at
    chapters/01-shortcut/, index.zh.md at the root."""
    name = page.split(".")[0]
    return "" if name == "index" else name.removesuffix("/index") + "/"


def timed_build(config: Path, site: Path, strict: bool) -> float:
    command = [sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(config)]
    started = time.perf_counter()
    subprocess.run(
        [*command, *(["--strict"] if strict else []), "-d", str(site)],
        cwd=ROOT,
        env=ENV,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def bare_config(folder: Path) -> Path:
    """mkdocs.yml without the hooks, beside it (MkDocs resolves docs_dir from its folder)."""
    text = (ROOT / "mkdocs.yml").read_text("utf-8")
    bare, found = re.subn(r"(?m)^hooks:\n(?:  - .*\n)+", "hooks: []\n", text)
    if found != 1:
        raise SystemExit("mkdocs.yml: no `hooks:` list to remove")
    path = ROOT / f".bare-{folder.name}.yml"
    path.write_text(bare, "utf-8")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def visible_after_edit(url: str, word: str, timeout: float = 60) -> float:
    """Append ``word`` to the chapter and wait until the served page shows it."""
    started = time.perf_counter()
    with open(CHAPTER, "a", encoding="utf-8") as chapter:
        chapter.write(f"\n{word}\n")
    while word not in fetch(url):
        if time.perf_counter() - started > timeout:
            raise SystemExit(f"{word} not visible after {timeout} s")
        time.sleep(0.05)
    return time.perf_counter() - started


def live_edits(edits: int) -> list[float]:
    port = free_port()
    original = CHAPTER.read_bytes()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "serve",
            "--livereload",
            "--dirty",
            "-a",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/{page_url(CHAPTER.relative_to(ROOT / 'docs').as_posix())}"
    try:
        deadline = time.perf_counter() + 600
        while not fetch(url):  # the first build
            if server.poll() is not None or time.perf_counter() > deadline:
                raise SystemExit("mkdocs serve did not come up")
            time.sleep(0.2)
        visible_after_edit(url, "rdwarmupedit")  # the first rebuild warms what serve keeps
        times = []
        for edit in range(edits):
            time.sleep(1)  # the previous rebuild's reload settles
            times.append(visible_after_edit(url, f"rdliveedit{edit}x{os.getpid()}"))
        return times
    finally:
        CHAPTER.write_bytes(original)
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=5, help="warm/bare build pairs")
    parser.add_argument("--edits", type=int, default=5, help="edits timed in mkdocs serve")
    parser.add_argument("--root", type=Path, help="the project to measure (this one)")
    parser.add_argument("--page", default="chapters/01-shortcut.zh.md", help="page to edit")
    args = parser.parse_args()
    global ROOT, CHAPTER
    ROOT = (args.root or ROOT).resolve()
    CHAPTER = ROOT / "docs" / args.page
    ENV["PYTHONPATH"] = str(ROOT)
    warm, bare = [], []
    with tempfile.TemporaryDirectory() as scratch:
        config = bare_config(Path(scratch))
        try:
            timed_build(ROOT / "mkdocs.yml", Path(scratch, "warm"), strict=True)  # fills caches
            for _ in range(args.builds):
                warm.append(timed_build(ROOT / "mkdocs.yml", Path(scratch, "warm"), strict=True))
                bare.append(timed_build(config, Path(scratch, "bare"), strict=False))
        finally:
            config.unlink()
    edits = live_edits(args.edits) if args.edits else []
    differences = [w - b for w, b in zip(warm, bare, strict=True)]

    def shown(times: list[float]) -> str:
        return f"median {statistics.median(times):5.2f} s over {len(times)} runs  " + str(
            [round(t, 2) for t in times]
        )

    print(f"warm build:          {shown(warm)}")
    print(f"bare build (no hooks): {shown(bare)}")
    print(f"warm - bare (paired): median {statistics.median(differences):5.2f} s  (target <= 1 s)")
    if edits:
        print(f"edit to visible:     {shown(edits)}  (target <= 2 s)")


if __name__ == "__main__":
    main()
