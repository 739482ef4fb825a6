"""``riven scenarios``: list, show, validate, generate (exit codes and outputs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app
from riven_env.scenario import list_bundled, load_scenario

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["scenarios", *args])


def test_list_puts_the_name_first() -> None:
    result = invoke("list")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    infos = list_bundled()
    assert len(lines) == len(infos)
    for line, info in zip(lines, infos, strict=True):
        name, rest = line.split(maxsplit=1)
        assert name == info.name
        assert info.title in rest and info.setting in rest and f" {info.mode} " in rest
        assert rest.rstrip().endswith(f"balance: {info.balance}") and info.balance != "-"
        load_scenario(name)  # what the list prints is what --scenario accepts


@pytest.mark.parametrize("target", ["skirmish-5v5", "escort-extract"])
def test_show_summarises(target: str) -> None:
    result = invoke("show", target)
    assert result.exit_code == 0, result.output
    scenario = load_scenario(target)
    out = result.stdout
    assert out.startswith(f"{scenario.name} - {scenario.title}")
    assert f"{len(scenario.table.pieces)} terrain pieces" in out
    for model in scenario.models():
        assert f"{model.id}: {model.profile.name}" in out
    for condition in scenario.victory.conditions:
        assert f"  {condition.type}: " in out


def test_show_accepts_a_file_and_refuses_unknown_names(tmp_path: Path) -> None:
    path = next(i.path for i in list_bundled() if i.name == "duel-1v1")
    assert invoke("show", str(path)).exit_code == 0
    result = invoke("show", "no-such-mission")
    assert result.exit_code == 2 and result.stderr.startswith("error: unknown scenario")
    assert "no-such-mission" in result.output and "skirmish-5v5" in result.output
    result = invoke("show", "skirmish-5v")
    assert "did you mean skirmish-5v5?" in result.stderr.splitlines()[0]
    assert "Traceback" not in result.output


def test_validate_valid_and_invalid_files(tmp_path: Path) -> None:
    good = next(i.path for i in list_bundled() if i.name == "ruins")
    result = invoke("validate", str(good))
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{good}: valid"
    bad = tmp_path / "bad.toml"
    bad.write_text(
        good.read_text().replace('setting = "fantasy"', 'setting = "steampunk"'), encoding="utf-8"
    )
    bad.write_text(bad.read_text().replace('type = "ruin"', 'type = "lava"', 1), encoding="utf-8")
    result = invoke("validate", str(good), str(bad))
    assert result.exit_code == 2  # bad input, as everywhere (docs/cli.md)
    assert f"{good}: valid" in result.stdout
    assert f"{bad}: scenario.setting" in result.stdout
    assert f"{bad}: table.terrain[0]" in result.stdout


@pytest.mark.parametrize("kind", ["not toml", "missing", "directory", "binary"])
def test_validate_never_shows_a_traceback(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "thing.toml"
    if kind == "not toml":
        path.write_text("<html>not toml</html>\n", encoding="utf-8")
    elif kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(bytes(range(256)))
    result = invoke("validate", str(path))
    assert result.exit_code == 2  # bad input, as everywhere (docs/cli.md)
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
    assert result.stdout.startswith(f"{path}: invalid")


def test_generate_writes_a_valid_deterministic_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    for out in (first, second):
        result = invoke(
            "generate", "--kind", "dungeon", "--seed", "5", "--setting", "scifi", "-o", str(out)
        )
        assert result.exit_code == 0, result.output
        assert str(out) in result.stdout
    assert first.read_bytes() == second.read_bytes()
    result = invoke("validate", str(first))
    assert result.exit_code == 0 and "valid" in result.stdout
    assert load_scenario(first).setting == "scifi"


def test_generate_to_stdout_and_bad_kind() -> None:
    result = invoke("generate", "--kind", "field", "--seed", "2")
    assert result.exit_code == 0
    assert result.stdout.startswith("# RIVEN scenario") and "[scenario]" in result.stdout
    result = invoke("generate", "--kind", "cave", "--seed", "2")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --kind: unknown kind 'cave'")
    assert "field, ruins, dungeon" in result.output
    result = invoke("generate", "--kind", "dungen", "--seed", "2")
    assert "did you mean dungeon?" in result.stderr
