"""How fast the gradient-flow explorer answers a control, in headless Chromium.

    python benchmarks/explorer_speed.py [--depth 100] [--width 64] [--repeats 15]

Serves a standalone page (explorer.css, model.js, ui.js and one <div id="explorer">) on
127.0.0.1, sets depth and width, then times, inside the page, from dispatching a control's
``input`` event to the end of the redraw (forced layout included) -- the time a reader waits.
Four kinds of change:

- ``block``: another block type (the weights' random draws are cached and reused);
- ``depth``: one layer more or less, as the arrow keys on the slider do;
- ``seed``: a new seed, so every weight matrix is drawn afresh;
- ``block+table``: as ``block``, with the per-layer table open (it is redrawn too; a closed
  table is drawn only when it opens).

Prints per kind, in milliseconds: the median and the maximum of that time, the median of the
part spent in model.js (generating weights, forward and backward), and the median time until
the first animation frame after the change. Needs Debian's ``chromium`` and Playwright.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import CHROMIUM_ARGS, serve  # noqa: E402  (one browser set-up for tests and benchmarks)

FILES = (
    ROOT / "docs/assets/javascripts/explorer/model.js",
    ROOT / "docs/assets/javascripts/explorer/notes.js",
    ROOT / "docs/assets/javascripts/explorer/ui.js",
    ROOT / "docs/assets/stylesheets/explorer.css",
)
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<link rel="stylesheet" href="explorer.css"></head><body>
<div id="explorer" data-lang="en"></div><script src="model.js"></script><script src="notes.js"></script><script src="ui.js"></script>
</body></html>"""

# Runs in the page: change one control `repeats` times, timing each change.
MEASURE = """async ([kind, repeats, depth, width]) => {
    const root = document.getElementById("explorer");
    const toggle = root.querySelector(".rx-table-toggle");
    const wantTable = kind.endsWith("+table");
    if ((toggle.getAttribute("aria-expanded") === "true") !== wantTable) toggle.click();
    kind = kind.replace("+table", "");
    const control = (name) => root.querySelector(`[name="${name}"]`);
    const set = (name, value) => {
        const input = control(name);
        input.value = String(value);
        input.dispatchEvent(new Event("input", {bubbles: true}));
    };
    set("width", width);
    set("depth", depth);
    const blocks = [...control("block").options].map((o) => o.value);
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const sync = [], framed = [], compute = [];
    for (let i = 0; i < repeats; i++) {
        await frame();
        const start = performance.now();
        if (kind === "block") set("block", blocks[i % blocks.length]);
        else if (kind === "depth") set("depth", i % 2 ? depth : depth - 1);
        else root.querySelector("button.rx-button:not([data-preset]):not(.rx-table-toggle)").click();
        void root.offsetHeight;  // layout of the new chart and table
        sync.push(performance.now() - start);
        compute.push(Number(root.dataset.computeMs));
        await frame();
        framed.push(performance.now() - start);
    }
    return {sync, framed, compute, layers: root.resdocResult.activations.length,
            rows: root.querySelectorAll("table tbody tr").length};
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        raise SystemExit("needs Debian's `chromium` on PATH")
    with tempfile.TemporaryDirectory() as tmp, serve(Path(tmp)) as base:
        for source in FILES:
            shutil.copy(source, Path(tmp) / source.name)
        (Path(tmp) / "index.html").write_text(PAGE, "utf-8")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1000, "height": 900})
            page.goto(base)
            page.wait_for_selector("#explorer[data-ready='true']")
            print(f"depth {args.depth} x width {args.width}, batch 4, {args.repeats} changes each")
            print(
                f"{'change':<12} {'median ms':>10} {'max ms':>8} {'of which model.js':>18} "
                f"{'to next frame':>14}"
            )
            for kind in ("block", "depth", "seed", "block+table"):
                page.evaluate(MEASURE, [kind, 3, args.depth, args.width])  # warm the JIT up
                result = page.evaluate(MEASURE, [kind, args.repeats, args.depth, args.width])
                assert result["layers"] in (args.depth, args.depth + 1), result
                assert result["rows"] == (result["layers"] if "table" in kind else 0), result
                sync, framed = result["sync"], result["framed"]
                print(
                    f"{kind:<12} {statistics.median(sync):>10.1f} {max(sync):>8.1f} "
                    f"{statistics.median(result['compute']):>18.1f} "
                    f"{statistics.median(framed):>14.1f}"
                )
            browser.close()


if __name__ == "__main__":
    main()
