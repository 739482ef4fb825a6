"""A scripted agent that follows an exploit recipe (``recipe:KEY=VALUE,...``).

``riven stress-oracle`` describes how its best responder beats an Oracle profile (where it
stands, what it targets, when it strikes) and then checks the description: this agent plays
the recipe, written as a handful of parameters, on the same seeds. If it reproduces the
best responder's gain, the recipe is the hole; if not, the words missed what made it win.

Spec: ``recipe`` (every parameter at its default) or ``recipe:hold=12,cover=1,target=wounded``
(any subset, comma-separated ``KEY=VALUE``). Parameters (:class:`RecipeParams`):

* ``hold`` (inches, 0 = never): keep every model at least this far (edge to edge) from the
  nearest active enemy, falling back or taking cover, until the Oracle has advanced (an
  enemy came within ``hold`` of one of its models) or round ``until`` starts. It still
  shoots whatever it can see while holding.
* ``until`` (round): the hold ends when this round starts at the latest.
* ``cover`` (0/1): moves that are not attacks end in cover from the nearest enemy when the
  tabletop offers such a spot.
* ``target``: whom every attack (melee, charge, shot, move toward) picks: ``nearest``,
  ``wounded`` (the nearest wounded enemy, else the nearest), ``weakest`` (fewest wounds
  left), ``leader`` (the leader when it is a candidate), ``dangerous`` (best Might or
  Agility).
* ``attack``: ``melee`` (charge before shooting), ``shoot`` (shoot before charging) or
  ``any`` (shoot, then charge).
* ``finish`` (0/1): finish Down enemies in reach before anything else.
* ``dice``: activation dice (capped to what the game offers).

Spends: rerolls a Miss with a Momentum reroll when one is offered, otherwise accepts.
Ties between models or targets go to the nearest, then the lowest index, so the agent is a
pure function of the state: it never draws from its random stream.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields

from riven_agents.base import BaseAgent

from riven_env.errors import AgentSpecError
from riven_env.game import Decision, GameState

TARGETS = ("nearest", "wounded", "weakest", "leader", "dangerous")
ATTACKS = ("melee", "shoot", "any")


@dataclass(frozen=True)
class RecipeParams:
    """The parameters of a recipe (module docstring).

    Attributes:
        hold: Inches to keep from the nearest enemy until the Oracle advances (0: never).
        until: Round at whose start the hold ends at the latest.
        cover: End non-attack moves in cover from the nearest enemy.
        target: Target selector of every attack.
        attack: Which attack comes first.
        finish: Finish Down enemies first.
        dice: Activation dice.
    """

    hold: float = 0.0
    until: int = 1
    cover: bool = False
    target: str = "nearest"
    attack: str = "any"
    finish: bool = True
    dice: int = 2

    def spec(self) -> str:
        """The agent spec that plays these parameters (``recipe:hold=12,...``)."""
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool):
                value = int(value)
            elif isinstance(value, float):
                value = f"{value:g}"
            parts.append(f"{f.name}={value}")
        return "recipe:" + ",".join(parts)

    def to_dict(self) -> dict[str, object]:
        """The parameters as a JSON-ready dict."""
        return asdict(self)


def parse_params(text: str | None, spec: str = "recipe") -> RecipeParams:
    """Parse ``hold=12,cover=1,...`` into :class:`RecipeParams`.

    Raises:
        AgentSpecError: A key is unknown or a value is not allowed (the message names both).
    """
    if not text:
        return RecipeParams()
    known = {f.name: f for f in fields(RecipeParams)}
    values: dict[str, object] = {}
    for part in text.split(","):
        key, sep, raw = part.partition("=")
        key = key.strip()
        if not sep or key not in known:
            raise AgentSpecError(
                f"agent {spec!r}: {part!r} is not KEY=VALUE with KEY one of {sorted(known)}"
            )
        values[key] = _value(key, raw.strip(), spec)
    return RecipeParams(**values)


def _value(key: str, raw: str, spec: str) -> object:
    allowed = {
        "hold": "a number of inches >= 0",
        "until": "a round number >= 1",
        "cover": "0 or 1",
        "finish": "0 or 1",
        "dice": "a number of dice >= 1",
        "target": f"one of {list(TARGETS)}",
        "attack": f"one of {list(ATTACKS)}",
    }[key]
    try:
        if key == "hold":
            value: object = float(raw)
            ok = math.isfinite(value) and value >= 0
        elif key in ("until", "dice"):
            value = int(raw)
            ok = value >= 1
        elif key in ("cover", "finish"):
            ok = raw in ("0", "1")
            value = raw == "1"
        else:
            value = raw
            ok = raw in (TARGETS if key == "target" else ATTACKS)
    except ValueError:
        ok = False
    if not ok:
        raise AgentSpecError(f"agent {spec!r}: {key}={raw!r} is not allowed; allowed: {allowed}")
    return value


class RecipeAgent(BaseAgent):
    """Play a recipe's parameters (module docstring).

    Args:
        name: The agent spec.
        side: The side it plays.
        seed: Seed of its private stream (unused: the agent draws nothing).
        params: ``KEY=VALUE,...`` text of the spec, or None for the defaults.
    """

    def __init__(
        self,
        name: str,
        side: str,
        seed: int | Sequence[int] | None = None,
        *,
        params: str | None = None,
    ) -> None:
        super().__init__(name, side, seed)
        self.params = parse_params(params, name)

    # -- the state as the recipe reads it ---------------------------------------------------

    def _nearest_enemy_gap(self, state: GameState, i: int) -> float:
        enemies = [j for j in state.enemies_of(i) if state.models[j].is_active]
        return min((state.distance(i, j) for j in enemies), default=math.inf)

    def holding(self, state: GameState) -> bool:
        """Whether the hold is still on (no enemy came within ``hold``, round < ``until``)."""
        p = self.params
        if p.hold <= 0 or state.round >= p.until:
            return False
        mine = state.active_models(self.side)
        return all(self._nearest_enemy_gap(state, i) > p.hold for i in mine)

    def _pick_target(self, state: GameState, i: int, candidates: Sequence[int]) -> int:
        models = state.models

        def near(j: int) -> tuple[float, int]:
            return (state.distance(i, j), j)

        pool = list(candidates)
        kind = self.params.target
        if kind == "wounded":
            hurt = [j for j in pool if models[j].wounds < _full(models[j])]
            pool = hurt or pool
        elif kind == "leader":
            leaders = [j for j in pool if "leader" in models[j].profile.keywords]
            pool = leaders or pool
        elif kind == "weakest":
            least = min(models[j].wounds for j in pool)
            pool = [j for j in pool if models[j].wounds == least]
        elif kind == "dangerous":

            def threat(j: int) -> int:
                p = models[j].profile
                return max(p.might, p.agility if p.ranged is not None else 0)

            best = max(threat(j) for j in pool)
            pool = [j for j in pool if threat(j) == best]
        return min(pool, key=near)

    def _choose_target(self, state: GameState, options: Sequence[Decision]) -> Decision:
        by_target = {d.target: d for d in options}
        chosen = self._pick_target(state, options[0].model, list(by_target))
        return by_target[chosen]

    # -- decisions ------------------------------------------------------------------------------

    def act(self, state: GameState, legal: Sequence[Decision]) -> Decision:
        """The recipe's decision (never mutates ``state``)."""
        if len(legal) == 1:
            return legal[0]
        kinds: dict[str, list[Decision]] = {}
        for d in legal:
            kinds.setdefault(d.kind, []).append(d)
        if "activate" in kinds or "bonus" in kinds:
            return self._activate(state, kinds, legal)
        if "spend" in kinds:
            return self._spend(state, kinds, legal)
        if any(d.model is not None for d in legal):
            return self._action(state, kinds, legal)
        return legal[0]

    def _activate(
        self, state: GameState, kinds: dict[str, list[Decision]], legal: Sequence[Decision]
    ) -> Decision:
        options = kinds.get("activate") or kinds.get("bonus") or list(legal)
        models = sorted(
            {d.model for d in options if d.model is not None},
            key=lambda i: (self._nearest_enemy_gap(state, i), i),
        )
        if not models:
            return options[0]
        first = [d for d in options if d.model == models[0]]
        if first[0].dice is None:
            return first[0]
        return min(first, key=lambda d: (abs(d.dice - self.params.dice), d.dice))

    def _spend(
        self, state: GameState, kinds: dict[str, list[Decision]], legal: Sequence[Decision]
    ) -> Decision:
        pending = getattr(state, "pending", None)
        result = getattr(pending[0], "result", None) if pending else None
        spends = kinds["spend"]
        rerolls = [d for d in spends if str(d.option).startswith("reroll")]
        if result == "miss" and rerolls:
            return rerolls[0]
        accept = [d for d in spends if d.option == "accept"]
        return accept[0] if accept else legal[0]

    def _action(
        self, state: GameState, kinds: dict[str, list[Decision]], legal: Sequence[Decision]
    ) -> Decision:
        p = self.params
        if p.finish and kinds.get("finish"):
            return self._choose_target(state, kinds["finish"])
        if kinds.get("melee"):
            return self._choose_target(state, kinds["melee"])
        hold = self.holding(state)
        order = ("charge", "shoot") if p.attack == "melee" else ("shoot", "charge")
        for kind in order:
            if kind == "charge" and hold:
                continue
            if kinds.get(kind):
                return self._choose_target(state, kinds[kind])
        moves = kinds.get("move", [])
        i = legal[0].model
        if hold:
            too_close = self._nearest_enemy_gap(state, i) <= p.hold
            for kind in ("away", "cover_from_enemy") if too_close else ("cover_from_enemy",):
                found = [d for d in moves if d.destination and d.destination[0] == kind]
                if found:
                    return found[0]
            return self._end(kinds, legal)
        toward = [d for d in moves if d.destination and d.destination[0] == "toward_enemy"]
        enemies = [d.destination[1] for d in toward]
        if toward and enemies:
            goal = self._pick_target(state, i, enemies)
            return next(d for d in toward if d.destination[1] == goal)
        if p.cover:
            found = [d for d in moves if d.destination and d.destination[0] == "cover_from_enemy"]
            if found:
                return found[0]
        return self._end(kinds, legal)

    @staticmethod
    def _end(kinds: dict[str, list[Decision]], legal: Sequence[Decision]) -> Decision:
        for kind in ("end", "take_cover", "rest", "focus"):
            if kinds.get(kind):
                return kinds[kind][0]
        return legal[-1]


def _full(model: object) -> int:
    """A model's starting wounds (a resolution system may set its own)."""
    return getattr(model, "wounds_max", 0) or model.profile.wounds


__all__ = ["ATTACKS", "TARGETS", "RecipeAgent", "RecipeParams", "parse_params"]
