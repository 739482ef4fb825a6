"""``benchmarks/native_log_check.py``: whole games on both engines, log for log, per system."""

from __future__ import annotations

import pytest
from benchmark_scripts import load_benchmark

from riven_env import native

pytestmark = pytest.mark.skipif(not native.available(), reason="native core not built")


def _script():
    return load_benchmark("native_log_check")


def test_every_system_plays_the_same_logs(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    assert script.main(["--seeds", "3", "--missions", "duel-1v1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == list(native.rules.NATIVE_SYSTEMS)
    for line in lines:
        assert " 3 games, " in line and " 0 mismatches " in line


def test_a_mismatch_is_named_and_fails(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    script = _script()
    played = script.log_lines

    def one_engine_off(mission, blue, red, seed, system, engine):
        lines = played(mission, blue, red, seed, system, engine)
        return lines[:5] + ["{}"] + lines[6:] if engine == "native" else lines

    monkeypatch.setattr(script, "log_lines", one_engine_off)
    assert script.main(["--seeds", "3", "--missions", "duel-1v1", "--systems", "riven"]) == 1
    out = capsys.readouterr().out
    assert "riven: 3 games" in out and "3 mismatches" in out
    assert "duel-1v1 oracle/oracle seed 3 at event 5" in out
