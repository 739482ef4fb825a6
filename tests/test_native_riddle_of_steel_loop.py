"""The native game loop plays The Riddle of Steel (``resolution = "riddle-of-steel"``) as the
Python engine does.

RoS tests and shots are d10 pools closed at once (no spend); its melee is a Combat Round in the
``choice`` phase: the session (``riven::game::ChoicePending``) lives in the native state, each of
its steps is a ``choose`` decision of the side whose model declares (the defender's side chooses
its defence in the attacker's turn), its events are written as they happen and its effects
(Pain kept in ``system_state`` between melees, wounds, Down, Out, Conditions) land at the
round's end; the Oracle's RoS rules are decided in the core. Seeded games on every bundled
mission are played by both engines:

* in lockstep (the Python agents choosing from the Python list): the legal decisions, the
  current side, the events (``dumps_event``) and the state field by field (``native_view ==
  python_view``, the session included) agree after every decision;
* whole, by ``play`` (the Oracle and random agents, decided in the core): the event logs, as
  JSON dumps, are identical (tests/test_native_system_games.py plays random/random,
  oracle/oracle and oracle/random for every ported system; random/oracle here).

The environments refuse the choice phase on either engine (tests/test_native_system_envs.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from riven_env.engines import new_game
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

if available():
    from riven_env.native.game import from_native, native_view, python_view, to_native

from native_games import agents, missions, system_lockstep, system_log  # noqa: E402

SYSTEM = "riddle-of-steel"
OVERRIDES = {"resolution": SYSTEM}
PAIRINGS = (("oracle", "oracle"), ("random", "oracle"), ("random", "random"))
SEEDS = range(3)


def lockstep(mission: str, blue: str, red: str, seed: int) -> tuple[int, list[str], int]:
    """One RoS game on both engines at once: (decisions, native event lines, spend points)."""
    return system_lockstep(SYSTEM, mission, blue, red, seed)


def _log(mission: str, blue: str, red: str, seed: int, engine: str) -> list[str]:
    return system_log(SYSTEM, mission, blue, red, seed, engine)


@pytest.mark.parametrize("mission", missions())
@pytest.mark.parametrize(("blue", "red"), PAIRINGS)
def test_ros_games_match_the_python_engine_step_by_step(mission: str, blue: str, red: str) -> None:
    for seed in SEEDS:
        steps, _, spend_points = lockstep(mission, blue, red, seed)
        assert steps > 0 and spend_points == 0  # RoS has no spend phase


@pytest.mark.parametrize("mission", missions())
def test_ros_event_logs_are_identical(mission: str) -> None:
    blue, red = "random", "oracle"  # the pairing the shared sweep does not play
    for seed in SEEDS:
        python = _log(mission, blue, red, seed, "python")
        native = _log(mission, blue, red, seed, "native")
        assert native == python, (mission, blue, red, seed)


def test_native_games_reach_every_part_of_the_round() -> None:
    """The sweeps above reach the system's parts: d10 tests and shots, every step of the Combat
    Round chosen by both sides, hits through the Damage Table, Pain carried, the round's effects."""
    lines: list[str] = []
    for mission in ("hold-the-line", "skirmish-5v5", "duel-1v1", "scifi-hold"):
        for blue, red in PAIRINGS:
            for seed in SEEDS:
                lines += lockstep(mission, blue, red, seed)[1]
    text = "\n".join(lines)
    assert '"system":"riddle-of-steel"' in text and '"type":"shot"' in text
    assert '"kind":"choose"' in text and '"type":"ros_round"' in text
    for outcome in ("hit", "tie", "defended"):
        assert f'"outcome":"{outcome}"' in text
    for defence in ("parry", "none"):
        assert f'"defence":"{defence}"' in text
    assert '"type":"ros_pain"' in text and '"type":"ros_round_end"' in text
    assert '"knockdown":' in text and '"cause":"melee"' in text


def test_the_oracle_decides_ros_choices_in_the_core() -> None:
    from riven_env.native.play import play_in_core

    rules: set[str] = set()
    for mission, seed in (("skirmish-5v5", 1), ("hold-the-line", 2), ("duel-1v1", 0)):
        state = new_game(mission, seed, overrides=OVERRIDES, engine="native")
        events, decisions = play_in_core(state, agents("oracle", "oracle", seed))
        assert state.is_terminal and decisions > 0  # one core call: no point left to Python
        rules |= {e["rule"] for e in events if e["type"] == "oracle_decision"}
    assert {"ros:attack:thrust", "ros:defence:parry"} <= rules
    assert any(rule.startswith("ros:attack_dice:") for rule in rules)


def test_a_combat_round_crosses_the_seam() -> None:
    """A Python state in the choice phase goes to the core and back unchanged: the session
    (fighters, pools, declarations, effects so far), its model and foe, Pain held."""
    seen = 0
    pain = False
    for seed in SEEDS:
        python = new_game("hold-the-line", seed, overrides=OVERRIDES, engine="python")
        players: dict[str, Any] = agents("random", "oracle", seed)
        while not python.is_terminal:
            if python.phase == "choice":
                seen += 1
                native = to_native(python)
                assert native.pending_choice is not None and native.pending is None
                assert native_view(native) == python_view(python)
                back = from_native(native, python)
                assert back.pending == python.pending
                assert back.system_state == python.system_state
                assert back.legal_decisions() == python.legal_decisions()
                assert back.current_side == python.current_side
                pain = pain or bool(python.system_state)
            legal = python.legal_decisions()
            python.apply(players[python.current_side].act(python, legal))
    assert seen > 10 and pain
