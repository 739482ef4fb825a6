"""``riven campaign list | validate | play``: output, exit codes, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.campaign.loader import bundled_campaign_dir
from riven_env.cli.main import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["campaign", *args])


def one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    return lines[0]


def test_list_names_the_bundled_campaigns() -> None:
    result = invoke("list")
    assert result.exit_code == 0, result.output
    names = [line.split()[0] for line in result.output.splitlines()]
    assert names == ["barrow-delve", "derelict-run", "iron-road"]
    assert "solo_hero" in result.output


def test_validate_good_and_bad(tmp_path: Path) -> None:
    good = bundled_campaign_dir() / "derelict-run.toml"
    result = invoke("validate", str(good))
    assert result.exit_code == 0 and "valid" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text(
        good.read_text(encoding="utf-8").replace('generator = "field"', 'generator = "moon"')
    )
    result = invoke("validate", str(bad))
    assert result.exit_code == 2
    assert f"{bad}: chain[2].generator: bad value 'moon'" in result.output


def test_play_writes_the_log_and_the_same_seed_gives_the_same_log(tmp_path: Path) -> None:
    logs = []
    for name in ("a.jsonl", "b.jsonl"):
        log = tmp_path / name
        result = invoke("play", "barrow-delve", "--seed", "4", "--log", str(log), "--quiet")
        assert result.exit_code == 0, result.output
        assert result.output.startswith("barrow-delve: oracle (warband) vs oracle (threat)")
        assert f"log: {log}" in result.output
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]
    first = json.loads(logs[0].splitlines()[0])
    assert (first["type"], first["schema"], first["seed"]) == ("campaign_start", 1, 4)


def test_play_json_summary() -> None:
    result = invoke(
        "play", "barrow-delve", "--seed", "2", "--json", "--quiet", "--policy", "random"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["campaign"] == "barrow-delve" and summary["policy"] == "random"
    assert len(summary["per_step"]) == summary["steps_played"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("play", "nowhere"), "unknown campaign 'nowhere'"),
        (("play", "iron-road", "--policy", "greedy"), "unknown campaign policy 'greedy'"),
        (("play", "iron-road", "--blue", "wizard"), "unknown agent 'wizard'"),
        (("play", "iron-road", "--seed", "-3"), "--seed -3"),
        (("play", "iron-road", "--engine", "warp"), "engine 'warp'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], words: str) -> None:
    assert words in one_error_line(invoke(*args))


def test_a_bad_log_path_writes_nothing(tmp_path: Path) -> None:
    line = one_error_line(invoke("play", "iron-road", "--log", str(tmp_path / "no" / "x.jsonl")))
    assert "--log" in line and not (tmp_path / "no").exists()


def test_a_bad_campaign_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "c.toml"
    text = (bundled_campaign_dir() / "iron-road.toml").read_text(encoding="utf-8")
    bad.write_text(text.replace('name = "iron-road"', 'name = "iron-road"\nweather = "rain"'))
    line = one_error_line(invoke("play", str(bad)))
    assert f"{bad}: campaign.weather: unknown key 'weather'" in line
