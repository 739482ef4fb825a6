"""How many activation dice a dice rule rolls, from the exact odds of ``riven_env.rules.odds``.

No probability is written down anywhere in the Oracle: the named policies compare the exact
expected actions and turnover chances of each number of dice under the rules in play, so a
designer who changes the turnover rule changes the Oracle's choices and its printed cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from riven_agents.oracle.profiles import DiceRule
from riven_agents.oracle.words import percent

from riven_env.rules import RulesConfig
from riven_env.rules.odds import activation_odds

# The rules values activation odds depend on; a cache keyed by them is sound across games
# and rules variants (it holds exact fractions, no randomness).
_ODDS_KEYS = ("activation.turnover", "activation.sbh_failures_to_pass", "dice.faces")
_odds_cache: dict[tuple, dict[str, Fraction]] = {}
# Policy choices by (policy, turnover cost, Mettle, dice offered, odds rules values): exact
# fraction arithmetic is slow, and the Oracle asks the same few questions all game long.
_choice_cache: dict[tuple, int] = {}
_CHOICE_CACHE_LIMIT = 4096
# Explanation words by the same keys as _odds_cache (as few entries).
_words_cache: dict[tuple, str] = {}


def dice_odds(mettle: int, dice: int, rules: RulesConfig) -> dict[str, Fraction]:
    """Exact odds of rolling ``dice`` activation dice at ``mettle`` (memoised)."""
    key = (*(rules.get(k) for k in _ODDS_KEYS), mettle, dice)
    found = _odds_cache.get(key)
    if found is None:
        found = activation_odds(mettle, dice, rules)
        _odds_cache[key] = found
    return found


def dice_words(mettle: int, dice: int, rules: RulesConfig) -> str:
    """The odds of rolling ``dice`` at ``mettle`` in the words of an explanation (memoised)."""
    key = (*(rules.get(k) for k in _ODDS_KEYS), mettle, dice)
    found = _words_cache.get(key)
    if found is None:
        odds = dice_odds(mettle, dice, rules)
        found = _words_cache[key] = (
            f"Mettle {mettle}+: {float(odds['expected_actions']):.2f} expected actions, "
            f"{percent(odds['p_turn_passes'])} chance the turn passes"
        )
    return found


def dice_for_rule(rule: DiceRule, mettle: int, offered: Sequence[int], rules: RulesConfig) -> int:
    """The number of dice ``rule`` rolls for a model of ``mettle``.

    Args:
        rule: The dice rule (a fixed number or a named policy).
        mettle: The model's Mettle threshold.
        offered: The numbers of dice the game allows now, ascending (Conditions may cap them).
        rules: The rules in play.

    Returns:
        One of ``offered``: a fixed number is capped to the largest offered; a policy picks
        the best score, ties going to fewer dice (fewer dice risk less Strain).
    """
    if rule.dice is not None:
        usable = [n for n in offered if n <= rule.dice] or list(offered[:1])
        return usable[-1]
    key = (
        rule.policy,
        rule.turnover_cost,
        mettle,
        tuple(offered),
        *(rules.get(k) for k in _ODDS_KEYS),
    )
    found = _choice_cache.get(key)
    if found is None:
        if len(_choice_cache) >= _CHOICE_CACHE_LIMIT:
            _choice_cache.clear()
        found = _policy_choice(rule, mettle, offered, rules)
        _choice_cache[key] = found
    return found


def _policy_choice(rule: DiceRule, mettle: int, offered: Sequence[int], rules: RulesConfig) -> int:
    """The offered number of dice with the best score under ``rule``'s named policy."""
    cost = Fraction(rule.turnover_cost).limit_denominator(1000)

    def score(n: int) -> tuple[Fraction, ...]:
        odds = dice_odds(mettle, n, rules)
        actions, passes = odds["expected_actions"], odds["p_turn_passes"]
        if rule.policy == "max_expected_actions":
            return (actions, Fraction(-n))
        if rule.policy == "safe":
            return (-passes, actions, Fraction(-n))
        return (actions - cost * passes, Fraction(-n))  # "value"

    return max(offered, key=score)


__all__ = ["dice_for_rule", "dice_odds", "dice_words"]
