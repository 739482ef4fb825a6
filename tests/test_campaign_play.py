"""Whole campaigns: played to their end, deterministic, the same on both engines."""

from __future__ import annotations

import json

import pytest

from riven_env.campaign import dumps_records, load_campaign, play_campaign
from riven_env.campaign.log import mission_events
from riven_env.campaign.outcome import read_outcome
from riven_env.native import available


def log_text(name: str, seed: int, **kwargs) -> tuple[str, dict]:
    result = play_campaign(load_campaign(name), "oracle", "oracle", seed, **kwargs)
    return dumps_records(result.records), result.summary


def test_the_solo_delve_plays_to_its_end_the_same_twice() -> None:
    first, summary = log_text("barrow-delve", 1)
    second, _ = log_text("barrow-delve", 1)
    assert first == second
    assert summary["result"] in ("completed", "hero_dead", "hero_retired")
    records = [json.loads(line) for line in first.splitlines()]
    assert records[0]["type"] == "campaign_start" and records[-1]["type"] == "campaign_end"
    assert records[-1]["steps_played"] == summary["steps_played"]


@pytest.mark.skipif(not available(), reason="the native core is not built")
def test_python_and_native_engines_give_the_same_campaign_log() -> None:
    native, _ = log_text("barrow-delve", 3, engine="native")
    python, _ = log_text("barrow-delve", 3, engine="python")
    assert native == python


@pytest.mark.slow
@pytest.mark.skipif(not available(), reason="the native core is not built")
def test_a_warband_campaign_is_the_same_on_both_engines() -> None:
    assert (
        log_text("iron-road", 1, engine="native")[0] == log_text("iron-road", 1, engine="python")[0]
    )


@pytest.mark.parametrize("name", ["iron-road", "derelict-run", "barrow-delve"])
def test_each_bundled_campaign_plays_to_an_end(name: str) -> None:
    result = play_campaign(load_campaign(name), "oracle", "oracle", 5, policy="random")
    end = result.records[-1]
    assert end["type"] == "campaign_end"
    assert end["result"] in ("completed", "victory", "wiped_out", "hero_dead", "hero_retired")
    steps = [r for r in result.records if r["type"] == "step_start"]
    assert len(steps) + end["skipped"] == end["steps_played"]
    # The log replays: each step's recorded outcome is what its mission events say.
    for record in result.records:
        if record["type"] == "step_end":
            replayed = read_outcome(mission_events(result.records, record["step"])).to_dict()
            assert replayed == {k: v for k, v in record.items() if k not in ("type", "step")}
    assert end["warband"] == result.warband.to_dict()


def test_the_warband_fields_its_advanced_profiles() -> None:
    from dataclasses import replace

    from riven_env.campaign.mission import step_mission
    from riven_env.campaign.rules import load_campaign_rules
    from riven_env.engines import play_game
    from riven_env.rules import bundled_rules
    from riven_env.scenario import load_library

    spec = load_campaign("barrow-delve")
    rules = load_campaign_rules()
    wren = replace(
        spec.warband.models[0], agility=5, wounds=4, ranged="longbow", talents=("marksman", "tough")
    )
    band = spec.warband.with_model(wren)
    mission = step_mission(
        spec, spec.steps[2], band, 11, rules, load_library(rules=bundled_rules())
    )
    assert mission.scenario.mode == "solo_hero"
    assert mission.enemy_points == spec.threat.points(2)
    start = play_game(mission.scenario, "oracle", "oracle", 4)[0]
    fielded = next(m for m in start["models"] if m["id"] == "wren")
    assert (fielded["profile"], fielded["agility"], fielded["wounds"]) == ("hero/wren", 5, 4)
    assert start["momentum"] == {"wren": 0, "red": 0}  # the personal pool of a solo hero
