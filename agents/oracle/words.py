"""Plain words for the Oracle's data: the lines of the printed cards and of the explanations.

Both the cards (:mod:`riven_agents.oracle.cards`) and the engine's explanations use these
functions, so what the simulation records and what the solo player reads say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from riven_agents.oracle import vocabulary as vocab
from riven_agents.oracle.profiles import (
    ActionRef,
    BonusPolicy,
    Condition,
    DiceRule,
    OracleProfile,
    PriorityRule,
    SpendRule,
    target_side,
)


def _arg(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).replace("_", " ")


def condition_text(condition: Condition) -> str:
    """One condition in plain words ("an enemy is within 3\"")."""
    term = vocab.CONDITIONS[condition.name]
    template = term.negated if condition.negated else term.text
    return template.format(arg=_arg(condition.arg) if condition.arg is not None else "")


def conditions_text(conditions: Sequence[Condition], extra: Sequence[str] = ()) -> str:
    """A list of conditions (plus ``extra`` phrases) as an "If ..." clause, or "Always"."""
    real = [c for c in conditions if not (c.name == "always" and not c.negated)]
    parts = [condition_text(c) for c in real] + list(extra)
    if not parts:
        return "Always"
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"If {joined}"


def selector_text(selector: str, noun: str) -> str:
    """A target selector in plain words for candidates called ``noun``."""
    return vocab.SELECTORS[selector].text.format(noun=noun)


def action_text(action: ActionRef, selector: str | None) -> str:
    """An action with its target in plain words ("Charge the nearest enemy in reach")."""
    side = target_side(action)
    if action.destination is not None:
        noun = "enemy" if side == "enemy" else "friend"
        target = selector_text(selector, noun) if side and selector else ""
        direction = vocab.DESTINATION_TEXT[action.destination].format(target=target)
        words = vocab.ACTION_WORDS.get(action.kind)
        template = (
            words.text if words else action.kind.replace("_", " ").capitalize() + " {direction}"
        )
        return template.format(direction=direction)
    words = vocab.ACTION_WORDS.get(action.kind)
    if words is None:
        return action.kind.replace("_", " ").capitalize()
    target = selector_text(selector, words.noun) if words.target_side and selector else ""
    return words.text.format(target=target)


def rule_text(rule: PriorityRule, profile: OracleProfile) -> str:
    """A priority rule as one card line ("If it can charge an enemy: Charge ...")."""
    selector = profile.target_for(rule.action, rule.target) if target_side(rule.action) else None
    line = f"{conditions_text(rule.when)}: {action_text(rule.action, selector)}."
    return f"{line} {rule.note}" if rule.note else line


def fallback_text(profile: OracleProfile, roll: int) -> str:
    """One face of the d6 table in plain words."""
    entry = profile.fallback[roll - 1]
    selector = profile.target_for(entry.action, entry.target) if target_side(entry.action) else None
    return action_text(entry.action, selector)


def dice_rule_text(rule: DiceRule, odds: str = "") -> str:
    """A dice policy line ("If it is engaged: roll 3 dice")."""
    if rule.dice is not None:
        what = f"roll {rule.dice} {'die' if rule.dice == 1 else 'dice'}"
    else:
        what = "roll " + vocab.DICE_POLICIES[rule.policy].format(
            turnover_cost=_arg(rule.turnover_cost)
        )
    return f"{conditions_text(rule.when)}: {what}{odds}."


def spend_rule_text(rule: SpendRule) -> str:
    """A spend policy line in plain words."""
    bands = " or ".join(b.capitalize() for b in rule.on)
    if "any" in rule.tests:
        tests = "any test"
    else:
        kinds = " or ".join(t.replace("_", " ") for t in rule.tests)
        tests = f"{'an' if kinds[0] in 'aeiou' else 'a'} {kinds} test"
    what = vocab.SPEND_OPTIONS[rule.option]
    if rule.option == "strain":
        if rule.allow_overflow:
            limit = " even past its Strain track"
        elif rule.strain_headroom:
            limit = f" while it keeps {rule.strain_headroom} Strain free on its track"
        else:
            limit = " while its Strain track has room"
    else:
        limit = f" when the side holds {rule.min_momentum}+ Momentum" if rule.min_momentum else ""
    return f"On a {bands} in {tests}: {what}{limit}."


def bonus_text(bonus: BonusPolicy) -> str:
    """The bonus action policy in plain words."""
    clause = conditions_text(bonus.when, [f"the side holds {bonus.min_momentum}+ Momentum"])
    return (
        f"{clause}: spend Momentum to give it a bonus action (one sure action, no roll) "
        "before it rolls."
    )


def order_text(keys: Sequence[str]) -> list[str]:
    """The activation order keys in plain words, in order."""
    return [vocab.ORDER_KEYS[k].text for k in keys]


def percent(value: Fraction | float) -> str:
    """A probability as a whole percent."""
    return f"{float(value) * 100:.0f}%"


__all__ = [
    "action_text",
    "bonus_text",
    "condition_text",
    "conditions_text",
    "dice_rule_text",
    "fallback_text",
    "order_text",
    "percent",
    "rule_text",
    "selector_text",
    "spend_rule_text",
]
