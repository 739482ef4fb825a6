"""Summarise one game from its event log (schema: ``docs/event-log.md``).

The summary is derived *only* from the events, never from game objects, so it works on a
log read back from disk as well as on one fresh from :func:`riven_env.engines.play_game`.
Everything here is JSON-ready (``to_dict``) and is what the results database stores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from riven_env.playtest.errors import PlaytestError

# Final state of a model at the end of a game.
STATUS_STANDING = "standing"
STATUS_DOWN = "down"
STATUS_OUT = "out"
STATUS_FLED = "fled"

# Result bands of 2d6 tests and shots, in order of quality.
BANDS = ("miss", "partial", "hit", "critical")
# Melee outcomes in the event log.
MELEE_OUTCOMES = ("parry", "recoil", "wound", "critical")


@dataclass
class ActivationTally:
    """Activations of one side at one Mettle with one number of dice.

    Attributes:
        mettle: Mettle threshold of the activating models.
        dice: Number of activation dice rolled.
        count: How many activations.
        actions: Actions gained over those activations.
        passed: Activations after which the turn passed to the opponent.
        bonus: How many of them were Momentum bonus activations.
    """

    mettle: int
    dice: int
    count: int = 0
    actions: int = 0
    passed: int = 0
    bonus: int = 0


@dataclass
class ModelSummary:
    """What happened to one model over the game.

    Attributes:
        model: Model id (``"blue-2"``).
        side: The model's side.
        profile: Profile name from the scenario.
        name: Display name.
        oracle: Enemy Oracle profile that drove the model, as the agent resolved it
            (``game_start.oracle_profiles``); ``None`` when no Oracle played its side. Logs
            without ``oracle_profiles`` keep the scenario's profile from ``game_start``.
        mettle: Mettle threshold.
        wounds: Starting wounds.
        status: ``standing``, ``down``, ``out`` or ``fled`` at the end.
        wounds_taken: Wounds suffered.
        wounds_dealt: Wounds caused (events with this model as ``source``).
        activations: Times it activated.
        actions: Actions gained by those activations.
        shots: Shots fired.
        shot_wounds: Shots that hit (partial, hit or critical).
        melees: Melee exchanges it fought in (either side of it).
        melee_wins: Exchanges it won.
        morale_tests: Morale tests taken.
        morale_failures: Morale tests failed.
        strain_gained: Strain gained.
        strain_spent: Strain spent or removed.
    """

    model: str
    side: str
    profile: str
    name: str
    oracle: str | None
    mettle: int
    wounds: int
    status: str = STATUS_STANDING
    wounds_taken: int = 0
    wounds_dealt: int = 0
    activations: int = 0
    actions: int = 0
    shots: int = 0
    shot_wounds: int = 0
    melees: int = 0
    melee_wins: int = 0
    morale_tests: int = 0
    morale_failures: int = 0
    strain_gained: int = 0
    strain_spent: int = 0


@dataclass
class SideSummary:
    """Totals for one side.

    Attributes:
        side: Side key (``blue``/``red``).
        agent: Agent name that played it.
        name: The warband's display name from the scenario.
        oracle_profile: Enemy Oracle profile that ordered the side's activations, as the
            agent resolved it (``oracle`` takes the scenario's, ``oracle:PROFILE`` forces
            one); ``None`` when the side was not played by the Oracle.
        points: Final points.
        models: Models fielded.
        down: Times a model went Down.
        out: Models taken Out.
        fled: Models that fled off the table.
        survivors: Models still on the table and not Down at the end.
        wounds_dealt: Wounds this side's models caused.
        wounds_taken: Wounds this side's models suffered.
        morale_tests: Morale tests taken.
        morale_failures: Failed morale tests (the model ran toward an edge).
        morale_flights: Failed tests that carried the model off the table.
        momentum_gained: Momentum tokens gained.
        momentum_spent: Momentum tokens spent.
        momentum_gained_by_reason: ``{reason: tokens}``.
        momentum_spent_by_reason: ``{reason: tokens}``.
        strain_gained: Strain gained over all models.
        strain_spent: Strain spent or removed over all models.
        strain_gained_by_reason: ``{reason: amount}``.
        strain_spent_by_reason: ``{reason: amount}``.
        activations: Activation tallies by Mettle and dice.
        shots: ``{"total": n, "miss": n, "partial": n, "hit": n, "critical": n}``.
        melees: ``{"fought", "initiated", "won", "lost", "parry", "recoil", "wound", "critical"}``.
    """

    side: str
    agent: str
    name: str = ""
    oracle_profile: str | None = None
    points: int = 0
    models: int = 0
    down: int = 0
    out: int = 0
    fled: int = 0
    survivors: int = 0
    wounds_dealt: int = 0
    wounds_taken: int = 0
    morale_tests: int = 0
    morale_failures: int = 0
    morale_flights: int = 0
    momentum_gained: int = 0
    momentum_spent: int = 0
    momentum_gained_by_reason: dict[str, int] = field(default_factory=dict)
    momentum_spent_by_reason: dict[str, int] = field(default_factory=dict)
    strain_gained: int = 0
    strain_spent: int = 0
    strain_gained_by_reason: dict[str, int] = field(default_factory=dict)
    strain_spent_by_reason: dict[str, int] = field(default_factory=dict)
    activations: list[ActivationTally] = field(default_factory=list)
    shots: dict[str, int] = field(default_factory=dict)
    melees: dict[str, int] = field(default_factory=dict)

    @property
    def activation_count(self) -> int:
        """Total activations of the side."""
        return sum(tally.count for tally in self.activations)

    @property
    def actions_gained(self) -> int:
        """Total actions gained by the side's activations."""
        return sum(tally.actions for tally in self.activations)

    @property
    def turns_passed(self) -> int:
        """Activations after which the turn passed to the opponent."""
        return sum(tally.passed for tally in self.activations)


@dataclass
class OracleRuleCount:
    """How often one Enemy Oracle rule decided a move in one game.

    Attributes:
        side: The side the Oracle played.
        profile: Oracle behaviour profile.
        rule: Rule id that fired.
        count: Times it fired.
    """

    side: str
    profile: str
    rule: str
    count: int


@dataclass
class GameSummary:
    """Everything the playtest layer keeps about one game.

    Attributes:
        scenario: Scenario name.
        seed: The game's seed.
        agents: ``{side: agent name}``.
        winner: Winning side, or ``None``.
        draw: Whether the game was a draw.
        reason: Why the game ended (``game_end.reason``; ``unfinished`` without one).
        rounds: Rounds played.
        first_side: Side that took the first turn.
        points: ``{side: points}``.
        decisions: Decisions taken over the game.
        sides: Per-side totals, keyed by side.
        models: Per-model rows.
        oracle_rules: Oracle rule counts.
    """

    scenario: str
    seed: int
    agents: dict[str, str]
    winner: str | None
    draw: bool
    reason: str
    rounds: int
    first_side: str | None
    points: dict[str, int]
    decisions: int
    sides: dict[str, SideSummary]
    models: list[ModelSummary]
    oracle_rules: list[OracleRuleCount]

    def to_dict(self) -> dict[str, Any]:
        """Return the summary as plain JSON-ready dicts and lists."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSummary:
        """Rebuild a summary from :meth:`to_dict` output (for example after a process hop)."""
        sides = {}
        for key, side in data["sides"].items():
            values = dict(side)
            values["activations"] = [ActivationTally(**a) for a in side["activations"]]
            sides[key] = SideSummary(**values)
        return cls(
            scenario=data["scenario"],
            seed=data["seed"],
            agents=dict(data["agents"]),
            winner=data["winner"],
            draw=data["draw"],
            reason=data["reason"],
            rounds=data["rounds"],
            first_side=data["first_side"],
            points=dict(data["points"]),
            decisions=data["decisions"],
            sides=sides,
            models=[ModelSummary(**m) for m in data["models"]],
            oracle_rules=[OracleRuleCount(**r) for r in data["oracle_rules"]],
        )


def _add(counter: dict[str, int], key: str, amount: int) -> None:
    counter[key] = counter.get(key, 0) + amount


class _Summariser:
    """Walks an event log once and accumulates the summary."""

    def __init__(self, start: Mapping[str, Any]):
        self.start = start
        agents = {str(k): str(v) for k, v in start.get("agents", {}).items()}
        declared = start.get("sides", {})
        side_keys = list(declared) or list(agents)
        # Written by the game runner since the Oracle resolves its profiles itself; without
        # it (another player's log) the scenario's profiles are all there is.
        resolved = start.get("oracle_profiles")
        self.sides = {}
        for side in side_keys:
            info = declared.get(side) if isinstance(declared, Mapping) else None
            summary = SideSummary(side=side, agent=agents.get(side, ""))
            if isinstance(info, Mapping):
                summary.name = str(info.get("name") or "")
            if isinstance(resolved, Mapping) and isinstance(resolved.get(side), Mapping):
                summary.oracle_profile = resolved[side].get("side")
            self.sides[side] = summary
        self.models: dict[str, ModelSummary] = {}
        for row in start.get("models", []):
            oracle = row.get("oracle")
            if isinstance(resolved, Mapping):
                played = resolved.get(row["side"])
                oracle = played.get("models", {}).get(row["id"]) if played else None
            model = ModelSummary(
                model=row["id"],
                side=row["side"],
                profile=row.get("profile", ""),
                name=row.get("name", row["id"]),
                oracle=oracle,
                mettle=int(row.get("mettle", 0)),
                wounds=int(row.get("wounds", 0)),
            )
            self.models[model.model] = model
            self._side(model.side).models += 1
        self.activations: dict[tuple[str, int, int], ActivationTally] = {}
        self.oracle: Counter[tuple[str, str, str]] = Counter()
        self.decisions = 0
        self.last_round = 0
        self.end: Mapping[str, Any] | None = None

    def _side(self, side: str) -> SideSummary:
        if side not in self.sides:  # a side the start event did not list: keep it anyway
            self.sides[side] = SideSummary(side=side, agent="")
        return self.sides[side]

    def _model(self, model_id: str | None) -> ModelSummary | None:
        return self.models.get(model_id) if model_id is not None else None

    def _owner_side(self, owner: str) -> str:
        # Momentum belongs to a side, or to a model in solo-hero mode.
        model = self.models.get(owner)
        return model.side if model is not None else owner

    def feed(self, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if isinstance(event.get("round"), int):
            self.last_round = max(self.last_round, event["round"])
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(event)

    # ------------------------------------------------------------------ handlers
    def _on_decision(self, event: Mapping[str, Any]) -> None:
        self.decisions += 1

    def _on_oracle_decision(self, event: Mapping[str, Any]) -> None:
        model = self._model(event.get("model"))
        side = event.get("side") or (model.side if model else "")
        self.oracle[(str(side), str(event.get("profile")), str(event.get("rule")))] += 1

    def _on_activation(self, event: Mapping[str, Any]) -> None:
        model = self._model(event.get("model"))
        side = event.get("side") or (model.side if model else "")
        dice = len(event.get("dice", []))
        mettle = int(event.get("mettle", model.mettle if model else 0))
        key = (str(side), mettle, dice)
        tally = self.activations.setdefault(key, ActivationTally(mettle=mettle, dice=dice))
        actions = int(event.get("actions", 0))
        tally.count += 1
        tally.actions += actions
        tally.passed += int(bool(event.get("turn_passes")))
        tally.bonus += int(bool(event.get("bonus")))
        if model is not None:
            model.activations += 1
            model.actions += actions

    def _on_shot(self, event: Mapping[str, Any]) -> None:
        shooter = self._model(event.get("shooter"))
        if shooter is None:
            return
        result = str(event.get("result"))
        shots = self._side(shooter.side).shots
        _add(shots, "total", 1)
        _add(shots, result, 1)
        shooter.shots += 1
        if result != "miss":
            shooter.shot_wounds += 1

    def _on_melee(self, event: Mapping[str, Any]) -> None:
        attacker = self._model(event.get("attacker"))
        defender = self._model(event.get("defender"))
        outcome = str(event.get("outcome"))
        winner = event.get("winner")
        for model, initiated in ((attacker, True), (defender, False)):
            if model is None:
                continue
            melees = self._side(model.side).melees
            _add(melees, "fought", 1)
            _add(melees, "initiated", int(initiated))
            _add(melees, outcome, 1)
            model.melees += 1
            if winner is None:
                continue
            if winner == model.model:
                _add(melees, "won", 1)
                model.melee_wins += 1
            else:
                _add(melees, "lost", 1)

    def _on_wound(self, event: Mapping[str, Any]) -> None:
        amount = int(event.get("amount", 1))
        victim = self._model(event.get("model"))
        if victim is not None:
            victim.wounds_taken += amount
            self._side(victim.side).wounds_taken += amount
        source = self._model(event.get("source"))
        if source is not None:
            source.wounds_dealt += amount
            self._side(source.side).wounds_dealt += amount

    def _on_down(self, event: Mapping[str, Any]) -> None:
        model = self._model(event.get("model"))
        if model is not None:
            model.status = STATUS_DOWN
            self._side(model.side).down += 1

    def _on_removed(self, event: Mapping[str, Any]) -> None:
        model = self._model(event.get("model"))
        if model is None:
            return
        reason = event.get("reason")
        side = self._side(model.side)
        if reason == STATUS_FLED:
            model.status = STATUS_FLED
            side.fled += 1
        else:
            model.status = STATUS_OUT
            side.out += 1

    def _on_morale(self, event: Mapping[str, Any]) -> None:
        model = self._model(event.get("model"))
        if model is None:
            return
        side = self._side(model.side)
        side.morale_tests += 1
        model.morale_tests += 1
        if not event.get("passed"):
            side.morale_failures += 1
            model.morale_failures += 1
        if event.get("fled_off_table"):
            side.morale_flights += 1

    def _on_momentum(self, event: Mapping[str, Any]) -> None:
        side = self._side(self._owner_side(str(event.get("owner"))))
        delta = int(event.get("delta", 0))
        reason = str(event.get("reason"))
        if delta > 0:
            side.momentum_gained += delta
            _add(side.momentum_gained_by_reason, reason, delta)
        elif delta < 0:
            side.momentum_spent += -delta
            _add(side.momentum_spent_by_reason, reason, -delta)

    def _on_strain(self, event: Mapping[str, Any]) -> None:
        model = self._model(event.get("model"))
        if model is None:
            return
        side = self._side(model.side)
        delta = int(event.get("delta", 0))
        reason = str(event.get("reason"))
        if delta > 0:
            side.strain_gained += delta
            model.strain_gained += delta
            _add(side.strain_gained_by_reason, reason, delta)
        elif delta < 0:
            side.strain_spent += -delta
            model.strain_spent += -delta
            _add(side.strain_spent_by_reason, reason, -delta)

    def _on_game_end(self, event: Mapping[str, Any]) -> None:
        self.end = event

    # ------------------------------------------------------------------ result
    def result(self) -> GameSummary:
        for (side, _, _), tally in sorted(self.activations.items()):
            self._side(side).activations.append(tally)
        for model in self.models.values():
            if model.status == STATUS_STANDING:
                self._side(model.side).survivors += 1
        end = self.end or {}
        points = {str(k): int(v) for k, v in end.get("points", {}).items()}
        for side, value in points.items():
            self._side(side).points = value
        for side in self.sides.values():
            side.shots = {key: side.shots.get(key, 0) for key in ("total", *BANDS)}
            side.melees = {
                key: side.melees.get(key, 0)
                for key in ("fought", "initiated", "won", "lost", *MELEE_OUTCOMES)
            }
        oracle = [
            OracleRuleCount(side=side, profile=profile, rule=rule, count=count)
            for (side, profile, rule), count in sorted(self.oracle.items())
        ]
        return GameSummary(
            scenario=str(self.start.get("scenario", "")),
            seed=int(self.start.get("seed", 0)),
            agents={side.side: side.agent for side in self.sides.values()},
            winner=end.get("winner"),
            draw=bool(end.get("draw", False)),
            reason=str(end.get("reason", "unfinished")),
            rounds=int(end.get("rounds", self.last_round)),
            first_side=self.start.get("first_side"),
            points=points,
            decisions=self.decisions,
            sides=self.sides,
            models=list(self.models.values()),
            oracle_rules=oracle,
        )


def summarise_game(
    events: Sequence[Mapping[str, Any]] | Iterable[Mapping[str, Any]],
) -> GameSummary:
    """Summarise one game from its event log.

    Args:
        events: The game's events in order; the first must be ``game_start``. A log
            without ``game_end`` (a game cut short by a decision limit) is summarised
            with reason ``unfinished``, no winner and no draw.

    Returns:
        The game's :class:`GameSummary`.

    Raises:
        PlaytestError: The log is empty or does not begin with ``game_start``.
    """
    iterator = iter(events)
    start = next(iterator, None)
    if start is None or start.get("type") != "game_start":
        found = "an empty log" if start is None else f"type {start.get('type')!r}"
        raise PlaytestError(f"event log must begin with a 'game_start' event; found {found}")
    summariser = _Summariser(start)
    for event in iterator:
        summariser.feed(event)
    return summariser.result()


def side_rosters(summary: GameSummary) -> dict[str, dict[str, Any]]:
    """Who played each side of a game and with which models (JSON-ready).

    Models of the same profile, display name and Oracle profile are counted together, in
    the order the scenario lists them.

    Returns:
        ``{side: {"agent", "name", "oracle_profile", "models", "roster": [{"profile",
        "name", "count", "oracle", "mettle", "wounds"}]}}``.
    """
    rosters: dict[str, dict[str, Any]] = {}
    for key, side in summary.sides.items():
        entries: dict[tuple[str, str, str | None], dict[str, Any]] = {}
        for model in summary.models:
            if model.side != key:
                continue
            group = (model.profile, model.name, model.oracle)
            entry = entries.setdefault(
                group,
                {"profile": model.profile, "name": model.name, "count": 0,
                 "oracle": model.oracle, "mettle": model.mettle, "wounds": model.wounds},
            )  # fmt: skip
            entry["count"] += 1
        rosters[key] = {
            "agent": side.agent,
            "name": side.name,
            "oracle_profile": side.oracle_profile,
            "models": side.models,
            "roster": list(entries.values()),
        }
    return rosters


def roster_text(side: Mapping[str, Any]) -> str:
    """One line for a side of :func:`side_rosters`: ``"captain, 2x warrior (beast)"``.

    An entry's Oracle profile is named only where it differs from the side's own.
    """
    parts = []
    for entry in side.get("roster", []):
        text = entry["profile"] if entry["count"] == 1 else f"{entry['count']}x {entry['profile']}"
        if entry.get("oracle") and entry["oracle"] != side.get("oracle_profile"):
            text += f" ({entry['oracle']})"
        parts.append(text)
    return ", ".join(parts) or "no models"
