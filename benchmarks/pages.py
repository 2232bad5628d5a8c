"""What a reader's first visit to each page costs, in Chromium, on a built site.

    python benchmarks/pages.py SITE [SITE ...] [--runs 3] [--only chapters/03]
    python benchmarks/pages.py SITE --serve 8123   # serve it compressed, e.g. for Lighthouse
    python benchmarks/pages.py SITE --lighthouse [--runs 3] [--only chapters/]

Serves each built site (``mkdocs build -d SITE``) on 127.0.0.1 gzip-compressed, as GitHub
Pages serves text (HTML, CSS, JavaScript, JSON, SVG), and opens every page of both languages
(every ``index.html``) in a fresh browser context with a phone's screen (412x823, as
Lighthouse's mobile preset), so nothing is cached. Per page, the median over the runs of:

- ``KB``: bytes transferred until the network is idle (compressed; the search index, fonts
  and images the page asks for included), from Chromium's own count (``encodedDataLength``);
- ``req``: requests made;
- ``CLS``: the layout shifts of the load, summed (at least the CLS a browser reports);
- ``TeX``: raw TeX left visible with JavaScript off (``\\(``, ``\\[``, ``$…$``, ``\\frac``…,
  outside code), counted once, as it does not vary.

Then the targets: a chapter page at most 250 KB, CLS at most 0.02 on every page, no raw TeX.
Needs Debian's ``chromium`` and Playwright (the ``test`` dependency group).

``--lighthouse`` scores every chapter page (or the ``--only`` ones) instead, with Lighthouse's
mobile preset (simulated slow 4G and a 4x slower CPU), the site served as above: per page the
median over the runs of the performance score, LCP, TBT and the DOM's size, and the target,
a median score of at least 95 on every chapter page. Lighthouse is the project's npm dev
dependency (``npm ci`` installs it; the build's sessions leave it out) and drives the same
Debian chromium. Run it on an idle machine: TBT follows the CPU the page gets.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import CHROMIUM_ARGS, browser_environment  # noqa: E402  (one browser set-up)

COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map")
PHONE = {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75}
TARGET_CHAPTER_KB, TARGET_CLS = 250, 0.02
TARGET_LIGHTHOUSE = 95
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"

CLS_OBSERVER = """
window.__cls = 0;
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
}).observe({type: "layout-shift", buffered: true});
"""
# The page's reading text with code removed (Playwright's evaluate runs with page JS off too)
VISIBLE_TEXT = """() => { const c = document.querySelector('.md-content').cloneNode(true);
    c.querySelectorAll('pre, code, script, style, .katex, .clipboard-copy-txt')
        .forEach(e => e.remove());  // the copy button's hidden copy of a cell is code too
    return c.textContent; }"""
RAW_TEX = re.compile(r"\$\$|\\\(|\\\[|\\frac|\\mathcal|\\partial|(?<![\w$])\$[^$\s][^$]*\$")


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, text gzip-compressed when the browser accepts it (as GitHub Pages)."""

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to the address with a slash
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return BytesIO(body)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a browser that closes a connection early is not the site's error


@contextmanager
def serve_gzip(folder: Path):
    handler = functools.partial(_GzipHandler, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def pages(site: Path) -> list[str]:
    found = [p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")]
    return sorted("" if url == "." else f"{url}/" for url in found)


def first_visit(browser, url: str) -> tuple[int, int, float]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    transferred = []
    cdp.on("Network.loadingFinished", lambda event: transferred.append(event["encodedDataLength"]))
    page.add_init_script(CLS_OBSERVER)
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(300)  # late shifts (fonts swapping in) still count
    cls = page.evaluate("() => window.__cls")
    context.close()
    return sum(transferred), len(transferred), cls


def raw_tex(browser, url: str) -> int:
    context = browser.new_context(java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.goto(url, wait_until="load")
    count = len(RAW_TEX.findall(page.evaluate(VISIBLE_TEXT) or ""))
    context.close()
    return count


def measure(browser, site: Path, runs: int, only: str | None) -> dict[str, tuple]:
    results = {}
    with serve_gzip(site) as base:
        for url in pages(site):
            if only and only not in url:
                continue
            visits = [first_visit(browser, base + url) for _ in range(runs)]
            kb = statistics.median(v[0] for v in visits) / 1000
            requests = statistics.median(v[1] for v in visits)
            cls = statistics.median(v[2] for v in visits)
            results[url] = (kb, requests, cls, raw_tex(browser, base + url))
            print(f"  {url or '/':<36} {kb:8.1f} {requests:5.0f} {cls:7.3f} {results[url][3]:5d}")
    return results


def redirect(folder: Path) -> bool:
    """An old address's page, which only sends the reader on (resdoc/sitegen/redirects.py)."""
    return 'http-equiv="refresh"' in (folder / "index.html").read_text("utf-8")[:2000]


def lighthouse(url: str, environment: dict) -> tuple[float, float, float, int]:
    """One Lighthouse run (mobile preset, performance only): score, LCP ms, TBT ms, DOM size."""
    if not LIGHTHOUSE.is_file():
        sys.exit(f"{LIGHTHOUSE} is missing: run `npm ci` in {ROOT} (it installs dev dependencies)")
    flags = " ".join(CHROMIUM_ARGS)
    run = subprocess.run(
        [shutil.which("node"), str(LIGHTHOUSE), url, "--only-categories=performance",
         "--output=json", "--output-path=stdout", "--quiet", f"--chrome-flags={flags}"],
        capture_output=True, text=True, env={**environment, "CHROME_PATH": shutil.which("chromium")},
    )  # fmt: skip
    if run.returncode:
        sys.exit(f"lighthouse {url} failed:\n{run.stderr[-2000:]}")
    report = json.loads(run.stdout)
    audits = report["audits"]
    return (
        report["categories"]["performance"]["score"] * 100,
        audits["largest-contentful-paint"]["numericValue"],
        audits["total-blocking-time"]["numericValue"],
        int(audits["dom-size-insight"]["details"]["debugData"]["totalElements"])
        if "dom-size-insight" in audits and audits["dom-size-insight"].get("details")
        else 0,
    )


def scores(site: Path, runs: int, only: str | None) -> dict[str, tuple]:
    results = {}
    print(
        f"  {'page':<36} {'score':>5} {'LCP ms':>7} {'TBT ms':>7} {'DOM':>6}   (each run's score)"
    )
    with serve_gzip(site) as base, tempfile.TemporaryDirectory() as fonts:
        environment = browser_environment(Path(fonts))  # a Chinese font, as a reader's phone
        for url in pages(site):
            if not (only in url if only else "chapters/" in url) or redirect(site / url):
                continue
            visits = [lighthouse(base + url, environment) for _ in range(runs)]
            median = [statistics.median(v[i] for v in visits) for i in range(4)]
            results[url] = median
            print(
                f"  {url:<36} {median[0]:5.0f} {median[1]:7.0f} {median[2]:7.0f} {median[3]:6.0f}"
                f"   ({' / '.join(f'{v[0]:.0f}' for v in visits)})",
                flush=True,
            )
    worst = min((r[0], url) for url, r in results.items())
    met = "met" if worst[0] >= TARGET_LIGHTHOUSE else "NOT met"
    print(
        f"  lowest median score: {worst[0]:.0f} ({worst[1]})  (target >= {TARGET_LIGHTHOUSE}: {met})"
    )
    return results


def summary(results: dict[str, tuple]) -> None:
    chapters = [r[0] for url, r in results.items() if "chapters/" in url]
    worst_cls = max((r[2], url) for url, r in results.items())
    tex = sum(r[3] for r in results.values())
    print(
        f"  pages: {len(results)}; median of all pages: {statistics.median(r[0] for r in results.values()):.1f} KB"
    )
    if chapters:
        print(
            f"  chapter pages: median {statistics.median(chapters):.1f} KB, max {max(chapters):.1f} KB"
            f"  (target <= {TARGET_CHAPTER_KB}: {'met' if max(chapters) <= TARGET_CHAPTER_KB else 'NOT met'})"
        )
    print(
        f"  CLS: max {worst_cls[0]:.3f} ({worst_cls[1] or '/'})"
        f"  (target <= {TARGET_CLS}: {'met' if worst_cls[0] <= TARGET_CLS else 'NOT met'})"
    )
    print(f"  raw TeX with JavaScript off: {tex}  (target 0: {'met' if tex == 0 else 'NOT met'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", type=Path, help="built site folders")
    parser.add_argument("--runs", type=int, default=3, help="first visits per page")
    parser.add_argument("--only", help="only pages whose address contains this")
    parser.add_argument("--serve", type=int, metavar="PORT", help="only serve the first site")
    parser.add_argument("--lighthouse", action="store_true", help="Lighthouse scores instead")
    args = parser.parse_args()
    if args.lighthouse:
        for site in args.sites:
            print(f"{site} (Lighthouse mobile, medians of {args.runs} runs, gzip)")
            scores(site, args.runs, args.only)
        return
    if args.serve:
        handler = functools.partial(_GzipHandler, directory=str(args.sites[0]))
        server = _Server(("127.0.0.1", args.serve), handler)
        print(f"http://127.0.0.1:{args.serve}/ (gzip); Ctrl-C stops", flush=True)
        server.serve_forever()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS
        )
        for site in args.sites:
            print(f"{site} (medians of {args.runs} first visits, phone screen, gzip)")
            print(f"  {'page':<36} {'KB':>8} {'req':>5} {'CLS':>7} {'TeX':>5}")
            summary(measure(browser, site, args.runs, args.only))
        browser.close()


if __name__ == "__main__":
    main()
