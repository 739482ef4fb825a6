"""Issue 39, "the first hour": missing output folders are refused, every game command says
where its results went, bad input exits 2 with one problem per line, a flag where a value
belongs is named as such, and results read as text, not as Python."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.cli.common import check_output
from riven_env.cli.main import app
from riven_env.errors import OutputPathError
from riven_env.scenario import list_bundled

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["--scenario", "duel-1v1", "--workers", "1", "--quiet"]
PLAYTEST = ["playtest", *QUICK, "--blue", "random", "--red", "random", "--games", "2"]


def riven(*args: str, cwd: Path):
    os.chdir(cwd)
    try:
        return CliRunner().invoke(app, list(args))
    finally:
        os.chdir(ROOT)


# Item 7: a folder that does not exist is refused, never created (even at the root).
@pytest.mark.parametrize(
    ("args", "option"),
    [
        ([*PLAYTEST, "--report", "nope/r.html"], "--report"),
        ([*PLAYTEST, "--db", "nope/p.duckdb"], "--db"),
        ([*PLAYTEST, "--db", "/riven-no-such-folder/p.duckdb"], "--db"),
        (["play", "--scenario", "duel-1v1", "--quiet", "--log", "nope/g.jsonl"], "--log"),
        (["play", "--scenario", "duel-1v1", "--quiet", "--replay", "nope/deep/g.html"], "--replay"),
    ],
)
def test_a_missing_output_folder_is_refused(tmp_path: Path, args, option) -> None:
    result = riven(*args, cwd=tmp_path)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {option} ") and "does not exist" in line
    assert list(tmp_path.iterdir()) == []  # nothing made, no runs/ either
    assert not Path("/riven-no-such-folder").exists()


def test_only_the_default_and_runs_folders_are_made(tmp_path: Path) -> None:
    os.chdir(tmp_path)
    try:
        check_output("runs/playtests.duckdb", "--db", default="runs/playtests.duckdb")
        check_output("runs/duel", "--out", kind="folder")
        check_output("r.html", "--report")
        with pytest.raises(OutputPathError, match="folder runs/x does not exist"):
            check_output("runs/x/r.html", "--report")
        with pytest.raises(OutputPathError, match="--out a/b: folder a does not exist"):
            check_output("a/b", "--out", kind="folder")
    finally:
        os.chdir(ROOT)


# Item 8: every game command ends by saying where its results went (a key with --json).
def test_game_commands_say_where_results_went(tmp_path: Path) -> None:
    result = riven(*PLAYTEST, cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == "results: runs/playtests.duckdb (2 games)"
    assert (tmp_path / "runs" / "playtests.duckdb").is_file()
    result = riven(*PLAYTEST, "--json", "--db", "p.duckdb", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    # stdout is the JSON object alone, stderr stays empty: the object says it
    assert json.loads(result.stdout)["results"] == {"db": "p.duckdb", "games": 2}
    assert result.stderr == ""
    result = riven("compare", *QUICK, "--blue", "random", "--red", "random", "--games", "2",
                   "--variant", "turnover=sbh", "--db", "p.duckdb", cwd=tmp_path)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == "results: p.duckdb (4 games)"


def _bad_mission(folder: Path) -> Path:
    good = next(i.path for i in list_bundled() if i.name == "ruins")
    text = good.read_text(encoding="utf-8").replace('setting = "fantasy"', 'setting = "x"')
    bad = folder / "bad.toml"
    bad.write_text(text.replace('type = "ruin"', 'type = "lava"', 1), encoding="utf-8")
    return bad


# Item 10: bad input exits 2 everywhere; several problems, one per line everywhere.
@pytest.mark.parametrize(
    "args",
    [
        ["scenarios", "validate", "bad.toml"],
        ["scenarios", "show", "bad.toml"],
        ["play", "--scenario", "bad.toml", "--quiet"],
        [
            "playtest",
            "--scenario",
            "bad.toml",
            "--blue",
            "random",
            "--red",
            "random",
            "--games",
            "1",
            "--workers",
            "1",
            "--quiet",
        ],
    ],  # fmt: skip
    ids=["validate", "show", "play", "playtest"],
)
def test_a_bad_mission_exits_2_with_one_problem_per_line(tmp_path: Path, args) -> None:
    _bad_mission(tmp_path)
    result = riven(*args, cwd=tmp_path)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].removeprefix("error: ") == "bad.toml: invalid (2 problems)"
    assert lines[1].startswith("  bad.toml: scenario.setting: ")
    assert lines[2].startswith("  bad.toml: table.terrain[0] ")
    assert len(lines) == 3 and "Traceback" not in result.output


# Item 11: a flag where a value belongs is named as such, for every command.
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["playtest", "--scenario", "--blue", "oracle"],
            "--scenario needs a value; got the flag --blue",
        ),
        (
            ["play", "--scenario", "--blue", "oracle"],
            "--scenario needs a value; got the flag --blue",
        ),
        (["play", "--set", "--seed", "1"], "--set needs a value; got the flag --seed"),
        (
            ["scenarios", "generate", "--kind", "-o", "x", "--seed", "1"],
            "--kind needs a value; got the flag -o",
        ),
    ],  # fmt: skip
)
def test_a_flag_where_a_value_belongs(tmp_path: Path, args, message) -> None:
    result = riven(*args, cwd=tmp_path)
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {message} (see 'riven ")
    assert list(tmp_path.iterdir()) == []


# Item 14: results read as text; --json stays for machines.
def test_results_are_printed_for_people(tmp_path: Path) -> None:
    result = riven("play", "--scenario", "duel-1v1", "--quiet", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "points: blue " in result.stdout and ", red " in result.stdout
    assert "{'" not in result.stdout and "['" not in result.stdout
    data = json.loads(riven("play", "--scenario", "duel-1v1", "--json", cwd=tmp_path).stdout)
    assert set(data["points"]) == {"blue", "red"}
    shown = riven("scenarios", "show", "skirmish-5v5", cwd=tmp_path)
    assert shown.exit_code == 0 and "knob: " in shown.stdout and "['" not in shown.stdout
