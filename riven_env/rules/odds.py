"""Exact outcome probabilities for every RIVEN dice mechanic.

Everything here is computed by exhaustive enumeration with :class:`fractions.Fraction`,
so the answers are exact (``P(2d6 = 7) == Fraction(1, 6)``, and the outcomes of a roll
sum to exactly 1). The module is written from first principles and only *reads* the
rules data (through ``rules.get("dotted.key")``); the sampling functions of the
resolution engine are checked against it in the tests, not the other way round.

Readings implemented (``/work/shared/rules/INTERPRETATION.md``):

* Activation (reading 2): roll 1..``activation.max_dice`` d6; a die succeeds when it
  meets or beats the Mettle threshold.
  ``activation.turnover = "raw"``: 0 successes: no action, the turn passes; exactly 1
  success with at least one failed die: 1 action, then the turn passes; 1 success on
  1 die: 1 action, go on; 2+ successes: that many actions, go on whatever the other
  dice show.
  ``activation.turnover = "sbh"`` (Song of Blades and Heroes variant): the model still
  takes one action per success, and the turn passes afterwards when the failed dice
  number at least ``activation.sbh_failures_to_pass``, or when no die succeeded and
  ``activation.sbh_no_success_passes`` is true (the default; false follows SBH as
  printed, where a lone failed die keeps the turn: outcome ``zero_clean``).
* 2d6 tests (reading 1): margin = 2d6 + attribute + modifiers - TN, banded by
  ``test.bands.*`` (miss <= miss_max < partial <= partial_max < hit <= hit_max < critical).
* Melee (reading 3): both sides roll 2d6 + Might + modifiers. Equal totals: parry.
  Otherwise, when the winner's total >= ``melee.critical_ratio`` x the loser's total:
  critical (1 wound + Dazed); else margin >= ``melee.wound_margin``: wound; else recoil.
  A loser's total below ``melee.critical_loser_floor`` (house rule, default 1) counts as
  that floor for the doubling test only, because "double" a total of 0 or less would
  make every win a critical. This matches :func:`riven_env.rules.melee.resolve_melee`.
* Shooting (reading 4): a 2d6 test of Agility against ``shooting.cover_tn.<cover>``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, NamedTuple, Protocol

from riven_env.errors import RivenError, RulesDataError

__all__ = [
    "ACTIVATION_KEYS",
    "BANDS",
    "MELEE_KEYS",
    "TURNOVER_RULES",
    "ActivationRow",
    "DominatedChoice",
    "OddsInputError",
    "RulesLike",
    "activation_key",
    "activation_odds",
    "activation_outcome_keys",
    "activation_outcome",
    "activation_table",
    "difficulty_tn",
    "dominated_choices",
    "melee_odds",
    "mettle_range",
    "shoot_odds",
    "test_odds",
    "sum_distribution",
]

# Turnover rules this module knows how to score; the data picks one of them.
TURNOVER_RULES: tuple[str, ...] = ("raw", "sbh")

# Outcome keys, in display order.
BANDS: tuple[str, ...] = ("miss", "partial", "hit", "critical")
ACTIVATION_OUTCOMES: tuple[str, ...] = ("pass", "one_then_pass", "one_clean", "two", "three")
ACTIVATION_KEYS: tuple[str, ...] = (*ACTIVATION_OUTCOMES, "expected_actions", "p_turn_passes")
MELEE_KEYS: tuple[str, ...] = (
    "parry",
    "recoil_dealt",
    "wound_dealt",
    "critical_dealt",
    "recoil_taken",
    "wound_taken",
    "critical_taken",
)

# Names for "that many actions" outcomes; pools above 3 dice (a designer's variant) get
# "actions_<n>" keys so no outcome is ever dropped.
_ACTION_COUNT_KEYS: dict[int, str] = {2: "two", 3: "three"}


class RulesLike(Protocol):
    """Anything that answers dotted rules keys, e.g. :class:`riven_env.rules.config.RulesConfig`."""

    def get(self, key: str) -> Any:
        """Return the value stored under a dotted key such as ``"activation.max_dice"``."""
        ...


class OddsInputError(RivenError, ValueError):
    """An argument of an odds query is outside what the rules allow.

    Attributes:
        field: The argument at fault (``"dice"``, ``"mettle"``, ``"cover"``, ...).
        value: The value given.
        allowed: Human-readable description of the allowed values.
    """

    def __init__(self, field: str, value: object, allowed: str):
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"{field}={value!r} is not allowed; allowed: {allowed}")

    def __reduce__(self) -> tuple[type[OddsInputError], tuple[str, object, str]]:
        # Exceptions pickle as cls(*args); ours takes three arguments, not the message.
        return (type(self), (self.field, self.value, self.allowed))


@dataclass(frozen=True)
class ActivationRow:
    """One line of the Mettle x dice activation table.

    Attributes:
        mettle: The Mettle threshold.
        dice: How many activation dice are rolled.
        odds: The :func:`activation_odds` result for that choice.
    """

    mettle: int
    dice: int
    odds: Mapping[str, Fraction]

    def to_dict(self) -> dict[str, int | float]:
        """Return a JSON-ready dict: ``mettle``, ``dice`` and every odds key as a float."""
        return {"mettle": self.mettle, "dice": self.dice, **_as_floats(self.odds)}


class DominatedChoice(NamedTuple):
    """A dice count that another dice count at the same Mettle beats outright.

    Attributes:
        mettle: The Mettle threshold.
        dice: The dominated number of dice.
        dominated_by: The number of dice that is at least as good on both measures.
        why: A sentence giving both measures for both choices.
    """

    mettle: int
    dice: int
    dominated_by: int
    why: str

    def to_dict(self) -> dict[str, int | str]:
        """Return a JSON-ready dict of the four fields."""
        return self._asdict()


# --------------------------------------------------------------------------- helpers


@functools.lru_cache(maxsize=1)
def _default_rules() -> RulesLike:
    # Imported lazily: the odds are usable with any ``.get()`` object, and the default
    # rules file is parsed once per process (RulesConfig is frozen, so sharing is safe).
    from riven_env.rules.config import load_rules

    return load_rules()


def _rules_or_default(rules: RulesLike | None) -> RulesLike:
    return _default_rules() if rules is None else rules


def _int_setting(rules: RulesLike, key: str) -> int:
    value = rules.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesDataError(f"rules key {key}: expected an integer, got {value!r}")
    return value


def _require_int(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OddsInputError(field, value, "an integer")
    return value


def _as_floats(odds: Mapping[str, Fraction]) -> dict[str, float]:
    return {key: float(value) for key, value in odds.items()}


@functools.lru_cache(maxsize=16)
def _sum_distribution(dice: int, faces: int) -> tuple[tuple[int, Fraction], ...]:
    # Convolution of ``dice`` fair dice numbered 1..faces: each total's exact probability.
    counts: dict[int, int] = {0: 1}
    for _ in range(dice):
        rolled: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, faces + 1):
                rolled[total + face] = rolled.get(total + face, 0) + ways
        counts = rolled
    outcomes = faces**dice
    return tuple((total, Fraction(ways, outcomes)) for total, ways in sorted(counts.items()))


def sum_distribution(dice: int, faces: int) -> dict[int, Fraction]:
    """Return the exact distribution of the sum of ``dice`` fair dice numbered 1..faces.

    Example:
        ``sum_distribution(2, 6)[7] == Fraction(1, 6)``.
    """
    return dict(_sum_distribution(dice, faces))


def _faces(rules: RulesLike) -> int:
    return _int_setting(rules, "dice.faces")


def _test_distribution(rules: RulesLike) -> tuple[tuple[int, Fraction], ...]:
    # The dice of a 2d6 test (``test.dice`` dice of ``dice.faces`` faces); melee rolls the same.
    return _sum_distribution(_int_setting(rules, "test.dice"), _faces(rules))


def mettle_range(rules: RulesLike | None = None) -> range:
    """Return the Mettle thresholds the rules allow, from ``profiles.mettle_min/max``.

    Args:
        rules: The rules data (default: :func:`riven_env.rules.config.load_rules`).

    Returns:
        The allowed thresholds, e.g. ``range(2, 7)`` for Mettle 2+ to 6+.
    """
    rules = _rules_or_default(rules)
    low = _int_setting(rules, "profiles.mettle_min")
    high = _int_setting(rules, "profiles.mettle_max")
    return range(low, high + 1)


def _check_mettle(mettle: object, rules: RulesLike) -> int:
    allowed = mettle_range(rules)
    value = _require_int("mettle", mettle)
    if value not in allowed:
        raise OddsInputError(
            "mettle",
            mettle,
            f"{allowed.start}..{allowed.stop - 1} (profiles.mettle_min..profiles.mettle_max)",
        )
    return value


def _check_dice(dice: object, rules: RulesLike) -> int:
    max_dice = _int_setting(rules, "activation.max_dice")
    value = _require_int("dice", dice)
    if not 1 <= value <= max_dice:
        raise OddsInputError("dice", dice, f"1..{max_dice} (activation.max_dice)")
    return value


def _turnover_rule(rules: RulesLike) -> str:
    turnover = rules.get("activation.turnover")
    if turnover not in TURNOVER_RULES:
        raise RulesDataError(
            f"rules key activation.turnover: {turnover!r} is not a known turnover rule; "
            f"allowed: {', '.join(TURNOVER_RULES)}"
        )
    return str(turnover)


# ------------------------------------------------------------------------ activation


def activation_outcome(successes: int, failures: int, rules: RulesLike) -> tuple[int, bool]:
    """Score one activation roll by its success and failure counts.

    Args:
        successes: Dice that met or beat the Mettle threshold.
        failures: Dice below the threshold.
        rules: The rules data (reads ``activation.turnover`` and, for ``"sbh"``,
            ``activation.sbh_failures_to_pass`` and ``activation.sbh_no_success_passes``).

    Returns:
        ``(actions, turn_passes)``: the actions the model takes, and whether the side's
        turn passes to the opponent after them.
    """
    if _turnover_rule(rules) == "raw":
        # Reading (2) literally: no success, or "1 success + any failures", hands the
        # turn over; two or more successes keep it whatever the other dice show.
        return successes, successes == 0 or (successes == 1 and failures >= 1)
    if failures >= _int_setting(rules, "activation.sbh_failures_to_pass"):
        return successes, True
    return successes, successes == 0 and _sbh_no_success_passes(rules)


def _sbh_no_success_passes(rules: RulesLike) -> bool:
    value = rules.get("activation.sbh_no_success_passes")
    if not isinstance(value, bool):
        raise RulesDataError(
            f"rules key activation.sbh_no_success_passes: expected true or false, got {value!r}"
        )
    return value


def activation_outcome_keys(rules: RulesLike | None = None) -> tuple[str, ...]:
    """The outcome keys :func:`activation_odds` returns under these rules, in order.

    Always ``pass``, ``one_then_pass``, ``one_clean``, ``two``, ``three``; plus
    ``zero_clean`` when a variant lets an activation with no success keep the turn, and
    ``actions_<n>`` for each pool size above three dice that ``activation.max_dice`` allows.
    """
    rules = _rules_or_default(rules)
    keys = list(ACTIVATION_OUTCOMES)
    if _turnover_rule(rules) == "sbh" and not _sbh_no_success_passes(rules):
        keys.insert(1, "zero_clean")
    max_dice = _int_setting(rules, "activation.max_dice")
    keys.extend(f"actions_{count}" for count in range(4, max_dice + 1))
    return tuple(keys)


def activation_key(actions: int, turn_passes: bool) -> str:
    """Name the outcome of an activation the way :func:`activation_odds` keys it.

    Args:
        actions: Actions the activation gives.
        turn_passes: Whether the side's turn passes afterwards.

    Returns:
        ``"pass"``, ``"zero_clean"`` (no action, the turn goes on: a variant only),
        ``"one_then_pass"``, ``"one_clean"``, ``"two"``, ``"three"``, or ``"actions_<n>"``
        for pools above three dice.
    """
    if actions == 0:
        return "pass" if turn_passes else "zero_clean"
    if actions == 1:
        return "one_then_pass" if turn_passes else "one_clean"
    return _ACTION_COUNT_KEYS.get(actions, f"actions_{actions}")


def activation_odds(mettle: int, dice: int, rules: RulesLike | None = None) -> dict[str, Fraction]:
    """Exact odds of an activation roll.

    Args:
        mettle: The model's Mettle threshold (a die succeeds on this or higher).
        dice: How many activation dice to roll (1..``activation.max_dice``).
        rules: The rules data (default: :func:`riven_env.rules.config.load_rules`).

    Returns:
        ``pass`` (0 actions, turn passes), ``one_then_pass`` (1 action, then the turn
        passes), ``one_clean`` (1 action, the side may go on), ``two`` and ``three``
        (that many actions; under a variant rule the turn may still pass, which
        ``p_turn_passes`` counts), plus ``expected_actions`` and ``p_turn_passes``.
        Variants add keys (see :func:`activation_outcome_keys`). Every key the rules
        allow is present (0 when impossible); the outcomes sum to exactly 1.

    Raises:
        OddsInputError: ``mettle`` or ``dice`` is outside what the rules allow.
        RulesDataError: The rules data holds an unusable value.
    """
    rules = _rules_or_default(rules)
    mettle = _check_mettle(mettle, rules)
    dice = _check_dice(dice, rules)
    faces = _faces(rules)
    p_success = Fraction(sum(1 for face in range(1, faces + 1) if face >= mettle), faces)

    odds: dict[str, Fraction] = {key: Fraction(0) for key in activation_outcome_keys(rules)}
    expected_actions = Fraction(0)
    p_turn_passes = Fraction(0)
    for successes in range(dice + 1):
        failures = dice - successes
        chance = comb(dice, successes) * p_success**successes * (1 - p_success) ** failures
        actions, turn_passes = activation_outcome(successes, failures, rules)
        key = activation_key(actions, turn_passes)
        odds[key] += chance
        expected_actions += actions * chance
        if turn_passes:
            p_turn_passes += chance
    odds["expected_actions"] = expected_actions
    odds["p_turn_passes"] = p_turn_passes
    return odds


def activation_table(
    rules: RulesLike | None = None,
    mettles: Iterable[int] | None = None,
    dice: Iterable[int] | None = None,
) -> list[ActivationRow]:
    """Activation odds for every Mettle x dice choice.

    Args:
        rules: The rules data (default: :func:`riven_env.rules.config.load_rules`).
        mettles: Thresholds to tabulate (default: every Mettle the rules allow, 2..6).
        dice: Dice counts to tabulate (default: 1..``activation.max_dice``).

    Returns:
        One :class:`ActivationRow` per (mettle, dice), Mettle-major.
    """
    rules = _rules_or_default(rules)
    mettle_values = list(mettle_range(rules) if mettles is None else mettles)
    dice_values = list(
        range(1, _int_setting(rules, "activation.max_dice") + 1) if dice is None else dice
    )
    return [
        ActivationRow(mettle, count, activation_odds(mettle, count, rules))
        for mettle in mettle_values
        for count in dice_values
    ]


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.1f}%"


def _dice_text(count: int) -> str:
    return "1 die" if count == 1 else f"{count} dice"


def dominated_choices(
    rules: RulesLike | None = None, mettles: Iterable[int] | None = None
) -> list[DominatedChoice]:
    """Find activation dice counts that another count at the same Mettle beats outright.

    A choice of ``d`` dice is dominated by ``d'`` dice when ``d'`` gives at least as many
    expected actions *and* passes the turn no more often, strictly better on one of the
    two (INTERPRETATION.md's design finding).

    Args:
        rules: The rules data (default: :func:`riven_env.rules.config.load_rules`).
        mettles: Thresholds to examine (default: every Mettle the rules allow).

    Returns:
        One :class:`DominatedChoice` per dominated (mettle, dice, dominating dice),
        ordered by Mettle, then dice, then dominating dice.
    """
    rules = _rules_or_default(rules)
    rows = activation_table(rules, mettles)
    by_mettle: dict[int, list[ActivationRow]] = {}
    for row in rows:
        by_mettle.setdefault(row.mettle, []).append(row)

    found: list[DominatedChoice] = []
    for mettle, choices in by_mettle.items():
        for worse in choices:
            for better in choices:
                more_actions = better.odds["expected_actions"] - worse.odds["expected_actions"]
                fewer_passes = worse.odds["p_turn_passes"] - better.odds["p_turn_passes"]
                if more_actions >= 0 and fewer_passes >= 0 and (more_actions or fewer_passes):
                    why = (
                        f"Mettle {mettle}: {_dice_text(better.dice)} beat {_dice_text(worse.dice)}: "
                        f"expected actions {float(better.odds['expected_actions']):.2f} vs "
                        f"{float(worse.odds['expected_actions']):.2f}, P(turn passes) "
                        f"{_percent(better.odds['p_turn_passes'])} vs "
                        f"{_percent(worse.odds['p_turn_passes'])}"
                    )
                    found.append(DominatedChoice(mettle, worse.dice, better.dice, why))
    return found


# ---------------------------------------------------------------------- 2d6 tests


def _band_limits(rules: RulesLike) -> tuple[int, int, int]:
    limits = tuple(
        _int_setting(rules, f"test.bands.{name}") for name in ("miss_max", "partial_max", "hit_max")
    )
    miss_max, partial_max, hit_max = limits
    if not miss_max < partial_max < hit_max:
        raise RulesDataError(
            "rules keys test.bands: need miss_max < partial_max < hit_max, got "
            f"miss_max={miss_max}, partial_max={partial_max}, hit_max={hit_max}"
        )
    return miss_max, partial_max, hit_max


def _band(margin: int, limits: tuple[int, int, int]) -> str:
    miss_max, partial_max, hit_max = limits
    if margin <= miss_max:
        return "miss"
    if margin <= partial_max:
        return "partial"
    if margin <= hit_max:
        return "hit"
    return "critical"


def difficulty_tn(name: str, rules: RulesLike | None = None) -> int:
    """Return the TN of a named difficulty (``test.difficulty.<name>``).

    Raises:
        OddsInputError: ``name`` is not a difficulty in the rules data.
    """
    rules = _rules_or_default(rules)
    table = rules.get("test.difficulty")
    if not isinstance(table, Mapping) or name not in table:
        known = ", ".join(table) if isinstance(table, Mapping) else "none"
        raise OddsInputError("difficulty", name, f"{known} (test.difficulty)")
    return _int_setting(rules, f"test.difficulty.{name}")


def test_odds(
    attribute: int, tn: int, modifier: int = 0, rules: RulesLike | None = None
) -> dict[str, Fraction]:
    """Exact odds of a 2d6 test: 2d6 + attribute + modifier against a TN.

    Args:
        attribute: The attribute rating added to the roll.
        tn: The target number.
        modifier: The sum of all other modifiers.
        rules: The rules data (default: :func:`riven_env.rules.config.load_rules`).

    Returns:
        ``miss``, ``partial``, ``hit``, ``critical`` -> probability; sums to exactly 1.

    Raises:
        OddsInputError: An argument is not an integer.
        RulesDataError: The ``test.bands`` data is unusable.
    """
    rules = _rules_or_default(rules)
    attribute = _require_int("attribute", attribute)
    tn = _require_int("tn", tn)
    modifier = _require_int("modifier", modifier)
    limits = _band_limits(rules)
    odds = {band: Fraction(0) for band in BANDS}
    for total, chance in _test_distribution(rules):
        odds[_band(total + attribute + modifier - tn, limits)] += chance
    return odds


# Pytest collects module-level callables named test_*; this one is library code.
test_odds.__test__ = False  # type: ignore[attr-defined]


def shoot_odds(
    agility: int, cover: str, modifier: int = 0, rules: RulesLike | None = None
) -> dict[str, Fraction]:
    """Exact odds of a shot: 2d6 + Agility + modifier against the cover's Evasion TN.

    Args:
        agility: The shooter's Agility.
        cover: A key of ``shooting.cover_tn`` (``"none"``, ``"soft"``, ``"hard"``).
        modifier: The sum of all other modifiers.
        rules: The rules data (default: :func:`riven_env.rules.config.load_rules`).

    Returns:
        ``miss``, ``partial``, ``hit``, ``critical`` -> probability.

    Raises:
        OddsInputError: ``cover`` is not in ``shooting.cover_tn`` or a number is not an int.
    """
    rules = _rules_or_default(rules)
    table = rules.get("shooting.cover_tn")
    if not isinstance(table, Mapping) or cover not in table:
        known = ", ".join(table) if isinstance(table, Mapping) else "none"
        raise OddsInputError("cover", cover, f"{known} (shooting.cover_tn)")
    tn = _int_setting(rules, f"shooting.cover_tn.{cover}")
    return test_odds(agility, tn, modifier, rules)


# --------------------------------------------------------------------------- melee


@dataclass(frozen=True)
class _MeleeSettings:
    ratio: int
    wound_margin: int
    loser_floor: int

    def outcome(self, winner_total: int, loser_total: int) -> str:
        # Only called with winner_total > loser_total; the floor applies to doubling only.
        if winner_total >= self.ratio * max(loser_total, self.loser_floor):
            return "critical"
        return "wound" if winner_total - loser_total >= self.wound_margin else "recoil"


def melee_odds(
    might: int,
    vs: int,
    modifier: int = 0,
    vs_modifier: int = 0,
    rules: RulesLike | None = None,
) -> dict[str, Fraction]:
    """Exact odds of one melee exchange, from the first side's point of view.

    Args:
        might: The first side's Might.
        vs: The opponent's Might.
        modifier: The sum of the first side's modifiers (charge, outnumbered, weapon, ...).
        vs_modifier: The sum of the opponent's modifiers.
        rules: The rules data (default: :func:`riven_env.rules.config.load_rules`).

    Returns:
        ``parry``, ``recoil_dealt``, ``wound_dealt``, ``critical_dealt`` (the first side
        wins) and ``recoil_taken``, ``wound_taken``, ``critical_taken`` (it loses);
        sums to exactly 1.

    Raises:
        OddsInputError: An argument is not an integer.
        RulesDataError: A ``melee.*`` setting is unusable.
    """
    rules = _rules_or_default(rules)
    might = _require_int("might", might)
    vs = _require_int("vs", vs)
    modifier = _require_int("modifier", modifier)
    vs_modifier = _require_int("vs_modifier", vs_modifier)
    settings = _MeleeSettings(
        ratio=_int_setting(rules, "melee.critical_ratio"),
        wound_margin=_int_setting(rules, "melee.wound_margin"),
        loser_floor=_int_setting(rules, "melee.critical_loser_floor"),
    )

    odds = {key: Fraction(0) for key in MELEE_KEYS}
    distribution = _test_distribution(rules)
    for own_roll, own_chance in distribution:
        own = own_roll + might + modifier
        for their_roll, their_chance in distribution:
            theirs = their_roll + vs + vs_modifier
            chance = own_chance * their_chance
            if own == theirs:
                odds["parry"] += chance
            elif own > theirs:
                odds[f"{settings.outcome(own, theirs)}_dealt"] += chance
            else:
                odds[f"{settings.outcome(theirs, own)}_taken"] += chance
    return odds
