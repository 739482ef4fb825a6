"""Seat swap: derived scenarios, roster and seat effects with known answers, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.analytics.rosters import load_roster, model_id, roster_scenario, swapped_scenario
from riven_env.analytics.seats import seat_effects
from riven_env.cli.main import app
from riven_env.playtest.errors import PlaytestError
from riven_env.scenario import load_scenario


def rows(*winners):
    return [{"game_index": i, "winner": w} for i, w in enumerate(winners)]


def test_a_stronger_roster_shows_as_roster_effect_not_seat_effect():
    # A wins on both colours every time: roster +1, seat 0.
    out = seat_effects(rows("blue", "blue"), rows("red", "red"))
    assert out["roster_effect"].value == pytest.approx(1.0)
    assert out["seat_effect"].value == pytest.approx(0.0)
    assert out["rates"]["A_as_red"].value == pytest.approx(1.0)


def test_a_strong_seat_shows_as_seat_effect():
    # Blue wins whichever roster sits there: seat +1, roster 0.
    out = seat_effects(rows("blue", "blue", "blue"), rows("blue", "blue", "blue"))
    assert out["seat_effect"].value == pytest.approx(1.0)
    assert out["roster_effect"].value == pytest.approx(0.0)
    assert out["rates"]["blue_seat"].value == pytest.approx(1.0)


def test_mixed_effects_and_draws_pair_by_seed():
    given = rows("blue", None, "red", "blue")
    swapped = rows("blue", "red", "red", None)
    out = seat_effects(given, swapped)
    # Per seed roster: (1+(-1))/2=0, (0+1)/2=.5, (-1+1)/2=0, (1+0)/2=.5 -> mean .25
    assert out["roster_effect"].value == pytest.approx(0.25)
    # Per seed seat: (1-(-1))/2=1, (0-1)/2=-.5, (-1-1)/2=-1, (1-0)/2=.5 -> mean 0
    assert out["seat_effect"].value == pytest.approx(0.0)
    assert out["pairs"] == 4
    assert -1.0 <= out["roster_effect"].low <= out["roster_effect"].high <= 1.0


def test_swapped_scenario_moves_rosters_and_keeps_seats(tmp_path):
    original = load_scenario("skirmish-5v5")
    swapped = load_scenario(str(swapped_scenario("skirmish-5v5", tmp_path)))
    assert swapped.sides["blue"].name == original.sides["red"].name
    assert swapped.sides["blue"].oracle == original.sides["red"].oracle
    assert [m.profile.name for m in swapped.sides["red"].models] == [
        m.profile.name for m in original.sides["blue"].models
    ]
    assert swapped.deployment == original.deployment
    assert {m.id for m in swapped.sides["blue"].models} >= {"blue-captain"}
    # Same inputs, same file (resumable).
    assert swapped_scenario("skirmish-5v5", tmp_path) == swapped_scenario("skirmish-5v5", tmp_path)


def test_model_ids_follow_the_colour():
    assert model_id("red", "blue-captain") == "red-captain"
    assert model_id("blue", "sentry") == "blue-sentry"


def test_fixed_positions_are_refused(tmp_path):
    doc = tmp_path / "fixed.toml"
    text = Path(load_scenario("duel-1v1").source).read_text()
    with_position = text.replace('profile = "', 'position = [3.0, 3.0]\nprofile = "', 1)
    doc.write_text(with_position)
    with pytest.raises(PlaytestError, match="position"):
        swapped_scenario(str(doc), tmp_path)


def test_roster_files_make_a_mirror_match(tmp_path):
    roster = tmp_path / "band.toml"
    roster.write_text(
        'schema_version = 1\n[roster]\nname = "Band"\noracle = "beast"\n'
        '[[roster.models]]\nprofile = "warrior"\nid = "w"\n[[roster.models]]\nprofile = "archer"\n'
    )
    band = load_roster(roster)
    scenario = load_scenario(str(roster_scenario("skirmish-5v5", band, band, tmp_path)))
    assert [m.id for m in scenario.models()] == ["blue-w", "blue-2", "red-w", "red-2"]
    assert scenario.sides["red"].oracle == "beast"
    bad = tmp_path / "bad.toml"
    bad.write_text('[roster]\nname = "x"\ncolour = "blue"\nmodels = [{profile = "warrior"}]\n')
    with pytest.raises(PlaytestError, match="colour"):
        load_roster(bad)


def test_cli_swap_seats_json(tmp_path):
    result = CliRunner().invoke(app, [
        "playtest", "--scenario", "duel-1v1", "--blue", "oracle", "--red", "random",
        "--games", "2", "--workers", "1", "--db", str(tmp_path / "s.duckdb"), "--swap-seats",
        "--json",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["swap"]["pairs"] == 2
    assert data["runs"]["swapped"]["config"]["blue"] == "random"
    assert set(data["swap"]["rates"]) >= {"A_as_blue", "A_as_red", "blue_seat", "red_seat"}
    assert "metrics" in data["runs"]["given"]
