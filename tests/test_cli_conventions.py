"""What every ``riven`` command shares: error lines, --version, plain flags, wide pipes,
--workers and --quiet, and the progress bar (on stderr, only on a terminal)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from riven_env import __version__
from riven_env.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
# rich's documented switches that make stderr count as an interactive terminal.
FORCE_TTY = {"TTY_INTERACTIVE": "1", "TTY_COMPATIBLE": "1"}


def riven(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
    """Run the ``riven`` app in this process; stdout and stderr are separate, not terminals."""
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), env={"COLUMNS": None, **(env or {})})
    finally:
        os.chdir(ROOT)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_the_entry_point_reports_like_the_app(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "riven_env.cli.main", "scenarios", "show", "nope"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2 and done.stderr.startswith("error: unknown scenario 'nope'")
    assert len(done.stderr.strip().splitlines()) == 1


def _commands():
    """Every command path of the app, e.g. ``("scenarios", "show")``."""
    root = get_command(app)
    paths = []

    def walk(group, prefix):
        for name, command in group.commands.items():
            if hasattr(command, "commands"):
                walk(command, (*prefix, name))
            else:
                paths.append((*prefix, name))

    walk(root, ())
    return paths


def test_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"riven {__version__}"


def test_flags_show_without_a_type_in_every_help() -> None:
    runner = CliRunner()
    paths = _commands()
    assert ("eval",) in paths and ("scenarios", "generate") in paths
    for path in [(), *paths]:
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (path, result.output)
        assert "<bool>" not in result.output, path
        assert "--help" in result.output
    play_help = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).output
    assert "--json " in play_help and "--quiet" in play_help


# One bad command line or bad input for every command: one line "error: ...", exit 2.
BAD = [
    (["nope"], "No such command 'nope'"),
    (["odds", "activation", "--mettle", "9", "--dice", "2"], "--mettle 9"),
    (["scenarios", "show", "nope"], "unknown scenario 'nope'"),
    (["scenarios", "generate", "--kind", "castle", "--seed", "1"], "--kind: unknown kind 'castle'"),
    (["scenarios", "validate"], "Missing argument"),
    (["play", "--scenario", "skirmish-5v", "--seed", "1"], "did you mean skirmish-5v5?"),
    (["play", "--blue", "orcle"], "unknown agent 'orcle'; did you mean oracle?"),
    (["serve", "--port", "70000"], "--port 70000"),
    (["campaign", "list", "--json-nope"], "No such option: --json-nope"),
    (["campaign", "validate"], "Missing argument"),
    (["campaign", "play", "nope"], "unknown campaign 'nope'"),
    (["campaign", "playtest", "nope"], "unknown campaign 'nope'"),
    (["campaign", "report", "no-such.duckdb"], "no such campaign playtest database"),
    (["campaign", "compare", "iron-road", "--set", "fate.out.mis=injury"], "did you mean fate.out.miss?"),
    (["play", "--blue", "oracle:agresive"], "did you mean aggressive?"),
    (["play", "--set", "turnovr=sbh"], "unknown override key 'turnovr'; did you mean activation.turnover?"),
    (["play", "--set", "turnover=xyz"], "activation.turnover = 'xyz'"),
    (["play", "--games", "3"], "No such option: --games"),
    (["agents", "--all"], "No such option: --all"),
    (["oracle", "print", "--profile", "agressive"], "did you mean aggressive?"),
    (["oracle", "print", "--format", "pdf"], "--format"),
    (["playtest", "--scenario", "duel-1v1", "--blue", "random", "--red", "random", "--games", "0"], "--games"),
    (["report", "no-such.duckdb"], "no-such.duckdb"),
    (["compare", "--scenario", "duel-1v1", "--games", "2", "--variant", "turnovr=sbh"], "turnovr"),
    (["tournament", "--scenario", "duel-1v1", "--agents", "random", "--games", "1"], "--agents"),
    (["train", "--scenario", "duel-1v1", "--opponent", "nobody", "--timesteps", "8"], "unknown agent 'nobody'"),
    (["eval", "--scenario", "duel-1v1", "--blue", "rando", "--games", "2"], "did you mean random?"),
    (["eval-colours", "--agent", "rando", "--games", "1"], "did you mean random?"),
    (["stress-oracle", "--oracle", "random"], "--oracle"),
    (["bench", "--games", "0"], "--games"),
    (["odds", "test", "--attribute", "2", "--tn", "x"], "--tn"),
    (["odds", "melee", "--might", "3", "--vs", "x"], "--vs"),
    (["odds", "shoot", "--agility", "3", "--cover", "sofft"], "did you mean soft?"),
    (["scenarios", "list", "--all"], "No such option: --all"),
    (["skill-trace", "skirmish-5v", "--games", "1"], "did you mean skirmish-5v5?"),
    (["meta", "--scenario", "duel-1v1", "--rosters", "wardns"], "did you mean wardens?"),
    (["oracle", "audit", "agressive", "--scenario", "duel-1v1"], "did you mean aggressive?"),
    (["balance", "skirmish-5v", "--check"], "did you mean skirmish-5v5?"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "expected"), BAD, ids=[" ".join(a[:2]) for a, _ in BAD])
def test_errors_are_one_line_with_exit_status_2(args, expected, tmp_path: Path) -> None:
    result = riven(*args, cwd=tmp_path)
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert expected in lines[0]
    assert ".toml:" not in lines[0] or "scenarios" in args  # --set names the key, not a path
    assert result.stdout == ""


def test_every_command_is_covered_by_the_error_table() -> None:
    covered = {
        tuple(a[:2]) if a[0] in ("odds", "scenarios", "oracle", "campaign") else (a[0],)
        for a, _ in BAD
    }
    missing = [p for p in _commands() if p not in covered]
    assert not missing, f"no bad-input case for {missing}"


def test_tables_piped_to_a_file_are_not_cut(tmp_path: Path) -> None:
    result = riven(
        "compare", "--scenario", "duel-1v1", "--blue", "random", "--red", "random",
        "--games", "4", "--variant", "turnover=sbh", "--workers", "1",
        "--db", str(tmp_path / "r.duckdb"),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "Sequential" in result.stdout and "…" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) > 80
    assert result.stderr == ""  # not a terminal: no progress bar either


GAME_COMMANDS = [
    ["play", "--scenario", "duel-1v1", "--blue", "random", "--red", "random"],
    ["playtest", "--scenario", "duel-1v1", "--blue", "random", "--red", "random", "--games", "3",
     "--workers", "1"],
    ["eval", "--scenario", "duel-1v1", "--blue", "random", "--red", "random", "--games", "3",
     "--workers", "1"],
]  # fmt: skip


@pytest.mark.parametrize("args", GAME_COMMANDS, ids=lambda a: a[0])
def test_progress_bar_on_a_terminal_only_and_never_in_json(args, tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "r.duckdb")] if args[0] == "playtest" else []
    shown = riven(*args, *db, "--json", env=FORCE_TTY, cwd=tmp_path)
    assert shown.exit_code == 0, shown.stderr
    json.loads(shown.stdout)  # stdout is one JSON object, bar or not
    assert "random vs random" in shown.stderr and (
        "games/s" in shown.stderr or "rounds/s" in shown.stderr
    )
    quiet = riven(*args, *db, "--json", "--quiet", env=FORCE_TTY, cwd=tmp_path)
    assert quiet.exit_code == 0 and quiet.stderr == ""
    piped = riven(*args, *db, "--json", cwd=tmp_path)
    assert piped.exit_code == 0 and piped.stderr == ""
    assert json.loads(piped.stdout)["scenario" if args[0] != "playtest" else "config"]


def test_every_command_that_plays_games_takes_workers_and_quiet() -> None:
    runner = CliRunner()
    for command in (
        "playtest",
        "compare",
        "tournament",
        "balance",
        "eval",
        "stress-oracle",
        "train",
    ):
        text = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
        assert "--workers" in text and "--quiet" in text, command
    assert "--quiet" in runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).output
    eval_help = runner.invoke(app, ["eval", "--help"], env={"COLUMNS": "200"}).output
    assert "--jobs" not in eval_help  # the old name still works, hidden and deprecated


def test_eval_workers_and_the_deprecated_jobs_agree() -> None:
    base = ["eval", "--scenario", "duel-1v1", "--blue", "random", "--red", "random", "--games",
            "4", "--json"]  # fmt: skip
    one = riven(*base, "--workers", "1")
    two = riven(*base, "--workers", "2")
    old = riven(*base, "--jobs", "2")
    assert one.exit_code == two.exit_code == old.exit_code == 0, old.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout) == json.loads(old.stdout)
    assert old.stderr.strip() == "warning: --jobs is deprecated; use --workers"
