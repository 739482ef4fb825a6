"""The browser tests' helper: where Chromium is required (CI), a missing one fails the test."""

from __future__ import annotations

import pytest
from browser import CHROMIUM_ENV, REQUIRE_ENV, require_chromium


def test_a_missing_chromium_skips_where_it_is_not_required(monkeypatch) -> None:
    monkeypatch.setenv(CHROMIUM_ENV, "no-such-chromium-binary")
    monkeypatch.setenv(REQUIRE_ENV, "0")
    with pytest.raises(pytest.skip.Exception, match="not an executable Chromium"):
        require_chromium()


def test_a_missing_chromium_fails_where_it_is_required(monkeypatch) -> None:
    monkeypatch.setenv(CHROMIUM_ENV, "no-such-chromium-binary")
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="RIVEN_REQUIRE_CHROMIUM is set"):
        require_chromium()
