"""Serve a built site on 127.0.0.1 and drive Debian's Chromium with Playwright."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    # Keep-alive, as a real host serves: a page that loads its figures at once (tests/audit.py
    # makes them eager) then reuses Chromium's six connections instead of opening one per file
    protocol_version = "HTTP/1.1"
    timeout = 60  # an idle kept-alive connection's thread ends; Chromium opens a new one

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    # socketserver listens with a backlog of 5. A page's dozens of requests at once overflow
    # it while the busy machine of a CI run keeps this thread from accepting; the kernel then
    # drops handshakes, the browser waits through its retries, and, once they run out, a
    # figure fails to load (a CI run saw ch 7's after stalls of minutes).
    request_queue_size = 128


@contextmanager
def serve(folder: Path):
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


# A reader's device has a Chinese font; Debian's chromium on a bare machine (CI) has none and
# draws every Chinese character as an empty box. The test browser gets the Noto Sans SC that
# the build already installs for the figures (pylopdf-fonts-zh-cn) through a fontconfig file
# of its own, on top of the system's: no root, no apt. A FONTCONFIG_FILE already set wins (a
# run with a font-less one shows that tests/audit.py's tofu check fails without the font).
FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
</fontconfig>
"""


def browser_environment(folder: Path) -> dict[str, str]:
    """The environment Chromium starts in: the process's own, with a fontconfig file (written
    into ``folder``) that adds the build's Chinese font, unless one is already chosen."""
    environment = dict(os.environ)
    if "FONTCONFIG_FILE" not in environment:
        import pylopdf_fonts_zh_cn  # the build's Noto Sans SC (a test dependency too)

        fonts = Path(pylopdf_fonts_zh_cn.sans_path()).parent
        conf = folder / "fonts.conf"
        conf.write_text(FONTCONFIG.format(fonts=fonts, cache=folder / "cache"), "utf-8")
        environment["FONTCONFIG_FILE"] = str(conf)
    return environment


@contextmanager
def chromium():
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip(
            "Debian's chromium is not installed (apt-get install chromium; .ci/run does it)"
        )
    from playwright.sync_api import sync_playwright

    with (
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory(prefix="resdoc-fonts-") as fonts,
    ):
        browser = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_ARGS, env=browser_environment(Path(fonts))
        )
        try:
            yield browser
        finally:
            browser.close()


class PageWatch:
    """Everything a page did that a reader would suffer from: errors and requests."""

    def __init__(self, page, base: str):
        self.errors: list[str] = []
        self.outside: list[str] = []
        page.on(
            "console",
            lambda m: (
                self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None
            ),
        )
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("requestfailed", self._failed)
        page.on(
            "response",
            lambda r: self.errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None,
        )
        page.on(
            "request",
            lambda r: (
                None if r.url.startswith((base, "data:", "blob:")) else self.outside.append(r.url)
            ),
        )

    def _failed(self, request) -> None:
        # net::ERR_ABORTED: the page itself called the request off before it finished. The
        # audit saw it for a hidden variant of one figure (the dark one, on a light page), on
        # and off from run to run. What a screen shows is checked to have loaded (the audit's
        # FIGURES); a missing file is an HTTP error and a server that fails is another net::
        # error, both reported.
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"failed request ({request.failure}): {request.url}")
