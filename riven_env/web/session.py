"""One game a person plays in the browser against an agent: :class:`GameSession`.

A session holds its own game state, its opponent agent, its event log, its decisions and its
undo snapshots, behind its own lock; nothing is shared between sessions. The web app
(:mod:`riven_env.web.app`) only turns HTTP requests into calls of these methods, so the
whole game logic is testable without a server.

The game is played exactly as :func:`riven_env.game.runner.play_game` plays it: the opponent
is ``make_agent(spec, side, agent_seeds(seed)[side])``, its explanation is written as an
``oracle_decision`` event before its decision is applied, and ``game_start`` names the agents
(``human`` for the person) and the Oracle profiles the opponent resolved. The log of a
finished game is therefore the same kind of log ``riven play --log`` writes, and it exports
through the same writers (:func:`~riven_env.game.events.dumps_event`,
:func:`~riven_env.replay.render_replay`).

Errors are :class:`WebError` with an HTTP status and one line saying what went wrong and
what is allowed.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from riven_env.engines import new_game
from riven_env.errors import RivenError
from riven_env.game.decisions import is_listed
from riven_env.game.events import Event, dumps_event
from riven_env.game.runner import agent_seeds
from riven_env.game.setup import resolve_rules
from riven_env.game.state import SIDES
from riven_env.replay.narrate import LogContext, decision_words, describe_event

__all__ = [
    "HUMAN",
    "SAVE_FORMAT",
    "GameSession",
    "GameSpec",
    "WebError",
    "rolls_dice",
]

HUMAN = "human"
"""What ``game_start.agents`` names the person's side."""

SAVE_FORMAT = "riven-web-save"
"""The ``format`` of a saved game (:meth:`GameSession.save`)."""

SAVE_VERSION = 1

# How many legal decisions a refusal names before it says "and N more".
_NAMED_IN_REFUSAL = 30

# Games start one at a time: the native core registers a table's navigation graph when the
# first game on it starts, and two first starts at once on one table leave a game whose
# routes fail ("no navigation graph registered for this base radius"; the load test,
# tests/test_web_load.py, found it). Starting is milliseconds.
_START_LOCK = threading.Lock()

TABLE_LOCK = threading.RLock()
"""Held by all work on the Python engine and on the table's Python queries, in every session.

The Python engine and ``riven_env.table`` keep lazily built caches on the tables games
share (one per mission), which are not safe to build from two threads at once: concurrent
Python-engine games in one process diverge from their own replays and can crash (the load
test found it). So every Python-engine session uses this lock as its own, and a native
session takes it around what reads a Python table (its start, the cover of a shot, the sight
lines of the previews) and around its agents' decisions. A native session's own moves run
concurrently with the others."""

# Event fields that hold dice rolled on the game's stream.
_DICE_FIELDS = ("dice", "die", "attacker_dice", "attack_dice", "defence_dice", "roll")


class WebError(RivenError):
    """A request the game refuses: ``status`` (4xx) and a one-line message."""

    def __init__(self, status: int, message: str):
        self.status = status
        super().__init__(" ".join(str(message).split()))


def rolls_dice(event: Mapping[str, Any]) -> bool:
    """Whether an event records dice rolled (an activation roll, a test, a shot, a melee...).

    A Momentum bonus activation rolls none; every other event with dice fields does.
    """
    if event.get("type") == "activation" and event.get("bonus"):
        return False
    return any(event.get(key) not in (None, [], ()) for key in _DICE_FIELDS)


@dataclass(frozen=True)
class GameSpec:
    """What a game is: the mission, the sides, the opponent, the engine and the seed.

    Attributes:
        scenario: A bundled mission name (None when ``scenario_text`` is given).
        scenario_text: An uploaded mission file's TOML text (validated as the CLI validates).
        human: The side the person plays (``blue`` or ``red``).
        opponent: The opponent's agent spec (``oracle``, ``oracle:tactical``, ``random``...).
        engine: ``auto``, ``python`` or ``native``.
        seed: The game seed.
        suggest: An ``expert[:BUDGET]`` spec whose top three decisions are suggested to the
            people playing (None: no suggestions). ``opponent`` ``human`` is hot-seat: both
            sides are played by people at one screen.
    """

    scenario: str | None = "duel-1v1"
    scenario_text: str | None = None
    human: str = "blue"
    opponent: str = "oracle"
    engine: str = "auto"
    seed: int = 0
    suggest: str | None = None

    @property
    def hotseat(self) -> bool:
        return self.opponent.strip().lower() == HUMAN

    def to_json(self) -> dict[str, Any]:
        data = {
            "scenario": self.scenario,
            "scenario_text": self.scenario_text,
            "human": self.human,
            "opponent": self.opponent,
            "engine": self.engine,
            "seed": self.seed,
        }
        if self.suggest is not None:
            data["suggest"] = self.suggest
        return data


@dataclass
class _Piece:
    """A model as the page draws it, folded from the events (as the replay folds them)."""

    x: float
    y: float
    wounds: int
    down: bool = False
    stable: bool = False
    removed: str | None = None
    conditions: list[str] = field(default_factory=list)
    strain: int = 0

    def copy(self) -> _Piece:
        return _Piece(
            self.x,
            self.y,
            self.wounds,
            self.down,
            self.stable,
            self.removed,
            list(self.conditions),
            self.strain,
        )


@dataclass
class _Snapshot:
    """What undo restores: the state before a decision of the person's and the log's length."""

    state: Any
    events: int
    decisions: int
    pieces: dict[str, _Piece]
    momentum: dict[str, int]
    label: str = ""


def _fold(pieces: dict[str, _Piece], momentum: dict[str, int], event: Mapping[str, Any]) -> None:
    kind = event.get("type")
    if kind == "momentum":
        momentum[str(event.get("owner"))] = int(event.get("value") or 0)
        return
    piece = pieces.get(str(event.get("model")))
    if piece is None:
        return
    if kind == "move" and isinstance(event.get("to"), Sequence):
        piece.x, piece.y = float(event["to"][0]), float(event["to"][1])
    elif kind == "wound" and isinstance(event.get("wounds_left"), int | float):
        piece.wounds = int(event["wounds_left"])
    elif kind == "down":
        piece.down, piece.stable = True, False
    elif kind == "stabilise":
        piece.stable = True
    elif kind == "removed":
        piece.removed = str(event.get("reason") or "removed")
    elif kind == "strain" and isinstance(event.get("value"), int | float):
        piece.strain = int(event["value"])
    elif kind == "condition":
        name = str(event.get("condition"))
        if event.get("gained") and name not in piece.conditions:
            piece.conditions.append(name)
        elif not event.get("gained") and name in piece.conditions:
            piece.conditions.remove(name)


def _load_mission(spec: GameSpec, rules: Any) -> Any:
    """The loaded scenario of ``spec``: a bundled name, or uploaded text validated as the CLI
    validates a file (:func:`riven_env.scenario.load_scenario_text`)."""
    from riven_env.errors import ScenarioError
    from riven_env.scenario import list_bundled
    from riven_env.scenario.loader import load_scenario_text, read_scenario_text

    if spec.scenario_text is not None:
        try:
            return load_scenario_text(spec.scenario_text, source="uploaded mission", rules=rules)
        except ScenarioError as exc:
            raise WebError(400, f"mission file refused: {exc}") from None
    names = {info.name: info.path for info in list_bundled()}
    if spec.scenario not in names:
        raise WebError(
            400,
            f"unknown mission {spec.scenario!r}; allowed: {', '.join(sorted(names))} "
            "(or upload a mission file)",
        )
    path = names[str(spec.scenario)]
    try:
        return load_scenario_text(read_scenario_text(path), source=str(path), rules=rules)
    except ScenarioError as exc:  # a bundled file broken by an edit
        raise WebError(400, f"mission {spec.scenario!r} does not load: {exc}") from None


class GameSession:
    """A person's game against an agent. Every public method takes the session's lock.

    Args:
        spec: The game to start.
        session_id: Its id (a random one when None).

    Raises:
        WebError: 400 for an unknown mission, a mission file that fails validation, a side,
            engine or agent spec that does not exist, or an engine that cannot play it.
    """

    def __init__(self, spec: GameSpec, session_id: str | None = None):
        self.id = session_id or uuid.uuid4().hex
        self.lock: Any = threading.RLock()
        self.spec = spec
        if spec.human not in SIDES:
            raise WebError(400, f"side {spec.human!r}: allowed: {', '.join(SIDES)}")
        self.human = spec.human
        self.opponent_side = "red" if spec.human == "blue" else "blue"
        # The sides people play: the person's, and in hot-seat the other one too.
        self.humans = frozenset(SIDES) if spec.hotseat else frozenset({spec.human})
        self.rules = resolve_rules(None, None)
        scenario = _load_mission(spec, self.rules)
        self.agent = None if spec.hotseat else self._make_agent(spec)
        self.suggesters = self._make_suggesters(spec)
        try:
            with _START_LOCK, TABLE_LOCK:
                self.state = new_game(
                    scenario, int(spec.seed), rules=self.rules, engine=spec.engine
                )
        except (RivenError, ValueError) as exc:
            raise WebError(400, f"cannot start the game: {exc}") from None
        self.engine = "native" if type(self.state).__name__ == "NativeGameState" else "python"
        if self.engine == "python":
            self.lock = TABLE_LOCK
        self.scenario = scenario
        self.events: list[Event] = self.state.drain_events()
        start = self.events[0]
        start["agents"] = {
            self.human: HUMAN,
            self.opponent_side: HUMAN if spec.hotseat else spec.opponent,
        }
        resolved = getattr(self.agent, "resolved_profiles", None)
        begin = getattr(self.state, "start_state", self.state)
        start["oracle_profiles"] = (
            {self.opponent_side: resolved(begin)} if callable(resolved) else {}
        )
        self.context = LogContext(self.events)
        self.model_ids = [str(m["id"]) for m in start["models"]]
        self.model_info = {str(m["id"]): m for m in start["models"]}
        self.pieces = {
            str(m["id"]): _Piece(float(m["x"]), float(m["y"]), int(m["wounds"]))
            for m in start["models"]
        }
        self.momentum: dict[str, int] = {
            str(k): int(v) for k, v in (start.get("momentum") or {}).items()
        }
        for event in self.events[1:]:
            _fold(self.pieces, self.momentum, event)
        # Every decision so far: {"side", "index" (into the legal list), "decision" (code)}.
        self.decisions: list[dict[str, Any]] = []
        self._undo: list[_Snapshot] = []
        self._undo_blocked = "you have made no decision yet"
        self.last_explanation: dict[str, Any] | None = None
        # Per position (the decisions count): the board previews and the suggestions.
        self._previews: tuple[int, list[dict[str, Any]]] | None = None
        self._suggestions: tuple[int, dict[str, Any]] | None = None
        # Where this game was stored as a playtest run (record_result), once stored.
        self.recorded: dict[str, Any] | None = None
        self.started = time.monotonic()

    # ------------------------------------------------------------------ building
    def _make_agent(self, spec: GameSpec) -> Any:
        from riven_agents.registry import make_agent

        if spec.opponent.partition(":")[0].startswith("ppo"):
            # A policy path is a file on the server: the page may not name one.
            raise WebError(
                400,
                f"opponent {spec.opponent!r}: trained policies are not offered by the web app yet; "
                "allowed: oracle[:PROFILE], native-oracle[:PROFILE], random, greedy, mcts[:N], expert[:BUDGET]",
            )
        try:
            return make_agent(
                spec.opponent, self.opponent_side, agent_seeds(spec.seed)[self.opponent_side]
            )
        except RivenError as exc:
            raise WebError(400, str(exc)) from None

    def _make_suggesters(self, spec: GameSpec) -> dict[str, Any]:
        """One expert agent per side a person plays, when ``spec.suggest`` asks for one."""
        if spec.suggest is None:
            return {}
        from riven_agents.registry import make_agent

        kind, _, budget = spec.suggest.partition(":")
        if kind.strip().lower() != "expert" or (budget and not budget.strip().isdigit()):
            raise WebError(
                400, f"suggest {spec.suggest!r}: allowed: expert or expert:BUDGET (a whole number)"
            )
        seeds = agent_seeds(spec.seed)
        try:
            return {side: make_agent(spec.suggest, side, seeds[side]) for side in self.humans}
        except RivenError as exc:
            raise WebError(400, f"suggest {spec.suggest!r}: {exc}") from None

    # ------------------------------------------------------------------ reading
    def label(self, decision: Any) -> str:
        """A decision in words (``blue-captain activates on 2 dice``)."""
        return decision_words(str(decision), self.context)

    def describe(self, event: Mapping[str, Any]) -> str:
        return describe_event(event, context=self.context)

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal)

    @property
    def to_play(self) -> str | None:
        """The side that must decide now (None when the game is over)."""
        return self.state.current_side

    def legal(self) -> list[Any]:
        return list(self.state.legal_decisions()) if not self.over else []

    def undo_status(self) -> tuple[bool, str]:
        """``(allowed, reason)``: whether undo is possible and, when not, why."""
        if self._undo:
            return True, f"undo: {self._undo[-1].label}"
        return False, self._undo_blocked

    # ------------------------------------------------------------------ playing
    def _refuse_index(self, index: Any, legal: list[Any]) -> WebError:
        shown = "; ".join(f"{k}: {self.label(d)}" for k, d in enumerate(legal[:_NAMED_IN_REFUSAL]))
        more = (
            f"; and {len(legal) - _NAMED_IN_REFUSAL} more" if len(legal) > _NAMED_IN_REFUSAL else ""
        )
        return WebError(
            400,
            f"decision {index!r} is not legal here; allowed: index 0..{len(legal) - 1} ({shown}{more})",
        )

    def _check_fresh(self, at: int | None) -> None:
        if at is not None and at != len(self.decisions):
            raise WebError(
                409,
                f"stale request: it was made at decision {at}, the game is at decision "
                f"{len(self.decisions)}; allowed: reload the state and decide again",
            )

    def _record(self, side: str, index: int, decision: Any, by: str) -> list[Event]:
        new = self.state.apply(decision)
        self._previews = self._suggestions = None
        self.decisions.append({"side": side, "index": index, "decision": str(decision), "by": by})
        start = len(self.events)
        self.events.extend(new)
        for event in self.events[start:]:
            _fold(self.pieces, self.momentum, event)
        return self.events[start:]

    def apply(self, index: Any, at: int | None = None) -> list[Event]:
        """Carry out the person's decision ``index`` of the legal list; return the new events.

        Args:
            index: Position in :meth:`legal` (an int).
            at: When given, the number of decisions the client saw: a request made on an
                older position (a double click) is refused with 409 instead of applied.

        Raises:
            WebError: 409 when the game is over or it is the opponent's turn, or ``at`` is
                stale; 400 when ``index`` is not an index of the legal list (the message
                names the legal decisions).
        """
        with self.lock:
            self._check_fresh(at)
            if self.over:
                raise WebError(
                    409, f"the game is over ({self.result_text()}); allowed: save, export"
                )
            side = self.to_play
            if side not in self.humans:
                raise WebError(
                    409,
                    f"it is {side}'s turn (the opponent, {self.spec.opponent}), not yours; "
                    "allowed: step (let the opponent play)",
                )
            legal = self.legal()
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
                raise self._refuse_index(index, legal)
            decision = legal[index]
            snapshot = _Snapshot(
                self.state.copy(),
                len(self.events),
                len(self.decisions),
                {k: p.copy() for k, p in self.pieces.items()},
                dict(self.momentum),
                self.label(decision),
            )
            new = self._record(side, index, decision, HUMAN)
            rolled = next((e for e in new if rolls_dice(e)), None)
            if rolled is not None:
                self._undo.clear()
                self._undo_blocked = (
                    f"dice were rolled since your last decision ({rolled['type']} after "
                    f"'{snapshot.label}')"
                )
            else:
                self._undo.append(snapshot)
            return new

    def step(self) -> tuple[list[Event], dict[str, Any] | None, str]:
        """Let the opponent make one decision.

        Returns:
            ``(new events, explanation or None, the decision in words)``.

        Raises:
            WebError: 409 when the game is over or it is the person's turn.
        """
        with self.lock:
            if self.over:
                raise WebError(
                    409, f"the game is over ({self.result_text()}); allowed: save, export"
                )
            if self.agent is None:
                raise WebError(
                    409, "both sides are played by people (hot-seat); allowed: decide, undo"
                )
            side = self.to_play
            if side != self.opponent_side:
                raise WebError(
                    409, "it is your turn, not the opponent's; allowed: apply a decision"
                )
            decision, explanation, index = self._opponent_decision()
            new = self._record(side, index, decision, self.spec.opponent)
            self._undo.clear()
            self._undo_blocked = "the opponent has played since your last decision"
            self.last_explanation = explanation
            return new, explanation, self.label(decision)

    def _opponent_decision(self) -> tuple[Any, dict[str, Any] | None, int]:
        """The opponent's decision (its explanation emitted first, as the game runner does)."""
        legal = self.legal()
        with TABLE_LOCK:
            decision = self.agent.act(self.state, legal)
        if not is_listed(decision, legal):  # an agent bug: the person's request is fine
            raise WebError(
                409, f"the opponent {self.spec.opponent} chose {decision}, which is not legal"
            )
        index = next(k for k, d in enumerate(legal) if d == decision)
        explanation = getattr(self.agent, "last_explanation", None)
        if explanation:
            self.state.emit("oracle_decision", **explanation)
        return decision, (dict(explanation) if explanation else None), index

    def play_opponent(self, limit: int = 100_000) -> list[tuple[list[Event], dict | None, str]]:
        """Let the opponent play until it is the person's turn or the game ends."""
        steps = []
        with self.lock:
            while (
                self.agent is not None
                and not self.over
                and self.to_play == self.opponent_side
                and len(steps) < limit
            ):
                steps.append(self.step())
        return steps

    def undo(self) -> str:
        """Take back the person's last decision (only when no dice were rolled since).

        Returns:
            The undone decision in words.

        Raises:
            WebError: 409 with the reason when there is nothing to undo.
        """
        with self.lock:
            if not self._undo:
                raise WebError(409, f"cannot undo: {self._undo_blocked}")
            snap = self._undo.pop()
            self._previews = self._suggestions = None
            self.state = snap.state
            del self.events[snap.events :]
            del self.decisions[snap.decisions :]
            self.pieces = snap.pieces
            self.momentum = snap.momentum
            if not self._undo:
                self._undo_blocked = "no earlier decision of yours to undo since dice were rolled"
            return snap.label

    # ------------------------------------------------------------------ on the board
    @property
    def people_to_play(self) -> bool:
        """Whether a person decides now (the game is on and a side a person plays is to play)."""
        return not self.over and self.to_play in self.humans

    def previews(self) -> list[dict[str, Any]]:
        """Where each legal decision of the person's goes on the board (cached per position).

        A move (``move``, ``disengage``, ``take_cover``) and a ``charge``: its path and end
        point, found by making the decision on a copy of the game (the forward model the
        agents search with; the game itself is not touched, its dice included). A ``shoot`` or
        a ``melee``: the line from the model to its target, whether the table leaves it clear
        (line of sight) and the cover the target has. An ``interact``: the objective's point.
        Positions are table inches (y up), as in the event log.
        """
        with self.lock:
            at = len(self.decisions)
            if self._previews is not None and self._previews[0] == at:
                return self._previews[1]
            legal = self.legal() if self.people_to_play else []
            found = []
            for index, decision in enumerate(legal):
                item = self._preview(decision)
                if item is not None:
                    found.append({"index": index, **item})
            self._previews = (at, found)
            return found

    def _preview(self, decision: Any) -> dict[str, Any] | None:
        from riven_env.table import cover_for_shot, line_of_sight

        ids = self.model_ids
        if decision.model is None:
            return None
        me = ids[decision.model]
        here = self.pieces[me]
        item: dict[str, Any] = {"model": me, "from": [here.x, here.y]}
        if decision.target is not None:
            them = ids[decision.target]
            there = self.pieces[them]
            item["target"] = them
            item["target_at"] = [there.x, there.y]
            if decision.kind in ("shoot", "melee", "charge"):
                table = self.scenario.table
                a_r = float(self.model_info[me]["base"]) / 2
                b_r = float(self.model_info[them]["base"]) / 2
                a, b = (here.x, here.y), (there.x, there.y)
                with TABLE_LOCK:
                    visible = line_of_sight(table, a, b, a_radius=a_r, b_radius=b_r)
                    item["visible"] = bool(visible)
                    item["cover"] = str(cover_for_shot(table, a, a_r, b, b_r))
        destination = decision.destination
        if destination is not None and destination[0] == "objective":
            board_objectives = self.events[0].get("objectives") or []
            ref = destination[1]
            if isinstance(ref, int) and 0 <= ref < len(board_objectives):
                spot = board_objectives[ref]
                item["to"] = [float(spot["x"]), float(spot["y"])]
            return item
        if destination is not None or decision.kind == "charge":
            moved = self._forward_move(decision, me)
            if moved is not None:
                item.update(moved)
        return item if len(item) > 2 else None

    def _forward_move(self, decision: Any, me: str) -> dict[str, Any] | None:
        """The first move of model ``me`` when ``decision`` is made on a copy of the game."""
        try:
            events = self.state.copy().apply(decision)
        except (RivenError, ValueError, RuntimeError):  # a preview only: draw none
            return None
        for event in events:
            if event.get("type") == "move" and event.get("model") == me:
                path = [list(map(float, p)) for p in event.get("path") or [] if len(p) == 2]
                to = [float(event["to"][0]), float(event["to"][1])]
                return {"to": to, "path": path or [[*map(float, event["from"])], to]}
        if decision.kind == "charge":
            return None  # a charge from base contact: no move to draw
        # A move whose end is where the model stands (already in cover, say): it stays.
        here = self.pieces[me]
        return {"to": [here.x, here.y], "path": [[here.x, here.y]]}

    def suggestions(self) -> dict[str, Any]:
        """The suggesting agent's top three decisions for the side to play (cached per position).

        Returns:
            ``{"at", "side", "agent", "top": [{"index", "label", "visits", "value"}]}``; the
            first is the agent's choice. A decision found by rule, not by search (a spend, a
            single candidate), comes alone with ``visits`` None.

        Raises:
            WebError: 409 when the game was started without ``suggest``.
        """
        with self.lock:
            if not self.suggesters:
                raise WebError(
                    409, "this game has no suggestions; allowed: start one with suggest: expert"
                )
            at = len(self.decisions)
            if self._suggestions is not None and self._suggestions[0] == at:
                return self._suggestions[1]
            found: dict[str, Any] = {"at": at, "side": None, "agent": self.spec.suggest, "top": []}
            if self.people_to_play:
                side = str(self.to_play)
                agent = self.suggesters[side]
                legal = self.legal()
                searched = agent.stats.searched
                with TABLE_LOCK:
                    choice = agent.act(self.state, legal)
                root = agent.last_root if agent.stats.searched > searched else None
                top: list[dict[str, Any]] = []
                if root is not None:
                    ranked = sorted(
                        (
                            (edge.visits, edge.mean(), -k, d)
                            for k, d in enumerate(root.candidates)
                            if (edge := root.edges.get(d)) is not None
                        ),
                        key=lambda r: r[:3],
                        reverse=True,
                    )
                    top = [
                        {
                            "index": legal.index(d),
                            "label": self.label(d),
                            "visits": int(visits),
                            "value": round(float(value), 4),
                        }
                        for visits, value, _, d in ranked[:3]
                        if d in legal
                    ]
                if not top:
                    top = [
                        {
                            "index": legal.index(choice),
                            "label": self.label(choice),
                            "visits": None,
                            "value": None,
                        }
                    ]
                found.update(side=side, top=top)
            self._suggestions = (at, found)
            return found

    # ------------------------------------------------------------------ results
    def record_result(self, db_path: Any) -> dict[str, Any]:
        """Store the finished game in a playtest results database as a one-game run.

        The run's ``blue`` and ``red`` are the agents of ``game_start`` (``human`` for a
        person), its label ``web``; the game is summarised as every playtest game is
        (:func:`riven_env.playtest.summary.summarise_game`), so reports show it beside agent
        games. Storing the same game again returns the first run.

        Raises:
            WebError: 409 when the game is not over; 400 when the database refuses it.
        """
        from pathlib import Path

        from riven_env.playtest.config import PlaytestConfig
        from riven_env.playtest.db import GameRecord, ResultsDB
        from riven_env.playtest.summary import summarise_game

        with self.lock:
            if not self.over:
                raise WebError(
                    409, "the game is not over; allowed: store a finished game (play it to the end)"
                )
            if self.recorded is not None:
                return self.recorded
            agents = self.events[0]["agents"]
            config = PlaytestConfig(
                scenario=str(self.events[0].get("scenario")),
                blue=str(agents["blue"]),
                red=str(agents["red"]),
                games=1,
                seed=int(self.spec.seed),
                workers=1,
                db=Path(db_path),
                label="web",
                engine=self.engine,
            )
            summary = summarise_game(list(self.events))
            record = GameRecord(0, int(self.spec.seed), time.monotonic() - self.started, summary)
            try:
                with ResultsDB(db_path) as db:
                    run_id = db.new_run_id(config)
                    db.add_games(run_id, [record], new_run=config)
            except RivenError as exc:
                raise WebError(400, f"cannot store the game: {exc}") from None
            self.recorded = {"run_id": run_id, "db": str(db_path), "games": 1}
            return self.recorded

    def result_text(self) -> str:
        result = self.state.result
        if not self.over:
            return "in progress"
        outcome = "a draw" if result.get("draw") else f"{result.get('winner')} wins"
        return f"{outcome} by {result.get('reason')}"

    def save(self) -> dict[str, Any]:
        """The game so far as JSON: the spec (seed included) and every decision."""
        with self.lock:
            return {
                "format": SAVE_FORMAT,
                "version": SAVE_VERSION,
                "game": self.spec.to_json(),
                "decisions": [dict(d) for d in self.decisions],
            }

    @classmethod
    def resume(cls, saved: Any, session_id: str | None = None) -> GameSession:
        """Start the saved game again and replay its decisions (the opponent's are decided
        again by the same seeded agent and must agree with the save).

        Raises:
            WebError: 400 when the save is malformed or does not replay.
        """
        if not isinstance(saved, Mapping) or saved.get("format") != SAVE_FORMAT:
            raise WebError(
                400, f"not a saved game: expected a JSON object with format {SAVE_FORMAT!r}"
            )
        if saved.get("version") != SAVE_VERSION:
            raise WebError(
                400, f"saved game version {saved.get('version')!r}; allowed: {SAVE_VERSION}"
            )
        game, decisions = saved.get("game"), saved.get("decisions")
        if not isinstance(game, Mapping) or not isinstance(decisions, list):
            raise WebError(400, "saved game: expected 'game' (an object) and 'decisions' (a list)")
        spec = spec_from_json(game)
        session = cls(spec, session_id)
        with session.lock:
            for k, record in enumerate(decisions):
                session._replay_one(k, record)
        return session

    def _replay_one(self, k: int, record: Any) -> None:
        where = f"saved decision {k}"
        if not isinstance(record, Mapping) or not isinstance(record.get("index"), int):
            raise WebError(400, f"{where}: expected an object with an integer 'index'")
        if self.over:
            raise WebError(400, f"{where}: the game was already over")
        side = self.to_play
        if record.get("side") != side:
            raise WebError(400, f"{where}: saved for {record.get('side')!r}, but {side} is to play")
        if side not in self.humans:
            decision, _, index = self._opponent_decision()
            if index != record["index"] or str(decision) != record.get("decision"):
                raise WebError(
                    400,
                    f"{where}: the opponent now decides {decision}, the save says "
                    f"{record.get('decision')} (another version or engine?)",
                )
            self._record(side, index, decision, self.spec.opponent)
            self._undo.clear()
            return
        legal = self.legal()
        index = record["index"]
        if not 0 <= index < len(legal) or str(legal[index]) != record.get("decision"):
            raise WebError(400, f"{where}: {record.get('decision')!r} is not legal there")
        self._record(side, index, legal[index], HUMAN)
        self._undo.clear()
        self._undo_blocked = "the game was resumed from a save"

    def log_text(self) -> str:
        """The event log as JSON Lines, as ``riven play --log`` writes it."""
        with self.lock:
            return "".join(dumps_event(event) + "\n" for event in self.events)

    def replay_html(self) -> str:
        """The HTML replay of the game so far, as ``riven play --replay`` writes it."""
        from riven_env.replay import render_replay

        with self.lock:
            return render_replay(list(self.events))


def spec_from_json(data: Mapping[str, Any]) -> GameSpec:
    """A :class:`GameSpec` from request JSON; every field is checked.

    Raises:
        WebError: 400 naming the bad field and what is allowed.
    """
    allowed = {"scenario", "scenario_text", "human", "opponent", "engine", "seed", "suggest"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise WebError(400, f"unknown field {unknown[0]!r}; allowed: {', '.join(sorted(allowed))}")
    scenario = data.get("scenario")
    text = data.get("scenario_text")
    if text is not None and not isinstance(text, str):
        raise WebError(400, "scenario_text: expected the mission file's text (a string)")
    if text is None and not isinstance(scenario, str):
        scenario = "duel-1v1" if scenario is None else scenario
        if not isinstance(scenario, str):
            raise WebError(400, "scenario: expected a bundled mission name (a string)")
    human = data.get("human", "blue")
    if human not in SIDES:
        raise WebError(400, f"human: {human!r} is not a side; allowed: {', '.join(SIDES)}")
    opponent = data.get("opponent", "oracle")
    if not isinstance(opponent, str) or not opponent.strip():
        raise WebError(
            400, "opponent: expected an agent spec such as 'oracle' or 'oracle:tactical'"
        )
    engine = data.get("engine", "auto")
    if engine not in ("auto", "python", "native"):
        raise WebError(400, f"engine: {engine!r}; allowed: auto, python, native")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise WebError(400, f"seed: {seed!r}; allowed: an integer from 0 to 2**63-1")
    suggest = data.get("suggest")
    if suggest is not None and (not isinstance(suggest, str) or not suggest.strip()):
        raise WebError(400, "suggest: expected an agent spec: expert or expert:BUDGET")
    return GameSpec(
        scenario=None if text is not None else scenario,
        scenario_text=text,
        human=human,
        opponent=opponent.strip(),
        engine=engine,
        seed=seed,
        suggest=suggest.strip() if suggest else None,
    )
