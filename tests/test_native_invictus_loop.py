"""The native game loop plays Invictus (``resolution = "invictus"``) as the Python engine does.

Invictus's pending roll (its pool, Danger Dice, Favourable raise and Luck) lives in the native
state (``Pending::invictus``), its spends are decided in the loop's spend phase, its melee is a
pending roll closed by the attacker's raises, and its aftermath (Luck, the Narrator's moves)
is applied by the core. Seeded games on every bundled mission are played by both engines, in
lockstep and whole, for every ported system (tests/test_native_system_games.py), and as
environments (tests/test_native_system_envs.py). Here: the games reach Invictus's parts (both
raises, its melee, its aftermath), the Oracle decides its spends in the core, and a pending
Invictus roll crosses the seam.
"""

from __future__ import annotations

import pytest

from riven_env.engines import new_game
from riven_env.native import available

pytestmark = pytest.mark.skipif(not available(), reason="native core not built")

if available():
    from riven_env.native.game import from_native, native_view, python_view, to_native

from native_games import agents, system_lockstep  # noqa: E402

SYSTEM = "invictus"
OVERRIDES = {"resolution": SYSTEM}
SEEDS = range(4)


def test_native_games_raise_dice_and_close_melee_rolls() -> None:
    lines: list[str] = []
    spend_points = 0
    for seed in SEEDS:
        _, found, spends = system_lockstep(SYSTEM, "skirmish-5v5", "oracle", "oracle", seed)
        lines += found
        spend_points += spends
    text = "\n".join(lines)
    assert spend_points > 0
    assert '"favour:' in text and '"luck:' in text  # both raises, in the core's spend phase
    assert '"type":"melee"' in text and '"defender_dice":[]' in text  # Invictus's melee
    assert '"type":"resource"' in text  # Luck spent or earned (the aftermath)


def test_the_oracle_decides_invictus_spends_in_the_core() -> None:
    from riven_env.native.play import play_in_core

    for mission, seed in (("skirmish-5v5", 1), ("hold-the-line", 2)):
        state = new_game(mission, seed, overrides=OVERRIDES, engine="native")
        events, decisions = play_in_core(state, agents("oracle", "oracle", seed))
        assert state.is_terminal and decisions > 0  # one core call: no point left to Python
        rules = {e["rule"] for e in events if e["type"] == "oracle_decision"}
        assert "invictus:favour_best" in rules


def test_an_invictus_pending_roll_crosses_the_seam() -> None:
    python = new_game("skirmish-5v5", 1, overrides=OVERRIDES, engine="python")
    players = agents("oracle", "oracle", 1)
    seen = 0
    while not python.is_terminal and seen < 6:
        if python.phase == "spend":
            seen += 1
            native = to_native(python)
            assert native.pending_invictus is not None
            assert native_view(native) == python_view(python)
            back = from_native(native, python)
            assert back.pending == python.pending
            assert back.legal_decisions() == python.legal_decisions()
        legal = python.legal_decisions()
        python.apply(players[python.current_side].act(python, legal))
    assert seen == 6
