"""The fixed vocabulary of the Enemy Oracle's data file, with the plain words of the cards.

A profile in ``agents/oracle/data/profiles.toml`` may only use the names listed here:

* **conditions** (``when = [...]`` of priority, dice, hold and bonus rules), each a predicate
  over the game state for one model, optionally with an argument after a colon
  (``enemies_closer_than:8``) and optionally negated with a ``not:`` prefix;
* **actions** (``do = ...``): the game's action kinds plus the move and disengage
  directions of the tabletop's candidate destinations (``move:toward_enemy``);
* **target selectors** (``target = ...``) choosing among the targets an action offers;
* **activation order keys** (``activation_order = [...]``);
* **dice policies** (``policy = ...`` in a dice rule);
* **spend options** (``option = ...`` in a spend rule).

Each entry carries the words a solo player reads on the printed card, so the cards and the
simulation cannot drift apart. The predicates themselves live in
:mod:`riven_agents.oracle.situation`; a test checks that every name here has one.
"""

from __future__ import annotations

from dataclasses import dataclass

from riven_env.table import DESTINATION_KINDS as TABLE_DESTINATION_KINDS

#: Argument kinds a vocabulary entry may take after its colon.
ARG_NONE = ""
ARG_NUMBER = "number"  # inches or a count: a non-negative number
ARG_CONDITION = "condition"  # a Condition name of the rules data (shaken, pinned, ...)
ARG_ACTION = "action"  # an action name of the rules data (move, aim, ...)

NEGATION_PREFIX = "not:"


@dataclass(frozen=True)
class Term:
    """One condition of the vocabulary.

    Attributes:
        name: The name used in the data file.
        arg: The kind of argument after the colon (``ARG_NONE`` for none).
        text: Plain words when it holds; ``{arg}`` is replaced by the argument.
        negated: Plain words when it does not hold (for ``not:NAME``).
    """

    name: str
    arg: str
    text: str
    negated: str


CONDITIONS: dict[str, Term] = {
    t.name: t
    for t in (
        Term("always", ARG_NONE, "always", "never"),
        Term(
            "engaged",
            ARG_NONE,
            "it is in base contact with an enemy",
            "it is not in base contact with an enemy",
        ),
        Term(
            "outnumbered",
            ARG_NONE,
            "two or more enemies are in base contact with it",
            "at most one enemy is in base contact with it",
        ),
        Term(
            "outnumbering",
            ARG_NONE,
            "a friend fights beside it against an enemy it touches",
            "no friend fights beside it",
        ),
        Term("wounded", ARG_NONE, "it has lost a wound", "it is unhurt"),
        Term(
            "badly_wounded",
            ARG_NONE,
            "it has half its starting wounds or fewer left",
            "it has more than half its wounds left",
        ),
        Term(
            "enemy_in_charge_reach", ARG_NONE, "it can charge an enemy", "it cannot charge an enemy"
        ),
        Term("enemy_in_shot", ARG_NONE, "it can shoot an enemy", "it cannot shoot an enemy"),
        Term(
            "enemy_in_shot_without_cover",
            ARG_NONE,
            "it can shoot an enemy in the open",
            "it cannot shoot an enemy in the open",
        ),
        Term(
            "friend_down_nearby",
            ARG_NONE,
            "a Down friend within reach needs stabilising",
            "no Down friend within reach needs stabilising",
        ),
        Term(
            "friend_needs_rally",
            ARG_NONE,
            "it or a friend within reach is Shaken, Pinned or Dazed and it can rally",
            "nobody within reach needs rallying",
        ),
        Term("has_condition", ARG_CONDITION, "it is {arg}", "it is not {arg}"),
        Term(
            "strain_high",
            ARG_NONE,
            "its Strain is high (one more Strain spend would overflow its track)",
            "its Strain is not high",
        ),
        Term("strained", ARG_NONE, "it carries Strain", "it carries no Strain"),
        Term(
            "in_cover",
            ARG_NONE,
            "it is in cover from the nearest enemy",
            "it is in the open to the nearest enemy",
        ),
        Term(
            "objective_uncontrolled",
            ARG_NONE,
            "an objective is not held by its side",
            "its side holds every objective",
        ),
        Term(
            "objective_within_move",
            ARG_NONE,
            "an objective its side does not hold is within one move",
            "no objective its side lacks is within one move",
        ),
        Term("on_objective", ARG_NONE, "it stands on an objective", "it is not on an objective"),
        Term(
            "can_interact",
            ARG_NONE,
            "it can work an objective it stands on",
            "it cannot work an objective",
        ),
        Term(
            "leader_alive",
            ARG_NONE,
            "its side's leader still fights",
            "its side's leader is down or gone",
        ),
        Term("is_leader", ARG_NONE, "it is its side's leader", "it is not the leader"),
        Term(
            "enemies_closer_than",
            ARG_NUMBER,
            'an enemy is within {arg}"',
            'no enemy is within {arg}"',
        ),
        Term(
            "no_friend_within",
            ARG_NUMBER,
            'no friend is within {arg}"',
            'a friend is within {arg}"',
        ),
        Term(
            "friend_engaged_within",
            ARG_NUMBER,
            'a friend within {arg}" is in base contact with an enemy',
            'no friend within {arg}" is in base contact with an enemy',
        ),
        Term(
            "side_outnumbered",
            ARG_NONE,
            "its side has fewer models fighting than the enemy",
            "its side has at least as many models fighting as the enemy",
        ),
        Term(
            "momentum_at_least",
            ARG_NUMBER,
            "its side has {arg} or more Momentum",
            "its side has less than {arg} Momentum",
        ),
        Term("has_ranged", ARG_NONE, "it carries a ranged weapon", "it has no ranged weapon"),
        Term(
            "actions_left_at_least",
            ARG_NUMBER,
            "it has {arg} or more actions left",
            "it has fewer than {arg} actions left",
        ),
        Term(
            "first_action",
            ARG_NONE,
            "it has not acted yet this activation",
            "it has already acted this activation",
        ),
        Term(
            "took",
            ARG_ACTION,
            "it already took the {arg} action this activation",
            "it has not taken the {arg} action this activation yet",
        ),
        Term(
            "mettle_at_least",
            ARG_NUMBER,
            "its Mettle is {arg}+ (unreliable)",
            "its Mettle is better than {arg}+",
        ),
    )
}
"""Every condition a profile may use, by name."""

#: The destination kinds of the tabletop's candidate destinations (re-exported here so the
#: data file's ``move:KIND`` names follow the tabletop).
DESTINATION_KINDS: tuple[str, ...] = TABLE_DESTINATION_KINDS

#: Plain words for each destination kind; ``{target}`` is the selected model, if any.
DESTINATION_TEXT: dict[str, str] = {
    "toward_enemy": "toward {target}",
    "toward_objective": "toward the nearest objective",
    "cover_from_enemy": "into cover from the enemy",
    "away": "away from the enemy",
    "toward_friend": "toward {target}",
}

#: Destination kinds whose reference is a model (so a target selector applies).
DESTINATION_TARGET_SIDE: dict[str, str] = {"toward_enemy": "enemy", "toward_friend": "friend"}

#: Action kinds that move along a candidate destination: ``KIND:DESTINATION``.
DESTINATION_ACTIONS: tuple[str, ...] = ("move", "disengage")


@dataclass(frozen=True)
class ActionWords:
    """How an action reads on a card.

    Attributes:
        text: Imperative words; ``{target}`` is the selected target phrase.
        target_side: ``"enemy"``, ``"friend"`` or ``""`` (no target).
        noun: What the target phrase calls the candidates ("engaged enemy").
    """

    text: str
    target_side: str = ""
    noun: str = ""


#: Words for the game's action kinds (a rules data action without an entry here reads as
#: its name; the data file may still use it when the rules data defines it).
ACTION_WORDS: dict[str, ActionWords] = {
    "melee": ActionWords("Fight {target}", "enemy", "engaged enemy"),
    "charge": ActionWords("Charge {target}", "enemy", "enemy in reach"),
    "shoot": ActionWords("Shoot {target}", "enemy", "enemy in sight and range"),
    "aim": ActionWords("Aim (+1 to its next shot)"),
    "focus": ActionWords("Focus (+1 Momentum)"),
    "rest": ActionWords("Rest (shed Strain)"),
    "stabilise": ActionWords("Stabilise {target}", "friend", "Down friend"),
    "rally": ActionWords("Rally {target}", "friend", "rattled friend (or itself)"),
    "interact": ActionWords("Work the objective it stands on"),
    "take_cover": ActionWords("Take cover (hunker down)"),
    "end": ActionWords("End its activation"),
    "move": ActionWords("Move {direction}"),
    "disengage": ActionWords("Disengage {direction}"),
}


@dataclass(frozen=True)
class SelectorWords:
    """A target selector and its plain words (``{noun}`` is the action's candidate noun)."""

    name: str
    text: str


SELECTORS: dict[str, SelectorWords] = {
    s.name: s
    for s in (
        SelectorWords("nearest", "the nearest {noun}"),
        SelectorWords("farthest", "the farthest {noun}"),
        SelectorWords("weakest", "the {noun} with the fewest wounds left (then the nearest)"),
        SelectorWords("strongest", "the {noun} with the most wounds left (then the nearest)"),
        SelectorWords("out_of_cover", "the {noun} in the worst cover (then the nearest)"),
        SelectorWords("leader", "the leader if it is a candidate, else the nearest {noun}"),
        SelectorWords(
            "most_dangerous", "the most dangerous {noun} (best Might or Agility, then most wounds)"
        ),
        SelectorWords("easiest", "the {noun} with the lowest Might (then the nearest)"),
        SelectorWords("threatening", "the {noun} closest to one of its friends"),
    )
}
"""Every target selector by name. Ties always go to the nearest, then the lowest model number."""


@dataclass(frozen=True)
class OrderWords:
    """An activation order key and its plain words."""

    name: str
    text: str


ORDER_KEYS: dict[str, OrderWords] = {
    o.name: o
    for o in (
        OrderWords("engaged", "models in base contact with an enemy first"),
        OrderWords("can_attack", "models that can fight, charge or shoot now first"),
        OrderWords("most_reliable", "the best Mettle (lowest number) first"),
        OrderWords("least_reliable", "the worst Mettle (highest number) first"),
        OrderWords("nearest_enemy", "the model nearest to an enemy first"),
        OrderWords("farthest_enemy", "the model farthest from any enemy first"),
        OrderWords("wounded_first", "wounded models first"),
        OrderWords("wounded_last", "unhurt models first, wounded ones last"),
        OrderWords("ranged_first", "models with ranged weapons first"),
        OrderWords("melee_first", "models without ranged weapons first"),
        OrderWords("leader_first", "the leader first"),
        OrderWords("leader_last", "the leader last"),
        OrderWords("on_objective_first", "models on an objective first"),
        OrderWords("nearest_objective", "the model nearest to an objective first"),
    )
}
"""Every activation order key by name."""

DICE_POLICIES: dict[str, str] = {
    "max_expected_actions": "the number of dice with the most expected actions",
    "safe": "the number of dice least likely to hand the turn over (then the most actions)",
    "value": "the number of dice with the best expected actions minus {turnover_cost} per expected turnover",
}
"""Named dice policies computed from the exact odds of ``riven_env.rules.odds``."""

SPEND_OPTIONS: dict[str, str] = {
    "reroll": "reroll its lowest die with Momentum",
    "boost": "boost the result one tier with Momentum",
    "strain": "take Strain to turn the Miss into a Partial",
}
"""Spend options a spend rule may name (the game's own spend options)."""

#: Test kinds a spend rule may name in ``tests`` (``any`` matches every test).
TEST_KINDS: tuple[str, ...] = ("any", "shot", "disengage", "rally", "interact")

#: Result bands a spend rule may act on.
SPEND_BANDS: tuple[str, ...] = ("miss", "partial")
