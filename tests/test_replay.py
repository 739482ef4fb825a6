"""Tests of the self-contained HTML replay (riven_env.replay), in Python and in headless Chromium."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from riven_env.replay import (
    EVENTS_ELEMENT_ID,
    ReplayError,
    describe_event,
    describe_events,
    read_board,
    render_replay,
    write_replay,
)

try:  # tests/ as a package (python -m pytest from the root) or as a plain folder on sys.path
    from tests.browser import dump_dom, elements, read_json_element, require_chromium
except ModuleNotFoundError:  # pragma: no cover - depends on how pytest was started
    from browser import dump_dom, elements, read_json_element, require_chromium

REPO = Path(__file__).resolve().parents[1]


def _e(seq: int, type_: str, round_: int | None, turn_side: str | None, /, **fields: Any) -> dict:
    """One event; ``side`` in ``fields`` (a scoring side) replaces the side whose turn it is."""
    return {"type": type_, "seq": seq, "round": round_, "side": turn_side, **fields}


def synthetic_log() -> list[dict[str, Any]]:
    """A 2v2 game on a 24" table, hand-written to docs/event-log.md.

    blue-1 moves (index 5), blue-2 shoots red-1 (8), red-2 charges blue-1 and loses the melee
    (15-16), goes Down (19) and is removed Out (23); blue wins.
    """
    start = {
        "type": "game_start",
        "schema": 1,
        "scenario": "test-skirmish",
        "title": "Test Skirmish",
        "setting": "fantasy",
        "mode": "versus",
        "seed": 7,
        "rules": {"source": "riven-v0.1", "overrides": {}},
        "rounds": 4,
        "first_side": "blue",
        "agents": {"blue": "random", "red": "oracle:aggressive"},
        "table": {
            "width": 24,
            "height": 24,
            "terrain": [
                {
                    "name": "Thicket",
                    "type": "forest",
                    "polygon": [[2, 10], [8, 10], [8, 14], [2, 14]],
                    "cover": "soft",
                    "blocks_los": False,
                    "difficult": True,
                    "impassable": False,
                },
                {
                    "name": "Old wall",
                    "type": "wall",
                    "polygon": [[14, 11], [20, 11], [20, 11.5], [14, 11.5]],
                    "cover": "hard",
                    "blocks_los": True,
                    "difficult": False,
                    "impassable": True,
                },
                {
                    "name": "Mire",
                    "type": "marsh",
                    "polygon": [[10, 0], [13, 0], [13, 3]],
                    "cover": "none",
                    "blocks_los": False,
                    "difficult": True,
                    "impassable": False,
                },
            ],
        },
        "deployment": {"blue": [[0, 0, 24, 4]], "red": [[0, 20, 24, 24]]},
        "objectives": [
            {"name": "Cairn", "x": 12, "y": 12, "radius": 3, "kind": "control", "points": 2}
        ],
        "sides": {"blue": {"name": "Blue Band"}, "red": {"name": "Red Raiders"}},
        "models": [
            _model("blue-1", "blue", 6, 2),
            _model("blue-2", "blue", 18, 2),
            _model("red-1", "red", 18, 22),
            _model("red-2", "red", 6, 22),
        ],
    }
    events = [
        start,
        _e(1, "round_start", 1, None),
        _e(2, "turn_start", 1, "blue"),
        _e(
            3,
            "activation",
            1,
            "blue",
            model="blue-1",
            mettle=4,
            dice=[5, 4],
            successes=2,
            actions=2,
            turn_passes=False,
            bonus=False,
        ),
        _e(
            4,
            "action",
            1,
            "blue",
            model="blue-1",
            action="move",
            target=None,
            destination="forward",
            actions_left=1,
        ),
        _e(
            5,
            "move",
            1,
            "blue",
            model="blue-1",
            **{"from": [6, 2]},
            to=[6, 7],
            path=[[6, 2], [6, 4.5], [6, 7]],
            path_length=5.0,
            kind="move",
        ),
        _e(
            6,
            "activation",
            1,
            "blue",
            model="blue-2",
            mettle=4,
            dice=[4],
            successes=1,
            actions=1,
            turn_passes=False,
            bonus=False,
        ),
        _e(
            7,
            "action",
            1,
            "blue",
            model="blue-2",
            action="shoot",
            target="red-1",
            destination=None,
            actions_left=0,
        ),
        _e(
            8,
            "shot",
            1,
            "blue",
            shooter="blue-2",
            target="red-1",
            cover="soft",
            tn=10,
            modifiers=[],
            dice=[4, 3],
            total=10,
            result="partial",
        ),
        _e(
            9,
            "wound",
            1,
            "blue",
            model="red-1",
            amount=1,
            wounds_left=1,
            source="blue-2",
            cause="shot",
        ),
        _e(
            10,
            "condition",
            1,
            "blue",
            model="blue-2",
            condition="exposed",
            gained=True,
            reason="partial_shot",
        ),
        _e(11, "turn_end", 1, "blue", reason="all_activated"),
        _e(12, "turn_start", 1, "red"),
        _e(
            13,
            "oracle_decision",
            1,
            "red",
            model="red-2",
            profile="aggressive",
            rule="charge_nearest",
            decision="charge m3 ->m0",
            explanation="an enemy is within charge reach",
        ),
        _e(
            14,
            "activation",
            1,
            "red",
            model="red-2",
            mettle=4,
            dice=[6],
            successes=1,
            actions=1,
            turn_passes=False,
            bonus=False,
        ),
        _e(
            15,
            "move",
            1,
            "red",
            model="red-2",
            **{"from": [6, 22]},
            to=[6, 8],
            path=[[6, 22], [6, 8]],
            path_length=14.0,
            kind="charge",
        ),
        _e(
            16,
            "melee",
            1,
            "red",
            attacker="red-2",
            defender="blue-1",
            attacker_dice=[1, 1],
            defender_dice=[6, 5],
            attacker_total=6,
            defender_total=14,
            attacker_modifiers=[{"source": "charge", "value": 2}],
            defender_modifiers=[],
            outcome="critical",
            winner="blue-1",
            loser="red-2",
        ),
        _e(
            17,
            "wound",
            1,
            "red",
            model="red-2",
            amount=1,
            wounds_left=0,
            source="blue-1",
            cause="melee",
        ),
        _e(
            18,
            "condition",
            1,
            "red",
            model="red-2",
            condition="dazed",
            gained=True,
            reason="critical_hit",
        ),
        _e(19, "down", 1, "red", model="red-2"),
        _e(20, "momentum", 1, "red", owner="blue", delta=1, value=1, reason="critical"),
        _e(21, "turn_end", 1, "red", reason="all_activated"),
        _e(22, "out_check", 1, None, model="red-2", mettle=4, die=2, out=True),
        _e(23, "removed", 1, None, model="red-2", reason="out"),
        _e(24, "score", 1, None, side="blue", points=2, total=2, reason="objective"),
        _e(25, "round_end", 1, None),
        _e(
            26,
            "game_end",
            1,
            None,
            winner="blue",
            draw=False,
            reason="objectives",
            rounds=1,
            points={"blue": 2, "red": 0},
        ),
    ]
    return events


def _model(model_id: str, side: str, x: float, y: float) -> dict[str, Any]:
    return {
        "id": model_id,
        "side": side,
        "profile": "warrior",
        "name": f"Warrior {model_id}",
        "x": x,
        "y": y,
        "base": 1.0,
        "wounds": 2,
        "mettle": 4,
        "might": 3,
        "agility": 3,
        "wit": 2,
        "resolve": 1,
        "move": 5,
        "strain_max": 4,
        "keywords": [],
        "oracle": None,
    }


def _script_json(page: str, element_id: str) -> Any:
    match = re.search(
        rf'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S
    )
    assert match, f"no JSON block {element_id}"
    return json.loads(match.group(1))


# --------------------------------------------------------------------------- pure Python


def test_replay_is_one_self_contained_page() -> None:
    page = render_replay(synthetic_log())
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>Test Skirmish</title>" in page
    # Nothing is fetched: no src/href to a URL, no stylesheet link, no CSS import or remote url().
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:[a-z]+:)?//""", page, re.I)
    assert not re.search(r"<link\b|<iframe\b|<img\b|@import", page, re.I)
    assert re.findall(r"url\(([^)]*)\)", page) and all(
        ref.startswith("#") for ref in re.findall(r"url\(([^)]*)\)", page)
    )
    assert "https://" not in page
    assert "<style>" in page and "window.rivenReplay" in page


def test_events_are_embedded_as_json() -> None:
    events = synthetic_log()
    page = render_replay(events)
    assert _script_json(page, EVENTS_ELEMENT_ID) == events
    texts = _script_json(page, "riven-texts")
    assert len(texts) == len(events)
    assert texts[8] == "blue-2 shoots red-1 (soft cover, TN 10): 4+3+3 = 10 -> partial."


def test_script_breaking_text_is_escaped() -> None:
    events = synthetic_log()
    hostile = "</script><script>alert(1)</script><!--"
    events[0]["title"] = hostile
    events[13]["explanation"] = hostile
    page = render_replay(events)
    assert "<script>alert(1)" not in page
    assert "<!--" not in page
    assert _script_json(page, EVENTS_ELEMENT_ID)[13]["explanation"] == hostile
    assert "<title>&lt;/script&gt;&lt;script&gt;alert(1)" in page


def test_output_is_deterministic_across_processes(tmp_path: Path) -> None:
    events = synthetic_log()
    first = write_replay(events, tmp_path / "a" / "replay.html").read_bytes()
    assert render_replay(copy.deepcopy(events)).encode("utf-8") == first
    code = (
        "import json, sys; from riven_env.replay import render_replay; "
        "sys.stdout.buffer.write(render_replay(json.load(sys.stdin)).encode('utf-8'))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    other = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(events).encode(),
        capture_output=True,
        check=True,
        cwd=REPO,
        env=env,
    ).stdout
    assert other == first


def test_board_draws_terrain_zones_objectives_and_grid() -> None:
    page = render_replay(synthetic_log())
    board = re.search(r'<svg id="board".*?</svg>', page, re.S).group(0)
    paths = elements(board, "path")
    classes = [p["class"] for p in paths if "terrain" in p.get("class", "").split()]
    assert "terrain type-forest cover-soft difficult" in classes
    assert "terrain type-wall cover-hard impassable blocks-los" in classes
    # Impassable and difficult get different overlays, so they read differently.
    hatches = [p["class"] for p in paths if "hatch" in p.get("class", "")]
    assert sorted(hatches) == [
        "hatch difficult-hatch",
        "hatch difficult-hatch",
        "hatch impassable-hatch",
    ]
    # y points up: the mire's corner at table (13, 0) is at SVG y = 24.
    mire = next(p for p in paths if "type-marsh" in p.get("class", ""))
    assert mire["d"] == "M10,24 L13,24 L13,21 Z"
    radius = [c for c in elements(board, "circle") if c.get("class") == "objective-radius"]
    assert radius == [{"class": "objective-radius", "cx": "12", "cy": "12", "r": "3"}]
    zones = [r for r in elements(board, "rect") if r.get("class") == "deployment"]
    assert [(z["data-side"], z["y"], z["height"]) for z in zones] == [
        ("blue", "20", "4"),
        ("red", "0", "4"),
    ]
    assert len(elements(board.split('<g id="grid">')[1].split("</g>")[0], "line")) == 10


def test_table_spec_shapes_and_type_defaults_are_resolved() -> None:
    """Logs may hold the table spec as the game reads it: rect, circle, holes, type defaults."""
    from riven_env.table.config import terrain_types

    events = synthetic_log()
    events[0]["table"]["terrain"] = [
        {"name": "hedge", "type": "hedge", "rect": [1, 1, 5, 2]},
        {"name": "boulder", "type": "boulder", "circle": [10, 10, 1.5]},
        {
            "name": "ruin",
            "type": "ruin",
            "polygon": [[14, 14], [20, 14], [20, 20], [14, 20]],
            "holes": [[[16, 16], [18, 16], [18, 18]]],
            "cover": "soft",
        },
    ]
    hedge, boulder, ruin = read_board(events).terrain
    types = terrain_types()
    for piece in (hedge, boulder):
        known = types[piece.type]
        assert (piece.cover, piece.blocks_los, piece.difficult, piece.impassable) == (
            known.cover,
            known.blocks_los,
            known.difficult,
            known.impassable,
        )
    assert ruin.cover == "soft"  # the piece's own value wins over its type's
    assert ruin.blocks_los == types["ruin"].blocks_los
    assert hedge.rings == (((1, 1), (5, 1), (5, 2), (1, 2)),)
    assert boulder.circle == (10, 10, 1.5) and boulder.rings == ()
    page = render_replay(events)
    assert 'd="M8.5,14 A1.5,1.5 0 1 0 11.5,14 A1.5,1.5 0 1 0 8.5,14 Z"' in page
    assert 'd="M14,10 L20,10 L20,4 L14,4 Z M16,8 L18,8 L18,6 Z"' in page


def test_sides_get_their_named_colours() -> None:
    board = read_board(synthetic_log())
    assert [(s.id, s.name, s.colour) for s in board.sides] == [
        ("blue", "Blue Band", "#2f6fd6"),
        ("red", "Red Raiders", "#d0413a"),
    ]


def test_sentences_for_every_event_kind() -> None:
    texts = describe_events(synthetic_log())
    assert texts[0].startswith("Test Skirmish: Blue Band vs Red Raiders, 4 models, 4 rounds")
    assert texts[3] == "blue-1 activates on 2 dice vs Mettle 4+: 5, 4 -> 2 successes, 2 actions."
    assert texts[5] == 'blue-1 moves 5" from (6, 2) to (6, 7).'
    assert texts[13] == (
        "Oracle (aggressive) for red-2, rule charge_nearest: red-2 charges blue-1 "
        "(an enemy is within charge reach)."
    )
    assert texts[15] == 'red-2 charges 14" from (6, 22) to (6, 8).'
    assert texts[16] == (
        "red-2 fights blue-1: 1+1+2 (+2 charge) = 6 vs 6+5+3 = 14 -> critical, blue-1 wins."
    )
    assert texts[19] == "red-2 is Down."
    assert texts[23] == "red-2 is Out and removed."
    assert texts[26] == (
        "Game over after 1 rounds: Blue Band wins (objectives). Points: Blue Band 2, Red Raiders 0."
    )
    assert describe_event({"type": "mystery", "seq": 3, "clue": 4}) == "mystery: clue=4"


def test_test_event_with_spend_names_the_rolled_result() -> None:
    text = describe_event(
        {
            "type": "test",
            "model": "blue-1",
            "kind": "climb",
            "attribute": "agility",
            "attribute_value": 2,
            "modifiers": [{"source": "wet", "value": -1}],
            "tn": 8,
            "dice": [2, 2],
            "total": 5,
            "result": "partial",
            "rolled_result": "miss",
            "spends": ["strain_convert"],
        }
    )
    assert text == (
        "blue-1 tests agility (climb, TN 8): 2+2+2 (-1 wet) = 5 -> partial "
        "(rolled miss; spent strain_convert)."
    )


def test_numpy_values_and_unknown_events_are_replayed() -> None:
    events = synthetic_log()
    events[5]["to"] = np.array([6.0, 7.0])
    events[5]["path_length"] = np.float64(5.0)
    events.insert(6, {"type": "weather", "seq": 6, "round": 1, "side": "blue", "rain": True})
    page = render_replay(events)
    embedded = _script_json(page, EVENTS_ELEMENT_ID)
    assert embedded[5]["to"] == [6.0, 7.0]
    assert _script_json(page, "riven-texts")[6] == "weather: rain=True"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda ev: ev.clear(), "event log is empty"),
        (lambda ev: ev.pop(0), "events[0].type = 'round_start'"),
        (
            lambda ev: ev[0]["table"]["terrain"][1].update(polygon=[[0, 0], [1, 1]]),
            "events[0].table.terrain[1].polygon",
        ),
        (lambda ev: ev[0]["table"].update(width=-3), "events[0].table.width = -3"),
        (
            lambda ev: ev[0]["table"]["terrain"][0].update(cover="thick"),
            "events[0].table.terrain[0].cover = 'thick'",
        ),
        (lambda ev: ev[0]["models"][1].update(id="blue-1"), "events[0].models[1].id = 'blue-1'"),
        (lambda ev: ev[3].pop("type"), "events[3].type = None"),
        (lambda ev: ev[5].update(path_length=float("nan")), "events[5].path_length = nan"),
    ],
)
def test_bad_logs_raise_replay_error_naming_the_field(mutate: Any, message: str) -> None:
    events = synthetic_log()
    mutate(events)
    with pytest.raises(ReplayError, match=re.escape(message)):
        render_replay(events)


# --------------------------------------------------------------------------- headless Chromium


def _circles(dom: str) -> dict[str, dict[str, str]]:
    return {c["data-model"]: c for c in elements(dom, "circle") if "data-model" in c}


def _groups(dom: str) -> dict[str, dict[str, str]]:
    return {g["data-model"]: g for g in elements(dom, "g") if "data-model" in g}


def _open(path: Path, query: str) -> tuple[str, dict[str, Any]]:
    dom = dump_dom(path, query)
    errors = re.search(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S)
    assert errors is not None and errors.group(1).strip() == "", errors and errors.group(1)
    return dom, read_json_element(dom, "state")


@pytest.mark.browser
def test_stepping_moves_and_removes_models_in_chromium(tmp_path: Path) -> None:
    require_chromium()
    path = write_replay(synthetic_log(), tmp_path / "replay.html")

    # Forward to the move, to the end, back 21 events, then forward 14: one state per step.
    dom19, state19 = _open(path, "step=0,5,last,-21,%2B14&trace=1")
    at0, at5, at_end, back_to_5, again_19 = read_json_element(dom19, "trace")
    assert at0["index"] == 0 and at0["count"] == 27
    assert at0["positions"] == {
        "blue-1": [6, 2],
        "blue-2": [18, 2],
        "red-1": [18, 22],
        "red-2": [6, 22],
    }
    assert at5["type"] == "move"
    assert at5["positions"]["blue-1"] == [6, 7] != at0["positions"]["blue-1"]
    # Stepping back rebuilds the earlier state exactly.
    assert back_to_5 == at5 and again_19 == state19

    assert state19["index"] == 19 and state19["text"] == "red-2 is Down."
    assert state19["down"] == ["red-2"] and state19["wounds"]["red-2"] == 0
    assert state19["conditions"]["red-2"] == ["dazed"]
    assert _groups(dom19)["red-2"]["data-down"] == "true"
    # blue-1's base moved from table (6, 2) to (6, 7): SVG y = 24 - y.
    assert (_circles(dom19)["blue-1"]["cx"], _circles(dom19)["blue-1"]["cy"]) == ("6", "17")
    # Every previous event is listed, none after the current one.
    items = [li for li in elements(dom19, "li") if "data-index" in li]
    assert [("future" in li["class"]) for li in items] == [i > 19 for i in range(27)]

    assert at_end["index"] == 26 and at_end["removed"] == ["red-2"]
    assert "red-2" not in at_end["positions"] and "red-2" in state19["positions"]
    assert at_end["momentum"] == {"blue": 1} and at_end["scores"] == {"blue": 2}

    dom_end, _ = _open(path, "step=last")
    assert _groups(dom_end)["red-2"]["data-removed"] == "true"
    assert "removed" in _groups(dom_end)["red-2"]["class"].split()
    assert 'class="link melee"' not in dom_end
    dom16, _ = _open(path, "step=16")
    assert 'class="link melee"' in dom16


# Drives the page's controls the way a user does and records the event index after each.
_CONTROLS_PROBE = """
<pre id="probe"></pre>
<script>
(function () {
  var seen = [];
  function key(k, shift) {
    document.dispatchEvent(new KeyboardEvent("keydown", {key: k, shiftKey: !!shift, bubbles: true}));
    seen.push(window.rivenReplay.index);
  }
  function click(id) { document.getElementById(id).click(); seen.push(window.rivenReplay.index); }
  key("ArrowRight"); key("ArrowRight"); key("ArrowLeft"); key("ArrowRight", true);
  key("End"); key("ArrowRight"); key("Home"); key("ArrowLeft");
  click("btn-forward"); click("btn-last"); click("btn-back"); click("btn-first");
  var slider = document.getElementById("slider");
  slider.value = "7"; slider.dispatchEvent(new Event("input"));
  seen.push(window.rivenReplay.index);
  document.querySelector('#log li[data-index="3"]').click();
  seen.push(window.rivenReplay.index);
  click("btn-play");
  seen.push(document.getElementById("btn-play").getAttribute("aria-label"));
  key(" ");
  seen.push(document.getElementById("btn-play").getAttribute("aria-label"));
  document.getElementById("probe").textContent = JSON.stringify(seen);
})();
</script>
"""


@pytest.mark.browser
def test_keyboard_buttons_slider_and_event_list_in_chromium(tmp_path: Path) -> None:
    require_chromium()
    page = render_replay(synthetic_log())
    path = tmp_path / "probe.html"
    path.write_text(page.replace("</body>", _CONTROLS_PROBE + "</body>"), encoding="utf-8")
    dom, _ = _open(path, "step=0")
    assert read_json_element(dom, "probe") == [
        1, 2, 1, 11, 26, 26, 0, 0,  # keys: right, right, left, shift+right, end, right, home, left
        1, 26, 25, 0,  # buttons: forward, last, back, first
        7, 3,  # slider, a click in the event list
        3, "Pause", 3, "Play",  # the play button, then space, toggle playback
    ]  # fmt: skip


@pytest.mark.browser
def test_playback_advances_in_chromium(tmp_path: Path) -> None:
    require_chromium()
    path = write_replay(synthetic_log(), tmp_path / "replay.html")
    _, state = _open(path, "play=1")
    # 5 s of virtual time at 1x plays several events, and stops at the end at the latest.
    assert 3 <= state["index"] <= 26


# --------------------------------------------------------------------------- a real game

# Decisions played in the real-game test: a few rounds of random play, enough for moves,
# attacks and casualties, short enough to keep the test fast.
REAL_GAME_DECISIONS = 200


def _real_game_scenario(tmp_path: Path) -> str:
    """A bundled mission (a skirmish if there is one), else a generated open-field battle."""
    from riven_env.scenario import list_bundled

    names = [info.name for info in list_bundled() if not info.title.startswith("<unreadable")]
    if names:
        return next((n for n in names if "skirmish" in n), names[0])
    from riven_env.scenario.generator import generate_scenario, to_toml

    path = tmp_path / "field.toml"
    path.write_text(to_toml(generate_scenario("field", 3, models_per_side=3)), encoding="utf-8")
    return str(path)


@pytest.mark.browser
def test_replay_of_a_real_game_in_chromium(tmp_path: Path) -> None:
    if not (REPO / "riven_env" / "game" / "runner.py").exists():
        pytest.skip("the game loop (riven_env/game/runner.py) is not in this tree yet")
    from riven_env.engines import play_game

    events = play_game(
        _real_game_scenario(tmp_path), "random", "random", 11, max_decisions=REAL_GAME_DECISIONS
    )
    path = write_replay(events, tmp_path / "game.html")
    assert _script_json(path.read_text(encoding="utf-8"), EVENTS_ELEMENT_ID) == json.loads(
        json.dumps(events)
    )
    require_chromium()

    dom, _ = _open(path, "step=0,last&trace=1")
    first, last = read_json_element(dom, "trace")
    assert first["count"] == last["count"] == len(events)
    assert last["index"] == len(events) - 1
    final: dict[str, list[float]] = {m["id"]: [m["x"], m["y"]] for m in events[0]["models"]}
    removed: set[str] = set()
    for event in events:
        if event["type"] == "move":
            final[event["model"]] = list(event["to"])
        elif event["type"] == "removed":
            removed.add(event["model"])
    moved = {m for m, xy in final.items() if xy != first["positions"].get(m)} - removed
    assert moved, "random play for a few rounds moved no model"
    for model in moved:
        assert last["positions"][model] == pytest.approx(final[model])
    assert set(last["removed"]) == removed
    assert removed.isdisjoint(last["positions"])
