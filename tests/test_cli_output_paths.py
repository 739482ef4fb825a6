"""Every output path of every command is checked before the work starts: one line
``error: ...`` naming the option, exit 2, and nothing played, trained or written."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from riven_env.cli.common import check_output
from riven_env.cli.main import app
from riven_env.errors import OutputPathError

runner = CliRunner()
PLAYTEST = ["playtest", "--scenario", "duel-1v1", "--blue", "random", "--red", "random",
            "--games", "2", "--workers", "1"]  # fmt: skip


@pytest.fixture
def blocked(tmp_path):
    """A file ``X`` (so ``X/...`` cannot be made) and an existing folder ``D``."""
    (tmp_path / "X").write_text("a file, not a folder\n", encoding="utf-8")
    (tmp_path / "D").mkdir()
    return tmp_path


# (arguments with {X} a file and {D} a folder, the option the message must name)
CASES = [
    (PLAYTEST + ["--db", "{T}/p.duckdb", "--report", "{X}/r.html"], "--report"),
    (PLAYTEST + ["--db", "{T}/p.duckdb", "--report", "{D}"], "--report"),
    (PLAYTEST + ["--db", "{X}/p.duckdb"], "--db"),
    (PLAYTEST + ["--db", "{D}"], "--db"),
    (PLAYTEST + ["--db", "{T}/p.duckdb", "--export", "{X}/g.parquet"], "--export"),
    (PLAYTEST + ["--db", "{T}/p.duckdb", "--export", "{T}/g.xlsx"], "--export"),
    (["compare", "--scenario", "duel-1v1", "--games", "2", "--variant", "turnover=sbh",
      "--db", "{D}"], "--db"),
    (["tournament", "--scenario", "duel-1v1", "--agents", "random,greedy", "--games", "1",
      "--db", "{X}/t.duckdb"], "--db"),
    (["report", "{T}/p.duckdb", "-o", "{D}"], "--output"),
    (["report", "{T}/p.duckdb", "-o", "{X}/r.html"], "--output"),
    (["report", "{T}/p.duckdb", "--export", "{X}"], "--export"),
    (["play", "--scenario", "duel-1v1", "--log", "{X}/g.jsonl"], "--log"),
    (["play", "--scenario", "duel-1v1", "--log", "{D}"], "--log"),
    (["play", "--scenario", "duel-1v1", "--replay", "{X}/g.html"], "--replay"),
    (["play", "--scenario", "duel-1v1", "--replay", "{D}"], "--replay"),
    (["train", "--timesteps", "64", "--envs", "1", "--out", "{X}"], "--out"),
    (["train", "--timesteps", "64", "--envs", "1", "--out", "{X}/run"], "--out"),
    (["stress-oracle", "--timesteps", "64", "--envs", "1", "--out", "{X}/s"], "--out"),
    (["scenarios", "generate", "--kind", "field", "--seed", "1", "-o", "{D}"], "--output"),
    (["oracle", "print", "-o", "{X}/cards.md"], "--output"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "option"), CASES, ids=[" ".join(c[0][:1] + [c[1]])
                                                          for c in CASES])  # fmt: skip
def test_a_bad_output_path_is_refused_before_any_work(blocked, args, option):
    values = {"X": blocked / "X", "D": blocked / "D", "T": blocked}
    argv = [a.format(**values) for a in args]
    before = sorted(p.name for p in blocked.rglob("*"))
    result = runner.invoke(app, argv)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {option} ") and "Traceback" not in result.output
    assert sorted(p.name for p in blocked.rglob("*")) == before  # nothing written


def test_good_output_paths_pass(tmp_path):
    check_output(tmp_path / "r.html", "--report")
    check_output(tmp_path / "existing.html", "--report")
    check_output(tmp_path / "folder", "--out", kind="folder")
    check_output(tmp_path / "g.CSV", "--export", suffixes=[".parquet", ".csv"])
    check_output(None, "--log")
    with pytest.raises(OutputPathError, match="is a file; give a folder"):
        (tmp_path / "f").write_text("x")
        check_output(tmp_path / "f", "--out", kind="folder")
