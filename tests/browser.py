"""Drive Debian's headless Chromium from tests, with no network and no extra Python packages.

Pages under test (replays, HTML reports) write what a test needs to check into the DOM, for
example a ``<pre id="state">`` holding JSON; :func:`dump_dom` loads the page from a file URL,
lets its timers run for a virtual time budget and returns the serialised DOM.

Typical use::

    from browser import dump_dom, read_json_element, require_chromium

    def test_page(tmp_path):
        require_chromium()
        dom = dump_dom(tmp_path / "page.html", query="step=5")
        state = read_json_element(dom, "state")
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "CHROMIUM_ENV",
    "REQUIRE_ENV",
    "dump_dom",
    "elements",
    "find_chromium",
    "read_json_element",
    "require_chromium",
]

CHROMIUM_ENV = "RIVEN_CHROMIUM"
"""Environment variable that names the Chromium binary to use, overriding the search."""

_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
_DEBIAN_PATH = "/usr/bin/chromium"

# Headless, sandbox-free (containers run as root), and cut off from the network: the host
# resolver maps every name to nothing, so a page that tried to fetch anything would fail,
# and no background service (updates, sync, field trials) reaches out.
_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--host-resolver-rules=MAP * ~NOTFOUND",
)


def find_chromium() -> str | None:
    """Return the path of a Chromium (or Chrome) binary, or ``None`` when there is none.

    ``$RIVEN_CHROMIUM`` wins when set; then the usual names on ``PATH``; then Debian's path.
    """
    override = os.environ.get(CHROMIUM_ENV)
    if override:
        return shutil.which(override)
    for name in _CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return _DEBIAN_PATH if os.access(_DEBIAN_PATH, os.X_OK) else None


REQUIRE_ENV = "RIVEN_REQUIRE_CHROMIUM"
"""Set (to anything but ``0``) where the browser tests must run: CI sets it, so a missing
Chromium fails the run instead of skipping what the README says is tested."""


def require_chromium() -> str:
    """Return the Chromium binary; without one, skip the calling test, or fail it where
    ``$RIVEN_REQUIRE_CHROMIUM`` is set (CI)."""
    binary = find_chromium()
    if binary is None:
        override = os.environ.get(CHROMIUM_ENV)
        reason = (
            f"${CHROMIUM_ENV}={override!r} is not an executable Chromium"
            if override
            else "no Chromium binary found (install Debian's chromium, or set "
            f"${CHROMIUM_ENV} to a Chromium/Chrome binary)"
        )
        if os.environ.get(REQUIRE_ENV, "0") != "0":
            pytest.fail(f"{reason}; ${REQUIRE_ENV} is set, so the browser tests must run")
        pytest.skip(reason)
    return binary


def dump_dom(
    html_path: str | Path,
    query: str = "",
    *,
    virtual_time_budget_ms: int = 5000,
    timeout_s: float = 90.0,
) -> str:
    """Open a local HTML file in headless Chromium and return the DOM after its scripts ran.

    Args:
        html_path: The page to open (a local file).
        query: URL query string without the leading ``?`` (e.g. ``"step=5"``), for pages that
            read their test instructions from ``location.search``.
        virtual_time_budget_ms: Virtual time given to the page's timers before the dump; virtual
            time runs as fast as the page allows, so a large budget costs little wall time.
        timeout_s: Wall-clock limit for the browser process.

    Returns:
        The serialised DOM (``document.documentElement.outerHTML`` with a doctype).

    Raises:
        FileNotFoundError: ``html_path`` does not exist.
        RuntimeError: No Chromium binary, the browser failed, or it ran past ``timeout_s``.
    """
    page = Path(html_path).resolve()
    if not page.is_file():
        raise FileNotFoundError(f"no page to open at {page}")
    binary = find_chromium()
    if binary is None:
        raise RuntimeError(f"no Chromium binary found; set ${CHROMIUM_ENV} or install chromium")
    url = page.as_uri() + (f"?{query.lstrip('?')}" if query else "")
    with tempfile.TemporaryDirectory(prefix="riven-chromium-") as profile:
        command = [
            binary,
            *_FLAGS,
            f"--user-data-dir={profile}",
            f"--virtual-time-budget={virtual_time_budget_ms}",
            "--dump-dom",
            url,
        ]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout_s, check=False
            )
        except subprocess.TimeoutExpired as exc:
            raise RuntimeError(f"Chromium ran past {timeout_s}s on {url}") from exc
    if done.returncode != 0 or not done.stdout.strip():
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"Chromium failed on {url} (exit {done.returncode}):\n{tail}")
    return done.stdout


class _ElementCollector(HTMLParser):
    """Collects attributes of every element of one tag, and the text of one element by id."""

    def __init__(self, tag: str | None = None, element_id: str | None = None):
        super().__init__(convert_charrefs=True)
        self.tag = tag
        self.element_id = element_id
        self.found: list[dict[str, str]] = []
        self.text: list[str] | None = None
        self._depth = 0  # nesting depth inside the element with element_id

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if self.tag is not None and tag == self.tag:
            self.found.append(values)
        if self._depth:
            self._depth += 1
        elif self.element_id is not None and values.get("id") == self.element_id:
            self.text = []
            self._depth = 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.tag is not None and tag == self.tag:
            self.found.append({key: value or "" for key, value in attrs})

    def handle_endtag(self, tag: str) -> None:
        if self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth and self.text is not None:
            self.text.append(data)


def elements(dom: str, tag: str) -> list[dict[str, str]]:
    """Return the attributes of every ``<tag>`` element in ``dom``, in document order."""
    collector = _ElementCollector(tag=tag)
    collector.feed(dom)
    collector.close()
    return collector.found


def read_json_element(dom: str, element_id: str) -> Any:
    """Parse the JSON text of the element with ``id=element_id`` (e.g. ``<pre id="state">``).

    Raises:
        AssertionError: The element is missing or empty, or its text is not JSON; the message
            shows the start of the text so that a failing test says what the page wrote.
    """
    collector = _ElementCollector(element_id=element_id)
    collector.feed(dom)
    collector.close()
    if collector.text is None:
        raise AssertionError(f'the page has no element with id="{element_id}"')
    text = "".join(collector.text).strip()
    if not text:
        raise AssertionError(f'element id="{element_id}" is empty: did the page script run?')
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssertionError(f'element id="{element_id}" is not JSON: {text[:200]!r}') from exc
