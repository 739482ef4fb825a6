"""Load and validate the Enemy Oracle's behaviour profiles (``data/profiles.toml``).

The data file holds ``[profiles.NAME]`` tables; :func:`load_profiles` turns each into a frozen
:class:`OracleProfile` after checking every name against the fixed vocabulary of
:mod:`riven_agents.oracle.vocabulary` and the action and Condition names of the rules data. Any
bad entry raises :class:`OracleDataError` naming the file, the profile, the rule id (when
there is one), the bad value and what is allowed.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riven_agents.oracle import vocabulary as vocab

from riven_env.errors import RivenError
from riven_env.files import read_toml
from riven_env.rules import RulesConfig, action_specs, bundled_rules, condition_specs


class OracleDataError(RivenError):
    """The Oracle's profile data is invalid; the message names file, profile, rule and value."""


DATA_FILE = Path(__file__).resolve().parent / "data" / "profiles.toml"

_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")

_PROFILE_KEYS = {
    "title": False,
    "description": True,
    "activation_order": True,
    "hold_when": False,
    "dice": True,
    "targets": True,
    "bonus": False,
    "spend": False,
    "priorities": True,
    "fallback_d6": True,
}
"""Keys of a ``[profiles.NAME]`` table -> whether it is required."""


# ----------------------------------------------------------------------------- records
@dataclass(frozen=True)
class Condition:
    """A condition reference: ``name``, its argument (or None) and whether it is negated."""

    name: str
    arg: str | float | None = None
    negated: bool = False

    def __str__(self) -> str:
        arg = "" if self.arg is None else f":{_arg_text(self.arg)}"
        return f"{vocab.NEGATION_PREFIX if self.negated else ''}{self.name}{arg}"


@dataclass(frozen=True)
class ActionRef:
    """An action reference: the game's action ``kind`` and, for moves, the destination kind."""

    kind: str
    destination: str | None = None

    def __str__(self) -> str:
        return self.kind if self.destination is None else f"{self.kind}:{self.destination}"


@dataclass(frozen=True)
class PriorityRule:
    """One numbered line of a profile's priority list.

    Attributes:
        id: Identifier, unique in the profile (recorded in the event log when it fires).
        when: Conditions that must all hold.
        action: What to do.
        target: Target selector name, or None for the profile's default for the action.
        note: Optional extra words printed on the card.
    """

    id: str
    when: tuple[Condition, ...]
    action: ActionRef
    target: str | None = None
    note: str = ""


@dataclass(frozen=True)
class DiceRule:
    """One line of the dice policy: when ``when`` holds, roll ``dice`` or follow ``policy``."""

    when: tuple[Condition, ...]
    dice: int | None = None
    policy: str | None = None
    turnover_cost: float = 0.0


@dataclass(frozen=True)
class SpendRule:
    """One line of the spend policy.

    Attributes:
        id: Identifier recorded in the event log.
        option: ``reroll``, ``boost`` or ``strain``.
        on: Result bands it acts on (``miss``, ``partial``).
        tests: Test kinds it acts on (``any`` for all).
        min_momentum: Momentum the side must hold before spending (Momentum options).
        strain_headroom: Strain track left free after a Strain spend (``strain`` option).
        allow_overflow: A Strain spend may overflow the track (risking a Condition).
    """

    id: str
    option: str
    on: tuple[str, ...]
    tests: tuple[str, ...]
    min_momentum: int = 0
    strain_headroom: int = 0
    allow_overflow: bool = False


@dataclass(frozen=True)
class BonusPolicy:
    """When to give the chosen model a Momentum bonus action before it rolls."""

    min_momentum: int
    when: tuple[Condition, ...]


@dataclass(frozen=True)
class FallbackEntry:
    """One face of the d6 table rolled when no priority applies."""

    roll: int
    action: ActionRef
    target: str | None = None


@dataclass(frozen=True)
class OracleProfile:
    """A behaviour profile of the Enemy Oracle (one ``[profiles.NAME]`` table)."""

    name: str
    title: str
    description: str
    activation_order: tuple[str, ...]
    hold_when: tuple[Condition, ...]
    dice: tuple[DiceRule, ...]
    targets: Mapping[str, str]
    bonus: BonusPolicy | None
    spend: tuple[SpendRule, ...]
    priorities: tuple[PriorityRule, ...]
    fallback: tuple[FallbackEntry, ...]

    def target_for(self, action: ActionRef, rule_target: str | None) -> str:
        """The selector to use: the rule's own, else the profile's for the action, else default."""
        if rule_target:
            return rule_target
        return self.targets.get(str(action), self.targets.get(action.kind, self.targets["default"]))

    def rule_ids(self) -> set[str]:
        """Every rule id an explanation of this profile may name."""
        ids = {r.id for r in self.priorities}
        ids |= {f"d6:{e.roll}" for e in self.fallback}
        ids |= {s.id for s in self.spend}
        ids |= {f"dice:{k}" for k in range(1, len(self.dice) + 1)}
        return ids | set(ENGINE_RULE_IDS)


#: Rule ids the engine itself records besides the data's own (priority ids, spend ids,
#: ``d6:N`` for a fallback face and ``dice:N`` for the N-th dice rule).
ENGINE_RULE_IDS = (
    "bonus",
    "hold",
    "pass:all_activated",
    "end:no_action",
    "spend:accept",
)


# ----------------------------------------------------------------------------- parsing
def _finite_at_least(value: Any, low: float) -> bool:
    """Whether ``value`` is a finite int or float ``>= low`` (``nan >= low`` is false, and
    infinity is refused too, so that no profile number can poison the engine's sums)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and value >= low


def _arg_text(arg: str | float) -> str:
    if isinstance(arg, float) and arg.is_integer():
        return str(int(arg))
    return str(arg)


class _Checker:
    """Parses one data file, knowing which names the rules data allows."""

    def __init__(self, source: str, rules: RulesConfig) -> None:
        self.source = source
        self.actions = sorted(action_specs(rules))
        self.conditions = sorted(condition_specs(rules))
        self.max_dice = int(rules.get("activation.max_dice"))
        self.faces = int(rules.get("dice.faces"))

    def fail(self, where: str, message: str) -> OracleDataError:
        return OracleDataError(f"{self.source}: {where}: {message}")

    # -------------------------------------------------------------- conditions
    def condition(self, text: Any, where: str) -> Condition:
        if not isinstance(text, str) or not text:
            raise self.fail(where, f"a condition must be a non-empty string, got {text!r}")
        negated = text.startswith(vocab.NEGATION_PREFIX)
        body = text[len(vocab.NEGATION_PREFIX) :] if negated else text
        name, sep, raw_arg = body.partition(":")
        term = vocab.CONDITIONS.get(name)
        if term is None:
            raise self.fail(
                where,
                f"unknown condition {name!r}; allowed: {', '.join(sorted(vocab.CONDITIONS))} "
                f"(each may be prefixed with {vocab.NEGATION_PREFIX!r})",
            )
        if term.arg == vocab.ARG_NONE:
            if sep:
                raise self.fail(where, f"condition {name!r} takes no argument (got {text!r})")
            return Condition(name, None, negated)
        if not sep or not raw_arg:
            raise self.fail(
                where, f"condition {name!r} needs an argument: {name}:{term.arg.upper()}"
            )
        if term.arg == vocab.ARG_NUMBER:
            try:
                value = float(raw_arg)
            except ValueError:
                value = -1.0
            if not _finite_at_least(value, 0.0):
                raise self.fail(
                    where, f"condition {name!r}: argument {raw_arg!r} is not a number >= 0"
                )
            return Condition(name, value, negated)
        allowed = self.conditions if term.arg == vocab.ARG_CONDITION else self.actions
        if raw_arg not in allowed:
            raise self.fail(
                where,
                f"condition {name!r}: unknown {term.arg} {raw_arg!r}; allowed: {', '.join(allowed)}",
            )
        return Condition(name, raw_arg, negated)

    def conditions_list(self, value: Any, where: str) -> tuple[Condition, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list of conditions, got {value!r}")
        return tuple(self.condition(c, f"{where}[{k}]") for k, c in enumerate(value))

    # -------------------------------------------------------------- actions and targets
    def action(self, text: Any, where: str) -> ActionRef:
        allowed = self.allowed_actions()
        if not isinstance(text, str) or text not in allowed:
            raise self.fail(where, f"unknown action {text!r}; allowed: {', '.join(allowed)}")
        kind, _, destination = text.partition(":")
        return ActionRef(kind, destination or None)

    def allowed_actions(self) -> list[str]:
        names = [a for a in self.actions if a not in vocab.DESTINATION_ACTIONS]
        for kind in vocab.DESTINATION_ACTIONS:
            if kind in self.actions:
                names += [f"{kind}:{d}" for d in vocab.DESTINATION_KINDS]
        return names

    def selector(self, name: Any, action: ActionRef | None, where: str) -> str:
        if not isinstance(name, str) or name not in vocab.SELECTORS:
            raise self.fail(
                where, f"unknown target selector {name!r}; allowed: {', '.join(vocab.SELECTORS)}"
            )
        if action is not None and not target_side(action):
            raise self.fail(where, f"action {str(action)!r} takes no target (got target {name!r})")
        return name

    # -------------------------------------------------------------- sections
    def priorities(self, value: Any, where: str) -> tuple[PriorityRule, ...]:
        if not isinstance(value, list) or not value:
            raise self.fail(where, "expected a non-empty list of [[...priorities]] rules")
        seen: set[str] = set()
        rules = []
        for k, entry in enumerate(value):
            at = f"{where}[{k}]"
            if not isinstance(entry, Mapping):
                raise self.fail(at, f"expected a table with id, when, do, got {entry!r}")
            rule_id = entry.get("id")
            if not isinstance(rule_id, str) or not _ID_PATTERN.match(rule_id):
                raise self.fail(at, f"rule id {rule_id!r} must match {_ID_PATTERN.pattern}")
            at = f"{at} (rule {rule_id!r})"
            if rule_id in seen:
                raise self.fail(at, f"duplicate rule id {rule_id!r}")
            seen.add(rule_id)
            self.no_unknown(entry, {"id", "when", "do", "target", "note"}, at)
            if "do" not in entry:
                raise self.fail(at, "missing 'do' (the action)")
            action = self.action(entry["do"], f"{at}.do")
            target = entry.get("target")
            if target is not None:
                target = self.selector(target, action, f"{at}.target")
            note = entry.get("note", "")
            if not isinstance(note, str):
                raise self.fail(f"{at}.note", f"expected text, got {note!r}")
            when = self.conditions_list(entry.get("when", ["always"]), f"{at}.when")
            rules.append(PriorityRule(rule_id, when, action, target, note))
        return tuple(rules)

    def dice(self, value: Any, where: str) -> tuple[DiceRule, ...]:
        if not isinstance(value, list) or not value:
            raise self.fail(where, "expected a non-empty list of {when, dice|policy} rules")
        out = []
        for k, entry in enumerate(value):
            at = f"{where}[{k}]"
            if not isinstance(entry, Mapping):
                raise self.fail(at, f"expected a table, got {entry!r}")
            self.no_unknown(entry, {"when", "dice", "policy", "turnover_cost"}, at)
            when = self.conditions_list(entry.get("when", ["always"]), f"{at}.when")
            dice, policy = entry.get("dice"), entry.get("policy")
            if (dice is None) == (policy is None):
                raise self.fail(at, "give exactly one of 'dice' (a number) or 'policy' (a name)")
            if dice is not None and (
                isinstance(dice, bool)
                or not isinstance(dice, int)
                or not 1 <= dice <= self.max_dice
            ):
                raise self.fail(
                    f"{at}.dice", f"{dice!r} is not a number of dice 1..{self.max_dice}"
                )
            if policy is not None and policy not in vocab.DICE_POLICIES:
                raise self.fail(
                    f"{at}.policy",
                    f"unknown dice policy {policy!r}; allowed: {', '.join(vocab.DICE_POLICIES)}",
                )
            cost = entry.get("turnover_cost", 0.0)
            if not _finite_at_least(cost, 0.0):
                raise self.fail(f"{at}.turnover_cost", f"{cost!r} is not a finite number >= 0")
            out.append(DiceRule(when, dice, policy, float(cost)))
        last = out[-1].when
        if len(last) != 1 or last[0] != Condition("always"):
            raise self.fail(where, 'the last dice rule must have when = ["always"]')
        return tuple(out)

    def spend(self, value: Any, where: str) -> tuple[SpendRule, ...]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list of spend rules, got {value!r}")
        out = []
        seen: set[str] = set()
        for k, entry in enumerate(value):
            at = f"{where}[{k}]"
            if not isinstance(entry, Mapping):
                raise self.fail(at, f"expected a table, got {entry!r}")
            rule_id = entry.get("id")
            if not isinstance(rule_id, str) or not _ID_PATTERN.match(rule_id):
                raise self.fail(at, f"spend rule id {rule_id!r} must match {_ID_PATTERN.pattern}")
            at = f"{at} (rule {rule_id!r})"
            if rule_id in seen:
                raise self.fail(at, f"duplicate spend rule id {rule_id!r}")
            seen.add(rule_id)
            self.no_unknown(
                entry,
                {
                    "id",
                    "option",
                    "on",
                    "tests",
                    "min_momentum",
                    "strain_headroom",
                    "allow_overflow",
                },
                at,
            )
            option = entry.get("option")
            if option not in vocab.SPEND_OPTIONS:
                raise self.fail(
                    f"{at}.option",
                    f"unknown spend option {option!r}; allowed: {', '.join(vocab.SPEND_OPTIONS)}",
                )
            on = self.names(entry.get("on", list(vocab.SPEND_BANDS)), vocab.SPEND_BANDS, f"{at}.on")
            tests = self.names(entry.get("tests", ["any"]), vocab.TEST_KINDS, f"{at}.tests")
            numbers = {}
            for key in ("min_momentum", "strain_headroom"):
                number = entry.get(key, 0)
                if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                    raise self.fail(f"{at}.{key}", f"{number!r} is not a whole number >= 0")
                numbers[key] = number
            overflow = entry.get("allow_overflow", False)
            if not isinstance(overflow, bool):
                raise self.fail(f"{at}.allow_overflow", f"{overflow!r} is not true or false")
            out.append(SpendRule(rule_id, option, on, tests, allow_overflow=overflow, **numbers))
        return tuple(out)

    def bonus(self, value: Any, where: str) -> BonusPolicy:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"expected a table {{min_momentum, when}}, got {value!r}")
        self.no_unknown(value, {"min_momentum", "when"}, where)
        number = value.get("min_momentum", 0)
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise self.fail(f"{where}.min_momentum", f"{number!r} is not a whole number >= 0")
        return BonusPolicy(
            number, self.conditions_list(value.get("when", ["always"]), f"{where}.when")
        )

    def targets(self, value: Any, where: str) -> dict[str, str]:
        if not isinstance(value, Mapping) or "default" not in value:
            raise self.fail(where, "expected a table of action -> selector with a 'default' entry")
        out = {}
        targeted = [a for a in self.allowed_actions() if target_side(ActionRef(*_split(a)))]
        for key, name in value.items():
            if key != "default" and key not in targeted:
                raise self.fail(
                    f"{where}.{key}",
                    f"{key!r} is not an action that takes a target; allowed: default, {', '.join(targeted)}",
                )
            out[key] = self.selector(name, None, f"{where}.{key}")
        return out

    def fallback(self, value: Any, where: str) -> tuple[FallbackEntry, ...]:
        faces = [str(face) for face in range(1, self.faces + 1)]
        if not isinstance(value, Mapping) or sorted(value, key=str) != sorted(faces):
            got = sorted(value) if isinstance(value, Mapping) else value
            raise self.fail(
                where,
                f"the d{self.faces} table needs exactly the faces {', '.join(faces)}; got {got!r}",
            )
        out = []
        for face in faces:
            entry = value[face]
            at = f"{where}.{face}"
            if isinstance(entry, str):
                entry = {"do": entry}
            if not isinstance(entry, Mapping):
                raise self.fail(at, f"expected an action name or {{do, target}}, got {entry!r}")
            self.no_unknown(entry, {"do", "target"}, at)
            action = self.action(entry.get("do"), f"{at}.do")
            target = entry.get("target")
            if target is not None:
                target = self.selector(target, action, f"{at}.target")
            out.append(FallbackEntry(int(face), action, target))
        return tuple(out)

    def order(self, value: Any, where: str) -> tuple[str, ...]:
        return self.names(value, tuple(vocab.ORDER_KEYS), where, empty_ok=False)

    # -------------------------------------------------------------- helpers
    def names(
        self, value: Any, allowed: Sequence[str], where: str, *, empty_ok: bool = False
    ) -> tuple[str, ...]:
        if not isinstance(value, list) or (not value and not empty_ok):
            raise self.fail(where, f"expected a list of names from: {', '.join(allowed)}")
        for name in value:
            if name not in allowed:
                raise self.fail(where, f"unknown name {name!r}; allowed: {', '.join(allowed)}")
        return tuple(value)

    def no_unknown(self, entry: Mapping[str, Any], known: set[str], where: str) -> None:
        unknown = sorted(set(entry) - known)
        if unknown:
            raise self.fail(
                where, f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(known))}"
            )

    def profile(self, name: str, raw: Any) -> OracleProfile:
        where = f"profiles.{name}"
        if not isinstance(raw, Mapping):
            raise self.fail(where, f"expected a table, got {raw!r}")
        self.no_unknown(raw, set(_PROFILE_KEYS), where)
        missing = [k for k, required in _PROFILE_KEYS.items() if required and k not in raw]
        if missing:
            raise self.fail(where, f"missing key(s): {', '.join(missing)}")
        description = raw["description"]
        if not isinstance(description, str) or not description.strip():
            raise self.fail(f"{where}.description", "expected a non-empty text")
        title = raw.get("title", name.replace("_", " ").title())
        if not isinstance(title, str):
            raise self.fail(f"{where}.title", f"expected text, got {title!r}")
        return OracleProfile(
            name=name,
            title=title,
            description=" ".join(description.split()),
            activation_order=self.order(raw["activation_order"], f"{where}.activation_order"),
            hold_when=self.conditions_list(raw["hold_when"], f"{where}.hold_when")
            if raw.get("hold_when")
            else (),
            dice=self.dice(raw["dice"], f"{where}.dice"),
            targets=self.targets(raw["targets"], f"{where}.targets"),
            bonus=self.bonus(raw["bonus"], f"{where}.bonus") if "bonus" in raw else None,
            spend=self.spend(raw.get("spend", []), f"{where}.spend"),
            priorities=self.priorities(raw["priorities"], f"{where}.priorities"),
            fallback=self.fallback(raw["fallback_d6"], f"{where}.fallback_d6"),
        )


def _split(text: str) -> tuple[str, str | None]:
    kind, _, destination = text.partition(":")
    return kind, destination or None


def target_side(action: ActionRef) -> str:
    """``"enemy"``, ``"friend"`` or ``""``: whose models the action's target selector picks."""
    if action.destination is not None:
        return vocab.DESTINATION_TARGET_SIDE.get(action.destination, "")
    words = vocab.ACTION_WORDS.get(action.kind)
    return words.target_side if words else ""


# ----------------------------------------------------------------------------- loading
@dataclass(frozen=True)
class OracleData:
    """A loaded data file: the profiles by name and the default profile's name."""

    source: str
    default_profile: str
    profiles: Mapping[str, OracleProfile]


def parse_profiles(
    raw: Mapping[str, Any], source: str, rules: RulesConfig | None = None
) -> OracleData:
    """Validate the parsed TOML of a profiles file.

    Args:
        raw: The parsed TOML document.
        source: The file name used in error messages.
        rules: Rules data whose action and Condition names are allowed (default: bundled).

    Raises:
        OracleDataError: Anything in the document is invalid.
    """
    checker = _Checker(source, rules or bundled_rules())
    unknown = sorted(set(raw) - {"default_profile", "profiles"})
    if unknown:
        raise checker.fail(
            "top level", f"unknown key(s) {', '.join(unknown)}; allowed: default_profile, profiles"
        )
    tables = raw.get("profiles")
    if not isinstance(tables, Mapping) or not tables:
        raise checker.fail("profiles", "expected at least one [profiles.NAME] table")
    profiles = {}
    for name, table in tables.items():
        if not _ID_PATTERN.match(name):
            raise checker.fail(f"profiles.{name}", f"profile name must match {_ID_PATTERN.pattern}")
        profiles[name] = checker.profile(name, table)
    default = raw.get("default_profile", next(iter(profiles)))
    if default not in profiles:
        raise checker.fail(
            "default_profile", f"{default!r} is not a profile; allowed: {', '.join(profiles)}"
        )
    return OracleData(source=source, default_profile=default, profiles=profiles)


def load_profiles(path: str | Path | None = None) -> OracleData:
    """Load and validate a profiles file (default: the bundled ``data/profiles.toml``).

    The bundled file is read once per process; other paths are read on every call.

    Raises:
        OracleDataError: The file is missing, not TOML, or invalid.
    """
    if path is None:
        return _bundled()
    return _load(Path(path))


@functools.lru_cache(maxsize=1)
def _bundled() -> OracleData:
    return _load(DATA_FILE)


def _load(path: Path) -> OracleData:
    raw = read_toml(path, what="Oracle profiles file", error=OracleDataError)
    return parse_profiles(raw, str(path))


def profile_names(path: str | Path | None = None) -> list[str]:
    """The profile names of a data file (default: the bundled one), in file order."""
    return list(load_profiles(path).profiles)


__all__ = [
    "DATA_FILE",
    "ENGINE_RULE_IDS",
    "ActionRef",
    "BonusPolicy",
    "Condition",
    "DiceRule",
    "FallbackEntry",
    "OracleData",
    "OracleDataError",
    "OracleProfile",
    "PriorityRule",
    "SpendRule",
    "load_profiles",
    "parse_profiles",
    "profile_names",
    "target_side",
]
