"""The Oracle's feel at the table: ``riven oracle audit PROFILE --scenario S``.

The profile (``oracle:PROFILE`` on its whole side) plays ``games`` games against a
reference agent, alternating colours (game ``g`` puts the Oracle on blue when ``g`` is
even). Every Oracle decision is recorded with its **situation key** and its **choice**:

* situation key: the sorted kinds of the legal decisions (activation, which actions are
  open: charge, shoot, melee, disengage ... so engaged / in reach / with a shot are told
  apart), whether the acting model is wounded, and the score standing of the Oracle's side
  (ahead, level, behind). Two decisions with the same key look alike to a player.
* choice: the decision's kind, plus the dice count of an activation and the kind of
  destination of a move (``move@toward_objective``); target models are left out.

Measures, each with a 95% interval (percentile bootstrap over games unless said):

* ``predictability``: share of decisions whose choice equals the most frequent choice of
  the *other* decisions with the same key (leave-one-out; keys met once are left out).
* ``conditional_entropy``: ``H(choice | key)`` in bits (0: the situation fixes the move).
* ``variety``: ``H(choice)`` in bits per game (how many different things it does), and
  ``rule_coverage``: share of the profile's priority rules that fired in the game.
* ``rules_read``: rules a human reads per activation (the position on the card of the rule
  that fired, every priority rule when the d6 fallback decides, the position of the dice
  rule), and ``dice_rolled``: dice rolled per activation for the Oracle's models (activation
  dice, 2d6 tests, shots, melee, morale, Out and Bleeding checks, the fallback d6).
* ``bad_move_rate``: share of rated decisions (a seeded sample, ``rate_share``) whose value
  by the greedy one-step evaluation (:class:`riven_agents.greedy.GreedyAgent`) is worse than the
  best legal decision's by more than ``BAD_MARGIN`` (Wilson).
* ``compensation``: extra models (copies of the side's most common profile) the weaker
  side needs for a 50% score: the reference player's score is measured with 0 extra models
  and then bisected over ``0..MAX_EXTRA``; reported as the smallest count that reaches 1/2,
  with the counts whose score interval contains 1/2 as its range. RIVEN has no per-side
  dice handicap in its rules data, so models are the unit (a ``riven balance`` tool would
  replace this search).
"""

from __future__ import annotations

import copy
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import uuid4

import numpy as np

from riven_env.analytics.metrics import bootstrap_interval, score_interval
from riven_env.analytics.rosters import derived_folder, scenario_document, write_derived
from riven_env.analytics.store import replace_rows
from riven_env.playtest.config import game_seed
from riven_env.playtest.stats import Interval, wilson_interval

SIDES = ("blue", "red")
# Worse than the best legal decision by more than this, in the evaluation's units
# (agents/evaluation.py, tanh-squashed into [-1, 1]): on skirmish-5v5 one wound is 1/7 of
# a side's wounds, about 0.14 before the tanh, and a victory point 0.25, so 0.05 is about a
# third of a wound or a fifth of a point: more than determinisation noise, less than a blunder.
BAD_MARGIN = 0.05
# Most extra models tried by the compensation search.
MAX_EXTRA = 4
# Determinised samples of the greedy rating (the agent's default is 4; 2 halves the cost
# of an audit, and the common seeds still rank decisions against each other).
RATING_SAMPLES = 2
DEFAULT_RATE_SHARE = 0.25
_RULE = re.compile(r"rule (\d+)")
_DIE_FIELDS = {"test": "dice", "shot": "dice"}


def situation_key(state: Any, model_id: str | None, legal: Sequence[Any], side: str) -> str:
    """The key of decisions that look alike (module docstring)."""
    kinds = ",".join(sorted({d.kind for d in legal}))
    wounded = "?"
    for model in state.models:
        if model.id == model_id:
            wounded = "wounded" if model.wounds < model.profile.wounds else "fresh"
            break
    other = SIDES[1 - SIDES.index(side)]
    diff = state.points[side] - state.points[other]
    standing = "ahead" if diff > 0 else "behind" if diff < 0 else "level"
    return f"{kinds}|{wounded}|{standing}"


def choice_label(decision: Any) -> str:
    """The choice of a decision (kind, activation dice, destination kind)."""
    label = decision.kind
    if decision.dice is not None:
        label += f":{decision.dice}d"
    if decision.destination is not None:
        label += f"@{decision.destination[0]}"
    return label


def entropy(counts: Mapping[str, int]) -> float:
    """Shannon entropy in bits of a count table."""
    total = sum(counts.values())
    if not total:
        return 0.0
    p = np.asarray([c / total for c in counts.values() if c], dtype=float)
    return float(-(p * np.log2(p)).sum())


def rules_read(rule: str, explanation: str, priorities: int) -> int:
    """Rules a human reads down the card for one Oracle decision."""
    if rule.startswith("d6:"):
        return priorities
    if rule.startswith("dice:"):
        return int(rule.split(":", 1)[1])
    found = _RULE.search(explanation or "")
    return int(found.group(1)) if found else 1


def dice_in(event: Mapping[str, Any], mine: set[str]) -> int:
    """Dice an event rolled for models in ``mine``."""
    kind = event.get("type")
    if kind == "activation":
        return len(event.get("dice", [])) if event.get("model") in mine else 0
    if kind == "test":
        return len(event.get("dice", [])) if event.get("model") in mine else 0
    if kind == "shot":
        return len(event.get("dice", [])) if event.get("shooter") in mine else 0
    if kind == "melee":
        n = len(event.get("attacker_dice", [])) if event.get("attacker") in mine else 0
        return n + (len(event.get("defender_dice", [])) if event.get("defender") in mine else 0)
    if kind in ("morale", "out_check", "bleeding"):
        return 1 if event.get("model") in mine else 0
    return 0


@dataclass
class GameAudit:
    """What one audited game recorded.

    Attributes:
        oracle_side: The Oracle's colour.
        winner: Winning side or None.
        decisions: ``[(key, choice, rule)]`` of every Oracle decision.
        rated: ``[bool bad]`` of the rated decisions.
        activations: Oracle activations.
        rules_read: Rules read over the game.
        dice: Dice rolled for the Oracle's models over the game.
        rules_fired: Distinct priority rules fired.
    """

    oracle_side: str
    winner: str | None
    decisions: list[tuple[str, str, str]] = field(default_factory=list)
    rated: list[bool] = field(default_factory=list)
    activations: int = 0
    rules_read: int = 0
    dice: int = 0
    rules_fired: set[str] = field(default_factory=set)


def audit_game(spec: Mapping[str, Any], index: int) -> GameAudit:
    """Play and record audited game ``index`` (``spec``: scenario, profile, reference, seed,
    rate_share, overrides, max_decisions, extra)."""
    from riven_agents.greedy import GreedyAgent
    from riven_agents.oracle.profiles import load_profiles
    from riven_agents.registry import make_agent

    from riven_env.engines import new_game
    from riven_env.game.runner import agent_seeds

    seed = game_seed(int(spec["seed"]), index)
    oracle_side = SIDES[index % 2]
    ref_side = SIDES[1 - SIDES.index(oracle_side)]
    scenario = spec["scenarios"][oracle_side]
    state = new_game(scenario, seed, overrides=spec.get("overrides") or None)
    seeds = agent_seeds(seed)
    profile = spec["profile"]
    agents = {
        oracle_side: make_agent(f"oracle:{profile}", oracle_side, seeds[oracle_side]),
        ref_side: make_agent(spec["reference"], ref_side, seeds[ref_side]),
    }
    priorities = len(load_profiles().profiles[profile].priorities)
    rater = GreedyAgent("greedy", oracle_side, [seed, 7], samples=RATING_SAMPLES)
    picker = np.random.default_rng([seed, 11])
    audit = GameAudit(oracle_side=oracle_side, winner=None)
    mine = {m.id for m in state.models if m.side == oracle_side}
    for event in state.drain_events():
        audit.dice += dice_in(event, mine)
    limit = spec.get("max_decisions")
    taken = 0
    while not state.is_terminal and (limit is None or taken < limit):
        side = state.current_side
        legal = state.legal_decisions()
        decision = agents[side].act(state, legal)
        if side == oracle_side:
            info = agents[side].last_explanation or {}
            rule = str(info.get("rule", ""))
            key = situation_key(state, info.get("model"), legal, side)
            audit.decisions.append((key, choice_label(decision), rule))
            audit.rules_read += rules_read(rule, str(info.get("explanation", "")), priorities)
            audit.dice += int(rule.startswith("d6:"))
            if not rule.startswith(("d6:", "dice:")) and rule:
                audit.rules_fired.add(rule)
            if len(legal) > 1 and picker.random() < float(spec["rate_share"]):
                rate_seeds = [int(s) for s in rater.rng.integers(0, 2**63, size=rater.samples)]
                values = [rater.score(state, d, rate_seeds, side) for d in legal]
                chosen = values[next(k for k, d in enumerate(legal) if d == decision)]
                audit.rated.append(max(values) - chosen > BAD_MARGIN)
        for event in state.apply(decision):
            audit.dice += dice_in(event, mine)
            if event.get("type") == "activation" and event.get("model") in mine:
                audit.activations += 1
        taken += 1
    audit.winner = state.winner if state.is_terminal else None
    audit.rules_fired &= set(_priority_ids(profile))
    return audit


def _priority_ids(profile: str) -> list[str]:
    from riven_agents.oracle.profiles import load_profiles

    return [r.id for r in load_profiles().profiles[profile].priorities]


def _audit_batch(args: tuple[Mapping[str, Any], Sequence[int]]) -> list[GameAudit]:
    spec, indices = args
    return [audit_game(spec, i) for i in indices]


def play_audits(spec: Mapping[str, Any], games: int, workers: int) -> list[GameAudit]:
    """Play ``games`` audited games on ``workers`` processes (results in game order)."""
    indices = list(range(games))
    if workers <= 1 or games <= 1:
        return [audit_game(spec, i) for i in indices]
    import multiprocessing

    chunks = [indices[k::workers] for k in range(workers)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        parts = pool.map(_audit_batch, [(spec, c) for c in chunks if c])
    by_index = {}
    for chunk, part in zip([c for c in chunks if c], parts, strict=True):
        by_index.update(dict(zip(chunk, part, strict=True)))
    return [by_index[i] for i in indices]


# ---------------------------------------------------------------------- measures
def predictability_values(games: Sequence[GameAudit]) -> tuple[list[float], list[float]]:
    """Per game: (hits, tries) of the leave-one-out modal-choice prediction."""
    table: dict[str, Counter[str]] = {}
    for g in games:
        for key, choice, _ in g.decisions:
            table.setdefault(key, Counter())[choice] += 1
    hits, tries = [], []
    for g in games:
        h = t = 0
        for key, choice, _ in g.decisions:
            counts = table[key].copy()
            counts[choice] -= 1
            if sum(counts.values()) == 0:
                continue
            best = max(counts.values())
            modal = sorted(c for c, n in counts.items() if n == best)
            t += 1
            # A tie between modal choices is a coin flip for the player predicting it.
            h_share = 1.0 / len(modal) if choice in modal else 0.0
            h += h_share
        hits.append(float(h))
        tries.append(float(t))
    return hits, tries


def conditional_entropy(decisions: Sequence[tuple[str, str, str]]) -> float:
    """``H(choice | key)`` in bits of a list of decisions."""
    table: dict[str, Counter[str]] = {}
    for key, choice, _ in decisions:
        table.setdefault(key, Counter())[choice] += 1
    total = len(decisions)
    if not total:
        return math.nan
    return sum(sum(c.values()) / total * entropy(c) for c in table.values())


def measures(games: Sequence[GameAudit], profile: str) -> dict[str, Interval]:
    """Every audit measure except compensation, each with its interval."""
    hits, tries = predictability_values(games)
    ratio = lambda h, t: float(h.sum() / t.sum()) if t.sum() else math.nan  # noqa: E731
    keep = [k for k, t in enumerate(tries) if t > 0]
    out: dict[str, Interval] = {
        "predictability": bootstrap_interval(
            [[hits[k] for k in keep], [tries[k] for k in keep]], ratio
        ),  # fmt: skip
    }
    index = np.arange(len(games))

    def cond_entropy(idx: np.ndarray) -> float:
        return conditional_entropy([d for k in idx.astype(int) for d in games[k].decisions])

    out["conditional_entropy"] = bootstrap_interval([index], cond_entropy)
    variety = [entropy(Counter(c for _, c, _ in g.decisions)) for g in games]
    out["variety"] = bootstrap_interval([variety], np.mean)
    total_rules = max(1, len(_priority_ids(profile)))
    out["rule_coverage"] = bootstrap_interval(
        [[len(g.rules_fired) / total_rules for g in games]], np.mean
    )
    acts = [float(max(0, g.activations)) for g in games]
    out["rules_read"] = bootstrap_interval([[float(g.rules_read) for g in games], acts], ratio)
    out["dice_rolled"] = bootstrap_interval([[float(g.dice) for g in games], acts], ratio)
    rated = [bad for g in games for bad in g.rated]
    out["bad_move_rate"] = wilson_interval(sum(rated), len(rated))
    scores = [1.0 if g.winner == g.oracle_side else 0.5 if g.winner is None else 0.0 for g in games]
    out["oracle_score"] = score_interval(scores)
    for side in SIDES:
        mine = [s for s, g in zip(scores, games, strict=True) if g.oracle_side == side]
        out[f"oracle_score_as_{side}"] = score_interval(mine)
    return out


# ---------------------------------------------------------------------- compensation
def with_extra_models(scenario: str, side: str, extra: int, folder: Any) -> str:
    """The mission with ``extra`` more models (the side's most common profile) on ``side``."""
    if extra == 0:
        return scenario
    doc = copy.deepcopy(scenario_document(scenario))
    models = doc["sides"][side]["models"]
    counts = Counter(m["profile"] for m in models for _ in range(int(m.get("count", 1))))
    best = max(counts.values())
    profile = [m["profile"] for m in models if counts[m["profile"]] == best][-1]
    models.append({"profile": profile, "count": extra, "id": f"{side}-extra"})
    return str(write_derived(doc, doc["scenario"]["name"], f"{side}-plus-{extra}", folder))


def compensation(
    spec: Mapping[str, Any], scenario: str, games: int, workers: int, folder: Any,
    baseline: Sequence[GameAudit],
) -> dict[str, Any]:  # fmt: skip
    """Bisect the extra models the weaker side needs for a 50% score (module docstring)."""

    def ref_score(audits: Sequence[GameAudit]) -> Interval:
        return score_interval(
            [1.0 if g.winner not in (None, g.oracle_side) else 0.5 if g.winner is None else 0.0
             for g in audits]
        )  # fmt: skip

    tried: dict[int, Interval] = {0: ref_score(baseline)}
    weaker = "reference" if tried[0].value < 0.5 else "oracle"

    def evaluate(extra: int) -> Interval:
        if extra not in tried:
            scenarios = {}
            for oracle_side in SIDES:
                ref_side = SIDES[1 - SIDES.index(oracle_side)]
                gets = ref_side if weaker == "reference" else oracle_side
                scenarios[oracle_side] = with_extra_models(scenario, gets, extra, folder)
            run = dict(spec, scenarios=scenarios, rate_share=0.0)
            tried[extra] = ref_score(play_audits(run, games, workers))
        return tried[extra]

    def reached(i: Interval) -> bool:
        return i.value >= 0.5 if weaker == "reference" else i.value <= 0.5

    low, high = 0, MAX_EXTRA
    if reached(tried[0]):
        found: int | None = 0
    elif not reached(evaluate(high)):
        found = None
    else:
        while high - low > 1:
            mid = (low + high) // 2
            if reached(evaluate(mid)):
                high = mid
            else:
                low = mid
        found = high
    plausible = sorted(k for k, i in tried.items() if i.low <= 0.5 <= i.high)
    return {
        "weaker": weaker,
        "extra_models": found,
        "plausible": plausible,
        "tried": {k: tried[k].to_dict() for k in sorted(tried)},
        "max_extra": MAX_EXTRA,
    }


def compensation_row(
    group: str, profile: str, scenario: str, comp: Mapping[str, Any], games: int
) -> tuple:
    """The ``oracle_audit`` row of a compensation search.

    ``value`` is the extra models found, ``low``/``high`` the plausible range; when even
    ``max_extra`` models were not enough, ``value`` and ``high`` are null and ``low`` is
    ``max_extra + 1`` (method ``bisection: more than max_extra``).
    """
    name = f"compensation_models_for_{comp['weaker']}"
    found = comp["extra_models"]
    if found is None:
        low = float(comp["max_extra"] + 1)
        return (group, profile, scenario, name, None, low, None, games,
                "bisection: more than max_extra")  # fmt: skip
    plausible = comp["plausible"] or [found]
    return (group, profile, scenario, name, float(found), float(min(plausible)),
            float(max(plausible)), games, "bisection")  # fmt: skip


@dataclass(frozen=True)
class OracleAudit:
    """An audit's results (``riven oracle audit --json``)."""

    group_id: str
    profile: str
    scenario: str
    reference: str
    games: int
    measures: dict[str, Interval]
    compensation: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "group_id": self.group_id,
            "profile": self.profile,
            "scenario": self.scenario,
            "reference": self.reference,
            "games": self.games,
            "measures": {k: v.to_dict() for k, v in self.measures.items()},
            "compensation": self.compensation,
            "bad_margin": BAD_MARGIN,
        }


def run_audit(
    profile: str, scenario: str, *, games: int = 20, reference: str = "greedy",
    seed: int = 0, workers: int = 1, rate_share: float = DEFAULT_RATE_SHARE,
    compensate: bool = True, overrides: Mapping[str, object] | None = None,
    max_decisions: int | None = None, db: Any = None,
) -> OracleAudit:  # fmt: skip
    """Audit one Oracle profile on a mission (stored in ``oracle_audit`` when ``db``).

    Raises:
        RivenError: Unknown profile, scenario or reference agent (checked before playing).
        PlaytestError: ``rate_share`` outside [0, 1].
    """
    from riven_agents.registry import make_agent

    from riven_env.engines import new_game
    from riven_env.playtest.db import ResultsDB
    from riven_env.playtest.errors import PlaytestError

    if not 0.0 <= rate_share <= 1.0:
        raise PlaytestError(f"rate_share={rate_share} is not allowed; allowed: 0 to 1")
    make_agent(f"oracle:{profile}", "blue", 0)
    make_agent(reference, "red", 0)
    new_game(scenario, 0, overrides=dict(overrides or {}) or None)
    spec = {
        "scenarios": dict.fromkeys(SIDES, scenario), "profile": profile,
        "reference": reference, "seed": seed, "rate_share": rate_share,
        "overrides": dict(overrides or {}), "max_decisions": max_decisions,
    }  # fmt: skip
    audits = play_audits(spec, games, workers)
    found = measures(audits, profile)
    group = f"audit-{uuid4().hex[:12]}"
    folder = derived_folder(db if db is not None else "runs/playtests.duckdb")
    comp = compensation(spec, scenario, games, workers, folder, audits) if compensate else None
    audit = OracleAudit(group, profile, scenario, reference, games, found, comp)
    if db is not None:
        rows = [(group, profile, scenario, k, v.value, v.low, v.high, v.n,
                 "wilson" if k in ("bad_move_rate",) or k.startswith("oracle_score")
                 else "bootstrap") for k, v in found.items()]  # fmt: skip
        if comp is not None:
            rows.append(compensation_row(group, profile, scenario, comp, games))
        with ResultsDB(db) as handle:
            replace_rows(handle, "oracle_audit", "group_id", group, rows)
    return audit
