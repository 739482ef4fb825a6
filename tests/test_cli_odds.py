"""`riven odds`: JSON and table output, rules options, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app
from riven_env.rules import odds
from riven_env.rules.config import default_rules_path, load_rules

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def _json(runner: CliRunner, *args: str) -> dict:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # the whole stdout is one JSON object


def _as_floats(exact: dict) -> dict:
    return {key: float(value) for key, value in exact.items()}


def _error(runner: CliRunner, *args: str) -> str:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    message = result.stderr.strip()
    assert message.startswith("error: ")
    assert "\n" not in message and "Traceback" not in message
    assert result.stdout == ""
    return message


def test_activation_json(runner):
    assert _json(runner, "activation", "--mettle", "4", "--dice", "2") == _as_floats(
        odds.activation_odds(4, 2, load_rules())
    )


def test_activation_table_text(runner):
    result = runner.invoke(app, ["odds", "activation", "--mettle", "4", "--dice", "2"])
    assert result.exit_code == 0, result.output
    for text in ("one_then_pass", "50.00%", "1/2", "expected_actions", "p_turn_passes"):
        assert text in result.stdout


def test_activation_turnover_option(runner):
    sbh = load_rules(overrides={"activation.turnover": "sbh"})
    assert _json(
        runner, "activation", "--mettle", "4", "--dice", "3", "--turnover", "sbh"
    ) == _as_floats(odds.activation_odds(4, 3, sbh))


def test_activation_whole_table_json(runner):
    payload = _json(runner, "activation", "--table")
    assert set(payload) == {"rows", "dominated"}
    assert len(payload["rows"]) == 15
    first = payload["rows"][0]
    assert (first["mettle"], first["dice"]) == (2, 1)
    assert set(first) == {"mettle", "dice", *odds.ACTIVATION_KEYS}
    assert {"mettle": 4, "dice": 1, "dominated_by": 3} in [
        {key: item[key] for key in ("mettle", "dice", "dominated_by")}
        for item in payload["dominated"]
    ]


def test_activation_whole_table_text_flags_dominated(runner):
    result = runner.invoke(app, ["odds", "activation", "--table"])
    assert result.exit_code == 0, result.output
    assert "Dominated by" in result.stdout
    assert "dominated: Mettle 4: 3 dice beat 1 die" in result.stdout


def test_test_json_and_difficulty(runner):
    by_tn = _json(runner, "test", "--attribute", "0", "--tn", "8")
    assert by_tn == {"miss": 10 / 36, "partial": 16 / 36, "hit": 9 / 36, "critical": 1 / 36}
    assert _json(
        runner, "test", "--attribute", "2", "--difficulty", "hard", "--modifier", "-1"
    ) == (_json(runner, "test", "--attribute", "2", "--tn", "10", "--modifier", "-1"))


def test_test_table_text(runner):
    result = runner.invoke(app, ["odds", "test", "--attribute", "0", "--difficulty", "standard"])
    assert result.exit_code == 0, result.output
    assert "27.78%" in result.stdout and "5/18" in result.stdout


def test_melee_and_shoot_json(runner):
    rules = load_rules()
    assert _json(
        runner, "melee", "--might", "3", "--vs", "2", "--modifier", "2", "--vs-modifier", "-1"
    ) == _as_floats(odds.melee_odds(3, 2, 2, -1, rules))
    assert _json(runner, "shoot", "--agility", "2", "--cover", "hard") == _as_floats(
        odds.shoot_odds(2, "hard", rules=rules)
    )


def test_melee_and_shoot_text(runner):
    melee = runner.invoke(app, ["odds", "melee", "--might", "3", "--vs", "3"])
    assert melee.exit_code == 0 and "critical_taken" in melee.stdout
    shoot = runner.invoke(app, ["odds", "shoot", "--agility", "1", "--cover", "soft"])
    assert shoot.exit_code == 0 and "TN 10" in shoot.stdout
    assert "0 wounds; Complication Oracle" in shoot.stdout  # effects read from the data
    house = runner.invoke(
        app, ["odds", "melee", "--might", "3", "--vs", "3", "--set", "melee.wound_margin=3"]
    )
    assert house.exit_code == 0 and "win by 1-2" in house.stdout and "win by 3+" in house.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("activation", "--mettle", "4", "--dice", "4"), ["--dice", "1..3"]),
        (("activation", "--mettle", "9", "--dice", "2"), ["--mettle", "2..6"]),
        (("activation", "--mettle", "4"), ["--dice", "required"]),
        (("activation", "--mettle", "4", "--dice", "2", "--turnover", "x"), ["--turnover", "raw"]),
        (("shoot", "--agility", "2", "--cover", "glass"), ["--cover", "none, soft, hard"]),
        (("test", "--attribute", "1", "--difficulty", "heroic"), ["--difficulty", "brutal"]),
        (("test", "--attribute", "1", "--tn", "8", "--difficulty", "hard"), ["--tn"]),
        (("test", "--attribute", "1", "--tn", "8", "--set", "nonsense"), ["--set", "KEY=VALUE"]),
        (("test", "--attribute", "1", "--tn", "8", "--set", "no.such.key=1"), ["no.such.key"]),
        (("melee", "--might", "1", "--vs", "1", "--rules", "/no/such.toml"), ["not found"]),
    ],
)
def test_bad_input_is_one_line(runner, args, expected):
    message = _error(runner, *args)
    for text in expected:
        assert text in message


def test_set_on_group_and_command(runner):
    sbh = _as_floats(odds.activation_odds(4, 2, load_rules(overrides={"turnover": "sbh"})))
    raw = _as_floats(odds.activation_odds(4, 2, load_rules()))
    args = ("activation", "--mettle", "4", "--dice", "2", "--json")
    on_group = runner.invoke(app, ["odds", "--set", "activation.turnover=sbh", *args])
    assert json.loads(on_group.stdout) == sbh
    # The command's own --set wins over the group's.
    both = runner.invoke(
        app, ["odds", "--set", "turnover=sbh", *args, "--set", "activation.turnover=raw"]
    )
    assert json.loads(both.stdout) == raw


def test_rules_file_option(runner, tmp_path):
    text = default_rules_path().read_text(encoding="utf-8")
    assert text.count("wound_margin = 5") == 1
    custom = tmp_path / "house.toml"
    custom.write_text(text.replace("wound_margin = 5", "wound_margin = 1"), encoding="utf-8")
    payload = _json(runner, "melee", "--might", "3", "--vs", "3", "--rules", str(custom))
    assert payload["recoil_dealt"] == 0.0
    on_group = runner.invoke(
        app, ["odds", "--rules", str(custom), "melee", "--might", "3", "--vs", "3", "--json"]
    )
    assert json.loads(on_group.stdout) == payload


def test_module_entry_point_prints_only_json():
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "riven_env.cli.main",
            "odds",
            "test",
            "--attribute",
            "0",
            "--tn",
            "8",
            "--json",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == {
        "miss": 10 / 36,
        "partial": 16 / 36,
        "hit": 9 / 36,
        "critical": 1 / 36,
    }
    assert completed.stdout.count("\n") == 1
