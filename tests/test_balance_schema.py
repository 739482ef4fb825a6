"""The ``[balance]`` table of a scenario: validation, listing, knob edits, the colour swap."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomllib
from typer.testing import CliRunner

from riven_env.balance.knobs import apply_values, current_values, write_candidate
from riven_env.balance.mirror import colour_swapped_document, estimate, swap_kind, swapped_file
from riven_env.balance.objective import balance_settings, clearly_off, meets, verdict
from riven_env.cli.main import app
from riven_env.errors import ScenarioError
from riven_env.scenario import load_scenario, validate_file
from riven_env.scenario.balance import Knob, parse_path
from riven_env.scenario.loader import bundled_dir, list_bundled

UNBALANCED = Path(__file__).parent / "data" / "skirmish-5v5-unbalanced.toml"


def _mission(tmp_path: Path, balance: str) -> Path:
    text = UNBALANCED.read_text(encoding="utf-8")
    head = text.split("\n[balance]")[0]
    path = tmp_path / "m.toml"
    path.write_text(head + "\n" + balance, encoding="utf-8")
    return path


def test_bundled_missions_declare_their_balance():
    for info in list_bundled():
        scenario = load_scenario(info.path)
        assert scenario.balance is not None, info.name
        assert scenario.balance.knobs, info.name
        assert scenario.balance.tolerance == pytest.approx(0.05)
        assert scenario.balance.interval == pytest.approx(0.07)


def test_the_loaded_spec():
    spec = load_scenario(UNBALANCED).balance
    assert spec.mode == "symmetric" and spec.side == "blue" and spec.win_rate == 0.5
    paths = [k.path for k in spec.knobs]
    assert "sides.red.oracle" in paths
    count = next(k for k in spec.knobs if k.path == "sides.red.models[2].count")
    assert count.integer and count.grid() == [1, 2, 3]
    choice = next(k for k in spec.knobs if k.values is not None)
    assert choice.grid() == list(choice.values)


def test_target_mode(tmp_path):
    path = _mission(tmp_path, '[balance]\nmode = "target"\nside = "red"\nwin_rate = 0.35\n'
                              'draw_rate = 0.1\nrounds = 6.5\n')  # fmt: skip
    spec = load_scenario(path).balance
    assert (spec.side, spec.win_rate, spec.draw_rate, spec.rounds) == ("red", 0.35, 0.1, 6.5)
    assert spec.describe() == "red wins 35%, draws 10%, 6.5 rounds"


@pytest.mark.parametrize(
    ("balance", "field", "words"),
    [
        ('mode = "fair"', "balance.mode", "allowed: symmetric, target"),
        ('mode = "target"\nside = "red"', "balance.win_rate", "required key 'win_rate'"),
        ('mode = "target"\nwin_rate = 0.4', "balance.side", "required key 'side'"),
        ('mode = "symmetric"\nwin_rate = 0.4', "balance.win_rate", "not allowed with mode"),
        ('mode = "target"\nside = "green"\nwin_rate = 0.4', "balance.side", "allowed: blue, red"),
        ('mode = "target"\nside = "red"\nwin_rate = 1.5', "balance.win_rate", "at most 0.99"),
        ('mode = "symmetric"\nrounds = 9', "balance.rounds", "round limit scenario.rounds = 8"),
        ('mode = "symmetric"\ntolerance = 0.1\ninterval = 0.05', "balance.interval", "at least"),
        ('mode = "symmetric"\nfairness = 1', "balance.fairness", "unknown key 'fairness'"),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "sides.red.models[9].count"\n'
            "range = [1, 3]",
            "balance.knobs[0].path",
            "sides.red.models has no entry [9] (5 entries)",
        ),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "sides..x"\nrange = [1, 3]',
            "balance.knobs[0].path",
            "expected dotted keys",
        ),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "scenario.rounds"\n'
            "range = [1, 3]\nvalues = [1]",
            "balance.knobs[0]",
            "exactly one of 'range'",
        ),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "scenario.rounds"\nrange = [5, 3]',
            "balance.knobs[0].range",
            "low < high",
        ),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "sides.red.name"\nrange = [1, 3]',
            "balance.knobs[0].path",
            "not a number",
        ),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "sides.red.models"\nvalues = [1]',
            "balance.knobs[0].path",
            "must point at one number",
        ),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "scenario.rounds"\nvalues = []',
            "balance.knobs[0].values",
            "non-empty list",
        ),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "scenario.rounds"\nrange = [4, 8]\n'
            '[[balance.knobs]]\npath = "scenario.rounds"\nrange = [4, 9]',
            "balance.knobs[1].path",
            "already a knob",
        ),
        (
            'mode = "symmetric"\n[[balance.knobs]]\npath = "profiles.dragon.wounds"\n'
            "range = [1, 3]",
            "balance.knobs[0].path",
            "no key 'dragon'",
        ),
    ],
)
def test_bad_balance_tables_are_refused_with_the_field(tmp_path, balance, field, words):
    path = _mission(tmp_path, "[balance]\n" + balance + "\n")
    problems = validate_file(path)
    assert problems, balance
    joined = "\n".join(problems)
    assert f"{path}: {field}" in joined and words in joined, joined
    with pytest.raises(ScenarioError):
        load_scenario(path)


def test_too_many_knobs(tmp_path):
    knobs = "".join(
        f'[[balance.knobs]]\npath = "objectives[0].{key}"\nrange = [1, 3]\n'
        for key in [f"k{i}" for i in range(17)]
    )
    problems = validate_file(_mission(tmp_path, '[balance]\nmode = "symmetric"\n' + knobs))
    assert any("balance.knobs" in p and "balance.max_knobs" in p for p in problems), problems


def test_scenarios_list_shows_the_declared_balance():
    result = CliRunner().invoke(app, ["scenarios", "list"])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines() if line.strip()}
    assert "symmetric" in lines["skirmish-5v5"]
    assert "blue wins 35%" in lines["solo-hero-horde"]


def test_apply_values_keeps_comments_and_copies_library_profiles():
    text = UNBALANCED.read_text(encoding="utf-8")
    knobs = (*load_scenario(UNBALANCED).balance.knobs,
             Knob(path="profiles.brute.wounds", name="brute wounds", low=2, high=3, integer=True))  # fmt: skip
    values = {"profiles.brute.wounds": 3, "sides.red.models[2].count": 2}
    out = apply_values(text, knobs, values)
    assert "# A deliberately unbalanced copy" in out and "[[table.terrain]]" in out
    doc = tomllib.loads(out)
    assert doc["profiles"]["brute"]["wounds"] == 3
    assert doc["profiles"]["brute"]["might"] == 4  # the rest of the library entry
    assert doc["sides"]["red"]["models"][2]["count"] == 2
    assert doc["sides"]["red"]["oracle"] == "aggressive"  # a knob not named keeps its value
    assert current_values(doc, knobs)["profiles.brute.wounds"] == 3
    assert current_values(tomllib.loads(text), knobs)["profiles.brute.wounds"] == 2


def test_candidate_files_are_named_by_content(tmp_path):
    a = write_candidate("x = 1\n", "m", tmp_path)
    assert write_candidate("x = 1\n", "m", tmp_path) == a
    assert write_candidate("x = 2\n", "m", tmp_path) != a


def test_parse_path():
    assert parse_path("sides.red.models[1].count") == ["sides", "red", "models", 1, "count"]
    assert parse_path("deployment.blue[0][3]") == ["deployment", "blue", 0, 3]
    assert parse_path("a..b") is None
    knob = Knob(path="x", name="x", low=0.0, high=1.0)
    assert knob.grid() == [0.0, 0.25, 0.5, 0.75, 1.0]  # defaults.toml balance.grid_points


def test_colour_swap_moves_everything_with_the_roster():
    doc = tomllib.loads((bundled_dir() / "escort-extract.toml").read_text(encoding="utf-8"))
    new = colour_swapped_document(doc)
    assert new["sides"]["red"]["name"] == doc["sides"]["blue"]["name"]
    assert new["deployment"]["red"] == doc["deployment"]["blue"]
    assert new["scenario"]["first_side"] == "red"
    assert new["victory"]["at_round_limit"] == "side:blue"
    extract = new["victory"]["conditions"][0]
    assert extract["side"] == "red" and extract["models"] == ["red-courier"]
    ids = [m.get("id") for m in new["sides"]["red"]["models"]]
    assert "red-courier" in ids
    spec = load_scenario("escort-extract").balance
    assert swap_kind(doc, spec) == "colours"
    assert swap_kind(tomllib.loads(UNBALANCED.read_text()), load_scenario(UNBALANCED).balance) == (
        "rosters"
    )


@pytest.mark.parametrize("info", list_bundled(), ids=lambda info: info.name)
def test_every_bundled_mission_s_swapped_arm_loads(tmp_path, info):
    # The knobs name the rosters as the file places them (ruins' sides.red.models[3]); after a
    # swap they would name models that are not there, so the derived file drops them.
    path, _ = swapped_file(info.path, load_scenario(info.path).balance, tmp_path)
    assert "knobs" not in tomllib.loads(path.read_text(encoding="utf-8")).get("balance", {})
    assert load_scenario(path).balance is not None


def _rows(winners):
    return [{"game_index": i, "winner": w, "rounds": 6} for i, w in enumerate(winners)]


def test_estimate_counts_decisive_games_of_both_arms():
    given = _rows(["blue", "blue", "red", None, "blue"])
    swapped = _rows(["red", "blue", "red", "red"])  # seed 4 not played swapped: not paired
    est = estimate(given, swapped, "blue", 0.5, "rosters", {"given": "a", "swapped": "b"})
    assert est.pairs == 4 and est.games == 8
    # role = blue roster: given blue wins 2 (of 3 decisive), swapped (on red) red wins 3 of 4
    assert est.wins == {"role": 5, "other": 2, "draws": 1}
    assert est.role.value == pytest.approx(5 / 7) and est.role.n == 7
    assert est.role_given.value == pytest.approx(2 / 3)
    assert est.role_swapped.value == pytest.approx(3 / 4)
    assert est.draws.value == pytest.approx(1 / 8)
    assert est.colours["blue"].value == pytest.approx(3 / 7)


def test_verdict_and_the_sequential_stop():
    spec = load_scenario(UNBALANCED).balance
    settings = balance_settings()
    even = estimate(_rows(["blue", "red"] * 500), _rows(["red", "blue"] * 500), "blue", 0.5,
                    "rosters", {})  # fmt: skip
    assert meets(even, spec, settings) and not clearly_off(even, spec, settings)
    few = estimate(_rows(["blue", "red"] * 5), _rows(["red", "blue"] * 5), "blue", 0.5,
                   "rosters", {})  # fmt: skip
    reasons = verdict(few, spec, settings)
    assert len(reasons) == 1 and "interval" in reasons[0]  # on target, but too few games
    lopsided = estimate(_rows(["blue"] * 30), _rows(["red"] * 30), "blue", 0.5, "rosters", {})
    assert clearly_off(lopsided, spec, settings)
    assert "outside 50 +/- 5" in verdict(lopsided, spec, settings)[0]
