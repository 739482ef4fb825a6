"""The Riddle of Steel (``riddle-of-steel``): d10 pools, Combat Pool melee with manoeuvres.

Selected with ``meta.resolution = "riddle-of-steel"`` (``--set resolution=riddle-of-steel``).
Its numbers are in ``riven_env/rules/data/riddle-of-steel.toml``; the mapping from a RIVEN
profile and every reading of the quickstart are in ``docs/resolution-riddle-of-steel.md``.

What it changes (everything else is RIVEN's: activation, movement, morale and flight, Down
and Out checks, the Complication Oracle, the table):

* **Tests** (disengage, rally, interact, resisting a Condition, shots): an Attribute Test,
  the mapped RoS attribute in d10 against a TN (:func:`roll_test`), read as RIVEN's bands by
  successes (a Fumble is a miss). Modifiers add or remove dice. No Momentum or Strain spends.
* **Melee** is a Combat Round of two Exchanges (:class:`MeleeSession`): each fighter's Combat
  Pool is split between attack and defence; the attacker declares a manoeuvre (Thrust, Swing,
  each with its paid option), a Target Zone and dice, the defender a defence (Parry, Block,
  Dodge and Break, Dodge and Stand, Duck and Weave, Counter, or none) and dice, the attacker
  may Feint; the contest by successes decides the hit and who attacks next; damage goes
  through the Damage Table (shock, pain, bleeding, knockdown, RIVEN wounds, Down or Out).
  Every one of those choices is a decision of the fighter's controlling agent: the game loop
  asks for them in its ``choice`` phase (``riven_env/game/choices.py``) through
  :meth:`RiddleOfSteelResolution.choice_options` / :meth:`~RiddleOfSteelResolution.apply_choice`,
  and the Enemy Oracle makes them by :meth:`~RiddleOfSteelResolution.oracle_session_choice`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from riven_env.errors import RulesDataError
from riven_env.rules.profiles import ModelProfile
from riven_env.rules.resolution import RivenResolution, register_resolution
from riven_env.rules.results import (
    MeleeResult,
    Modifier,
    TestResult,
    TestRoll,
)
from riven_env.rules.rules_data import RulesConfig
from riven_env.rules.systems.ros_data import (
    ROS_RULES_FILE,
    SECTION,
    RosData,
    RosShield,
    RosWeapon,
    parse_ros_data,
    ros_data_for,
)
from riven_env.rules.systems.ros_dice import PoolRoll, band_for, roll_pool

NAME = "riddle-of-steel"

STEP_ATTACK = "attack"
STEP_ATTACK_DICE = "attack_dice"
STEP_DEFENCE = "defence"
STEP_DEFENCE_DICE = "defence_dice"
STEP_FEINT = "feint"
STEP_STEAL = "steal"
STEP_DONE = "done"
NO_DEFENCE = "none"
NO_FEINT = "none"
_EFFECT_RANK = {"": 0, "knockdown": 1, "down": 2, "out": 3}


# ----------------------------------------------------------------------------- a RIVEN profile in RoS terms
def ros_attributes(profile: ModelProfile, data: RosData) -> dict[str, int]:
    """The RoS Temporal and Mental attributes of a RIVEN profile (``[attributes]``), and the
    Derived ones: Coordination = (Agility + Wits) // 2, Resistance = (Brawn + Presence) // 2."""
    out = {name: getattr(profile, source) + offset for name, source, offset in data.attributes}
    out["coordination"] = (out["agility"] + out["wits"]) // 2
    out["resistance"] = (out["brawn"] + out["presence"]) // 2
    return out


def proficiency(profile: ModelProfile, data: RosData) -> int:
    """Weapon Proficiency from Mettle: ``base - mettle``, at least ``min`` (House)."""
    return max(data.proficiency_min, data.proficiency_base - profile.mettle)


def ros_weapon(profile: ModelProfile, data: RosData) -> RosWeapon:
    """The RoS numbers of the profile's melee weapon (by name, else default plus its traits)."""
    weapon = profile.melee
    name = weapon.name if weapon is not None else "unarmed"
    found = data.weapons.get(name)
    if found is not None:
        return found
    base = data.weapons["default"]
    dr, shield = base.dr, base.shield
    for trait in sorted(weapon.traits if weapon is not None else ()):
        adjust = data.weapon_traits.get(trait, {})
        dr += int(adjust.get("dr", 0))
        shield = str(adjust.get("shield", shield))
    return RosWeapon(name, base.atn, base.dtn, dr, shield)


@dataclass(frozen=True)
class Fighter:
    """One side of an RoS melee, as the session needs it.

    Attributes:
        index: The model's index in the game.
        id: Its id (for the log).
        pool: Its Combat Pool this round (Coordination + Proficiency, less Pain, with the
            RIVEN modifiers as dice).
        brawn, presence, resistance, proficiency: RoS numbers.
        weapon: The RoS weapon.
        shield: Its shield, or None.
        wounds: RIVEN wounds left.
    """

    index: int
    id: str
    pool: int
    brawn: int
    presence: int
    resistance: int
    proficiency: int
    weapon: RosWeapon
    shield: RosShield | None
    wounds: int


def combat_pool(profile: ModelProfile, data: RosData) -> int:
    """Coordination + Proficiency (RAW), before Pain and modifiers."""
    return ros_attributes(profile, data)["coordination"] + proficiency(profile, data)


def modifier_dice(modifiers: Sequence[Modifier], data: RosData) -> int:
    """Combat Pool dice from RIVEN melee modifiers (weapon and trait ones are left to RoS data)."""
    total = 0
    for m in modifiers:
        if any(m.source.startswith(prefix) for prefix in data.ignore_modifier_sources):
            continue
        total += m.value
    return total * data.modifier_dice


def make_fighter(
    index: int,
    model_id: str,
    profile: ModelProfile,
    wounds: int,
    pain: int,
    modifiers: Sequence[Modifier],
    data: RosData,
) -> Fighter:
    """Build a :class:`Fighter` from a RIVEN model."""
    attrs = ros_attributes(profile, data)
    weapon = ros_weapon(profile, data)
    pool = combat_pool(profile, data) - pain + modifier_dice(modifiers, data)
    return Fighter(
        index=index,
        id=model_id,
        pool=max(0, pool),
        brawn=attrs["brawn"],
        presence=attrs["presence"],
        resistance=attrs["resistance"],
        proficiency=proficiency(profile, data),
        weapon=weapon,
        shield=data.shields.get(weapon.shield) if weapon.shield else None,
        wounds=wounds,
    )


def zone_armour(fighter: Fighter, zone: str) -> int:
    """Armour at ``zone``: the shield's passive protection where it covers (no body armour)."""
    shield = fighter.shield
    return shield.passive_av if shield is not None and zone in shield.zones else 0


def wound_level(attacker: Fighter, defender: Fighter, zone: str, margin: int, extra: int) -> int:
    """Damage Rating + margin + manoeuvre's levels - defender's Brawn - armour (RAW)."""
    return (
        attacker.brawn
        + attacker.weapon.dr
        + margin
        + extra
        - defender.brawn
        - zone_armour(defender, zone)
    )


# ----------------------------------------------------------------------------- the melee session
@dataclass(frozen=True)
class MeleeSession:
    """One Combat Round between two fighters, step by step (immutable; each step a new one).

    Role 0 is the model that started the fight (it threw the red die: it attacks first),
    role 1 its foe. ``attacker`` is the role attacking in the current exchange.

    Attributes:
        fighters: Both fighters.
        pools: Combat Pool dice left to each role this round.
        exchanges: Exchanges in the round (``melee.exchanges``).
        exchange: The current exchange, from 1.
        attacker: The attacking role now.
        step: What is asked next (``attack``, ``attack_dice``, ``defence``, ``defence_dice``,
            ``feint``, ``steal``) or ``done``.
        manoeuvre, zone, attack_dice: The attack declared so far.
        defence, defence_dice: The defence declared.
        feint: ``""`` or ``"ZONE:dice"`` once a Feint is called.
        bonus: Dice each role adds to its next attack (a won Counter).
        last_attacker: The role that attacked in the previous exchange (Dodge and Break is
            not open to it).
        pending_steal: The exchange record waiting for the Dodge and Stand steal choice.
        effects: What the game applies when the round is done, in order: ``("pain", index,
            n)``, ``("wound", index, n)``, ``("down", index)``, ``("out", index)``,
            ``("condition", index, name)``.
        new_events: ``(type, fields)`` events not yet written to the log.
        end_reason: Why the round ended.
    """

    fighters: tuple[Fighter, Fighter]
    pools: tuple[int, int]
    exchanges: int = 2
    exchange: int = 1
    attacker: int = 0
    step: str = STEP_ATTACK
    manoeuvre: str = ""
    zone: str = ""
    attack_dice: int = 0
    defence: str = ""
    defence_dice: int = 0
    feint: str = ""
    bonus: tuple[int, int] = (0, 0)
    last_attacker: int | None = None
    pending_steal: bool = False
    effects: tuple[tuple[Any, ...], ...] = ()
    new_events: tuple[tuple[str, dict[str, Any]], ...] = ()
    end_reason: str = ""

    @property
    def defender(self) -> int:
        return 1 - self.attacker

    @property
    def done(self) -> bool:
        return self.step == STEP_DONE

    @property
    def decider(self) -> int:
        """The role that must choose now."""
        if self.step in (STEP_DEFENCE, STEP_DEFENCE_DICE, STEP_STEAL):
            return self.defender
        return self.attacker

    @property
    def decider_index(self) -> int:
        """The game index of the model that must choose now."""
        return self.fighters[self.decider].index


def _with_pool(session: MeleeSession, role: int, value: int) -> tuple[int, int]:
    pools = list(session.pools)
    pools[role] = max(0, value)
    return (pools[0], pools[1])


def _emit(session: MeleeSession, type_: str, **fields: Any) -> tuple:
    return (*session.new_events, (type_, fields))


def choice_options(session: MeleeSession, data: RosData) -> list[str]:
    """The options legal at the session's step (empty once done)."""
    a, d = session.attacker, session.defender
    fd = session.fighters[d]
    step = session.step
    if step == STEP_ATTACK:
        pool = session.pools[a]
        return [
            f"{m.name}:{z}"
            for m in data.attacks.values()
            if pool - m.extra >= 1
            for z in data.zones
        ]
    if step == STEP_ATTACK_DICE:
        extra = data.attacks[session.manoeuvre].extra
        return [str(k) for k in range(1, session.pools[a] - extra + 1)]
    if step == STEP_DEFENCE:
        pool = session.pools[d]
        out = [NO_DEFENCE]
        for name, spec in data.defences.items():
            if spec.needs_shield and fd.shield is None:
                continue
            if name == "dodge_break" and session.last_attacker == d:
                continue  # RAW: not immediately after your own attack
            if pool >= spec.cost + 1:
                out.append(name)
        return out
    if step == STEP_DEFENCE_DICE:
        return [str(k) for k in range(1, session.pools[d] + 1)]
    if step == STEP_FEINT:
        spare = session.pools[a] - data.feint_cost
        out = [NO_FEINT]
        for z in data.zones:
            if z == session.zone:
                continue
            cost = (
                data.feint_die_cost_near
                if z in data.zone_near[session.zone]
                else data.feint_die_cost_far
            )
            out += [f"{z}:{e}" for e in range(0, spare // cost + 1)]
        return out
    if step == STEP_STEAL:
        return ["steal", "keep"]
    return []


def _feint_open(session: MeleeSession, data: RosData) -> bool:
    fa = session.fighters[session.attacker]
    return fa.proficiency >= data.feint_min and session.pools[session.attacker] >= data.feint_cost


def _defence_open(session: MeleeSession, data: RosData) -> bool:
    return len(choice_options(replace(session, step=STEP_DEFENCE), data)) > 1


def _begin_exchange(session: MeleeSession) -> MeleeSession:
    a = session.attacker
    if session.pools[a] < 1:
        return _finish(session, "no dice left to attack")
    return replace(
        session,
        step=STEP_ATTACK,
        manoeuvre="",
        zone="",
        attack_dice=0,
        defence="",
        defence_dice=0,
        feint="",
        pending_steal=False,
    )


def _finish(session: MeleeSession, reason: str) -> MeleeSession:
    events = _emit(
        session,
        "ros_round_end",
        reason=reason,
        exchanges=session.exchange,
        pools={f.id: p for f, p in zip(session.fighters, session.pools, strict=True)},
    )
    return replace(session, step=STEP_DONE, end_reason=reason, new_events=events)


def apply_choice(
    session: MeleeSession, option: str, rng: np.random.Generator, data: RosData
) -> MeleeSession:
    """Apply one legal option, rolling when the exchange is fully declared, then auto-advance
    through steps that have a single option.

    Raises:
        RulesDataError: ``option`` is not legal now (the game loop checks legality first).
    """
    legal = choice_options(session, data)
    if option not in legal:
        raise RulesDataError(
            f"riddle-of-steel melee: option {option!r} is not legal at step {session.step!r}; "
            f"legal: {', '.join(legal) or 'none'}"
        )
    session = _apply(session, option, rng, data)
    return advance(session, rng, data)


def advance(session: MeleeSession, rng: np.random.Generator, data: RosData) -> MeleeSession:
    """Apply single-option steps (nothing to choose) until a real choice or the end."""
    while not session.done:
        legal = choice_options(session, data)
        if len(legal) != 1:
            return session
        session = _apply(session, legal[0], rng, data)
    return session


def _apply(
    session: MeleeSession, option: str, rng: np.random.Generator, data: RosData
) -> MeleeSession:
    a, d = session.attacker, session.defender
    step = session.step
    if step == STEP_ATTACK:
        manoeuvre, zone = option.split(":")
        return replace(session, step=STEP_ATTACK_DICE, manoeuvre=manoeuvre, zone=zone)
    if step == STEP_ATTACK_DICE:
        k = int(option)
        paid = data.attacks[session.manoeuvre].extra + k
        session = replace(
            session, attack_dice=k, pools=_with_pool(session, a, session.pools[a] - paid)
        )
        if _defence_open(session, data):
            return replace(session, step=STEP_DEFENCE)
        session = replace(session, defence=NO_DEFENCE)
        return _after_defence(session, rng, data)
    if step == STEP_DEFENCE:
        if option == NO_DEFENCE:
            return _after_defence(replace(session, defence=NO_DEFENCE), rng, data)
        cost = data.defences[option].cost
        session = replace(
            session, defence=option, pools=_with_pool(session, d, session.pools[d] - cost)
        )
        return replace(session, step=STEP_DEFENCE_DICE)
    if step == STEP_DEFENCE_DICE:
        k = int(option)
        session = replace(
            session, defence_dice=k, pools=_with_pool(session, d, session.pools[d] - k)
        )
        return _after_defence(session, rng, data)
    if step == STEP_FEINT:
        if option == NO_FEINT:
            return _roll_exchange(session, rng, data)
        zone, extra = option.split(":")
        added = int(extra)
        cost = (
            data.feint_die_cost_near
            if zone in data.zone_near[session.zone]
            else (data.feint_die_cost_far)
        )
        paid = data.feint_cost + added * cost
        session = replace(
            session,
            feint=f"{session.zone}>{zone}:{added}",
            zone=zone,
            attack_dice=session.attack_dice + added,
            pools=_with_pool(session, a, session.pools[a] - paid),
        )
        return _roll_exchange(session, rng, data)
    if step == STEP_STEAL:
        steal = option == "steal"
        pools = (
            _with_pool(session, d, session.pools[d] - data.stand_steal_cost)
            if steal
            else session.pools
        )
        events = _emit(
            session,
            "ros_steal",
            model=session.fighters[d].id,
            stole=steal,
            cost=data.stand_steal_cost if steal else 0,
        )
        session = replace(session, pools=pools, new_events=events)
        return _next_exchange(session, d if steal else a)
    raise RulesDataError(f"riddle-of-steel melee: no step {step!r}")  # pragma: no cover


def _after_defence(session: MeleeSession, rng: np.random.Generator, data: RosData) -> MeleeSession:
    if _feint_open(session, data):
        return replace(session, step=STEP_FEINT)
    return _roll_exchange(session, rng, data)


def _defence_tn(session: MeleeSession, data: RosData) -> int:
    fd = session.fighters[session.defender]
    dtn = data.defences[session.defence].dtn
    if dtn == "weapon":
        return fd.weapon.dtn
    if dtn == "shield":
        return fd.shield.dtn if fd.shield is not None else fd.weapon.dtn
    return int(dtn)


def _roll_exchange(session: MeleeSession, rng: np.random.Generator, data: RosData) -> MeleeSession:
    a, d = session.attacker, session.defender
    fa, fd = session.fighters[a], session.fighters[d]
    attack = data.attacks[session.manoeuvre]
    bonus = session.bonus[a]
    rolled = session.attack_dice + attack.bonus_dice + bonus
    att = roll_pool(rolled, fa.weapon.atn, rng, data)
    defending = session.defence != NO_DEFENCE
    dtn = _defence_tn(session, data) if defending else 0
    dfn = roll_pool(session.defence_dice, dtn, rng, data) if defending else None
    a_succ = att.successes
    d_succ = dfn.successes if dfn is not None else 0
    defender_won = d_succ > a_succ
    counter_failed = session.defence == "counter" and not defender_won
    if counter_failed:
        a_succ += data.counter_fail_extra_successes
    margin = a_succ - d_succ
    pools = session.pools
    bonuses = [0, 0]  # a counter bonus is spent on the attack it was won for
    if att.fumble:
        loss = math.floor(session.attack_dice * data.fumble_pool_loss)
        pools = _with_pool(replace(session, pools=pools), a, pools[a] - loss)
    record: dict[str, Any] = {
        "exchange": session.exchange,
        "attacker": fa.id,
        "defender": fd.id,
        "manoeuvre": session.manoeuvre,
        "zone": session.zone,
        "zone_name": data.zone_names[session.zone],
        "feint": session.feint or None,
        "attack_dice": list(att.totals),
        "attack_faces": [list(f) for f in att.faces],
        "attack_bonus_dice": attack.bonus_dice + bonus,
        "atn": att.tn,
        "attack_successes": att.successes,
        "attack_fumble": att.fumble,
        "defence": session.defence,
        "defence_dice": list(dfn.totals) if dfn is not None else [],
        "dtn": dtn if defending else None,
        "defence_successes": d_succ,
        "defence_fumble": bool(dfn is not None and dfn.fumble),
        "counter_failed": counter_failed,
        "margin": margin,
    }
    effects = list(session.effects)
    next_attacker = a
    end = ""
    steal_pending = False
    if margin > 0:
        record["outcome"] = "hit"
        hit = _hit(session, margin, attack.damage, rng, data)
        record.update(hit["record"])
        effects += hit["effects"]
        pools = _with_pool(replace(session, pools=pools), d, pools[d] - hit["shock"])
        fighters = list(session.fighters)
        fighters[d] = replace(fd, wounds=max(0, fd.wounds - hit["wounds"]))
        session = replace(session, fighters=(fighters[0], fighters[1]))
        if hit["ends"]:
            end = hit["ends"]
    elif margin == 0:
        record["outcome"] = "tie"
    else:
        record["outcome"] = "defended"
        next_attacker = d
        if session.defence == "dodge_break":
            end = f"{fd.id} broke off (Dodge and Break)"
        elif session.defence == "dodge_stand":
            free = att.successes == 0 or att.fumble
            record["steal"] = "free" if free else "may pay"
            if not free:
                next_attacker = a
                steal_pending = pools[d] >= data.stand_steal_cost
        elif session.defence == "duck_weave":
            loss = math.floor(session.attack_dice * data.duck_weave_pool_loss)
            pools = _with_pool(replace(session, pools=pools), a, pools[a] - loss)
            record["attacker_pool_lost"] = loss
        elif session.defence == "counter":
            won = att.successes if data.counter_bonus == "attacker_successes" else rolled
            bonuses[d] = won
            record["counter_bonus"] = won
    record["initiative"] = session.fighters[next_attacker].id
    record["pools"] = {f.id: p for f, p in zip(session.fighters, pools, strict=True)}
    events = _emit(session, "ros_exchange", **record)
    session = replace(
        session,
        pools=pools,
        bonus=(bonuses[0], bonuses[1]),
        effects=tuple(effects),
        new_events=events,
        last_attacker=a,
    )
    if end:
        return _finish(session, end)
    if steal_pending:
        return replace(session, step=STEP_STEAL, pending_steal=True)
    return _next_exchange(session, next_attacker)


def _next_exchange(session: MeleeSession, next_attacker: int) -> MeleeSession:
    if session.exchange >= session.exchanges:
        return _finish(session, "the round's exchanges are over")
    return _begin_exchange(replace(session, exchange=session.exchange + 1, attacker=next_attacker))


def _hit(
    session: MeleeSession, margin: int, extra: int, rng: np.random.Generator, data: RosData
) -> dict[str, Any]:
    """Damage of a hit: wound level, Damage Table cell, knockdown test and game effects."""
    fa, fd = session.fighters[session.attacker], session.fighters[session.defender]
    raw = wound_level(fa, fd, session.zone, margin, extra)
    level = min(data.max_wound_level, raw)
    record: dict[str, Any] = {
        "damage": raw,
        "armour": zone_armour(fd, session.zone),
        "wound_level": max(0, level),
    }
    out: dict[str, Any] = {"record": record, "effects": [], "shock": 0, "wounds": 0, "ends": ""}
    if level <= 0:
        record["wound_text"] = "a scratch: no wound"
        return out
    cell = data.wound(session.zone, level)
    pain = max(0, cell.pain - fd.presence)
    record.update(
        wound_text=cell.text,
        shock=cell.shock,
        pain=pain,
        bl=cell.bl,
        effect=cell.effect,
        riven_wounds=cell.wounds,
    )
    effects: list[tuple] = []
    if cell.effect != "out":  # a slain model keeps neither Pain nor a bleeding wound
        if pain:
            effects.append(("pain", fd.index, pain))
        if cell.bl:
            effects.append(("condition", fd.index, data.bleeding_condition))
    out["shock"] = cell.shock
    pool_after = session.pools[session.defender] - cell.shock
    if cell.effect == "out":
        effects.append(("out", fd.index))
        out["ends"] = f"{fd.id} is slain ({cell.text})"
    elif cell.effect == "down" or cell.wounds >= fd.wounds:
        if cell.wounds:
            effects.append(("wound", fd.index, cell.wounds))
        effects.append(("down", fd.index))
        out["ends"] = f"{fd.id} is down ({cell.text})"
    else:
        if cell.wounds:
            effects.append(("wound", fd.index, cell.wounds))
            out["wounds"] = cell.wounds
        if cell.effect == "knockdown" or pool_after <= 0:
            tn = max(data.min_tn, data.knockdown_tn_per_margin * margin)
            test = roll_pool(fd.resistance, tn, rng, data)
            knocked = test.successes == 0
            record["knockdown"] = {
                "resistance": fd.resistance,
                "tn": tn,
                "dice": list(test.totals),
                "successes": test.successes,
                "prone": knocked,
            }
            if knocked:
                effects.append(("condition", fd.index, data.knockdown_condition))
    out["effects"] = effects
    return out


def open_session(
    attacker: Fighter,
    defender: Fighter,
    rng: np.random.Generator,
    data: RosData,
) -> MeleeSession:
    """Start a Combat Round (role 0 attacks first) and advance to its first real choice."""
    session = MeleeSession(
        fighters=(attacker, defender),
        pools=(attacker.pool, defender.pool),
        exchanges=data.exchanges,
    )
    events = _emit(
        session,
        "ros_round",
        attacker=attacker.id,
        defender=defender.id,
        pools={attacker.id: attacker.pool, defender.id: defender.pool},
        weapons={
            f.id: {
                "name": f.weapon.name,
                "atn": f.weapon.atn,
                "dtn": f.weapon.dtn,
                "dr": f.weapon.dr,
                "shield": f.weapon.shield or None,
            }
            for f in (attacker, defender)
        },
        brawn={attacker.id: attacker.brawn, defender.id: defender.brawn},
    )
    session = _begin_exchange(replace(session, new_events=events))
    return advance(session, rng, data)


# ----------------------------------------------------------------------------- the Oracle's rules
def _zone_key(session: MeleeSession, zone: str, data: RosData) -> tuple:
    """How much a margin-1 Swing to ``zone`` would do: effect, RIVEN wounds, shock."""
    fa, fd = session.fighters[session.attacker], session.fighters[session.defender]
    level = min(data.max_wound_level, wound_level(fa, fd, zone, 1, 0))
    if level <= 0:
        return (level, 0, 0, 0)
    cell = data.wound(zone, level)
    return (1, _EFFECT_RANK[cell.effect], cell.wounds, cell.shock)


def oracle_choice(
    session: MeleeSession, legal: Sequence[str], stance_name: str | None, data: RosData
) -> tuple[str, str, str]:
    """The Enemy Oracle's option at the session's step, with its rule id and its reason.

    The rules (``docs/resolution-riddle-of-steel.md``, "The Oracle in RoS melee"):

    * **attack**: the zone where a margin-1 Swing does most (effect, then RIVEN wounds, then
      shock; armour counted; the first zone in data order on a tie); Thrust (one die more)
      when a margin-1 Thrust still wounds there, else a paid heavy Swing when it can pay,
      else a Swing;
    * **attack dice**: the stance's share of the pool on the first exchange, everything on
      the last;
    * **defence**: Dodge and Break when the attack rolls at least twice its whole pool; else
      the lowest-DTN of Block and Parry; no defence without dice;
    * **defence dice**: all on the last exchange; otherwise the stance's share of the pool;
    * **feint**: when it Blocks a shield-covered zone, switch to the nearest uncovered zone
      with no added dice; otherwise none;
    * **steal**: pay for the initiative when dice are left after paying.
    """
    stance = (
        data.stances[stance_name]
        if stance_name in data.stances
        else (data.stances[data.default_stance])
    )
    step = session.step
    a, d = session.attacker, session.defender
    fa, fd = session.fighters[a], session.fighters[d]
    last = session.exchange >= session.exchanges
    if step == STEP_ATTACK:
        zones = [z for z in data.zones if any(o.endswith(f":{z}") for o in legal)]
        best = max(zones, key=lambda z: (_zone_key(session, z, data), -zones.index(z)))
        thrust_level = min(data.max_wound_level, wound_level(fa, fd, best, 1, -1))
        for manoeuvre, why in (
            ("thrust", "a margin-1 thrust still wounds there: one die more"),
            ("swing_heavy", "it pays a die for a heavier swing"),
            ("swing", "a plain swing"),
        ):
            option = f"{manoeuvre}:{best}"
            if option not in legal or (manoeuvre == "thrust" and thrust_level < 1):
                continue
            level = max(0, min(data.max_wound_level, wound_level(fa, fd, best, 1, 0)))
            text = (
                f"{fa.id} aims at zone {best} ({data.zone_names[best]}), where a margin-1 "
                f"swing deals wound level {level}; {why}."
            )
            return option, f"ros:attack:{manoeuvre}", text
        return legal[0], "ros:attack:first", f"{fa.id} attacks with the first listed manoeuvre."
    if step == STEP_ATTACK_DICE:
        counts = [int(o) for o in legal]
        most = max(counts)
        if last:
            return (
                str(most),
                "ros:attack_dice:all",
                f"{fa.id} puts all {most} dice into its last attack.",
            )
        k = min(most, max(1, round(stance.first_attack_share * session.pools[a])))
        text = (
            f"{fa.id} ({stance.name} stance) commits {k} of its {session.pools[a]} dice "
            f"({stance.first_attack_share:.0%}) to the first attack."
        )
        return str(k), f"ros:attack_dice:{stance.name}", text
    if step == STEP_DEFENCE:
        rolled = session.attack_dice + data.attacks[session.manoeuvre].bonus_dice + session.bonus[a]
        pool = session.pools[d]
        if "dodge_break" in legal and rolled >= 2 * pool:
            text = f"{fd.id} faces {rolled} dice with only {pool}: it breaks off (Dodge and Break)."
            return "dodge_break", "ros:defence:break", text
        tools = [o for o in ("block", "parry") if o in legal]
        if tools:
            choice = min(tools, key=lambda o: (_defence_tn(replace(session, defence=o), data), o))
            dtn = _defence_tn(replace(session, defence=choice), data)
            text = f"{fd.id} defends with {choice} (DTN {dtn}, the lowest it has)."
            return choice, f"ros:defence:{choice}", text
        return NO_DEFENCE, "ros:defence:none", f"{fd.id} has no defence to make."
    if step == STEP_DEFENCE_DICE:
        counts = [int(o) for o in legal]
        most = max(counts)
        if last:
            return str(most), "ros:defence_dice:all", f"{fd.id} defends with all {most} dice left."
        k = min(most, max(1, round(stance.defence_share * most)))
        text = (
            f"{fd.id} ({stance.name} stance) defends with {k} of its {most} dice "
            f"({stance.defence_share:.0%}), keeping the rest for the next exchange."
        )
        return str(k), f"ros:defence_dice:{stance.name}", text
    if step == STEP_FEINT:
        covered = fd.shield is not None and session.zone in fd.shield.zones
        if session.defence == "block" and covered:
            for z in sorted(data.zone_near[session.zone], key=data.zones.index):
                option = f"{z}:0"
                if option in legal and zone_armour(fd, z) == 0:
                    text = (
                        f"{fd.id} blocks and its shield covers zone {session.zone}: {fa.id} "
                        f"feints to zone {z} ({data.zone_names[z]})."
                    )
                    return option, "ros:feint:around_shield", text
        return NO_FEINT, "ros:feint:none", f"{fa.id} does not feint."
    if step == STEP_STEAL:
        if session.pools[d] - data.stand_steal_cost >= 1:
            text = f"{fd.id} pays {data.stand_steal_cost} dice to take the initiative."
            return "steal", "ros:steal:pay", text
        return "keep", "ros:steal:keep", f"{fd.id} keeps its last dice for defence."
    return legal[0], "ros:first", "The only option."


# ----------------------------------------------------------------------------- tests
@dataclass(frozen=True)
class RosTestRoll(TestRoll):
    """A RIVEN test rolled as an RoS Attribute Test: ``dice`` are the die totals.

    Attributes:
        pool: Dice rolled.
        successes: Dice at or above the TN.
        fumble: No success and two or more 1s.
        faces: Each die's faces (a stack shows every face).
        ros_attribute: The RoS attribute rolled.
    """

    __test__ = False

    pool: int = 0
    successes: int = 0
    fumble: bool = False
    faces: tuple[tuple[int, ...], ...] = ()
    ros_attribute: str = ""

    @property
    def total(self) -> int:
        """The successes (an RoS test has no sum)."""
        return self.successes


@dataclass(frozen=True)
class RosTestResult(TestResult):
    """A finalised RoS test; ``total`` holds the successes. See :class:`RosTestRoll`."""

    __test__ = False

    pool: int = 0
    successes: int = 0
    fumble: bool = False
    faces: tuple[tuple[int, ...], ...] = ()
    ros_attribute: str = ""

    def event_fields(self) -> dict[str, Any]:
        """Fields the event log adds to a test or shot event (``docs/event-log.md``)."""
        return {
            "system": NAME,
            "ros_attribute": self.ros_attribute,
            "pool": self.pool,
            "successes": self.successes,
            "fumble": self.fumble,
            "faces": [list(f) for f in self.faces],
        }


def closed_test(roll: TestRoll) -> RosTestResult:
    """An RoS test closed: ``total`` holds the successes; nothing is rolled, nothing spent (the
    Python engine's ``finalise`` and the core's wrapper both close a test so)."""
    if not isinstance(roll, RosTestRoll):
        raise RulesDataError(f"{NAME}: cannot finalise a {type(roll).__name__}")
    return RosTestResult(
        kind=roll.kind,
        attribute=roll.attribute,
        attribute_value=roll.attribute_value,
        modifiers=roll.modifiers,
        tn=roll.tn,
        dice=roll.dice,
        total=roll.successes,
        result=roll.result,
        rolled_result=roll.rolled_result,
        spends=(),
        pool=roll.pool,
        successes=roll.successes,
        fumble=roll.fumble,
        faces=roll.faces,
        ros_attribute=roll.ros_attribute,
    )


def ros_test_tn(kind: str, tn: int, data: RosData) -> int:
    """The RoS TN of a RIVEN test: a shot's TN is RoS already; others map by nearest RIVEN TN."""
    if kind == "shot":
        return tn
    return min(data.tn_for_riven_tn, key=lambda pair: (abs(pair[0] - tn), pair[0]))[1]


def roll_ros_test(
    kind: str,
    attribute: str,
    attribute_value: int,
    tn: int,
    modifiers: Sequence[Modifier],
    rng: np.random.Generator,
    data: RosData,
) -> RosTestRoll:
    """Roll a RIVEN test as an RoS Attribute Test (see the module docstring)."""
    ros_name = data.test_attribute_for.get(attribute, attribute)
    offset = next((off for name, _, off in data.attributes if name == ros_name), 0)
    bonus = sum(m.value for m in modifiers) * data.test_modifier_dice
    pool = max(data.test_min_dice, attribute_value + offset + bonus)
    ros_tn = ros_test_tn(kind, tn, data)
    roll = roll_pool(pool, ros_tn, rng, data)
    band = band_for(roll.successes, roll.fumble, data)
    return _test_roll(kind, attribute, attribute_value, tuple(modifiers), roll, band, ros_name)


def _test_roll(
    kind: str,
    attribute: str,
    value: int,
    modifiers: tuple[Modifier, ...],
    roll: PoolRoll,
    band: str,
    ros_name: str,
) -> RosTestRoll:
    return RosTestRoll(
        kind=kind,
        attribute=attribute,
        attribute_value=value,
        modifiers=modifiers,
        tn=roll.tn,
        dice=roll.totals,  # type: ignore[arg-type]
        rolled_result=band,
        result=band,
        pool=roll.dice,
        successes=roll.successes,
        fumble=roll.fumble,
        faces=roll.faces,
        ros_attribute=ros_name,
    )


# ----------------------------------------------------------------------------- the system
class RiddleOfSteelResolution(RivenResolution):
    """The Riddle of Steel's dice engine for the RIVEN game loop (see the module docstring).

    What it does not override stays RIVEN's (docs/resolution-riddle-of-steel.md, "What stays
    RIVEN"): the activation roll, morale, the Out check, the Complication Oracle (it stands in
    for the Seneschal's call on a miss) and a shot band's effect (missile damage through the
    Damage Table is left out).
    """

    name = NAME
    has_choices = True
    """The game loop opens its ``choice`` phase for melee (:meth:`open_melee`)."""

    def __init__(self, rules: RulesConfig) -> None:
        super().__init__(rules)
        self.data = ros_data_for(rules)

    def __repr__(self) -> str:
        return f"RiddleOfSteelResolution(data={self.data.source!r})"

    # -- tests
    def roll_test(
        self,
        kind: str,
        attribute: str,
        attribute_value: int,
        tn: int,
        modifiers: Sequence[Modifier],
        rng: np.random.Generator,
        context: Any = None,
    ) -> TestRoll:
        """An RoS Attribute Test (:func:`roll_ros_test`); ``context`` is not read."""
        return roll_ros_test(kind, attribute, attribute_value, tn, modifiers, rng, self.data)

    def spend_options(
        self, roll: TestRoll, *, momentum: int, strain: int, strain_max: int, **_: Any
    ) -> list[str]:
        """None: RoS has no after-roll spends (its Spiritual Attributes add dice before)."""
        return []

    def choice_vocabulary(self) -> tuple[tuple[str, str], ...]:
        """None: no pending record of RoS offers a spend or allocate option (its melee
        choices are ``choose`` decisions of the choice phase, outside the catalogue)."""
        return ()

    def apply_spend(self, roll: TestRoll, option: str, rng: np.random.Generator) -> TestRoll:
        """Refused: :meth:`spend_options` never offers one."""
        raise RulesDataError(f"{NAME}: no spend exists (asked for {option!r})")

    def finalise(self, roll: TestRoll) -> TestResult:
        """Close an RoS test (``total`` holds the successes)."""
        return closed_test(roll)

    def shot_tn(self, cover: str) -> int:
        """The shot's ATN: ``shooting.atn`` plus the cover step (RoS numbers)."""
        if cover not in self.data.cover_tn:
            raise RulesDataError(
                f"{self.data.source}: riddle_of_steel.shooting.cover_tn has no {cover!r}; "
                f"allowed: {', '.join(self.data.cover_tn)}"
            )
        return self.data.shot_atn + self.data.cover_tn[cover]

    # -- melee
    def resolve_melee(
        self,
        attacker_might: int,
        defender_might: int,
        attacker_modifiers: Sequence[Modifier],
        defender_modifiers: Sequence[Modifier],
        rng: np.random.Generator,
    ) -> MeleeResult:
        """Refused: RoS melee is a round of choices; the game loop calls :meth:`open_melee`."""
        raise RulesDataError(
            f"{NAME}: melee is a Combat Round of choices (open_melee), not one roll; "
            "resolve_melee has no RoS reading"
        )

    def open_melee(
        self,
        attacker: tuple[int, str, ModelProfile, int, int],
        defender: tuple[int, str, ModelProfile, int, int],
        attacker_modifiers: Sequence[Modifier],
        defender_modifiers: Sequence[Modifier],
        rng: np.random.Generator,
    ) -> MeleeSession:
        """Start a Combat Round; each fighter is ``(index, id, profile, wounds, pain)``."""
        fa = make_fighter(*attacker, attacker_modifiers, self.data)
        fd = make_fighter(*defender, defender_modifiers, self.data)
        return open_session(fa, fd, rng, self.data)

    def choice_options(self, session: MeleeSession) -> list[str]:
        """Options at the session's step."""
        return choice_options(session, self.data)

    def apply_choice(
        self, session: MeleeSession, option: str, rng: np.random.Generator
    ) -> MeleeSession:
        """Apply an option (:func:`apply_choice`)."""
        return apply_choice(session, option, rng, self.data)

    def choice_model(self, session: MeleeSession) -> int:
        """The game index of the model that chooses now."""
        return session.decider_index

    def oracle_session_choice(
        self, session: MeleeSession, legal: Sequence[str], oracle_profile: str | None
    ) -> tuple[str, str, str]:
        """The Oracle's option, rule id and reason (:func:`oracle_choice`)."""
        stance = self.data.stances_by_profile.get(oracle_profile or "", self.data.default_stance)
        return oracle_choice(session, legal, stance, self.data)


# ----------------------------------------------------------------------------- odds and registration
def odds_test(rules: RulesConfig, **options: Any) -> dict[str, Any]:
    """``riven odds test --resolution riddle-of-steel --dice N --tn T``: exact odds.

    Returns ``successes`` (P(0), P(1), ... P(N) successes: a die scores one success at most,
    so no count above N exists) and ``fumble`` (no success and two or more 1s), as
    Fractions, with Stacking bounded by ``dice.max_stacks`` exactly as the engine rolls.

    Raises:
        OddsInputError: ``dice`` or ``tn`` missing or out of range, or an option RoS does
            not read.
    """
    from riven_env.rules.odds import OddsInputError
    from riven_env.rules.systems.ros_dice import pool_odds

    data = ros_data_for(rules)
    dice, tn = options.get("dice"), options.get("tn")
    if dice is None or not 1 <= int(dice) <= MAX_ODDS_DICE:
        raise OddsInputError("dice", dice, f"a pool of 1..{MAX_ODDS_DICE} d10 (--dice N)")
    top = data.faces * (1 + data.max_stacks) + 1
    if tn is None or not data.min_tn <= int(tn) <= top:
        raise OddsInputError("tn", tn, f"a TN of {data.min_tn}..{top} (--tn T)")
    for name in ("attribute", "difficulty", "modifier", "favourable", "unfavourable", "bonus"):
        if options.get(name):
            raise OddsInputError(
                name, options[name], "not read by riddle-of-steel: give --dice and --tn"
            )
    odds = pool_odds(int(dice), int(tn), data)
    return {"successes": list(odds.successes), "fumble": odds.fumble}


def odds_melee(rules: RulesConfig, **options: Any) -> dict[str, Any]:
    """One exchange: ``--attack-dice A --atn T --defence-dice D --dtn T2`` (exact).

    Returns ``hit`` (attacker successes above the defender's), ``tie`` (equal: no damage,
    the attacker keeps the initiative), ``defended`` (the defender's above), and ``margin``
    (attacker minus defender successes -> probability).
    """
    from riven_env.rules.odds import OddsInputError
    from riven_env.rules.systems.ros_dice import margin_odds

    data = ros_data_for(rules)
    top = data.faces * (1 + data.max_stacks) + 1
    values = {}
    for name, low, high in (
        ("attack_dice", 1, MAX_ODDS_DICE),
        ("atn", data.min_tn, top),
        ("defence_dice", 0, MAX_ODDS_DICE),
        ("dtn", data.min_tn, top),
    ):
        value = options.get(name)
        if value is None or not low <= int(value) <= high:
            raise OddsInputError(name, value, f"an integer {low}..{high}")
        values[name] = int(value)
    margins = margin_odds(
        values["attack_dice"], values["atn"], values["defence_dice"], values["dtn"], data
    )
    zero = Fraction(0)
    return {
        "hit": sum((p for m, p in margins.items() if m > 0), zero),
        "tie": margins.get(0, zero),
        "defended": sum((p for m, p in margins.items() if m < 0), zero),
        "margin": {str(m): p for m, p in margins.items()},
    }


MAX_ODDS_DICE = 40
"""The largest pool the odds commands accept (exact rationals stay fast far beyond it)."""

RiddleOfSteelResolution.odds_test = staticmethod(odds_test)  # type: ignore[attr-defined]
RiddleOfSteelResolution.odds_melee = staticmethod(odds_melee)  # type: ignore[attr-defined]


def validate_section(section: Any, source: str, raw: Any) -> None:
    """Validate a merged ``[riddle_of_steel]`` section (the shape the systems registry calls)."""
    parse_ros_data({SECTION: section}, source)


register_resolution(
    NAME,
    RiddleOfSteelResolution,
    rules_file=ROS_RULES_FILE,
    section=SECTION,
    validate=validate_section,
    odds_test=odds_test,
    odds_melee=odds_melee,
)

__all__ = [
    "NAME",
    "Fighter",
    "MeleeSession",
    "RiddleOfSteelResolution",
    "RosTestResult",
    "RosTestRoll",
    "apply_choice",
    "choice_options",
    "combat_pool",
    "make_fighter",
    "odds_melee",
    "odds_test",
    "open_session",
    "oracle_choice",
    "proficiency",
    "roll_ros_test",
    "ros_attributes",
    "ros_weapon",
    "ros_test_tn",
    "wound_level",
    "validate_section",
    "zone_armour",
]
