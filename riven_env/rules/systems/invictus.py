"""Invictus (``shared/rules/other-systems/invictus-rules.txt``) as a RIVEN resolution system.

A roll is a pool of d6 read by its single highest die: 1-2 Miss, 3-5 Swing, 6 Hit, two or
more 6s Crit (RAW; ``[invictus.bands]``). Mapped onto RIVEN's bands: Miss -> ``miss``,
Swing -> ``partial``, Hit -> ``hit``, Crit -> ``critical``, so the game applies each band as
RIVEN does (the shot effect table, a Partial's cost, a Miss's complication) and the system adds
its own: Favourable / Unfavourable circumstances, Danger Dice with soft and hard moves, Luck,
and the wound track with Critical Health and Death's Door. Mapping from a RIVEN profile and
which rules stay RIVEN's: ``docs/resolution-systems.md``, "Invictus".

Player choices (decisions of the controlling agent on the pending roll, ``spend`` kind):

- ``favour:I``: Favourable, raise die I (dice listed high to low) by one, once per roll;
- ``luck:I``: spend 1 Luck to raise die I by one (any number of times while Luck lasts).

Only dice below 6 are offered, one per distinct value (raising either of two equal dice is
the same choice).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from riven_env.errors import IllegalActionError, RulesDataError
from riven_env.rules.datacheck import (
    read_int,
    read_str,
    read_str_list,
    read_table,
    refuse_unknown_keys,
)
from riven_env.rules.dice import roll_dice
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import (
    ChoiceView,
    Combatant,
    OracleChoice,
    RivenResolution,
    RollContext,
    register_resolution,
)
from riven_env.rules.results import (
    BANDS,
    Aftermath,
    MeleeResult,
    Modifier,
    TestResult,
    modifiers_total,
)
from riven_env.rules.rules_data import RulesConfig

NAME = "invictus"
SECTION = "invictus"
FACES = 6  # Invictus rolls d6 only (RAW)
INVICTUS_BANDS: tuple[str, ...] = ("miss", "swing", "hit", "crit")
"""Invictus's own band names, worst to best; the index is RIVEN's tier (BANDS)."""
FACTORS: tuple[str, ...] = (
    "fray",
    "superior_opposition",
    "exposed",
    "critical_health",
    "time_pressure",
)
COVERS: tuple[str, ...] = ("none", "soft", "hard")
"""RIVEN's cover kinds (``shooting.cover_order``), each with a score in ``invictus.cover``."""
MOVE_EFFECTS: tuple[str, ...] = ("none", "strain", "wound", "complication")
MELEE_OUTCOMES: tuple[str, ...] = ("parry", "recoil", "wound", "critical")
FAVOUR = "favour:"
LUCK = "luck:"
LUCK_RESOURCE = "luck"


# ----------------------------------------------------------------------------- data
@dataclass(frozen=True)
class InvictusSettings:
    """The ``[invictus]`` section, parsed (see ``invictus.toml`` for each key)."""

    attribute_offset: int
    min_dice: int
    max_dice: int
    standard_tn: int
    tn_step: int
    steps_per_die: int
    miss_max: int
    swing_max: int
    crit_sixes: int
    danger_max: int
    soft_max: int
    bite_face: int
    bite_on: tuple[str, ...]
    factors: tuple[str, ...]
    exposed_conditions: tuple[str, ...]
    soft: tuple[str, int]
    hard: tuple[str, int]
    luck_start: int
    luck_crit_gain: int
    luck_cap: int
    luck_raise: int
    deaths_door_overflow: int
    critical_health_dice: int
    cover_score: Mapping[str, int]
    melee: Mapping[str, str]
    melee_wounds: int
    melee_crit_wounds: int
    oracle_lifts_to: str
    oracle_reserve: int


_KEYS: dict[str, tuple[str, ...]] = {
    "": ("pool", "bands", "danger", "moves", "cover", "luck", "health", "melee", "oracle"),
    "pool": ("attribute_offset", "min_dice", "max_dice", "standard_tn", "tn_step", "steps_per_die"),
    "bands": ("miss_max", "swing_max", "crit_sixes"),
    "danger": (
        "max_dice",
        "soft_max",
        "fray_bite_face",
        "fray_bite_on",
        "factors",
        "exposed_conditions",
    ),
    "moves": ("soft", "hard"),
    "luck": ("start", "crit_gain", "cap", "raise_per_point"),
    "cover": ("score",),
    "health": ("deaths_door_overflow", "critical_health_dice"),
    "melee": ("miss", "swing", "hit", "crit", "wounds", "crit_wounds"),
    "oracle": ("luck_lifts_to", "reserve"),
}


def parse_section(section: Mapping[str, Any], source: str) -> InvictusSettings:
    """Read and check the ``[invictus]`` section.

    Raises:
        RulesDataError: A key is unknown or missing, or a value is out of range; the message
            names the file and the dotted key.
    """
    where = f"{source}: {SECTION}"
    refuse_unknown_keys(section, _KEYS[""], where)
    tables = {}
    for name in _KEYS[""]:
        tables[name] = read_table(section, name, where)
        if name != "moves":
            refuse_unknown_keys(tables[name], _KEYS[name], f"{where}.{name}")
    pool, bands, danger = tables["pool"], tables["bands"], tables["danger"]
    here = f"{where}.pool"
    min_dice = read_int(pool, "min_dice", here, low=0, high=10)
    max_dice = read_int(pool, "max_dice", here, low=max(1, min_dice), high=10)
    here = f"{where}.bands"
    miss_max = read_int(bands, "miss_max", here, low=0, high=FACES - 1)
    swing_max = read_int(bands, "swing_max", here, low=miss_max, high=FACES - 1)
    moves = tables["moves"]
    refuse_unknown_keys(moves, _KEYS["moves"], f"{where}.moves")
    parsed_moves = {}
    for kind in ("soft", "hard"):
        table = read_table(moves, kind, f"{where}.moves")
        refuse_unknown_keys(table, ("effect", "amount"), f"{where}.moves.{kind}")
        parsed_moves[kind] = (
            read_str(table, "effect", f"{where}.moves.{kind}", choices=MOVE_EFFECTS),
            read_int(table, "amount", f"{where}.moves.{kind}", low=0, high=5),
        )
    luck, health, melee, oracle = (tables[k] for k in ("luck", "health", "melee", "oracle"))
    return InvictusSettings(
        attribute_offset=read_int(pool, "attribute_offset", f"{where}.pool", low=-5, high=5),
        min_dice=min_dice,
        max_dice=max_dice,
        standard_tn=read_int(pool, "standard_tn", f"{where}.pool", low=2, high=30),
        tn_step=read_int(pool, "tn_step", f"{where}.pool", low=1, high=10),
        steps_per_die=read_int(pool, "steps_per_die", f"{where}.pool", low=1, high=10),
        miss_max=miss_max,
        swing_max=swing_max,
        crit_sixes=read_int(bands, "crit_sixes", f"{where}.bands", low=2, high=10),
        danger_max=read_int(danger, "max_dice", f"{where}.danger", low=0, high=3),
        soft_max=read_int(danger, "soft_max", f"{where}.danger", low=0, high=FACES),
        bite_face=read_int(danger, "fray_bite_face", f"{where}.danger", low=1, high=FACES),
        bite_on=read_str_list(danger, "fray_bite_on", f"{where}.danger", choices=("hit", "crit")),
        factors=read_str_list(danger, "factors", f"{where}.danger", choices=FACTORS),
        exposed_conditions=read_str_list(danger, "exposed_conditions", f"{where}.danger"),
        soft=parsed_moves["soft"],
        hard=parsed_moves["hard"],
        luck_start=read_int(luck, "start", f"{where}.luck", low=0, high=20),
        luck_crit_gain=read_int(luck, "crit_gain", f"{where}.luck", low=0, high=5),
        luck_cap=read_int(luck, "cap", f"{where}.luck", low=0, high=20),
        luck_raise=read_int(luck, "raise_per_point", f"{where}.luck", low=1, high=5),
        deaths_door_overflow=read_int(
            health, "deaths_door_overflow", f"{where}.health", low=0, high=5
        ),
        critical_health_dice=read_int(
            health, "critical_health_dice", f"{where}.health", low=0, high=5
        ),
        cover_score=_cover_score(tables["cover"], f"{where}.cover"),
        melee={
            band: read_str(melee, band, f"{where}.melee", choices=MELEE_OUTCOMES)
            for band in INVICTUS_BANDS
        },
        melee_wounds=read_int(melee, "wounds", f"{where}.melee", low=1, high=5),
        melee_crit_wounds=read_int(melee, "crit_wounds", f"{where}.melee", low=1, high=5),
        oracle_lifts_to=read_str(
            oracle, "luck_lifts_to", f"{where}.oracle", choices=INVICTUS_BANDS[1:]
        ),
        oracle_reserve=read_int(oracle, "reserve", f"{where}.oracle", low=0, high=20),
    )


def _cover_score(table: Mapping[str, Any], where: str) -> dict[str, int]:
    """``invictus.cover.score``: the circumstance score of a shot at each RIVEN cover kind."""
    score = read_table(table, "score", where)
    refuse_unknown_keys(score, COVERS, f"{where}.score")
    return {c: read_int(score, c, f"{where}.score", low=-10, high=10) for c in COVERS}


def validate_section(section: Mapping[str, Any], source: str, raw: Mapping[str, Any]) -> None:
    """The registry's validator: parse the section, refusing unknown keys."""
    parse_section(section, source)


@functools.lru_cache(maxsize=32)
def settings_for(rules: RulesConfig) -> InvictusSettings:
    """The parsed ``[invictus]`` section of merged rules (cached per rules)."""
    if not rules.has(SECTION):
        raise RulesDataError(f"{rules.source}: no [{SECTION}] table (meta.resolution = {NAME!r}?)")
    return parse_section(rules.section(SECTION), rules.source)


# ----------------------------------------------------------------------------- pure reading
def read_band(dice: Sequence[int], s: InvictusSettings) -> str:
    """Invictus's band of a pool: the single highest die, several 6s a Crit (RAW)."""
    if not dice:
        return "miss"
    sixes = sum(1 for d in dice if d >= FACES)
    if sixes >= s.crit_sixes:
        return "crit"
    high = max(dice)
    if high <= s.miss_max:
        return "miss"
    if high <= s.swing_max:
        return "swing"
    return "hit"


def riven_band(band: str) -> str:
    """RIVEN's band for an Invictus band (Swing is RIVEN's Partial)."""
    return BANDS[INVICTUS_BANDS.index(band)]


def cover_tn(cover: str, s: InvictusSettings) -> int:
    """The TN of a shot at a target in ``cover`` whose circumstance term is the cover's score.

    Raises:
        RulesDataError: ``cover`` is not one of ``invictus.cover.score``.
    """
    if cover not in s.cover_score:
        raise RulesDataError(
            f"invictus.cover.score has no {cover!r}; allowed: {', '.join(s.cover_score)}"
        )
    return s.standard_tn - s.tn_step * s.cover_score[cover]


def circumstance(modifiers: Sequence[Modifier], tn: int, s: InvictusSettings) -> tuple[int, int]:
    """The circumstance score of a roll and the dice it adds (+) or removes (-).

    Score = net modifiers + (standard TN - TN) / tn_step (House). A positive score is
    Favourable, a negative one Unfavourable; each further ``steps_per_die`` beyond 1 is a die.
    """
    score = modifiers_total(list(modifiers)) + (s.standard_tn - tn) // s.tn_step
    if abs(score) <= 1:
        return score, 0
    extra = (abs(score) - 1) // s.steps_per_die
    return score, extra if score > 0 else -extra


def danger_factors(
    kind: str,
    attribute_value: int,
    opponent_value: int | None,
    context: RollContext,
    s: InvictusSettings,
) -> tuple[str, ...]:
    """The Danger factors a roll faces (House facts for the RAW list), in data order."""
    facts = {
        "fray": kind == "melee" or context.engaged,
        "superior_opposition": opponent_value is not None and opponent_value > attribute_value,
        "exposed": any(c in s.exposed_conditions for c in context.conditions),
        "critical_health": at_critical_health(context, s),
        "time_pressure": context.final_round,
    }
    return tuple(f for f in s.factors if facts[f])


def at_critical_health(context: RollContext, s: InvictusSettings) -> bool:
    """All the track's boxes are filled: one more wound is Death's Door (RIVEN's Down)."""
    # wounds_max 0: the context carries no wound track (a bare roll, the odds).
    return (
        s.deaths_door_overflow > 0
        and context.wounds_max > 0
        and context.wounds_left <= s.deaths_door_overflow
    )


def _sorted(dice: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted((int(d) for d in dice), reverse=True))


def raise_choices(dice: Sequence[int]) -> list[int]:
    """Indices of the dice a +1 may raise: below 6, the first of each distinct value."""
    seen: set[int] = set()
    found = []
    for index, value in enumerate(dice):
        if value < FACES and value not in seen:
            seen.add(value)
            found.append(index)
    return found


def raised(dice: Sequence[int], index: int, by: int = 1) -> tuple[int, ...]:
    """The pool with die ``index`` raised by ``by`` (at most 6), high to low again."""
    out = list(dice)
    out[index] = min(FACES, out[index] + by)
    return _sorted(out)


def unfavourable(dice: Sequence[int]) -> tuple[int, ...]:
    """RAW: drop the highest die by one (a 1 stays a 1)."""
    if not dice:
        return ()
    out = list(_sorted(dice))
    out[0] = max(1, out[0] - 1)
    return _sorted(out)


def best_raise(dice: Sequence[int], s: InvictusSettings) -> tuple[int, ...]:
    """The pool after the Favourable raise that gives the best band (the highest die on ties)."""
    options = raise_choices(dice)
    if not options:
        return _sorted(dice)
    return max(
        (raised(dice, i) for i in options),
        key=lambda d: (INVICTUS_BANDS.index(read_band(d, s)), d),
    )


def consequence(
    band: str, danger: Sequence[int], fray: bool, s: InvictusSettings
) -> tuple[str | None, int | None]:
    """The Narrator's move the Danger Dice call for: ``("soft"|"hard"|None, the die read)``.

    RAW: on a Swing or Miss the highest Danger Die picks a soft (1..soft_max) or hard move;
    on a Hit or Crit they are ignored, except that in a fray a Danger Die showing
    ``fray_bite_face`` activates its effect even on a Hit (``fray_bite_on``).
    """
    if not danger:
        return None, None
    if band in ("miss", "swing"):
        high = max(danger)
        return ("soft" if high <= s.soft_max else "hard"), high
    if fray and band in s.bite_on and s.bite_face in danger:
        return ("soft" if s.bite_face <= s.soft_max else "hard"), s.bite_face
    return None, None


# ----------------------------------------------------------------------------- the pending roll
@dataclass(frozen=True)
class InvictusRoll:
    """An Invictus roll that the roller may still change (Favourable raise, Luck).

    Attributes:
        dice: The pool as it stands, high to low.
        rolled_dice: The pool as rolled (before Unfavourable and raises).
        danger: The Danger Dice.
        factors: The Danger factors that added them.
        favourable: The Favourable raise is still to be used.
        unfavourable: The roll was Unfavourable (its highest die already dropped by one).
        luck_held: The roller's Luck when the roll was made; ``luck_spent`` so far.
        melee: For a melee, the defender's modifiers (shown in the event), else None.
        Other fields as RIVEN's :class:`~riven_env.rules.results.TestRoll`.
    """

    kind: str
    attribute: str
    attribute_value: int
    modifiers: tuple[Modifier, ...]
    tn: int
    pool: int
    dice: tuple[int, ...]
    rolled_dice: tuple[int, ...]
    danger: tuple[int, ...]
    factors: tuple[str, ...]
    fray: bool
    favourable: bool
    unfavourable: bool
    score: int
    critical_health: bool
    luck_held: int = 0
    luck_spent: int = 0
    spends: tuple[str, ...] = ()
    rolled_band: str = "miss"
    melee: tuple[Modifier, ...] | None = None
    momentum_spent: int = 0
    strain_taken: int = 0
    chooser: str = "actor"
    rolled: bool = True
    settings: InvictusSettings | None = field(default=None, repr=False, compare=False)

    @property
    def band(self) -> str:
        """Invictus's band of the dice as they stand."""
        return read_band(self.dice, self.settings)  # type: ignore[arg-type]  # set by the engine

    @property
    def result(self) -> str:
        """RIVEN's band (what the observation and the Oracle read)."""
        return riven_band(self.band)

    @property
    def rolled_result(self) -> str:
        return riven_band(self.rolled_band)

    @property
    def total(self) -> int:
        """The highest die (Invictus reads only that)."""
        return max(self.dice) if self.dice else 0

    @property
    def margin(self) -> int:
        """Tiers above a Miss (Invictus has no margin): 0 Miss .. 3 Crit."""
        return INVICTUS_BANDS.index(self.band)


# ----------------------------------------------------------------------------- the engine
class InvictusResolution(RivenResolution):
    """Invictus's dice for tests, shots and melee; RIVEN's for activation, morale, Out checks."""

    name = NAME

    def __init__(self, rules: RulesConfig) -> None:
        super().__init__(rules)
        self.settings = settings_for(rules)

    def __repr__(self) -> str:
        return f"InvictusResolution(rules={self.rules.source!r})"

    # -------------------------------------------------------------- setup
    def starting_wounds(self, profile: ModelProfile) -> int:
        """The track's boxes (the profile's wounds) plus the overflow that is Death's Door."""
        return profile.wounds + self.settings.deaths_door_overflow

    def starting_resources(self, profile: ModelProfile) -> dict[str, int]:
        return {LUCK_RESOURCE: self.settings.luck_start}

    def shot_tn(self, cover: str) -> int:
        """House: the shot's TN from ``invictus.cover.score`` (standard TN - step * score), so
        that the circumstance score of a shot is the cover's score (soft and hard apart)."""
        return cover_tn(cover, self.settings)

    # -------------------------------------------------------------- rolls
    def _roll(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        opponent_value: int | None,
        context: RollContext,
        rng: np.random.Generator,
        score_modifiers: Sequence[Modifier] | None = None,
    ) -> InvictusRoll:
        s = self.settings
        score, extra = circumstance(
            modifiers if score_modifiers is None else score_modifiers, tn, s
        )
        critical = at_critical_health(context, s)
        penalty = s.critical_health_dice if critical else 0
        pool = attribute_value + s.attribute_offset + extra - penalty
        pool = max(s.min_dice, min(s.max_dice, pool))
        factors = danger_factors(kind, attribute_value, opponent_value, context, s)
        # Pool first, then the Danger Dice: a fixed order keeps games reproducible.
        rolled = _sorted(roll_dice(rng, pool, FACES))
        danger = roll_dice(rng, min(len(factors), s.danger_max), FACES)
        dice = unfavourable(rolled) if score < 0 else rolled
        luck = int(context.resources.get(LUCK_RESOURCE, 0))
        return InvictusRoll(
            kind=kind,
            attribute=attribute,
            attribute_value=attribute_value,
            modifiers=tuple(modifiers),
            tn=tn,
            pool=pool,
            dice=dice,
            rolled_dice=rolled,
            danger=tuple(danger),
            factors=factors,
            fray=kind == "melee" or context.engaged,
            favourable=score > 0,
            unfavourable=score < 0,
            score=score,
            critical_health=critical,
            luck_held=luck,
            rolled_band=read_band(dice, s),
            settings=s,
        )

    def roll_test(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        rng: np.random.Generator,
        context: RollContext | None = None,
    ) -> InvictusRoll:
        """Roll the attribute's pool (House: pool = attribute); TN and modifiers set
        Favourable / Unfavourable; the context's facts set the Danger Dice."""
        context = context or RollContext()
        opponent = getattr(context.opponent, attribute, None) if context.opponent else None
        return self._roll(kind, attribute, attribute_value, tn, modifiers, opponent, context, rng)

    def start_melee(
        self, attacker: Combatant, defender: Combatant, rng: np.random.Generator
    ) -> InvictusRoll:
        """The attacker's Might pool (the Narrator never rolls); the defender's modifiers
        count against the attacker's circumstance, its higher Might is a Danger factor."""
        against = tuple(
            Modifier(f"defender {m.source}", -m.value) for m in defender.modifiers if m.value
        )
        roll = self._roll(
            "melee",
            "might",
            attacker.profile.might,
            self.settings.standard_tn,
            attacker.modifiers,
            defender.profile.might,
            replace(attacker.context, resources=attacker.resources),
            rng,
            score_modifiers=(*attacker.modifiers, *against),
        )
        return replace(roll, melee=tuple(defender.modifiers))

    # -------------------------------------------------------------- choices
    def spend_options(
        self,
        roll: InvictusRoll,
        *,
        momentum: int,
        strain: int,
        strain_max: int,
        resources: Mapping[str, int] | None = None,
    ) -> list[str]:
        """``favour:I`` while the Favourable raise is unused; ``luck:I`` while Luck lasts."""
        choices = raise_choices(roll.dice)
        if not choices:
            return []
        options = [f"{FAVOUR}{i}" for i in choices] if roll.favourable else []
        luck = int((resources or {}).get(LUCK_RESOURCE, roll.luck_held)) - roll.luck_spent
        if luck >= 1:
            options += [f"{LUCK}{i}" for i in choices]
        return options

    def apply_spend(
        self, roll: InvictusRoll, option: str, rng: np.random.Generator
    ) -> InvictusRoll:
        """Raise the chosen die (Favourable: once; Luck: one point each)."""
        choices = raise_choices(roll.dice)
        prefix, _, index_text = option.partition(":")
        index = int(index_text) if index_text.isdigit() else -1
        allowed = [f"{FAVOUR}{i}" for i in choices] if roll.favourable else []
        allowed += [f"{LUCK}{i}" for i in choices]
        if option not in allowed:
            raise IllegalActionError(option, allowed, reason=f"Invictus {roll.kind} roll")
        if prefix + ":" == FAVOUR:
            return replace(
                roll, dice=raised(roll.dice, index), favourable=False, spends=(*roll.spends, option)
            )
        return replace(
            roll,
            dice=raised(roll.dice, index, self.settings.luck_raise),
            luck_spent=roll.luck_spent + 1,
            spends=(*roll.spends, option),
        )

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        most = self.settings.max_dice
        return tuple(("spend", f"{p}{i}") for p in (FAVOUR, LUCK) for i in range(most))

    # -------------------------------------------------------------- closing
    def _aftermath(
        self, roll: InvictusRoll
    ) -> tuple[tuple[Aftermath, ...], str | None, int | None]:
        s = self.settings
        band = roll.band
        after: list[Aftermath] = []
        if roll.luck_spent:
            after.append(
                Aftermath("actor", "resource", -roll.luck_spent, LUCK_RESOURCE, "luck spent")
            )
        if band == "crit" and s.luck_crit_gain:
            held = roll.luck_held - roll.luck_spent
            gain = (
                s.luck_crit_gain
                if not s.luck_cap
                else max(0, min(s.luck_crit_gain, s.luck_cap - held))
            )
            if gain:
                after.append(Aftermath("actor", "resource", gain, LUCK_RESOURCE, "crit"))
        move, die = consequence(band, roll.danger, roll.fray, s)
        if move is not None:
            effect, amount = s.soft if move == "soft" else s.hard
            if effect != "none":
                after.append(Aftermath("actor", effect, amount, "", f"{move} move (danger {die})"))
        return tuple(after), move, die

    def _detail(self, roll: InvictusRoll, move: str | None, die: int | None) -> dict[str, Any]:
        return {
            "system": NAME,
            "band": roll.band,
            "rolled_band": roll.rolled_band,
            "pool": roll.pool,
            "rolled_dice": list(roll.rolled_dice),
            "favourable": roll.score > 0,
            "favour_used": roll.score > 0 and not roll.favourable,
            "unfavourable": roll.unfavourable,
            "danger_dice": list(roll.danger),
            "danger_factors": list(roll.factors),
            "move": move,
            "move_die": die,
            "luck_spent": roll.luck_spent,
            "critical_health": roll.critical_health,
        }

    def finalise(self, roll: InvictusRoll) -> TestResult | MeleeResult:
        """Close the roll: the band, the Narrator's move from the Danger Dice, Luck."""
        aftermath, move, die = self._aftermath(roll)
        detail = self._detail(roll, move, die)
        if roll.melee is not None:
            return self._melee_result(roll, aftermath, detail)
        return TestResult(
            kind=roll.kind,
            attribute=roll.attribute,
            attribute_value=roll.attribute_value,
            modifiers=roll.modifiers,
            tn=roll.tn,
            dice=roll.dice,  # type: ignore[arg-type]  # a pool, not two dice
            total=roll.total,
            result=roll.result,
            rolled_result=roll.rolled_result,
            spends=roll.spends,
            aftermath=aftermath,
            detail=detail,
        )

    def _melee_result(
        self, roll: InvictusRoll, aftermath: tuple[Aftermath, ...], detail: dict[str, Any]
    ) -> MeleeResult:
        s = self.settings
        outcome = s.melee[roll.band]
        wounds = {"wound": s.melee_wounds, "critical": s.melee_crit_wounds}.get(outcome, 0)
        condition = str(self.rules.get("melee.critical_condition")) if outcome == "critical" else ""
        recoil = float(self.rules.get("melee.recoil_distance")) if outcome == "recoil" else 0.0
        return MeleeResult(
            attacker_dice=roll.dice,  # type: ignore[arg-type]
            defender_dice=(),  # type: ignore[arg-type]  # the Narrator never rolls
            attacker_modifiers=roll.modifiers,
            defender_modifiers=roll.melee or (),
            attacker_total=roll.total,
            defender_total=0,
            outcome=outcome,
            winner=None if outcome == "parry" else "attacker",
            wounds=wounds,
            dazed=condition == "dazed",
            recoil_distance=recoil,
            condition=condition,
            aftermath=aftermath,
            detail={**detail, "spends": list(roll.spends)},
        )

    # -------------------------------------------------------------- the Oracle
    def oracle_choice(
        self, roll: InvictusRoll, options: Sequence[str], view: ChoiceView
    ) -> OracleChoice | None:
        """Favourable: raise the die that gives the best band. Luck: spend a point when it
        lifts the band to at least ``oracle.luck_lifts_to``, keeping ``oracle.reserve``."""
        s = self.settings
        now = INVICTUS_BANDS.index(roll.band)
        favours = [o for o in options if o.startswith(FAVOUR)]
        if favours:
            best = max(
                favours,
                key=lambda o: (
                    INVICTUS_BANDS.index(read_band(raised(roll.dice, int(o[len(FAVOUR) :])), s)),
                    -int(o[len(FAVOUR) :]),
                ),
            )
            after = read_band(raised(roll.dice, int(best[len(FAVOUR) :])), s)
            return OracleChoice(
                best,
                "invictus:favour_best",
                f"{view.model}'s roll is Favourable: it raises the die that gives the best "
                f"band ({roll.band.capitalize()} -> {after.capitalize()}).",
            )
        lucks = [o for o in options if o.startswith(LUCK)]
        luck_left = int(view.resources.get(LUCK_RESOURCE, 0)) - roll.luck_spent
        if lucks and luck_left - 1 >= s.oracle_reserve:
            best = max(
                lucks,
                key=lambda o: (
                    INVICTUS_BANDS.index(read_band(raised(roll.dice, int(o[len(LUCK) :])), s)),
                    -int(o[len(LUCK) :]),
                ),
            )
            after = read_band(raised(roll.dice, int(best[len(LUCK) :])), s)
            tier = INVICTUS_BANDS.index(after)
            if tier > now and tier >= INVICTUS_BANDS.index(s.oracle_lifts_to):
                return OracleChoice(
                    best,
                    "invictus:luck_lifts_band",
                    f"{view.model} spends 1 Luck ({luck_left} held): one raise lifts its "
                    f"{roll.band.capitalize()} to a {after.capitalize()}.",
                )
        return OracleChoice(
            "accept",
            "invictus:accept",
            f"{view.model}'s {roll.band.capitalize()} stands: no raise it may make lifts it "
            f"to a {s.oracle_lifts_to.capitalize()} or better.",
        )


# ----------------------------------------------------------------------------- exact odds
def pool_odds(
    dice: int, rules: RulesConfig, *, favourable: bool = False, unfavourable_roll: bool = False
) -> dict[str, Fraction]:
    """Exact P(miss, swing, hit, crit) of a pool of ``dice`` d6, by enumeration of every roll.

    ``favourable``: the best raise is taken (RAW: raise any die by one); ``unfavourable_roll``:
    the highest die drops by one.
    """
    s = settings_for(rules)
    counts = dict.fromkeys(INVICTUS_BANDS, 0)
    for faces in itertools.product(range(1, FACES + 1), repeat=dice):
        pool = _sorted(faces)
        if unfavourable_roll:
            pool = unfavourable(pool)
        if favourable:
            pool = best_raise(pool, s)
        counts[read_band(pool, s)] += 1
    total = FACES**dice
    return {band: Fraction(n, total) for band, n in counts.items()}


def odds_test(rules: RulesConfig, **options: Any) -> dict[str, Any]:
    """``riven odds test --resolution invictus --dice N [--favourable | --unfavourable]``:
    P(miss, swing, hit, crit)."""
    from riven_env.rules.odds import OddsInputError

    most = settings_for(rules).max_dice
    dice = options.get("dice")
    if dice is None:
        raise OddsInputError("dice", None, f"a pool of 1..{most} dice: --dice N")
    if not 1 <= int(dice) <= most:
        raise OddsInputError("dice", dice, f"1..{most} (invictus.pool.max_dice)")
    fav, unfav = bool(options.get("favourable")), bool(options.get("unfavourable"))
    if fav and unfav:
        raise OddsInputError("unfavourable", True, "not with --favourable (one or the other)")
    for name, value in options.items():
        if name not in ("dice", "favourable", "unfavourable") and value is not None:
            raise OddsInputError(
                name, value, "nothing: Invictus reads --dice, --favourable, --unfavourable"
            )
    return pool_odds(int(dice), rules, favourable=fav, unfavourable_roll=unfav)


def melee_odds(
    might: int, vs: int, modifier: int, vs_modifier: int, rules: RulesConfig
) -> dict[str, Fraction]:
    """Exact odds of an Invictus melee for the attacker: each outcome, and the Narrator's
    soft and hard moves from the Danger Dice (fray always; superior opposition when the
    defender's Might is higher), with the best Favourable raise taken and no Luck.
    """
    s = settings_for(rules)
    context = RollContext(engaged=True)
    factors = danger_factors("melee", might, vs, context, s)
    danger_count = min(len(factors), s.danger_max)
    score, extra = circumstance(
        [Modifier("mine", modifier), Modifier("theirs", -vs_modifier)], s.standard_tn, s
    )
    pool = max(s.min_dice, min(s.max_dice, might + s.attribute_offset + extra))
    out = {k: Fraction(0) for k in (*MELEE_OUTCOMES, "soft_move", "hard_move")}
    total = FACES ** (pool + danger_count)
    for faces in itertools.product(range(1, FACES + 1), repeat=pool):
        dice = _sorted(faces)
        if score < 0:
            dice = unfavourable(dice)
        elif score > 0:
            dice = best_raise(dice, s)
        band = read_band(dice, s)
        for danger in itertools.product(range(1, FACES + 1), repeat=danger_count):
            out[s.melee[band]] += Fraction(1, total)
            move, _ = consequence(band, danger, True, s)
            if move is not None:
                out[f"{move}_move"] += Fraction(1, total)
    return out


def odds_melee(rules: RulesConfig, **options: Any) -> dict[str, Any]:
    """``riven odds melee --resolution invictus --might A --vs D``."""
    return melee_odds(
        int(options["might"]),
        int(options["vs"]),
        int(options.get("modifier") or 0),
        int(options.get("vs_modifier") or 0),
        rules,
    )


def shot_odds(agility: int, cover: str, modifier: int, rules: RulesConfig) -> dict[str, Fraction]:
    """Exact P(miss, swing, hit, crit) of an Invictus shot: the Agility pool with the
    circumstance of the cover's score (``invictus.cover.score``) and the modifier (the best
    Favourable raise taken)."""
    s = settings_for(rules)
    tn = cover_tn(cover, s)  # House: invictus.cover.score
    score, extra = circumstance([Modifier("modifier", modifier)], tn, s)
    pool = max(s.min_dice, min(s.max_dice, agility + s.attribute_offset + extra))
    return pool_odds(pool, rules, favourable=score > 0, unfavourable_roll=score < 0)


def odds_shoot(rules: RulesConfig, **options: Any) -> dict[str, Any]:
    """``riven odds shoot --resolution invictus --agility A --cover C``."""
    from riven_env.rules.odds import OddsInputError

    cover = str(options.get("cover"))
    if cover not in settings_for(rules).cover_score:
        raise OddsInputError("cover", cover, ", ".join(settings_for(rules).cover_score))
    if options.get("vs_agility") is not None:
        raise OddsInputError(
            "vs_agility", options["vs_agility"], "nothing: Invictus reads no target"
        )
    return shot_odds(int(options["agility"]), cover, int(options.get("modifier") or 0), rules)


register_resolution(
    NAME,
    InvictusResolution,
    rules_file="invictus.toml",
    section=SECTION,
    validate=validate_section,
    odds_test=odds_test,
    odds_melee=odds_melee,
    odds_shoot=odds_shoot,
)
