"""New World (``shared/rules/other-systems/new-world-core-rules-ch1.txt``) as a RIVEN resolution
system.

Every test is one roll: 2d6 + characteristic + skill rank against a difficulty, succeeding on a
total equal to or above it; snake eyes (1 and 1) always fails (RAW). Opposed rolls compare
totals and the difference is the margin, ties to the defender; a defender not actively resisting
sets the difficulty 7 + its characteristic + rank (a shot's target). One or two helpers give +1
each (not for attacks or Resist rolls), and Luck is spent after the roll, +1 per point (RAW).
The mapping from a RIVEN profile and the bands: ``docs/resolution-systems.md``, "New World".

Player choices on the pending roll:

- ``allocate help:K`` (before the roll): call K helpers (0..the helpers able to help, at most
  ``helpers.max``);
- ``spend luck`` (after the roll): spend one Luck point for +1. In a melee the attacker spends
  first, then the defender (the choice passes to the defender when the attacker accepts).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from riven_env.errors import IllegalActionError, RulesDataError
from riven_env.rules.datacheck import (
    read_bool,
    read_int,
    read_str,
    read_str_list,
    read_table,
    refuse_unknown_keys,
)
from riven_env.rules.dice import roll_dice
from riven_env.rules.profiles import ATTRIBUTES, ModelProfile
from riven_env.rules.resolution import (
    ChoiceView,
    Combatant,
    OracleChoice,
    RivenResolution,
    RollContext,
    register_resolution,
)
from riven_env.rules.results import (
    Aftermath,
    MeleeResult,
    Modifier,
    TestResult,
    modifiers_total,
)
from riven_env.rules.rules_data import RulesConfig

NAME = "new-world"
SECTION = "new_world"
LUCK = "luck"
HELP = "help:"
COVERS = ("none", "soft", "hard")
MELEE_TIERS = ("parry", "recoil", "wound", "critical")


# ----------------------------------------------------------------------------- data
@dataclass(frozen=True)
class NewWorldSettings:
    """The ``[new_world]`` section, parsed (see ``new-world.toml`` for each key)."""

    dice: int
    snake_eyes_fails: bool
    roll_limit: int
    modifier_limit: int
    characteristic_offset: int
    rank_default: int
    rank_by_keyword: Mapping[str, int]
    difficulty_offset: int
    critical_margin: int
    partial_within: int
    passive_base: int
    shot_characteristic: str
    cover_modifier: Mapping[str, int]
    melee_characteristic: str
    wound_margin: int
    melee_critical_margin: int
    defender_strikes_back: bool
    helpers_max: int
    helper_bonus: int
    helper_kinds: tuple[str, ...]
    shared_risk_margin: int
    shared_risk_strain: int
    luck_default: int
    luck_by_keyword: Mapping[str, int]
    luck_per_point: int
    oracle_sure: int
    oracle_luck_max: int


_TABLES = (
    "roll",
    "characteristic",
    "rank",
    "difficulty",
    "passive",
    "melee",
    "helpers",
    "luck",
    "oracle",
)


def _keyword_table(
    table: Mapping[str, Any], where: str, keywords: Sequence[str], fixed: Sequence[str]
) -> tuple[dict[str, int], int]:
    """``default`` plus one int per RIVEN keyword (unknown names refused)."""
    refuse_unknown_keys(table, (*fixed, "default", *keywords), where)
    values = {
        k: read_int(table, k, where, low=0, high=20)
        for k in table
        if k not in fixed and k != "default"
    }
    return values, read_int(table, "default", where, low=0, high=20)


def parse_section(
    section: Mapping[str, Any], source: str, keywords: Sequence[str] = ()
) -> NewWorldSettings:
    """Read and check the ``[new_world]`` section (unknown keys refused).

    Args:
        section: The table.
        source: Its file, for messages.
        keywords: The RIVEN profile keywords a rank or Luck entry may name.

    Raises:
        RulesDataError: A key is unknown or missing, or a value is out of range.
    """
    where = f"{source}: {SECTION}"
    refuse_unknown_keys(section, _TABLES, where)
    t = {name: read_table(section, name, where) for name in _TABLES}
    w = {name: f"{where}.{name}" for name in _TABLES}
    refuse_unknown_keys(
        t["roll"], ("dice", "snake_eyes_fails", "roll_limit", "modifier_limit"), w["roll"]
    )
    refuse_unknown_keys(t["characteristic"], ("offset",), w["characteristic"])
    refuse_unknown_keys(
        t["difficulty"], ("offset", "critical_margin", "partial_within"), w["difficulty"]
    )
    refuse_unknown_keys(
        t["passive"], ("base", "shot_characteristic", "cover_modifier"), w["passive"]
    )
    refuse_unknown_keys(
        t["melee"],
        ("characteristic", "wound_margin", "critical_margin", "defender_strikes_back"),
        w["melee"],
    )
    refuse_unknown_keys(
        t["helpers"],
        ("max", "bonus_each", "kinds", "shared_risk_margin", "shared_risk_strain"),
        w["helpers"],
    )
    refuse_unknown_keys(t["oracle"], ("helpers_unless_sure", "luck_max_per_roll"), w["oracle"])
    ranks, rank_default = _keyword_table(t["rank"], w["rank"], keywords, ())
    lucks, luck_default = _keyword_table(t["luck"], w["luck"], keywords, ("per_point",))
    cover = read_table(t["passive"], "cover_modifier", w["passive"])
    refuse_unknown_keys(cover, COVERS, f"{w['passive']}.cover_modifier")
    wound_margin = read_int(t["melee"], "wound_margin", w["melee"], low=1, high=30)
    return NewWorldSettings(
        dice=read_int(t["roll"], "dice", w["roll"], low=2, high=2),
        snake_eyes_fails=read_bool(t["roll"], "snake_eyes_fails", w["roll"]),
        roll_limit=read_int(t["roll"], "roll_limit", w["roll"], low=1, high=30),
        modifier_limit=read_int(t["roll"], "modifier_limit", w["roll"], low=0, high=10),
        characteristic_offset=read_int(
            t["characteristic"], "offset", w["characteristic"], low=-5, high=10
        ),
        rank_default=rank_default,
        rank_by_keyword=ranks,
        difficulty_offset=read_int(t["difficulty"], "offset", w["difficulty"], low=-10, high=20),
        critical_margin=read_int(
            t["difficulty"], "critical_margin", w["difficulty"], low=1, high=30
        ),
        partial_within=read_int(t["difficulty"], "partial_within", w["difficulty"], low=0, high=10),
        passive_base=read_int(t["passive"], "base", w["passive"], low=0, high=30),
        shot_characteristic=read_str(
            t["passive"], "shot_characteristic", w["passive"], choices=ATTRIBUTES
        ),
        cover_modifier={
            c: read_int(cover, c, f"{w['passive']}.cover_modifier", low=-5, high=5) for c in COVERS
        },
        melee_characteristic=read_str(t["melee"], "characteristic", w["melee"], choices=ATTRIBUTES),
        wound_margin=wound_margin,
        melee_critical_margin=read_int(
            t["melee"], "critical_margin", w["melee"], low=wound_margin, high=40
        ),
        defender_strikes_back=read_bool(t["melee"], "defender_strikes_back", w["melee"]),
        helpers_max=read_int(t["helpers"], "max", w["helpers"], low=0, high=2),
        helper_bonus=read_int(t["helpers"], "bonus_each", w["helpers"], low=0, high=5),
        helper_kinds=read_str_list(t["helpers"], "kinds", w["helpers"]),
        shared_risk_margin=read_int(
            t["helpers"], "shared_risk_margin", w["helpers"], low=1, high=30
        ),
        shared_risk_strain=read_int(
            t["helpers"], "shared_risk_strain", w["helpers"], low=0, high=5
        ),
        luck_default=luck_default,
        luck_by_keyword=lucks,
        luck_per_point=read_int(t["luck"], "per_point", w["luck"], low=1, high=5),
        oracle_sure=read_int(t["oracle"], "helpers_unless_sure", w["oracle"], low=0, high=36),
        oracle_luck_max=read_int(t["oracle"], "luck_max_per_roll", w["oracle"], low=0, high=20),
    )


def validate_section(section: Mapping[str, Any], source: str, raw: Mapping[str, Any]) -> None:
    """The registry's validator: rank and Luck entries may name RIVEN's profile keywords only."""
    profiles = raw.get("profiles", {})
    parse_section(section, source, tuple(profiles.get("keywords", ())))


@functools.lru_cache(maxsize=32)
def settings_for(rules: RulesConfig) -> NewWorldSettings:
    """The parsed ``[new_world]`` section of merged rules (cached per rules)."""
    if not rules.has(SECTION):
        raise RulesDataError(f"{rules.source}: no [{SECTION}] table (meta.resolution = {NAME!r}?)")
    keywords = tuple(rules.get("profiles.keywords"))
    return parse_section(rules.section(SECTION), rules.source, keywords)


# ----------------------------------------------------------------------------- pure reading
def rank_of(profile: ModelProfile, s: NewWorldSettings) -> int:
    """The model's skill rank: the highest of its keywords' ranks, else the default (House)."""
    found = [s.rank_by_keyword[k] for k in profile.keywords if k in s.rank_by_keyword]
    return max(found) if found else s.rank_default


def situational(value: int, s: NewWorldSettings) -> int:
    """RAW: "Each [situational modifier] stays within -2 to +2" (``roll.modifier_limit``)."""
    return max(-s.modifier_limit, min(s.modifier_limit, int(value)))


def clamped(modifiers: Sequence[Modifier], s: NewWorldSettings) -> tuple[Modifier, ...]:
    """Each modifier clamped on its own; their sum is not ("Separate modifiers add together,
    so the total on one roll can go beyond that")."""
    return tuple(Modifier(m.source, situational(m.value, s)) for m in modifiers)


def help_bonus(helpers: int, s: NewWorldSettings) -> int:
    """Help is one situational modifier (RAW "Help is a modifier"): within the limit too."""
    return situational(helpers * s.helper_bonus, s)


def bonus_of(profile: ModelProfile, attribute: str, s: NewWorldSettings) -> int:
    """Characteristic + skill rank, at most the roll limit (RAW)."""
    value = int(getattr(profile, attribute)) + s.characteristic_offset + rank_of(profile, s)
    return min(value, s.roll_limit)


def luck_of(profile: ModelProfile, s: NewWorldSettings) -> int:
    found = [s.luck_by_keyword[k] for k in profile.keywords if k in s.luck_by_keyword]
    return max(found) if found else s.luck_default


def snake_eyes(dice: Sequence[int]) -> bool:
    return len(dice) == 2 and dice[0] == 1 and dice[1] == 1


def succeeds(dice: Sequence[int], total: int, difficulty: int, s: NewWorldSettings) -> bool:
    """RAW: success on a total equal to or above the difficulty; snake eyes always fails."""
    if s.snake_eyes_fails and snake_eyes(dice):
        return False
    return total >= difficulty


def band_of(dice: Sequence[int], total: int, difficulty: int, s: NewWorldSettings) -> str:
    """RIVEN's band of a New World test (House: success is a Hit, by ``critical_margin`` a
    Critical; a failure within ``partial_within`` a Partial, else a Miss)."""
    margin = total - difficulty
    if succeeds(dice, total, difficulty, s):
        return "critical" if margin >= s.critical_margin else "hit"
    if s.partial_within and margin >= -s.partial_within and not snake_eyes(dice):
        return "partial"
    return "miss"


def melee_outcome(
    a_dice: Sequence[int], a_total: int, d_dice: Sequence[int], d_total: int, s: NewWorldSettings
) -> tuple[str, str | None, int]:
    """``(outcome, winner, margin)`` of an opposed melee (RAW: ties to the defender).

    The attacker's snake eyes fails whatever the totals; the defender's fails its defence
    (the attacker wins by at least 1).
    """
    a_fails = s.snake_eyes_fails and snake_eyes(a_dice)
    d_fails = s.snake_eyes_fails and snake_eyes(d_dice)
    margin = a_total - d_total
    if a_fails or (margin <= 0 and not d_fails):
        if s.defender_strikes_back and not a_fails and margin < 0:
            return _tier(-margin, s), "defender", -margin
        if s.defender_strikes_back and a_fails and not d_fails:
            return _tier(max(1, -margin), s), "defender", max(1, -margin)
        return "parry", None, margin
    margin = max(1, margin)
    return _tier(margin, s), "attacker", margin


def _tier(margin: int, s: NewWorldSettings) -> str:
    if margin >= s.melee_critical_margin:
        return "critical"
    if margin >= s.wound_margin:
        return "wound"
    return "recoil"


# ----------------------------------------------------------------------------- the pending roll
@dataclass(frozen=True)
class NewWorldRoll:
    """A New World roll still open to choices (helpers before it, Luck after it).

    Attributes:
        bonus: Characteristic + rank (at most the roll limit).
        difficulty: What the total must reach (for a melee: the defender's total decides).
        helpers_available / helpers: Helpers able to help / called.
        helper_models: Their model indices, nearest first (they share a bad failure).
        luck_held / luck_spent: The roller's Luck at the roll / spent on it.
        melee: For a melee, the defender's ``(dice, bonus, modifiers)``; else None.
        defender_luck_held / defender_luck_spent: The defender's Luck in a melee.
        Other fields as RIVEN's :class:`~riven_env.rules.results.TestRoll`.
    """

    kind: str
    attribute: str
    attribute_value: int
    modifiers: tuple[Modifier, ...]
    tn: int
    bonus: int
    difficulty: int
    dice: tuple[int, ...] = ()
    helpers_available: int = 0
    helpers: int = 0
    helper_models: tuple[int, ...] = ()
    luck_held: int = 0
    luck_spent: int = 0
    spends: tuple[str, ...] = ()
    rolled: bool = True
    chooser: str = "actor"
    melee: tuple[tuple[int, ...], int, tuple[Modifier, ...]] | None = None
    defender_luck_held: int = 0
    defender_luck_spent: int = 0
    rolled_total: int = 0
    momentum_spent: int = 0
    strain_taken: int = 0
    settings: NewWorldSettings | None = None

    @property
    def total(self) -> int:
        """2d6 + characteristic + rank + modifiers + helpers + Luck."""
        s: NewWorldSettings = self.settings  # type: ignore[assignment]  # set by the engine
        return (
            sum(self.dice)
            + self.bonus
            + modifiers_total(list(self.modifiers))
            + help_bonus(self.helpers, s)
            + self.luck_spent * s.luck_per_point
        )

    @property
    def defender_total(self) -> int:
        if self.melee is None:
            return 0
        dice, bonus, mods = self.melee
        s: NewWorldSettings = self.settings  # type: ignore[assignment]
        return (
            sum(dice)
            + bonus
            + modifiers_total(list(mods))
            + self.defender_luck_spent * s.luck_per_point
        )

    @property
    def margin(self) -> int:
        if self.melee is not None:
            return self.total - self.defender_total
        return self.total - self.difficulty

    @property
    def result(self) -> str:
        """RIVEN's band (an unrolled record reads as a Miss)."""
        if not self.rolled:
            return "miss"
        if self.melee is not None:
            outcome = melee_outcome(
                self.dice, self.total, self.melee[0], self.defender_total, self.settings
            )  # type: ignore[arg-type]
            return {"parry": "miss", "recoil": "partial", "wound": "hit", "critical": "critical"}[
                outcome[0]
            ]
        return band_of(self.dice, self.total, self.difficulty, self.settings)  # type: ignore[arg-type]

    def luck_left(self, who: str = "actor") -> int:
        if who == "target":
            return self.defender_luck_held - self.defender_luck_spent
        return self.luck_held - self.luck_spent


# ----------------------------------------------------------------------------- the engine
class NewWorldResolution(RivenResolution):
    """New World's dice for tests, shots and melee; RIVEN's for activation, morale, Out checks."""

    name = NAME

    def __init__(self, rules: RulesConfig) -> None:
        super().__init__(rules)
        self.settings = settings_for(rules)

    def __repr__(self) -> str:
        return f"NewWorldResolution(rules={self.rules.source!r})"

    def starting_resources(self, profile: ModelProfile) -> dict[str, int]:
        return {LUCK: luck_of(profile, self.settings)}

    # -------------------------------------------------------------- rolls
    def roll_test(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        rng: np.random.Generator,
        context: RollContext | None = None,
    ) -> NewWorldRoll:
        """A test against RIVEN's TN + offset; a shot against the target's passive difficulty.

        A test that helpers may join (``helpers.kinds``) with helpers at hand is returned
        unrolled: the roller first allocates its helpers.
        """
        s = self.settings
        context = context or RollContext()
        # Characteristic + rank; a bare roll (no profile in the context) has no rank.
        if context.profile is not None:
            bonus = bonus_of(context.profile, attribute, s)
        else:
            bonus = min(attribute_value + s.characteristic_offset, s.roll_limit)
        difficulty = tn + s.difficulty_offset
        mods = clamped(modifiers, s)
        if kind == "shot" and context.opponent is not None:
            target = context.opponent
            difficulty = s.passive_base + bonus_of(target, s.shot_characteristic, s)
            cover = situational(s.cover_modifier.get(context.cover or "none", 0), s)
            if cover:
                mods = (*mods, Modifier(f"cover:{context.cover}", cover))
        roll = NewWorldRoll(
            kind=kind,
            attribute=attribute,
            attribute_value=attribute_value,
            modifiers=mods,
            tn=tn,
            bonus=bonus,
            difficulty=difficulty,
            luck_held=int(context.resources.get(LUCK, 0)),
            settings=s,
        )
        available = min(context.helpers, s.helpers_max) if kind in s.helper_kinds else 0
        if available and s.helper_bonus:
            return replace(
                roll,
                rolled=False,
                helpers_available=available,
                helper_models=tuple(context.helper_models[:available]),
            )
        return self._rolled(roll, rng)

    def _rolled(self, roll: NewWorldRoll, rng: np.random.Generator) -> NewWorldRoll:
        # Each roll then spends from the same die faces as RIVEN's (dice.faces).
        dice = roll_dice(rng, self.settings.dice, int(self.rules.get("dice.faces")))
        rolled = replace(roll, dice=dice, rolled=True)
        return replace(rolled, rolled_total=rolled.total)

    def start_melee(
        self, attacker: Combatant, defender: Combatant, rng: np.random.Generator
    ) -> NewWorldRoll:
        """RAW opposed roll: both roll 2d6 + Might + rank (+ RIVEN's melee modifiers)."""
        s = self.settings
        a_bonus = bonus_of(attacker.profile, s.melee_characteristic, s)
        d_bonus = bonus_of(defender.profile, s.melee_characteristic, s)
        faces = int(self.rules.get("dice.faces"))
        a_dice = roll_dice(rng, s.dice, faces)
        d_dice = roll_dice(rng, s.dice, faces)
        roll = NewWorldRoll(
            kind="melee",
            attribute=s.melee_characteristic,
            attribute_value=int(getattr(attacker.profile, s.melee_characteristic)),
            modifiers=clamped(attacker.modifiers, s),
            tn=0,
            bonus=a_bonus,
            difficulty=0,
            dice=a_dice,
            luck_held=int(attacker.resources.get(LUCK, 0)),
            melee=(d_dice, d_bonus, clamped(defender.modifiers, s)),
            defender_luck_held=int(defender.resources.get(LUCK, 0)),
            settings=s,
        )
        roll = replace(roll, rolled_total=roll.total)
        if not self._options(roll):
            roll = replace(roll, chooser="target")
        return roll

    # -------------------------------------------------------------- choices
    def _luck_helps(self, roll: NewWorldRoll, who: str) -> bool:
        """Whether the chooser's Luck left can still change the result its way."""
        s = self.settings
        left = roll.luck_left(who)
        if left < 1:
            return False
        if roll.melee is None:
            if s.snake_eyes_fails and snake_eyes(roll.dice):
                return False  # RAW: no Luck turns snake eyes into a success
            band = roll.result
            if band == "critical":
                return False
            bump = replace(roll, luck_spent=roll.luck_spent + left)
            return bump.result != band
        now = MELEE_TIERS.index(self._outcome_for_attacker(roll))
        if who == "actor":
            bump = replace(roll, luck_spent=roll.luck_spent + left)
            return MELEE_TIERS.index(self._outcome_for_attacker(bump)) > now
        bump = replace(roll, defender_luck_spent=roll.defender_luck_spent + left)
        return MELEE_TIERS.index(self._outcome_for_attacker(bump)) < now

    def _outcome_for_attacker(self, roll: NewWorldRoll) -> str:
        outcome, winner, _ = melee_outcome(
            roll.dice,
            roll.total,
            roll.melee[0],
            roll.defender_total,
            self.settings,  # type: ignore[index]
        )
        return "parry" if winner != "attacker" else outcome

    def _options(self, roll: NewWorldRoll) -> list[str]:
        if not roll.rolled:
            return [f"{HELP}{k}" for k in range(roll.helpers_available + 1)]
        return [LUCK] if self._luck_helps(roll, roll.chooser) else []

    def spend_options(
        self,
        roll: NewWorldRoll,
        *,
        momentum: int,
        strain: int,
        strain_max: int,
        resources: Mapping[str, int] | None = None,
    ) -> list[str]:
        """``help:K`` before the roll; ``luck`` after it while a point can change the result."""
        return self._options(roll)

    def apply_spend(
        self, roll: NewWorldRoll, option: str, rng: np.random.Generator
    ) -> NewWorldRoll:
        allowed = self._options(roll)
        if option not in allowed:
            raise IllegalActionError(option, allowed, reason=f"New World {roll.kind} roll")
        if option.startswith(HELP):
            helpers = int(option[len(HELP) :])
            return self._rolled(
                replace(
                    roll,
                    helpers=helpers,
                    helper_models=roll.helper_models[:helpers],
                    spends=(*roll.spends, option),
                ),
                rng,
            )
        if roll.chooser == "target":
            return replace(
                roll,
                defender_luck_spent=roll.defender_luck_spent + 1,
                spends=(*roll.spends, "defender:luck"),
            )
        return replace(roll, luck_spent=roll.luck_spent + 1, spends=(*roll.spends, option))

    def accept(self, roll: NewWorldRoll) -> NewWorldRoll | None:
        """In a melee the attacker's acceptance hands the choice to the defender."""
        if roll.melee is not None and roll.chooser == "actor":
            handed = replace(roll, chooser="target")
            return handed if self._options(handed) else None
        return None

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        helpers = tuple(("allocate", f"{HELP}{k}") for k in range(self.settings.helpers_max + 1))
        return (*helpers, ("spend", LUCK))

    # -------------------------------------------------------------- closing
    def _detail(self, roll: NewWorldRoll) -> dict[str, Any]:
        s = self.settings
        detail: dict[str, Any] = {
            "system": NAME,
            "bonus": roll.bonus,
            "helpers": roll.helpers,
            "helper_bonus": help_bonus(roll.helpers, s),
            "luck_spent": roll.luck_spent,
            "rolled_total": roll.rolled_total,
            "snake_eyes": snake_eyes(roll.dice),
        }
        if roll.melee is None:
            detail.update(
                difficulty=roll.difficulty,
                success=succeeds(roll.dice, roll.total, roll.difficulty, s),
                margin=roll.margin,
            )
        else:
            detail.update(
                defender_bonus=roll.melee[1],
                defender_luck_spent=roll.defender_luck_spent,
                defender_snake_eyes=snake_eyes(roll.melee[0]),
                margin=roll.margin,
            )
        return detail

    def _aftermath(self, roll: NewWorldRoll) -> tuple[Aftermath, ...]:
        s = self.settings
        after: list[Aftermath] = []
        if roll.luck_spent:
            after.append(Aftermath("actor", "resource", -roll.luck_spent, LUCK, "luck spent"))
        if roll.defender_luck_spent:
            after.append(
                Aftermath("target", "resource", -roll.defender_luck_spent, LUCK, "luck spent")
            )
        if (
            roll.melee is None
            and roll.helpers
            and s.shared_risk_strain
            and not succeeds(roll.dice, roll.total, roll.difficulty, s)
            and roll.total - roll.difficulty <= -s.shared_risk_margin
        ):
            after += [
                Aftermath(f"model:{k}", "strain", s.shared_risk_strain, "", "shared risk")
                for k in roll.helper_models
            ]
        return tuple(after)

    def finalise(self, roll: NewWorldRoll) -> TestResult | MeleeResult:
        detail = self._detail(roll)
        aftermath = self._aftermath(roll)
        if roll.melee is not None:
            return self._melee_result(roll, detail, aftermath)
        return TestResult(
            kind=roll.kind,
            attribute=roll.attribute,
            attribute_value=roll.attribute_value,
            modifiers=roll.modifiers,
            tn=roll.difficulty,
            dice=roll.dice,  # type: ignore[arg-type]
            total=roll.total,
            result=roll.result,
            rolled_result=replace(roll, luck_spent=0).result,
            spends=roll.spends,
            # RIVEN's Momentum for a Critical band (House: a success by the critical margin).
            momentum_gained=int(self.rules.get("momentum.gain.critical"))
            if roll.result == "critical"
            else 0,
            aftermath=aftermath,
            detail=detail,
        )

    def _melee_result(
        self, roll: NewWorldRoll, detail: dict[str, Any], aftermath: tuple[Aftermath, ...]
    ) -> MeleeResult:
        if roll.melee is None:
            raise RulesDataError(
                f"{self.rules.source}: a New World melee record without a defender"
            )
        outcome, winner, _ = melee_outcome(
            roll.dice, roll.total, roll.melee[0], roll.defender_total, self.settings
        )
        wounds = {
            "wound": int(self.rules.get("melee.wound_wounds")),
            "critical": int(self.rules.get("melee.critical_wounds")),
        }.get(outcome, 0)
        condition = str(self.rules.get("melee.critical_condition")) if outcome == "critical" else ""
        recoil = float(self.rules.get("melee.recoil_distance")) if outcome == "recoil" else 0.0
        return MeleeResult(
            attacker_dice=roll.dice,  # type: ignore[arg-type]
            defender_dice=roll.melee[0],  # type: ignore[arg-type]
            attacker_modifiers=roll.modifiers,
            defender_modifiers=roll.melee[2],
            attacker_total=roll.total,
            defender_total=roll.defender_total,
            outcome=outcome,
            winner=winner,
            wounds=wounds,
            dazed=condition == "dazed",
            recoil_distance=recoil,
            condition=condition,
            aftermath=aftermath,
            detail={**detail, "spends": list(roll.spends)},
        )

    # -------------------------------------------------------------- the Oracle
    def oracle_choice(
        self, roll: NewWorldRoll, options: Sequence[str], view: ChoiceView
    ) -> OracleChoice | None:
        """Helpers: all of them, unless the roll is near-sure without. Luck: when the points
        needed to change the result are at most ``oracle.luck_max_per_roll``."""
        s = self.settings
        if not roll.rolled:
            sure = sum(
                1
                for dice in itertools.product(range(1, 7), repeat=2)
                if succeeds(
                    dice,
                    sum(dice) + roll.bonus + modifiers_total(list(roll.modifiers)),
                    roll.difficulty,
                    s,
                )
            )
            k = roll.helpers_available if sure < s.oracle_sure else 0
            return OracleChoice(
                f"{HELP}{k}",
                "new-world:helpers",
                f"{view.model} succeeds on {sure} of 36 rolls alone: "
                + (f"it calls {k} helper(s) (+{help_bonus(k, s)})." if k else "it needs no help."),
            )
        if LUCK in options:
            who = roll.chooser
            needed = self._points_needed(roll, who)
            if needed is not None and needed <= min(s.oracle_luck_max, roll.luck_left(who)):
                return OracleChoice(
                    LUCK,
                    "new-world:luck_turns_it",
                    f"{view.model} spends Luck: {needed} point(s) change the result "
                    f"({roll.luck_left(who)} held).",
                )
        return OracleChoice(
            "accept",
            "new-world:accept",
            f"{view.model} lets the roll stand: no Luck within {s.oracle_luck_max} point(s) changes it.",
        )

    def _points_needed(self, roll: NewWorldRoll, who: str) -> int | None:
        """Fewest Luck points that change the result the chooser's way (None: none do)."""
        for points in range(1, roll.luck_left(who) + 1):
            if who == "target":
                bump = replace(roll, defender_luck_spent=roll.defender_luck_spent + points)
                if MELEE_TIERS.index(self._outcome_for_attacker(bump)) < MELEE_TIERS.index(
                    self._outcome_for_attacker(roll)
                ):
                    return points
            else:
                bump = replace(roll, luck_spent=roll.luck_spent + points)
                if roll.melee is not None:
                    if MELEE_TIERS.index(self._outcome_for_attacker(bump)) > MELEE_TIERS.index(
                        self._outcome_for_attacker(roll)
                    ):
                        return points
                elif bump.result != roll.result:
                    return points
        return None


# ----------------------------------------------------------------------------- exact odds
def success_odds(bonus: int, difficulty: int, rules: RulesConfig | None = None) -> Fraction:
    """Exact P(2d6 + bonus >= difficulty), snake eyes always failing (RAW)."""
    s = settings_for(rules) if rules is not None else None
    fails_on_snake = True if s is None else s.snake_eyes_fails
    wins = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        if fails_on_snake and a == 1 and b == 1:
            continue
        if a + b + bonus >= difficulty:
            wins += 1
    return Fraction(wins, 36)


def opposed_odds(
    attacker_bonus: int, defender_bonus: int, rules: RulesConfig
) -> dict[str, Fraction]:
    """Exact P(outcome) of an opposed melee, by enumeration of both sides' 2d6."""
    s = settings_for(rules)
    counts = dict.fromkeys(MELEE_TIERS, 0)
    faces = range(1, 7)
    for a in itertools.product(faces, repeat=2):
        for d in itertools.product(faces, repeat=2):
            outcome, winner, _ = melee_outcome(
                a, sum(a) + attacker_bonus, d, sum(d) + defender_bonus, s
            )
            counts["parry" if winner != "attacker" else outcome] += 1
    return {k: Fraction(v, 36**2) for k, v in counts.items()}


def odds_test(rules: RulesConfig, **options: Any) -> dict[str, Any]:
    """``riven odds test --resolution new-world --bonus B --difficulty D [--modifier M]``.

    Returns ``success`` (snake eyes included: it always fails) and ``failure``.
    """
    from riven_env.rules.odds import OddsInputError

    for name in ("bonus", "difficulty"):
        if options.get(name) is None:
            raise OddsInputError(
                name, None, "an integer: New World needs --bonus B and --difficulty D"
            )
    for name, value in options.items():
        if name not in ("bonus", "difficulty", "modifier") and value is not None:
            raise OddsInputError(
                name, value, "nothing: New World reads --bonus, --difficulty, --modifier"
            )
    # --modifier is one situational modifier: within roll.modifier_limit (RAW).
    modifier = situational(int(options.get("modifier") or 0), settings_for(rules))
    success = success_odds(int(options["bonus"]) + modifier, int(options["difficulty"]), rules)
    return {"success": success, "failure": 1 - success}


def odds_melee(rules: RulesConfig, **options: Any) -> dict[str, Any]:
    """``riven odds melee --resolution new-world --might A --vs D``: the opposed roll's
    outcomes for the attacker, with both sides' bonus = Might + offset + the default rank
    (+ the modifiers given)."""
    s = settings_for(rules)

    def bonus(might: Any, modifier: Any) -> int:
        return min(
            int(might) + s.characteristic_offset + s.rank_default, s.roll_limit
        ) + situational(int(modifier or 0), s)

    return opposed_odds(
        bonus(options["might"], options.get("modifier")),
        bonus(options["vs"], options.get("vs_modifier")),
        rules,
    )


def odds_shoot(rules: RulesConfig, **options: Any) -> dict[str, Any]:
    """``riven odds shoot --resolution new-world --agility A --cover C --vs-agility T``: the
    shooter's 2d6 + Agility + rank + cover modifier against the target's passive difficulty
    7 + Agility + rank (both at the default rank)."""
    from riven_env.rules.odds import OddsInputError

    s = settings_for(rules)
    if options.get("vs_agility") is None:
        raise OddsInputError("vs_agility", None, "the target's Agility: --vs-agility T")
    cover = str(options.get("cover") or "none")
    if cover not in s.cover_modifier:
        raise OddsInputError("cover", cover, ", ".join(COVERS))

    def bonus(agility: Any) -> int:
        return min(int(agility) + s.characteristic_offset + s.rank_default, s.roll_limit)

    shooter = (
        bonus(options["agility"])
        + situational(s.cover_modifier[cover], s)
        + situational(int(options.get("modifier") or 0), s)
    )
    success = success_odds(shooter, s.passive_base + bonus(options["vs_agility"]), rules)
    return {"success": success, "failure": 1 - success}


register_resolution(
    NAME,
    NewWorldResolution,
    rules_file="new-world.toml",
    section=SECTION,
    validate=validate_section,
    odds_test=odds_test,
    odds_melee=odds_melee,
    odds_shoot=odds_shoot,
)
