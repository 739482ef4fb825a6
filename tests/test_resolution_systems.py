"""The resolution-system framework: selection by ``meta.resolution``, the system's data file
merged into the RIVEN base and validated, the registry, the environments' catalogue, and a
soak of every bundled mission under every system with every kind of agent.

``docs/resolution-systems.md`` is the contract tested here. The soak's sample is small in CI;
``RIVEN_SOAK_SEEDS=N`` plays N seeds per mission and pairing (the issue's 500-game soak).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from riven_env.engines import play_game
from riven_env.errors import RulesDataError
from riven_env.rules import load_rules
from riven_env.rules.resolution import (
    RivenResolution,
    get_resolution,
    register_resolution,
    resolution_names,
    system_spec,
)
from riven_env.rules.results import BANDS
from riven_env.scenario import list_bundled

SYSTEMS = ("invictus", "new-world")
DOCS = Path(__file__).resolve().parents[1] / "docs"


# ----------------------------------------------------------------------------- selection and data
def test_the_bundled_systems_are_registered() -> None:
    assert {"riven", *SYSTEMS} <= set(resolution_names())
    for name in SYSTEMS:
        spec = system_spec(name)
        assert spec.rules_file and spec.section and spec.validate and spec.odds_test


@pytest.mark.parametrize("name", SYSTEMS)
def test_selecting_a_system_merges_its_section_into_the_riven_base(name: str) -> None:
    base = load_rules()
    rules = load_rules(overrides={"resolution": name})
    section = system_spec(name).section
    assert rules.get("meta.resolution") == name and rules.has(section)
    assert not base.has(section)
    # RIVEN's own sections stay as they are (activation, movement, flight, the table).
    for key in ("activation", "distances", "morale", "conditions", "actions"):
        assert rules.section(key) == base.section(key)
    assert load_rules(overrides={"meta.resolution": name}) == rules


def test_an_unknown_system_is_refused_with_the_registered_ones() -> None:
    with pytest.raises(RulesDataError, match=r"'dragon-dice'.*invictus, new-world"):
        load_rules(overrides={"resolution": "dragon-dice"})


def test_a_section_key_that_riven_also_has_must_be_dotted() -> None:
    # `max_dice` is activation.max_dice in RIVEN and invictus.pool/danger.max_dice.
    with pytest.raises(RulesDataError, match="ambiguous"):
        load_rules(overrides={"resolution": "invictus", "max_dice": "2"})
    rules = load_rules(overrides={"resolution": "invictus", "invictus.pool.max_dice": "4"})
    assert rules.get("invictus.pool.max_dice") == 4 and rules.get("activation.max_dice") == 3


def test_section_values_are_validated(tmp_path: Path) -> None:
    with pytest.raises(RulesDataError, match=r"new_world\.helpers.*max = 3"):
        load_rules(overrides={"resolution": "new-world", "new_world.helpers.max": "3"})
    with pytest.raises(RulesDataError, match=r"new_world\.rank\.paladin is not a known field"):
        text = Path(load_rules().source).read_text()
        section = (Path(load_rules().source).parent / "new-world.toml").read_text()
        path = tmp_path / "rules.toml"
        path.write_text(text + "\n" + section.replace("minion = 0", "minion = 0\npaladin = 3"))
        load_rules(path, {"resolution": "new-world"})


def test_a_systems_file_holds_exactly_its_section(tmp_path: Path) -> None:
    seen = {}

    def validate(section, source, raw) -> None:
        seen.update(section=dict(section), source=source, has_riven=("activation" in raw))

    good = tmp_path / "fake.toml"
    good.write_text("[fake]\nspeed = 3\n")
    register_resolution(
        "fake", RivenResolution, rules_file=str(good), section="fake", validate=validate
    )
    rules = load_rules(overrides={"resolution": "fake", "speed": "4"})
    assert rules.get("fake.speed") == 4
    assert seen == {"section": {"speed": 4}, "source": str(good), "has_riven": True}
    bad = tmp_path / "bad.toml"
    bad.write_text("[fake]\nspeed = 3\n[melee]\ncharge_bonus = 9\n")
    register_resolution("fake", RivenResolution, rules_file=str(bad), section="fake")
    with pytest.raises(RulesDataError, match=r"exactly one table, \[fake\]; found fake, melee"):
        load_rules(overrides={"resolution": "fake"})
    register_resolution(
        "fake", RivenResolution, rules_file=str(tmp_path / "none.toml"), section="fake"
    )
    with pytest.raises(RulesDataError, match="cannot read the rules file: not found"):
        load_rules(overrides={"resolution": "fake"})


def test_the_design_is_written_down() -> None:
    text = (DOCS / "resolution-systems.md").read_text()
    assert "## Adding a system" in text and "Pre-roll allocation" in text


# ----------------------------------------------------------------------------- environments
@pytest.mark.parametrize("name", SYSTEMS)
def test_the_gym_env_plays_a_whole_game_under_the_system(name: str) -> None:
    import gymnasium as gym

    import riven_env.envs  # noqa: F401  (registers the env)

    env = gym.make(
        "riven/Skirmish-v0",
        scenario="skirmish-5v5",
        opponent="oracle",
        rules_overrides={"resolution": name},
    )
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=3)
    kinds = set()
    for _ in range(3000):
        mask = info["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        kinds.add(env.unwrapped.catalogue.labels[action].split()[0])
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert terminated or truncated
    env.close()


def test_the_catalogue_holds_the_systems_choices() -> None:
    from riven_env.encoding.catalogue import ActionCatalogue

    riven = ActionCatalogue("skirmish-5v5")
    nw = ActionCatalogue("skirmish-5v5", rules=load_rules(overrides={"resolution": "new-world"}))
    inv = ActionCatalogue("skirmish-5v5", rules=load_rules(overrides={"resolution": "invictus"}))
    assert riven.labels[-5:] == (
        "spend reroll:0",
        "spend reroll:1",
        "spend boost",
        "spend strain",
        "spend accept",
    )
    assert {"allocate help:0", "allocate help:2", "spend luck", "spend accept"} <= set(nw.labels)
    assert {"spend favour:0", "spend luck:5", "spend accept"} <= set(inv.labels)


def test_the_pettingzoo_env_asks_the_defender_when_it_chooses() -> None:
    from riven_env.envs.pz_env import RivenAECEnv

    defender_chose = 0
    for seed in range(6):
        aec = RivenAECEnv(scenario="duel-1v1", rules_overrides={"resolution": "new-world"})
        aec.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in aec.agent_iter(max_iter=5000):
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            assert agent == aec.state.current_side
            assert obs["action_mask"].sum() == len(aec.state.legal_decisions())
            defender_chose += agent != aec.state.side  # a choice outside its own turn
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert aec.state.is_terminal and not aec.agents
    assert defender_chose > 0


# ----------------------------------------------------------------------------- the soak
def _documented_fields() -> dict[str, set[str]]:
    """Event type -> the fields ``docs/event-log.md`` lists before any conditional part."""
    table: dict[str, set[str]] = {}
    for line in (DOCS / "event-log.md").read_text().splitlines():
        match = re.match(r"\| `(\w+)` \| (.*) \|$", line)
        if not match:
            continue
        text, depth, parts, part = match.group(2).split(";")[0], 0, [], ""
        for char in text:
            depth += char in "{[(" and 1 or 0
            depth -= char in "}])" and 1 or 0
            if char == "," and depth == 0:
                parts.append(part)
                part = ""
            else:
                part += char
        parts.append(part)
        table[match.group(1)] = {
            m.group(1) for p in parts if (m := re.match(r"\s*`(\w+)`", p)) is not None
        }
    return table


FIELDS = _documented_fields()
HEADER = {"type", "seq", "round", "side"}


def check_log(events: list[dict], system: str) -> None:
    """The log follows docs/event-log.md: documented types, their fields, game_end last."""
    assert events[0]["type"] == "game_start" and events[-1]["type"] == "game_end"
    assert [e["seq"] for e in events] == list(range(len(events)))
    for event in events:
        kind = event["type"]
        assert kind in FIELDS, f"undocumented event type {kind!r}"
        missing = FIELDS[kind] - set(event)
        assert not missing, (kind, missing, event)
        if kind in ("test", "shot", "melee"):
            assert event.get("detail", {}).get("system") == system, event
            if kind != "melee":
                assert event["result"] in BANDS
        if kind == "decision":
            assert event["kind"] != "allocate" or system == "new-world"


SOAK_SEEDS = int(os.environ.get("RIVEN_SOAK_SEEDS", "1"))
MISSIONS = [s.name for s in list_bundled()]
FAST_PAIRS = (("oracle", "oracle"), ("random", "oracle"), ("oracle", "random"))
SEARCH_PAIRS = (("greedy", "oracle"), ("mcts:8", "random"))


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("mission", MISSIONS)
def test_soak_every_mission_plays_to_the_end(system: str, mission: str) -> None:
    pairs = FAST_PAIRS + (SEARCH_PAIRS if SOAK_SEEDS > 1 or mission in MISSIONS[:3] else ())
    for blue, red in pairs:
        for seed in range(SOAK_SEEDS):
            events = play_game(mission, blue, red, seed, overrides={"resolution": system})
            check_log(events, system)


# ----------------------------------------------------------------------------- The Riddle of Steel
def test_riddle_of_steel_is_registered_through_the_framework() -> None:
    from riven_env.rules.systems import SYSTEM_MODULES
    from riven_env.rules.systems.riddle_of_steel import RiddleOfSteelResolution
    from riven_env.rules.systems.ros_data import ros_data_for

    assert "riddle_of_steel" in SYSTEM_MODULES
    spec = system_spec("riddle-of-steel")
    assert (spec.rules_file, spec.section) == ("riddle-of-steel.toml", "riddle_of_steel")
    assert spec.validate and spec.odds_test and spec.odds_melee
    rules = load_rules(
        overrides={"resolution": "riddle-of-steel", "riddle_of_steel.dice.max_stacks": "2"}
    )
    assert rules.has("riddle_of_steel") and ros_data_for(rules).max_stacks == 2
    assert isinstance(get_resolution("riddle-of-steel", rules), RiddleOfSteelResolution)
    with pytest.raises(RulesDataError, match="riddle_of_steel"):
        load_rules(overrides={"resolution": "riddle-of-steel", "riddle_of_steel.dice.sides": "6"})


def test_riddle_of_steel_melee_is_its_choice_phase_beside_the_framework() -> None:
    """Under RoS a melee is the choice phase (``ros_round``, ``choose`` decisions of both
    sides, the defender's during the attacker's turn), never the framework's ``melee`` roll
    and never an ``allocate`` or ``spend`` decision."""
    turns_of_the_other_side = 0
    for seed in range(3):
        events = [
            dict(e)
            for e in play_game(
                "duel-1v1", "oracle", "oracle", seed, overrides={"resolution": "riddle-of-steel"}
            )
        ]
        types = {e["type"] for e in events}
        assert "melee" not in types and events[-1]["type"] == "game_end"
        decisions = [e for e in events if e["type"] == "decision"]
        assert not {d["kind"] for d in decisions} & {"allocate", "spend"}
        turn = None
        for e in events:
            if e["type"] == "turn_start":
                turn = e["side"]
            elif e["type"] == "decision" and e["kind"] == "choose" and e["side"] != turn:
                turns_of_the_other_side += 1
        if "ros_round" in types:
            assert any(d["kind"] == "choose" for d in decisions)
    assert turns_of_the_other_side > 0
