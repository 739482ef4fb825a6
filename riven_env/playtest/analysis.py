"""Numbers behind the HTML report, computed from the results database for one run.

Every function returns plain data (dicts, lists, :class:`Interval`), so the report, tests
and notebooks can use the same figures.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from riven_env.errors import RivenError
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.results import RunSummary, summarise_run
from riven_env.playtest.stats import Interval, wilson_interval

# Fewest activations of one (Mettle, dice) choice before the report compares it with
# another: below this the observed averages are too noisy to call one choice worse.
MIN_ACTIVATIONS_TO_COMPARE = 20


@dataclass(frozen=True)
class DiceChoice:
    """How one number of activation dice worked out at one Mettle, over the run.

    Attributes:
        side: Side that rolled (``all`` for both together).
        mettle: Mettle threshold.
        dice: Dice rolled.
        count: Activations.
        share: Fraction of the side's activations at this Mettle that used this many dice.
        mean_actions: Actions gained per activation.
        pass_rate: Fraction of activations after which the turn passed.
        dominated_by: Dice count observed to give more actions and pass no more often
            (``None`` when no other choice beat it or the sample is too small).
    """

    side: str
    mettle: int
    dice: int
    count: int
    share: float
    mean_actions: float
    pass_rate: float
    dominated_by: int | None = None


@dataclass
class RunAnalysis:
    """Everything the report shows about one run.

    Attributes:
        run: The ``runs`` row.
        summary: Headline results.
        rounds: ``{rounds: games}``.
        reasons: ``{end reason: games}``.
        first_player: ``{"first": Interval, "second": Interval}`` win rates by turn order.
        per_side: ``{side: {measure: mean per game}}`` from ``game_sides``.
        dice: Dice choices per side and Mettle.
        rules_dominated: Dominated choices by the exact odds of the run's rules
            (``riven_env.rules.odds.dominated_choices``); empty when unavailable.
        oracle_fired: ``{(profile, rule): count}`` over the run.
        oracle_never: ``{profile: [rule ids that never fired]}`` for profiles that played.
        oracle_note: Why the never-fired list may be missing, if it is.
        resources: Rows of ``(side, resource, direction, reason, total)``.
    """

    run: dict[str, Any]
    summary: RunSummary
    rounds: dict[int, int]
    reasons: dict[str, int]
    first_player: dict[str, Interval]
    per_side: dict[str, dict[str, float]]
    dice: list[DiceChoice]
    rules_dominated: list[dict[str, Any]]
    oracle_fired: dict[tuple[str, str], int]
    oracle_never: dict[str, list[str]]
    oracle_note: str | None
    resources: list[tuple[str, str, str, str, int]] = field(default_factory=list)


SIDE_MEASURES = (
    "models", "down", "out", "fled", "survivors", "wounds_dealt", "wounds_taken",
    "morale_tests", "morale_failures", "morale_flights", "momentum_gained", "momentum_spent",
    "strain_gained", "strain_spent", "activations", "actions", "turns_passed", "shots",
    "melees", "points",
)  # fmt: skip


def _per_side(db: ResultsDB, run_id: str) -> dict[str, dict[str, float]]:
    columns = ", ".join(f"avg({m}) AS {m}" for m in SIDE_MEASURES)
    rows = db.query(
        f"SELECT side, {columns} FROM game_sides WHERE run_id = ? GROUP BY side ORDER BY side",
        [run_id],
    )
    return {row.pop("side"): {k: float(v or 0.0) for k, v in row.items()} for row in rows}


def _dice_choices(db: ResultsDB, run_id: str) -> list[DiceChoice]:
    # Bonus activations bought with Momentum roll no dice (dice = 0): they are no choice.
    rows = db.query(
        "SELECT side, mettle, dice, sum(count) AS n, sum(actions) AS actions, "
        "sum(passed) AS passed FROM activations WHERE run_id = ? AND dice > 0 "
        "GROUP BY side, mettle, dice ORDER BY side, mettle, dice",
        [run_id],
    )
    totals: Counter[tuple[str, int]] = Counter()
    for row in rows:
        totals[(row["side"], row["mettle"])] += row["n"]
    choices = [
        DiceChoice(
            side=row["side"],
            mettle=row["mettle"],
            dice=row["dice"],
            count=int(row["n"]),
            share=row["n"] / totals[(row["side"], row["mettle"])],
            mean_actions=row["actions"] / row["n"],
            pass_rate=row["passed"] / row["n"],
        )
        for row in rows
        if row["n"]
    ]
    return [_flag_dominated(choice, choices) for choice in choices]


def _flag_dominated(choice: DiceChoice, choices: list[DiceChoice]) -> DiceChoice:
    if choice.count < MIN_ACTIVATIONS_TO_COMPARE:
        return choice
    for other in choices:
        if (
            other.side == choice.side
            and other.mettle == choice.mettle
            and other.dice != choice.dice
            and other.count >= MIN_ACTIVATIONS_TO_COMPARE
            and other.mean_actions > choice.mean_actions
            and other.pass_rate <= choice.pass_rate
        ):
            return DiceChoice(**{**choice.__dict__, "dominated_by": other.dice})
    return choice


def _rules_dominated(overrides: dict[str, Any]) -> list[dict[str, Any]]:
    # The exact odds under the run's own rules (with its --set overrides): what the dice
    # table says regardless of what the agents chose.
    try:
        from riven_env.rules.config import load_rules
        from riven_env.rules.odds import dominated_choices

        return [c.to_dict() for c in dominated_choices(load_rules(overrides=overrides or None))]
    except (ImportError, RivenError):
        return []


def oracle_rule_catalogue() -> tuple[dict[str, set[str]], str | None]:
    """Every rule id of every Oracle profile, from ``agents/oracle/data/profiles.toml``.

    Returns:
        ``({profile: rule ids}, None)``, or ``({}, reason)`` when the Oracle data is not
        available (the report then lists only the rules that fired).
    """
    try:
        from riven_agents.oracle.profiles import load_profiles
    except ImportError:
        return {}, "the Enemy Oracle package is not installed"
    try:
        data = load_profiles()
    except RivenError as exc:
        return {}, f"the Oracle profiles file could not be read ({exc})"
    return {name: set(profile.rule_ids()) for name, profile in data.profiles.items()}, None


def _oracle(db: ResultsDB, run_id: str) -> tuple[dict, dict, str | None]:
    fired_rows = db.query(
        "SELECT profile, rule, sum(count) AS n FROM oracle_rules WHERE run_id = ? "
        "GROUP BY profile, rule ORDER BY profile, n DESC, rule",
        [run_id],
    )
    fired = {(r["profile"], r["rule"]): int(r["n"]) for r in fired_rows}
    played = {profile for profile, _ in fired}
    if not played:
        return fired, {}, None
    catalogue, note = oracle_rule_catalogue()
    never = {
        profile: sorted(catalogue[profile] - {rule for p, rule in fired if p == profile})
        for profile in sorted(played)
        if profile in catalogue
    }
    return fired, never, note


def _first_player(db: ResultsDB, run_id: str) -> dict[str, Interval]:
    rows = db.query(
        "SELECT count(*) AS n, "
        "count(*) FILTER (WHERE winner = first_side) AS first_wins, "
        "count(*) FILTER (WHERE winner IS NOT NULL AND winner <> first_side) AS second_wins "
        "FROM games WHERE run_id = ? AND first_side IS NOT NULL",
        [run_id],
    )[0]
    n = int(rows["n"])
    return {
        "first": wilson_interval(int(rows["first_wins"]), n),
        "second": wilson_interval(int(rows["second_wins"]), n),
    }


def analyse_run(db: ResultsDB, run_id: str | None = None) -> RunAnalysis:
    """Compute the report's figures for ``run_id`` (default: the latest run)."""
    run = db.run(run_id)
    rid = run["run_id"]
    games = db.games(rid)
    fired, never, note = _oracle(db, rid)
    resources = db.query(
        "SELECT side, resource, direction, reason, sum(amount) AS total FROM resources "
        "WHERE run_id = ? GROUP BY side, resource, direction, reason "
        "ORDER BY resource, side, direction, total DESC",
        [rid],
    )
    overrides = json.loads(run["overrides"]) if run["overrides"] else {}
    return RunAnalysis(
        run=run,
        summary=summarise_run(db, rid),
        rounds=dict(sorted(Counter(g["rounds"] for g in games).items())),
        reasons=dict(Counter(g["reason"] for g in games).most_common()),
        first_player=_first_player(db, rid),
        per_side=_per_side(db, rid),
        dice=_dice_choices(db, rid),
        rules_dominated=_rules_dominated(overrides),
        oracle_fired=fired,
        oracle_never=never,
        oracle_note=note,
        resources=[
            (r["side"], r["resource"], r["direction"], r["reason"], int(r["total"]))
            for r in resources
        ],
    )
