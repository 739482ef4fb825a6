"""Momentum: a pool of tokens that builds advantage (sources RAW, costs and cap house rules).

The pool belongs to a side (``momentum.pool = "side"``, RAW) or, in solo-hero mode, to the
hero (``momentum.solo_hero_pool = "model"``). Gains (``[momentum.gain]``): a Critical on any
2d6 test, completing an objective, the Focus action. Spends (``[momentum.cost]``): reroll one
die of a test before resolving, boost a test one tier (Miss -> Partial -> Hit; never to
Critical: ``momentum.boost_ceiling``), give another model a bonus action this round. The pool
never exceeds ``momentum.cap`` and never goes below 0. Spending is the agent's choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riven_env.errors import RulesDataError

if TYPE_CHECKING:
    from riven_env.rules.rules_data import RulesConfig

MOMENTUM_POOL_OWNERS = ("side", "model")


def momentum_gain(source: str, rules: RulesConfig) -> int:
    """Momentum a source grants (``momentum.gain.SOURCE``: critical, objective, focus, ...)."""
    gains = rules.section("momentum.gain")
    if source not in gains:
        raise RulesDataError(
            f"{rules.source}: unknown Momentum source {source!r}; known: {', '.join(gains)}"
        )
    return int(gains[source])


def momentum_cost(spend: str, rules: RulesConfig) -> int:
    """Momentum a spend costs (``momentum.cost.SPEND``: reroll, boost, bonus_action, ...)."""
    costs = rules.section("momentum.cost")
    if spend not in costs:
        raise RulesDataError(
            f"{rules.source}: unknown Momentum spend {spend!r}; known: {', '.join(costs)}"
        )
    return int(costs[spend])


def add_momentum(pool: int, amount: int, rules: RulesConfig) -> int:
    """Add (or, with a negative amount, remove) Momentum, clamped to ``0..momentum.cap``."""
    return max(0, min(int(rules.get("momentum.cap")), pool + amount))


def can_afford(pool: int, spend: str, rules: RulesConfig) -> bool:
    """Whether a pool holds enough Momentum for a spend."""
    return pool >= momentum_cost(spend, rules)


def momentum_pool_owner(solo_hero: bool, rules: RulesConfig) -> str:
    """Who owns a pool: ``"side"`` or ``"model"`` (solo-hero mode uses its own setting)."""
    return str(rules.get("momentum.solo_hero_pool" if solo_hero else "momentum.pool"))


def starting_momentum(rules: RulesConfig) -> int:
    """Momentum in a pool at the start of a game."""
    return int(rules.get("momentum.start"))
