"""Exploit recipes: how a best responder beats an Oracle profile, read from event logs alone.

``riven stress-oracle`` plays a strong agent (the *subject*) against the Oracle. This module
reads the subject's winning games and says, in words a designer can act on:

* **bait**: which Oracle rule its losses follow. Every loss of an Oracle model (a wound, or
  a flight off the table) is charged to the last *action* rule that model's Oracle fired
  (its ``oracle_decision``, ``docs/event-log.md``) no more than ``bait_window_rounds``
  rounds before; a loss with no such decision counts as ``none``. A rule that precedes
  far more losses than its share of the Oracle's decisions is what the subject baits.
* **where it stands**: where the subject's moves end (how it stands against the nearest
  active Oracle model: ``hidden`` from its sight, or the cover a shot from it would give,
  ``hard`` / ``soft`` / ``none``; and the distance band to it, edge to edge) and where it
  attacks from.
* **what it targets**: the target's profile and role (leader or not), whether it was
  fresh, wounded or Down (``finish``), and which attack dealt the wounds (melee or shot).
* **timing**: the rounds of the Oracle's losses (first loss, the round with most losses).

Winning games are grouped by their dominant bait; each group with at least
``min_games`` games is a recipe, with replayable games (seed and the ``riven play``
command). :func:`recipe_params` turns a recipe into the parameters of the scripted
:class:`riven_agents.recipe.RecipeAgent`, which the stress test then plays on the same seeds
to check that the words carry the gain.

Every threshold is data: ``[recipes]`` of ``riven_env/analytics/data/stress.toml``
(``docs/stress-oracle.md``).
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SIDES = ("blue", "red")
# Decision kinds (first word of an ``oracle_decision``'s decision text) that are not the
# model's own action on the table: they never set a model up for a loss.
NOT_ACTIONS = frozenset({"activate", "bonus", "pass", "spend", "choose", "allocate"})
# Attack actions whose target is an enemy model.
ATTACK_ACTIONS = frozenset({"melee", "charge", "shoot", "finish"})


@dataclass
class GameFacts:
    """What one game's log says about the subject and the Oracle (module docstring).

    Attributes:
        seed: The game seed.
        subject: The subject's side.
        winner: Winning side or None.
        rounds: Rounds played.
        baits: One rule key (``profile/rule`` or ``none``) per Oracle loss.
        loss_rounds: The round of each Oracle loss.
        loss_causes: What dealt each Oracle wound (``melee``, ``shot``, ``bleeding``, ...).
        oracle_actions: Every action rule the Oracle fired (``profile/rule``) with its count.
        rules_fired: Every rule the Oracle fired (all kinds), with its count.
        moves: ``(cover, band)`` of every subject move end.
        attacks: ``(action, cover, band, target_profile, leader, state)`` per subject attack.
        dice: Activation dice counts of the subject's activations.
    """

    seed: int
    subject: str
    winner: str | None
    rounds: int = 0
    baits: list[str] = field(default_factory=list)
    loss_rounds: list[int] = field(default_factory=list)
    loss_causes: list[str] = field(default_factory=list)
    oracle_actions: Counter[str] = field(default_factory=Counter)
    rules_fired: Counter[str] = field(default_factory=Counter)
    moves: list[tuple[str, str]] = field(default_factory=list)
    attacks: list[tuple[str, str, str, str, bool, str]] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)

    def dominant_bait(self, excess: Mapping[str, float]) -> str:
        """The bait of this game: of the rules its Oracle losses followed, the one with the
        highest positive ``excess`` (over all the wins); ``none`` when none has any."""
        named = [b for b in self.baits if excess.get(b, 0.0) > 0]
        if not named:
            return "none"
        return max(dict.fromkeys(named), key=lambda b: (excess[b], self.baits.count(b)))


def band_label(distance: float, edges: Sequence[float]) -> str:
    """The distance band of ``distance`` inches (``edges`` ascending from 0)."""
    for low, high in zip(edges, edges[1:], strict=False):
        if distance < high:
            return f'{low:g}-{high:g}"'
    return f'{edges[-1]:g}"+'


def band_low(label: str) -> float:
    """The lower edge of a band label (``'6-12"'`` -> 6.0)."""
    return float(label.rstrip('"+').split("-")[0])


_TABLES: dict[str, Any] = {}


def logged_table(table_spec: Mapping[str, Any]) -> Any:
    """The :class:`~riven_env.table.Table` of a logged ``game_start.table`` (cached)."""
    from riven_env.table import Table

    key = json.dumps(table_spec, sort_keys=True)
    if key not in _TABLES:
        _TABLES[key] = Table.from_spec(dict(table_spec), where="game_start.table")
    return _TABLES[key]


def cover_from(
    table: Any,
    point: Sequence[float],
    radius: float,
    enemy: Sequence[float] | None,
    enemy_radius: float,
) -> str:
    """How a base at ``point`` stands against the enemy at ``enemy``: ``hidden`` (no line
    of sight), else the cover a shot from it would give (``hard``, ``soft``, ``none``)."""
    from riven_env.table import cover_for_shot, line_of_sight

    if enemy is None:
        return "hidden"
    if not line_of_sight(table, enemy, point, a_radius=enemy_radius, b_radius=radius):
        return "hidden"
    return str(cover_for_shot(table, enemy, enemy_radius, point, radius))


def game_facts(
    events: Sequence[Mapping[str, Any]],
    subject: str,
    seed: int,
    *,
    edges: Sequence[float],
    bait_window: int,
) -> GameFacts:
    """Read one game's log from the subject's side (``subject``) against the Oracle."""
    start = events[0]
    oracle_side = SIDES[1 - SIDES.index(subject)]
    table = logged_table(start["table"])
    info = {m["id"]: m for m in start["models"]}
    pos = {m["id"]: (float(m["x"]), float(m["y"])) for m in start["models"]}
    radius = {m["id"]: float(m["base"]) / 2 for m in start["models"]}
    full = {m["id"]: int(m["wounds"]) for m in start["models"]}
    wounds = dict(full)
    side_of = {m["id"]: m["side"] for m in start["models"]}
    down: set[str] = set()
    gone: set[str] = set()
    last_rule: dict[str, tuple[str, int]] = {}
    end = events[-1] if events[-1]["type"] == "game_end" else {}
    facts = GameFacts(seed=seed, subject=subject, winner=end.get("winner"))
    facts.rounds = int(end.get("rounds") or max((e.get("round") or 0) for e in events))

    def nearest_oracle(mid: str) -> tuple[float, str | None]:
        x, y = pos[mid]
        gaps = [
            (math.hypot(x - pos[o][0], y - pos[o][1]) - radius[mid] - radius[o], o)
            for o in pos
            if side_of[o] == oracle_side and o not in down and o not in gone
        ]
        if not gaps:
            return math.inf, None
        gap, other = min(gaps)
        return max(0.0, gap), other

    def stance(mid: str) -> tuple[str, str]:
        gap, other = nearest_oracle(mid)
        where = None if other is None else pos[other]
        cover = cover_from(table, pos[mid], radius[mid], where, radius.get(other, 0.0))
        return cover, band_label(gap, edges)

    def loss(mid: str, rnd: int) -> None:
        rule, when = last_rule.get(mid, ("none", -(10**9)))
        facts.baits.append(rule if rnd - when <= bait_window else "none")
        facts.loss_rounds.append(rnd)

    for event in events[1:]:
        kind = event["type"]
        rnd = int(event.get("round") or 0)
        if kind == "oracle_decision" and event.get("side") == oracle_side:
            key = f"{event['profile']}/{event['rule']}"
            facts.rules_fired[key] += 1
            first = str(event.get("decision", "")).split(" ", 1)[0]
            if first not in NOT_ACTIONS and event.get("model") in side_of:
                facts.oracle_actions[key] += 1
                last_rule[event["model"]] = (key, rnd)
        elif kind == "move":
            mid = event["model"]
            pos[mid] = (float(event["to"][0]), float(event["to"][1]))
            if side_of.get(mid) == subject and event.get("kind") in ("move", "charge", "disengage"):
                facts.moves.append(stance(mid))
        elif kind == "action" and side_of.get(event["model"]) == subject:
            target = event.get("target")
            if event["action"] in ATTACK_ACTIONS and target in side_of:
                mid = event["model"]
                state = (
                    "down"
                    if target in down
                    else "wounded"
                    if wounds[target] < full[target]
                    else "fresh"
                )
                facts.attacks.append(
                    (
                        event["action"],
                        *stance(mid),
                        str(info[target].get("profile")),
                        "leader" in info[target].get("keywords", []),
                        state,
                    )
                )
        elif kind == "activation" and side_of.get(event.get("model")) == subject:
            if not event.get("bonus"):
                facts.dice.append(len(event.get("dice", [])))
        elif kind == "wound":
            mid = event["model"]
            wounds[mid] = int(event["wounds_left"])
            if side_of.get(mid) == oracle_side and int(event.get("amount", 0)) > 0:
                loss(mid, rnd)
                facts.loss_causes.append(str(event.get("cause", "")).split(" ", 1)[0] or "?")
        elif kind == "down":
            down.add(event["model"])
        elif kind == "removed":
            mid = event["model"]
            gone.add(mid)
            if side_of.get(mid) == oracle_side and event.get("reason") == "fled":
                loss(mid, rnd)
                facts.loss_causes.append("flight")
    return facts


def bait_excess(facts: Sequence[GameFacts], min_lift: float = 1.0) -> dict[str, float]:
    """Per Oracle action rule: its share of the Oracle's losses minus its share of the
    Oracle's action decisions, over ``facts`` (positive: losses follow it more than its
    use explains). Rules whose lift (the ratio of the two shares) is below ``min_lift``
    are left out: a rule the Oracle uses all the time precedes most losses too."""
    losses = Counter(b for f in facts for b in f.baits if b != "none")
    all_losses = sum(len(f.baits) for f in facts)
    decisions: Counter[str] = Counter()
    for f in facts:
        decisions.update(f.oracle_actions)
    total = sum(decisions.values())
    if not all_losses or not total:
        return {}
    out = {}
    for rule, count in losses.items():
        loss_share, use_share = count / all_losses, decisions[rule] / total
        if use_share and loss_share / use_share >= min_lift:
            out[rule] = loss_share - use_share
    return out


def _share(items: Sequence[Any], test: Any) -> float:
    return sum(1 for x in items if test(x)) / len(items) if items else 0.0


def _modal(items: Sequence[Any], default: Any = None) -> Any:
    if not items:
        return default
    counts = Counter(items)
    best = max(counts.values())
    return next(x for x in items if counts[x] == best)


def _rule_words(key: str, profiles: Any) -> str:
    """The card words of an Oracle rule key (``profile/rule``), or a plain label."""
    from riven_agents.oracle.words import rule_text

    name, _, rule = key.partition("/")
    profile = getattr(profiles, "profiles", {}).get(name)
    if profile is not None:
        for priority in profile.priorities:
            if priority.id == rule:
                return rule_text(priority, profile)
    if rule.startswith("d6:"):
        return f"the fallback d6 table, face {rule[3:]}"
    if rule.startswith("end:"):
        return "ends its activation (the rolled action was impossible)"
    return rule


def describe(
    facts: Sequence[GameFacts],
    reference: Sequence[GameFacts],
    settings: Mapping[str, Any],
    profiles: Any,
) -> dict[str, Any]:
    """The pattern of a group of winning games, in numbers and in words.

    ``reference`` are games of the reference player (random) from the same seat: what the
    subject does *differently* (cover share) is measured against them.
    """
    losses = [b for f in facts for b in f.baits]
    decisions: Counter[str] = Counter()
    for f in facts:
        decisions.update(f.oracle_actions)
    total_decisions = sum(decisions.values())
    excess = bait_excess(facts, float(settings["min_bait_lift"]))
    bait = max(excess, key=lambda b: (excess[b], b)) if excess else "none"
    if bait != "none" and excess[bait] <= 0:
        bait = "none"
    named = Counter(losses)
    bait_share = named[bait] / len(losses) if losses and bait != "none" else 0.0
    decision_share = decisions[bait] / total_decisions if total_decisions else 0.0
    moves = [m for f in facts for m in f.moves]
    ref_moves = [m for f in reference for m in f.moves]
    attacks = [a for f in facts for a in f.attacks]
    causes = [c for f in facts for c in f.loss_causes]
    first_losses = [min(f.loss_rounds) for f in facts if f.loss_rounds]
    loss_rounds = [r for f in facts for r in f.loss_rounds]
    move_band = _modal([m[1] for m in moves], "none")
    attack_band = _modal([a[2] for a in attacks], "none")
    profiles_hit = Counter(a[3] for a in attacks)
    top_profile = profiles_hit.most_common(1)[0][0] if profiles_hit else None
    numbers = {
        "bait": {
            "rule": bait,
            "words": _rule_words(bait, profiles) if bait != "none" else "",
            "share_of_losses": bait_share,
            "share_of_decisions": decision_share,
            "lift": bait_share / decision_share if decision_share else None,
            "losses": len(losses),
        },
        "stand": {
            "moves": len(moves),
            "moves_in_cover": _share(moves, lambda m: m[0] != "none"),
            "reference_moves_in_cover": _share(ref_moves, lambda m: m[0] != "none"),
            "move_band": move_band,
            "move_band_share": _share(moves, lambda m: m[1] == move_band),
            "attacks_from_cover": _share(attacks, lambda a: a[1] != "none"),
            "attack_band": attack_band,
        },
        "targets": {
            "attacks": len(attacks),
            "actions": dict(Counter(a[0] for a in attacks).most_common()),
            "at_leader": _share(attacks, lambda a: a[4]),
            "at_wounded": _share(attacks, lambda a: a[5] == "wounded"),
            "at_down": _share(attacks, lambda a: a[5] == "down"),
            "top_profile": top_profile,
            "top_profile_share": profiles_hit[top_profile] / len(attacks) if attacks else 0.0,
            "wounds_by": dict(Counter(causes).most_common()),
        },
        "timing": {
            "first_loss_round": statistics.median(first_losses) if first_losses else None,
            "peak_loss_round": _modal(sorted(loss_rounds)),
            "game_rounds": statistics.median([f.rounds for f in facts]) if facts else None,
        },
    }
    numbers["params"] = recipe_params(numbers, facts, settings).to_dict()
    numbers["words"] = recipe_words(numbers)
    return numbers


def recipe_params(
    numbers: Mapping[str, Any], facts: Sequence[GameFacts], settings: Mapping[str, Any]
):
    """The scripted agent's parameters that follow a described pattern (module docstring)."""
    from riven_agents.recipe import RecipeParams

    stand, targets, timing = numbers["stand"], numbers["targets"], numbers["timing"]
    causes = targets["wounds_by"]
    melee = causes.get("melee", 0)
    attack = "melee" if melee >= causes.get("shot", 0) else "shoot"
    share = float(settings["target_share"])
    if targets["at_wounded"] >= share:
        target = "wounded"
    elif targets["at_leader"] >= share:
        target = "leader"
    else:
        target = "nearest"
    hold, until = 0.0, 1
    first = timing["first_loss_round"]
    band = stand["move_band"]
    if band not in ("none",) and first is not None:
        low = band_low(band)
        if low >= float(settings["hold_min_inches"]) and first >= 2:
            hold, until = low, int(math.ceil(first))
    cover_margin = float(settings["cover_margin"])
    cover = stand["moves_in_cover"] >= stand["reference_moves_in_cover"] + cover_margin
    dice = _modal([d for f in facts for d in f.dice], 2)
    return RecipeParams(
        hold=hold,
        until=until,
        cover=bool(cover),
        target=target,
        attack=attack,
        finish=targets["at_down"] > 0,
        dice=int(dice),
    )


def recipe_words(numbers: Mapping[str, Any]) -> str:
    """The recipe as a few sentences a designer can act on."""
    bait, stand, targets, timing = (
        numbers["bait"], numbers["stand"], numbers["targets"], numbers["timing"]
    )  # fmt: skip
    parts = []
    if bait["rule"] != "none":
        lift = f", {bait['lift']:.1f}x its share of the Oracle's actions" if bait["lift"] else ""
        parts.append(
            f"Bait `{bait['rule']}` ({bait['words'].rstrip('.')}): "
            f"{bait['share_of_losses']:.0%} of the Oracle's losses follow it{lift}."
        )
    else:
        parts.append(
            "No Oracle rule precedes its losses more often than the Oracle uses it: "
            "it wins without baiting one rule."
        )
    parts.append(
        f"Stand {stand['move_band']} from the nearest Oracle model "
        f"({stand['move_band_share']:.0%} of moves end there); "
        f"{stand['moves_in_cover']:.0%} of moves end hidden from it or in cover "
        f"(the baseline's: {stand['reference_moves_in_cover']:.0%}); "
        f"{stand['attacks_from_cover']:.0%} of attacks are made from there."
    )
    if targets["attacks"]:
        action = next(iter(targets["actions"]))
        wounds = ", ".join(f"{k} {v}" for k, v in targets["wounds_by"].items()) or "none"
        parts.append(
            f"Attack mostly by {action} from {stand['attack_band']}; targets: "
            f"{targets['at_wounded']:.0%} wounded, {targets['at_down']:.0%} Down, "
            f"{targets['at_leader']:.0%} the leader, {targets['top_profile_share']:.0%} "
            f"'{targets['top_profile']}'. Wounds dealt by: {wounds}."
        )
    if timing["first_loss_round"] is not None:
        parts.append(
            f"Timing: first Oracle loss in round {timing['first_loss_round']:g} (median), "
            f"most losses in round {timing['peak_loss_round']}; games last "
            f"{timing['game_rounds']:g} rounds."
        )
    return " ".join(parts)


def find_recipes(
    wins: Sequence[GameFacts],
    reference: Sequence[GameFacts],
    settings: Mapping[str, Any],
    profiles: Any,
) -> tuple[list[dict[str, Any]], str | None]:
    """Group the subject's wins by dominant bait and describe each large enough group.

    Returns:
        ``(recipes, note)``: the recipes, largest group first (at most ``max_recipes``), and
        a note when there were too few wins for any recipe.
    """
    minimum = int(settings["min_games"])
    if len(wins) < minimum:
        return [], f"not enough winning games for a recipe ({len(wins)} < {minimum})"
    excess = bait_excess(wins, float(settings["min_bait_lift"]))
    groups: dict[str, list[GameFacts]] = {}
    for f in wins:
        groups.setdefault(f.dominant_bait(excess), []).append(f)
    large = sorted(
        (g for g in groups.values() if len(g) >= minimum), key=lambda g: (-len(g), g[0].seed)
    )
    if not large:  # no bait dominates enough games: one recipe over every win
        large = [list(wins)]
    recipes = []
    for group in large[: int(settings["max_recipes"])]:
        recipe = describe(group, reference, settings, profiles)
        recipe["games"] = len(group)
        recipe["seeds"] = [f.seed for f in group]
        recipes.append(recipe)
    return recipes, None


__all__ = [
    "GameFacts",
    "bait_excess",
    "band_label",
    "cover_from",
    "describe",
    "find_recipes",
    "game_facts",
    "recipe_params",
    "recipe_words",
]
