"""Rule variants on common random numbers, the sequential stop, and tournaments."""

from __future__ import annotations

import pytest
from playtest_fake_game import FAKE_SCENARIO

from riven_env.playtest.compare import Variant, run_compare
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.tournament import parse_agents, rate_games, run_tournament

FAKE = "playtest_fake_game:play_game"


def _config(tmp_path, **changes) -> PlaytestConfig:
    values = dict(scenario=FAKE_SCENARIO, blue="random", red="greedy", games=60, seed=11,
                  workers=1, db=tmp_path / "c.duckdb", player=FAKE)  # fmt: skip
    values.update(changes)
    return PlaytestConfig(**values)


def test_variants_play_the_same_seeds_and_report_paired_differences(tmp_path):
    result = run_compare(
        _config(tmp_path),
        [Variant("blue_edge=0", {"blue_edge": 0.0}), Variant("blue_edge=0.5", {"blue_edge": 0.5})],
        progress=False,
    )
    same, better = result.variants
    # No rule change: identical games on identical seeds, so the difference is exactly 0.
    assert same.blue_win_diff.value == 0 and same.blue_win_diff.low == same.blue_win_diff.high == 0
    assert better.blue_win_diff.value > 0 and better.blue_win_diff.low > 0
    with ResultsDB(tmp_path / "c.duckdb", read_only=True) as db:
        runs = db.runs(result.group_id)
        assert [r["label"] for r in runs] == ["baseline", "blue_edge=0", "blue_edge=0.5"]
        seeds = {r["label"]: [g["seed"] for g in db.games(r["run_id"])] for r in runs}
    assert seeds["baseline"] == seeds["blue_edge=0"] == seeds["blue_edge=0.5"]
    data = result.to_json()
    assert data["variants"][1]["overrides"] == {"blue_edge": 0.5}
    assert set(data["config"]) >= {"scenario", "games", "seed", "until_significant"}


def test_until_significant_stops_early_for_a_large_effect(tmp_path):
    result = run_compare(
        _config(tmp_path, games=400),
        [Variant("blue_edge=0.6", {"blue_edge": 0.6})],
        until_significant=True,
        batch_games=20,
        progress=False,
    )
    (variant,) = result.variants
    assert variant.sequential is not None and variant.sequential.significant
    assert variant.summary.games < 400
    assert variant.sequential.low > 0


def test_until_significant_runs_to_the_cap_without_an_effect(tmp_path):
    result = run_compare(
        _config(tmp_path, games=40),
        [Variant("blue_edge=0", {"blue_edge": 0.0})],
        until_significant=True,
        batch_games=20,
        progress=False,
    )
    (variant,) = result.variants
    assert not variant.sequential.significant and variant.summary.games == 40


def test_compare_rejects_no_or_repeated_variants(tmp_path):
    with pytest.raises(PlaytestError, match="at least one"):
        run_compare(_config(tmp_path), [], progress=False)
    twice = [Variant("a", {"blue_edge": 0.1}), Variant("a", {"blue_edge": 0.2})]
    with pytest.raises(PlaytestError, match="repeat"):
        run_compare(_config(tmp_path), twice, progress=False)


def test_ratings_follow_results():
    games = [("a", "b", "blue")] * 10 + [("b", "a", "red")] * 10 + [("a", "c", None)] * 4
    table = rate_games(["a", "b", "c"], games)
    assert table["a"].mu > table["c"].mu > table["b"].mu
    assert (table["a"].wins, table["a"].draws, table["a"].losses) == (20, 4, 0)
    assert table["b"].win_rate.value == 0.0
    # Per colour: a won its 10 games as blue and its 10 as red; of its 4 draws none count.
    assert table["a"].win_rate_by_colour["blue"].value == pytest.approx(10 / 14)
    assert table["a"].win_rate_by_colour["red"].value == pytest.approx(1.0)


def test_round_robin_plays_both_sides(tmp_path):
    result = run_tournament(
        _config(tmp_path, games=10), ["random", "greedy", "oracle:aggressive"], progress=False
    )
    assert len(result.pairings) == 6
    assert {(p["blue"], p["red"]) for p in result.pairings} == {
        (a, b) for a in ("random", "greedy", "oracle:aggressive")
        for b in ("random", "greedy", "oracle:aggressive") if a != b
    }  # fmt: skip
    assert all(s.games == 40 for s in result.standings)
    ordinals = [s.ordinal for s in result.standings]
    assert ordinals == sorted(ordinals, reverse=True)


def test_parse_agents():
    assert parse_agents("random, greedy") == ["random", "greedy"]
    with pytest.raises(PlaytestError, match="two or more"):
        parse_agents("random")
    with pytest.raises(PlaytestError, match="repeats"):
        parse_agents("random,random")
