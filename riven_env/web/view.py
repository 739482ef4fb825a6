"""What the page shows of a session: the board, the models, the legal decisions, the odds.

The board is the replay's drawing (:func:`riven_env.replay.board.svg_board` of the
``game_start`` event) with its model layer left for the page script; the models are folded
from the events as the replay folds them. Every legal decision gets its words
(:func:`riven_env.replay.narrate.decision_words`) and, where
:mod:`riven_env.rules.odds` gives them directly, its exact odds.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from riven_env.errors import RivenError
from riven_env.replay.board import svg_board, svg_legend
from riven_env.replay.spec import read_board

__all__ = ["board_json", "decision_odds", "state_json"]

# Activation outcomes in words, in the order riven_env/rules/odds.py lists them.
_ACTIVATION_WORDS = {
    "pass": "no action, turn passes",
    "zero_clean": "no action, turn goes on",
    "one_then_pass": "1 action, then the turn passes",
    "one_clean": "1 action",
    "two": "2 actions",
    "three": "3 actions",
}
_TEST_WORDS = {"miss": "miss", "partial": "partial", "hit": "hit", "critical": "critical"}
_MELEE_WORDS = {
    "parry": "parry",
    "recoil_dealt": "it recoils",
    "wound_dealt": "wound dealt",
    "critical_dealt": "critical dealt",
    "recoil_taken": "you recoil",
    "wound_taken": "wound taken",
    "critical_taken": "critical taken",
}


def _pct(value: Fraction) -> str:
    return f"{100 * float(value):.0f}%"


def _odds_text(odds: Mapping[str, Fraction], words: Mapping[str, str]) -> str:
    return " · ".join(f"{words.get(k, k)} {_pct(v)}" for k, v in odds.items() if k in words and v)


def board_json(session: Any) -> dict[str, Any]:
    """The static board: the replay's SVG and legend, the sides' colours, the models."""
    board = read_board(session.events[:1])
    return {
        "svg": svg_board(board),
        "legend": svg_legend(board),
        "width": board.width,
        "height": board.height,
        "sides": {side.id: {"name": side.name, "colour": side.colour} for side in board.sides},
        "models": [
            {
                key: m.get(key)
                for key in (
                    "id",
                    "side",
                    "name",
                    "profile",
                    "base",
                    "wounds",
                    "mettle",
                    "might",
                    "agility",
                    "wit",
                    "resolve",
                    "move",
                    "strain_max",
                )
            }
            for m in session.events[0]["models"]
        ],  # fmt: skip
    }


def decision_odds(session: Any, decision: Any) -> dict[str, Any] | None:
    """Exact odds of a decision where the odds module gives them directly, else None.

    ``activate``: the activation roll on the model's Mettle and the dice chosen. ``shoot``:
    the shot against the cover the table gives the target (other modifiers are not
    counted, and the text says so). ``charge`` and ``melee``: one exchange, Might against
    Might, before modifiers. Only under RIVEN's own resolution system.
    """
    from riven_env.rules import odds

    rules = session.rules
    if rules.get("meta.resolution") not in (None, "riven"):
        return None
    ids = session.model_ids
    try:
        if decision.kind == "activate" and decision.model is not None and decision.dice:
            me = session.model_info[ids[decision.model]]
            found = odds.activation_odds(int(me["mettle"]), int(decision.dice), rules)
            text = _odds_text(found, _ACTIVATION_WORDS)
            expected = float(found["expected_actions"])
            return {
                "kind": "activation",
                "odds": {k: float(v) for k, v in found.items()},
                "text": f"Mettle {me['mettle']}+ on {decision.dice}: {text}; "
                f"{expected:.2f} actions expected, turn passes {_pct(found['p_turn_passes'])}",
            }
        if decision.target is None or decision.model is None:
            return None
        me = session.model_info[ids[decision.model]]
        them = session.model_info[ids[decision.target]]
        if decision.kind == "shoot":
            from riven_env.table import cover_for_shot
            from riven_env.web.session import TABLE_LOCK

            a, b = session.pieces[me["id"]], session.pieces[them["id"]]
            with TABLE_LOCK:
                cover = cover_for_shot(
                    session.scenario.table, (a.x, a.y), me["base"] / 2, (b.x, b.y), them["base"] / 2
                )
            found = odds.shoot_odds(int(me["agility"]), str(cover), 0, rules)
            return {
                "kind": "shot",
                "cover": str(cover),
                "odds": {k: float(v) for k, v in found.items()},
                "text": f"Agility {me['agility']} vs {cover} cover (before other modifiers): "
                + _odds_text(found, _TEST_WORDS),
            }
        if decision.kind in ("charge", "melee"):
            found = odds.melee_odds(int(me["might"]), int(them["might"]), 0, 0, rules)
            return {
                "kind": "melee",
                "odds": {k: float(v) for k, v in found.items()},
                "text": f"Might {me['might']} vs {them['might']} (before modifiers): "
                + _odds_text(found, _MELEE_WORDS),
            }
    except (RivenError, KeyError, TypeError, ValueError):
        return None
    return None


def _decision_json(session: Any, index: int, decision: Any) -> dict[str, Any]:
    ids = session.model_ids
    item: dict[str, Any] = {
        "index": index,
        "label": session.label(decision),
        "code": str(decision),
        "kind": decision.kind,
        "model": ids[decision.model] if decision.model is not None else None,
        "target": ids[decision.target] if decision.target is not None else None,
        "dice": decision.dice,
        "option": decision.option,
    }
    odds = decision_odds(session, decision)
    if odds is not None:
        item["odds"] = odds
    return item


def state_json(session: Any, since: int = 0) -> dict[str, Any]:
    """The session as the page reads it after every request.

    Args:
        session: A :class:`~riven_env.web.session.GameSession`.
        since: The client's event cursor: events from this index on are sent with their
            sentences (the text log).
    """
    with session.lock:
        state = session.state
        your_turn = session.people_to_play
        legal = session.legal() if your_turn else []
        undo_ok, undo_reason = session.undo_status()
        since = max(0, min(int(since), len(session.events)))
        active = state.active_model if not session.over else None
        result = state.result
        return {
            "id": session.id,
            "title": session.events[0].get("title") or session.events[0].get("scenario"),
            "scenario": session.events[0].get("scenario"),
            "human": session.human,
            "opponent": session.spec.opponent,
            "opponent_side": session.opponent_side,
            "hotseat": session.spec.hotseat,
            "humans": sorted(session.humans),
            "suggest": session.spec.suggest,
            "recorded": session.recorded,
            "engine": session.engine,
            "seed": session.spec.seed,
            "round": next(
                (
                    int(e["round"])
                    for e in reversed(session.events)
                    if isinstance(e.get("round"), int)
                ),
                1,
            ),
            "round_limit": int(session.events[0].get("rounds") or 0),
            "to_play": session.to_play,
            "your_turn": your_turn,
            "phase": str(state.phase),
            "over": session.over,
            "result": result if session.over else None,
            "result_text": session.result_text(),
            "points": dict(result.get("points") or {}),
            "momentum": dict(session.momentum),
            "active": session.model_ids[active] if active is not None else None,
            "decisions": len(session.decisions),
            "undo": {"allowed": undo_ok, "reason": undo_reason},
            "explanation": session.last_explanation,
            "models": [
                {
                    "id": mid,
                    "x": round(p.x, 4),
                    "y": round(p.y, 4),
                    "wounds": p.wounds,
                    "down": p.down,
                    "stable": p.stable,
                    "removed": p.removed,
                    "conditions": list(p.conditions),
                    "strain": p.strain,
                }
                for mid, p in session.pieces.items()
            ],
            "legal": [_decision_json(session, k, d) for k, d in enumerate(legal)],
            "events_total": len(session.events),
            "events_from": since,
            "log": [
                {"seq": since + k, "type": e.get("type"), "text": session.describe(e)}
                for k, e in enumerate(session.events[since:])
            ],
        }
