"""The Riddle of Steel's dice engine on the core (cpp/riven/rules/systems/riddle_of_steel.cpp).

:class:`NativeRiddleOfSteelResolution` has the methods of
:class:`~riven_env.rules.systems.riddle_of_steel.RiddleOfSteelResolution` and gives the same
records, draw for draw: a test is the Python ``RosTestRoll`` / ``RosTestResult``, a melee the
Python ``MeleeSession`` (its fighters, pools, declarations, effects and new events, the events'
dicts in the Python engine's key order). A session crosses the seam as its fields; the core only
appends to ``new_events``, so the events a session already holds stay on the Python side and
the core's are added after them. RIVEN's rolls that RoS keeps (activation, morale, Out checks,
the Complication Oracle, the shot table) are the core's RIVEN functions
(:class:`~riven_env.native.rules.NativeRivenResolution`). ``tests/test_native_riddle_of_steel.py``
proves the agreement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from riven_env.errors import RulesDataError
from riven_env.native.rules import (
    NativeRivenResolution,
    _call,
    _core,
    _head_fields,
    _mods,
    _stream,
    native_rules,
)
from riven_env.rules.config import RulesConfig
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.results import MeleeResult, Modifier, TestResult, TestRoll
from riven_env.rules.systems.riddle_of_steel import (
    NAME,
    Fighter,
    MeleeSession,
    RosTestRoll,
    closed_test,
)
from riven_env.rules.systems.ros_data import RosData, RosShield, RosWeapon, ros_data_for
from riven_env.rules.systems.ros_dice import PoolRoll

__all__ = [
    "MOST_DICE",
    "NativeRiddleOfSteelResolution",
    "fighter_of",
    "fighter_values",
    "option_vocabulary",
    "profile_values",
    "session_of",
    "session_values",
]

MOST_DICE = 64
"""The largest dice count (and Feint's added dice) the native game's option vocabulary names."""


def _faces(faces: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(f) for f in die) for die in faces)


def profile_values(profile: ModelProfile) -> tuple[Any, ...]:
    """What the core reads of a profile: its attributes and its melee weapon (name, traits)."""
    weapon = profile.melee
    return (
        int(profile.might),
        int(profile.agility),
        int(profile.wit),
        int(profile.resolve),
        int(profile.mettle),
        None if weapon is None else str(weapon.name),
        [] if weapon is None else sorted(str(t) for t in weapon.traits),
    )


def fighter_of(values: Sequence[Any]) -> Fighter:
    """The Python :class:`Fighter` of the core's fighter tuple."""
    index, id_, pool, brawn, presence, resistance, prof, weapon, shield, wounds = values
    name, atn, dtn, dr, shield_name = weapon
    return Fighter(
        index=index,
        id=id_,
        pool=pool,
        brawn=brawn,
        presence=presence,
        resistance=resistance,
        proficiency=prof,
        weapon=RosWeapon(name, atn, dtn, dr, shield_name),
        shield=None
        if shield is None
        else RosShield(shield[0], shield[1], shield[2], frozenset(shield[3])),
        wounds=wounds,
    )


def fighter_values(fighter: Fighter, zones: Sequence[str]) -> tuple[Any, ...]:
    """The core's fighter tuple of a Python :class:`Fighter` (a shield's zones in ``zones``'
    order, the data's; the core reads membership only)."""
    w, shield = fighter.weapon, fighter.shield
    return (
        int(fighter.index),
        str(fighter.id),
        int(fighter.pool),
        int(fighter.brawn),
        int(fighter.presence),
        int(fighter.resistance),
        int(fighter.proficiency),
        (str(w.name), int(w.atn), int(w.dtn), int(w.dr), str(w.shield)),
        None
        if shield is None
        else (
            str(shield.name),
            int(shield.dtn),
            int(shield.passive_av),
            [z for z in zones if z in shield.zones],
        ),
        int(fighter.wounds),
    )


def session_values(session: MeleeSession, zones: Sequence[str]) -> tuple[Any, ...]:
    """The core's session tuple of a Python :class:`MeleeSession` (its fields but the events)."""
    effects = []
    for effect in session.effects:
        kind, index = effect[0], int(effect[1])
        if kind in ("pain", "wound"):
            effects.append((kind, index, int(effect[2]), ""))
        elif kind == "condition":
            effects.append((kind, index, 0, str(effect[2])))
        else:
            effects.append((kind, index, 0, ""))
    return (
        (fighter_values(session.fighters[0], zones), fighter_values(session.fighters[1], zones)),
        (int(session.pools[0]), int(session.pools[1])),
        int(session.exchanges),
        int(session.exchange),
        int(session.attacker),
        str(session.step),
        str(session.manoeuvre),
        str(session.zone),
        int(session.attack_dice),
        str(session.defence),
        int(session.defence_dice),
        str(session.feint),
        (int(session.bonus[0]), int(session.bonus[1])),
        None if session.last_attacker is None else int(session.last_attacker),
        bool(session.pending_steal),
        effects,
        str(session.end_reason),
    )


def session_of(values: Sequence[Any], events: tuple[Any, ...] = ()) -> MeleeSession:
    """The Python :class:`MeleeSession` of the core's session tuple, holding ``events``."""
    (
        fighters,
        pools,
        exchanges,
        exchange,
        attacker,
        step,
        manoeuvre,
        zone,
        attack_dice,
        defence,
        defence_dice,
        feint,
        bonus,
        last_attacker,
        pending_steal,
        effects,
        end_reason,
    ) = values
    found: list[tuple[Any, ...]] = []
    for kind, index, amount, condition in effects:
        if kind in ("pain", "wound"):
            found.append((kind, index, amount))
        elif kind == "condition":
            found.append((kind, index, condition))
        else:
            found.append((kind, index))
    return MeleeSession(
        fighters=(fighter_of(fighters[0]), fighter_of(fighters[1])),
        pools=(pools[0], pools[1]),
        exchanges=exchanges,
        exchange=exchange,
        attacker=attacker,
        step=step,
        manoeuvre=manoeuvre,
        zone=zone,
        attack_dice=attack_dice,
        defence=defence,
        defence_dice=defence_dice,
        feint=feint,
        bonus=(bonus[0], bonus[1]),
        last_attacker=last_attacker,
        pending_steal=pending_steal,
        effects=tuple(found),
        new_events=events,
        end_reason=end_reason,
    )


def option_vocabulary(data: RosData, most: int = MOST_DICE) -> list[str]:
    """Every option a Combat Round may offer (the native game's ``choose`` vocabulary): each
    attack at each zone, dice counts ``0..most``, ``none``, each defence, each zone's Feint with
    ``0..most`` added dice, ``steal`` and ``keep``."""
    out = [f"{a}:{z}" for a in data.attacks for z in data.zones]
    out += [str(k) for k in range(most + 1)]
    out += ["none", *data.defences]
    out += [f"{z}:{e}" for z in data.zones for e in range(most + 1)]
    out += ["steal", "keep"]
    return list(dict.fromkeys(out))


class NativeRiddleOfSteelResolution(NativeRivenResolution):
    """The Riddle of Steel's dice for tests, shots and melee on the core; RIVEN's for the rest.

    Not a :class:`~riven_env.native.system_base.NativeSystemResolution`: that base closes a
    pending roll through the spend phase, and RoS has none (its tests close at once, its melee
    is the choice phase's session); it shares the roll head every system converts
    (``rules._head_fields``).
    """

    name = NAME
    has_choices = True
    """The game loop opens its ``choice`` phase for melee (:meth:`open_melee`)."""

    def __init__(self, rules: RulesConfig) -> None:
        super().__init__(rules)
        self.data: RosData = ros_data_for(rules)
        self._system = _call(_core().RiddleOfSteelSystem, native_rules(rules))

    def __repr__(self) -> str:
        return f"NativeRiddleOfSteelResolution(data={self.data.source!r})"

    def _session_values(self, session: MeleeSession) -> tuple[Any, ...]:
        return session_values(session, self.data.zones)

    def _session(self, answer: tuple[Any, Any], held: tuple[Any, ...] = ()) -> MeleeSession:
        """The Python session of the core's ``(session, events)``, after the events ``held``."""
        values, events = answer
        return session_of(values, (*held, *((str(t), fields) for t, fields in events)))

    @staticmethod
    def _test_roll(values: Sequence[Any]) -> RosTestRoll:
        dice, rolled, result, pool, successes, fumble, faces, ros_attribute = values[5:]
        return RosTestRoll(
            **_head_fields(values),
            dice=tuple(dice),  # type: ignore[arg-type]
            rolled_result=rolled,
            result=result,
            pool=pool,
            successes=successes,
            fumble=fumble,
            faces=_faces(faces),
            ros_attribute=ros_attribute,
        )

    # -------------------------------------------------------------- the dice
    def roll_pool(self, dice: int, tn: int, rng: Any) -> PoolRoll:
        """See :func:`~riven_env.rules.systems.ros_dice.roll_pool`."""
        with _stream(rng) as stream:
            tn_, faces, totals, successes, ones, fumble = _call(
                self._system.roll_pool, int(dice), int(tn), stream
            )
        return PoolRoll(tn_, _faces(faces), tuple(totals), successes, ones, fumble)

    def band_for(self, successes: int, fumble: bool) -> str:
        """See :func:`~riven_env.rules.systems.ros_dice.band_for`."""
        return str(self._system.band_for(int(successes), bool(fumble)))

    # -------------------------------------------------------------- tests
    def roll_test(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        rng: Any,
        context: Any = None,
    ) -> TestRoll:
        """See :meth:`RiddleOfSteelResolution.roll_test` (``context`` is not read)."""
        with _stream(rng) as stream:
            values = _call(
                self._system.roll_test,
                str(kind),
                str(attribute),
                int(attribute_value),
                int(tn),
                _mods(modifiers),
                stream,
            )
        return self._test_roll(values)

    def spend_options(
        self, roll: TestRoll, *, momentum: int, strain: int, strain_max: int, **_: Any
    ) -> list[str]:
        """None: RoS has no after-roll spends."""
        return []

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """None: RoS's melee choices are ``choose`` decisions of the choice phase."""
        return ()

    def apply_spend(self, roll: TestRoll, option: str, rng: Any) -> TestRoll:
        """Refused: :meth:`spend_options` never offers one."""
        raise RulesDataError(f"{NAME}: no spend exists (asked for {option!r})")

    def finalise(self, roll: TestRoll) -> TestResult:
        """Close an RoS test (``total`` holds the successes; nothing is rolled)."""
        return closed_test(roll)

    def shot_tn(self, cover: str) -> int:
        """The shot's ATN: ``shooting.atn`` plus the cover step."""
        return int(_call(self._system.shot_tn, str(cover)))

    # -------------------------------------------------------------- melee
    def resolve_melee(
        self,
        attacker_might: int,
        defender_might: int,
        attacker_modifiers: Sequence[Modifier],
        defender_modifiers: Sequence[Modifier],
        rng: Any,
    ) -> MeleeResult:
        """Refused: RoS melee is a round of choices; the game loop calls :meth:`open_melee`."""
        raise RulesDataError(
            f"{NAME}: melee is a Combat Round of choices (open_melee), not one roll; "
            "resolve_melee has no RoS reading"
        )

    def make_fighter(
        self,
        index: int,
        model_id: str,
        profile: ModelProfile,
        wounds: int,
        pain: int,
        modifiers: Sequence[Modifier],
    ) -> Fighter:
        """See :func:`~riven_env.rules.systems.riddle_of_steel.make_fighter`."""
        values = _call(
            self._system.make_fighter,
            int(index),
            str(model_id),
            profile_values(profile),
            int(wounds),
            int(pain),
            _mods(modifiers),
        )
        return fighter_of(values)

    def open_session(self, attacker: Fighter, defender: Fighter, rng: Any) -> MeleeSession:
        """See :func:`~riven_env.rules.systems.riddle_of_steel.open_session`."""
        with _stream(rng) as stream:
            answer = _call(
                self._system.open_session,
                fighter_values(attacker, self.data.zones),
                fighter_values(defender, self.data.zones),
                stream,
            )
        return self._session(answer)

    def open_melee(
        self,
        attacker: tuple[int, str, ModelProfile, int, int],
        defender: tuple[int, str, ModelProfile, int, int],
        attacker_modifiers: Sequence[Modifier],
        defender_modifiers: Sequence[Modifier],
        rng: Any,
    ) -> MeleeSession:
        """Start a Combat Round; each fighter is ``(index, id, profile, wounds, pain)``."""
        fa = self.make_fighter(*attacker, attacker_modifiers)
        fd = self.make_fighter(*defender, defender_modifiers)
        return self.open_session(fa, fd, rng)

    def choice_options(self, session: MeleeSession) -> list[str]:
        """Options at the session's step."""
        return list(_call(self._system.choice_options, self._session_values(session)))

    def apply_choice(self, session: MeleeSession, option: str, rng: Any) -> MeleeSession:
        """Apply an option (rolling when the exchange is declared); an illegal one is refused
        with the Python engine's RulesDataError."""
        values = self._session_values(session)
        with _stream(rng) as stream:
            answer = _call(self._system.apply_choice, values, str(option), stream)
        return self._session(answer, session.new_events)

    def choice_model(self, session: MeleeSession) -> int:
        """The game index of the model that chooses now."""
        return session.decider_index

    def stance_choice(
        self, session: MeleeSession, legal: Sequence[str], stance_name: str | None
    ) -> tuple[str, str, str]:
        """The Oracle's option, rule id and reason under the stance named
        (:func:`~riven_env.rules.systems.riddle_of_steel.oracle_choice`; the seam's
        ``oracle_choice`` on a pending roll stays RIVEN's: RoS has no spends)."""
        option, rule, text = _call(
            self._system.oracle_choice,
            self._session_values(session),
            [str(o) for o in legal],
            "" if stance_name is None else str(stance_name),
        )
        return option, rule, text

    def oracle_session_choice(
        self, session: MeleeSession, legal: Sequence[str], oracle_profile: str | None
    ) -> tuple[str, str, str]:
        """The Oracle's option, rule id and reason under its profile's stance."""
        option, rule, text = _call(
            self._system.oracle_session_choice,
            self._session_values(session),
            [str(o) for o in legal],
            oracle_profile,
        )
        return option, rule, text
