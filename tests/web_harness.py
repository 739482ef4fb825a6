"""Run the play app (``riven serve``) on 127.0.0.1 in a thread, for API and browser tests.

``with live_server() as url:`` starts uvicorn on a free port (the OS picks it, so tests run in
parallel under pytest-xdist) and stops it on exit (``live_app``: the app too). ``browser_page(url)`` opens the page in
Debian's headless Chromium through Playwright's Python API (``executable_path``: no
downloaded browser), cut off from every host but the app's.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

from browser import _FLAGS, require_chromium

# The flags of tests/browser.py, less --headless (Playwright's ``headless=True`` adds its own)
# and --host-resolver-rules (the page must reach 127.0.0.1).
CHROMIUM_ARGS = [
    flag
    for flag in _FLAGS
    if flag != "--headless" and not flag.startswith("--host-resolver-rules=")
]


@contextlib.contextmanager
def live_server(**app_options: Any) -> Iterator[str]:
    """Serve the app on 127.0.0.1 (a free port) in a daemon thread; yield its base URL."""
    with live_app(**app_options) as (url, _):
        yield url


@contextlib.contextmanager
def live_app(**app_options: Any) -> Iterator[tuple[str, Any]]:
    """:func:`live_server`, yielding ``(base URL, the app)``: a test can read the server's own
    sessions (``app.state.sessions``) to compare them with what the page shows."""
    import uvicorn

    from riven_env.web.app import create_app

    app = create_app(**app_options)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]  (not the main thread)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the play server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def browser_page(viewport: tuple[int, int] = (1400, 900)) -> Iterator[Any]:
    """A Playwright page in Debian's Chromium (fails in CI, skips elsewhere, without one)."""
    binary = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=binary, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            yield page
        finally:
            browser.close()
