"""Human-readable sentences for game events (schema: ``docs/event-log.md``).

The replay shows one sentence per event; the same sentences serve any text view of a game
log (a console narration, a report). The functions are tolerant: an event with missing or
unexpected fields still gets a sentence, because a replay must never fail on a log written
by a newer game version.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["LogContext", "decision_words", "describe_event", "describe_events", "side_names"]

# Verb used for each kind of `move` event.
_MOVE_VERBS: dict[str, str] = {
    "move": "moves",
    "charge": "charges",
    "disengage": "disengages",
    "take_cover": "takes cover, moving",
    "recoil": "recoils",
    "push": "is pushed",
    "flee": "flees",
}

_OBJECTIVE_VERBS: dict[str, str] = {
    "controlled": "controls",
    "looted": "loots",
    "extracted": "extracts",
}


# How a decision reads: "{model} <verb>[ {target}][ {destination}]" by decision kind
# (riven_env/game/decisions.py). {target} is the target model's id.
_DECISION_VERBS: dict[str, str] = {
    "activate": "activates",
    "bonus": "takes a Momentum bonus activation",
    "move": "moves",
    "charge": "charges {target}",
    "melee": "fights {target}",
    "shoot": "shoots at {target}",
    "aim": "aims",
    "disengage": "disengages",
    "focus": "focuses (gains Momentum)",
    "rest": "rests (sheds Strain)",
    "stabilise": "stabilises {target}",
    "rally": "rallies {target}",
    "interact": "works",
    "take_cover": "takes cover",
    "finish": "finishes off {target}",
    "end": "ends its activation",
}

# Where a candidate destination goes (riven_env/table/destinations.py), by its kind;
# {ref} is the model (or objective) the destination refers to.
_DESTINATION_WORDS: dict[str, str] = {
    "toward_enemy": "toward {ref}",
    "toward_objective": "toward the {ref}",
    "cover_from_enemy": "into cover from {ref}",
    "away": "away from {ref}",
    "toward_friend": "toward {ref}",
    "objective": "the {ref}",
}

# Spend options of a 2d6 test (riven_env/rules/spends).
_SPEND_WORDS: dict[str, str] = {
    "reroll:0": "spends Momentum to reroll the first die",
    "reroll:1": "spends Momentum to reroll the second die",
    "boost": "spends Momentum to raise the result one band",
    "strain": "spends Strain to turn the Miss into a Partial",
    "accept": "accepts the roll",
}


class LogContext:
    """What turns the indices in a log's decision codes into names.

    Decisions are logged as codes (``move m5 @toward_objective:0``): ``m5`` is the sixth
    model of ``game_start.models`` and objective ``0`` the first of ``game_start.objectives``.

    Attributes:
        names: ``{side id: display name}``.
        models: Model ids in ``game_start`` order.
        objectives: Objective names in ``game_start`` order.
    """

    def __init__(self, events: Sequence[Mapping[str, Any]] = ()):
        self.names: dict[str, str] = side_names(events)
        start = next((e for e in events if e.get("type") == "game_start"), {})
        self.models = [
            str(m.get("id")) for m in start.get("models") or [] if isinstance(m, Mapping)
        ]
        self.objectives = [
            str(o.get("name")) for o in start.get("objectives") or [] if isinstance(o, Mapping)
        ]

    def model(self, index: str | int | None) -> str:
        """The id of model ``index`` (``"m5"`` or ``5``); the code itself when unknown."""
        text = str(index)
        number = text[1:] if text.startswith("m") else text
        if number.isdigit() and int(number) < len(self.models):
            return self.models[int(number)]
        return text

    def objective(self, index: str | int | None) -> str:
        """The name of objective ``index``; ``objective N`` when unknown."""
        text = str(index)
        if text.isdigit() and int(text) < len(self.objectives):
            return self.objectives[int(text)]
        return f"objective {text}"

    def destination(self, label: Any) -> str:
        """Words for a destination label such as ``toward_objective:0`` (``toward the well``)."""
        kind, _, ref = str(label).partition(":")
        pattern = _DESTINATION_WORDS.get(kind)
        if pattern is None:
            return f"to {str(label).replace('_', ' ')}"
        objective = kind in ("toward_objective", "objective")
        return pattern.format(ref=self.objective(ref) if objective else self.model(ref))


def decision_words(code: Any, context: LogContext) -> str:
    """A decision code of the log (``Decision.__str__``) in words.

    ``move m5 @toward_objective:0`` reads ``blue-4 moves toward the well``; ``activate m0 3d``
    ``blue-captain activates on 3 dice``; ``spend reroll:1`` ``spends Momentum to reroll the
    second die``. A code this does not know keeps its kind in words and its fields as names.
    """
    tokens = str(code).split()
    if not tokens:
        return str(code)
    kind, model, target, destination, dice, option = tokens[0], None, None, None, None, None
    for token in tokens[1:]:
        if token.startswith("->"):
            target = context.model(token[2:])
        elif token.startswith("@"):
            destination = context.destination(token[1:])
        elif token.startswith("m") and token[1:].isdigit():
            model = context.model(token)
        elif token.endswith("d") and token[:-1].isdigit():
            dice = int(token[:-1])
        elif option is None and kind == "spend":
            option = token
        else:  # not a code of this log's format: it may already be words
            return str(code).replace("_", " ")
    if kind == "pass":
        return "passes the turn"
    if kind == "spend":
        return _SPEND_WORDS.get(str(option), f"spends ({option})")
    verb = _DECISION_VERBS.get(kind, kind.replace("_", " ") + (" {target}" if target else ""))
    text = verb.format(target=target or "?")
    if kind == "activate" and dice is not None:
        text += f" on {dice} {'die' if dice == 1 else 'dice'}"
    if kind == "rally" and target == model:
        text = "rallies itself"
    if destination is not None:
        text += f" {destination}"
    return f"{model} {text}" if model is not None else text


def side_names(events: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Return ``{side id: display name}`` from the log's ``game_start`` event (empty if none)."""
    for event in events:
        if event.get("type") == "game_start":
            sides = event.get("sides") or {}
            return {
                str(side): str((info or {}).get("name") or side)
                for side, info in sides.items()
                if isinstance(info, Mapping) or info is None
            }
    return {}


def _num(value: Any) -> str:
    """Format a number compactly: integers without a decimal point, floats to 1 decimal."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}"


def _signed(value: Any) -> str:
    """Format a modifier with its sign, e.g. ``+2`` or ``-1``."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{'+' if value >= 0 else '-'}{_num(abs(value))}"
    return f"+{value}"


def _point(value: Any) -> str:
    """Format an ``[x, y]`` position as ``(x, y)`` in inches."""
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        return f"({_num(value[0])}, {_num(value[1])})"
    return str(value)


def _modifier_terms(modifiers: Any) -> tuple[list[str], float]:
    """Return the printed terms of a modifier list and their sum."""
    terms: list[str] = []
    total = 0.0
    for modifier in modifiers or []:
        if not isinstance(modifier, Mapping):
            continue
        value = modifier.get("value", 0)
        if isinstance(value, int | float) and not isinstance(value, bool):
            total += value
        terms.append(f"{_signed(value)} {modifier.get('source', '?')}")
    return terms, total


def _arithmetic(dice: Any, total: Any, modifiers: Any = None) -> str:
    """Spell out a 2d6 roll: dice, the attribute (the rest of the total), modifiers, total.

    The attribute is not a field of `shot` or `melee` events, so it is recovered as
    ``total - dice - modifiers``; shown as a plain ``+n`` it reads like the rules' "2d6 + Agility".
    """
    dice_list = [d for d in (dice or []) if isinstance(d, int | float)]
    terms, modifier_sum = _modifier_terms(modifiers)
    text = "+".join(_num(d) for d in dice_list) or "?"
    if isinstance(total, int | float) and not isinstance(total, bool):
        attribute = total - sum(dice_list) - modifier_sum
        if attribute:
            text += _signed(attribute)
        if terms:
            text += " " + " ".join(f"({term})" for term in terms)
        return f"{text} = {_num(total)}"
    return text


def _spends(event: Mapping[str, Any]) -> str:
    """Describe Momentum or Strain spends that changed a rolled result, if any."""
    spends = event.get("spends")
    if not spends:
        return ""
    spent = ", ".join(str(s) for s in spends)
    rolled = event.get("rolled_result")
    return f" (rolled {rolled}; spent {spent})" if rolled else f" (spent {spent})"


def _side(event_side: Any, names: Mapping[str, str]) -> str:
    return names.get(str(event_side), str(event_side)) if event_side is not None else "nobody"


def _game_start(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    title = e.get("title") or e.get("scenario") or "RIVEN game"
    sides = " vs ".join(names.values()) or "?"
    first = _side(e.get("first_side"), names)
    models = len(e.get("models") or [])
    return (
        f"{title}: {sides}, {models} models, {_num(e.get('rounds', '?'))} rounds; "
        f"{first} goes first (seed {e.get('seed', '?')})."
    )


def _activation(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    if e.get("bonus"):  # no roll: one action bought with Momentum
        return f"{e.get('model')} takes a Momentum bonus action (1 action, no roll)."
    dice = e.get("dice") or []
    successes = e.get("successes", "?")
    actions = e.get("actions", 0)
    text = (
        f"{e.get('model')} activates on {len(dice)} {'die' if len(dice) == 1 else 'dice'} "
        f"vs Mettle {e.get('mettle', '?')}+: {', '.join(_num(d) for d in dice)} -> "
        f"{successes} {'success' if successes == 1 else 'successes'}, "
        f"{actions} {'action' if actions == 1 else 'actions'}"
    )
    if e.get("turn_passes"):
        text += "; the turn passes"
    return text + "."


def _context(names: Mapping[str, str]) -> LogContext:
    return names.context if isinstance(names, _Names) else LogContext()


def _action(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    action = str(e.get("action", "?"))
    verb = _DECISION_VERBS.get(action, action.replace("_", " ") + " {target}")
    text = f"{e.get('model')} {verb.format(target=e.get('target') or '?')}"
    if action in _DECISION_VERBS and "{target}" not in _DECISION_VERBS[action] and e.get("target"):
        text += f" {e['target']}"
    if action == "rally" and e.get("target") == e.get("model"):
        text = f"{e.get('model')} rallies itself"
    if e.get("destination"):
        text += f" {_context(names).destination(e['destination'])}"
    left = e.get("actions_left")
    if left is not None:
        text += f" ({left} {'action' if left == 1 else 'actions'} left)"
    return text + "."


def _move(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    verb = _MOVE_VERBS.get(str(e.get("kind")), f"moves ({e.get('kind')})")
    length = e.get("path_length")
    distance = f' {_num(length)}"' if isinstance(length, int | float) else ""
    return (
        f"{e.get('model')} {verb}{distance} from {_point(e.get('from'))} to {_point(e.get('to'))}."
    )


def _pool_words(e: Mapping[str, Any]) -> str:
    """A d10 pool of another system (The Riddle of Steel): dice, TN, successes, fumble."""
    faces = e.get("faces") or [[d] for d in e.get("dice") or []]
    dice = ", ".join("+".join(_num(f) for f in die) for die in faces) or "no dice"
    successes = e.get("successes", 0)
    text = f"{_num(e.get('pool', len(faces)))} d10 vs TN {_num(e.get('tn', '?'))}: {dice}"
    text += f" = {_num(successes)} success{'' if successes == 1 else 'es'}"
    if e.get("fumble"):
        text += ", a fumble"
    return text


def _test(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    if e.get("system") == "riddle-of-steel":
        kind = str(e.get("kind", "test")).replace("_", " ")
        return (
            f"{e.get('model')} tests {e.get('ros_attribute', e.get('attribute', '?'))} "
            f"({kind}; The Riddle of Steel): {_pool_words(e)} -> {e.get('result', '?')}."
        )
    dice = e.get("dice") or []
    terms, _ = _modifier_terms(e.get("modifiers"))
    text = "+".join(_num(d) for d in dice)
    text += f"{_signed(e.get('attribute_value', 0))}"
    if terms:
        text += " " + " ".join(f"({term})" for term in terms)
    kind = str(e.get("kind", "test")).replace("_", " ")
    return (
        f"{e.get('model')} tests {e.get('attribute', '?')} ({kind}, TN {_num(e.get('tn', '?'))}): "
        f"{text} = {_num(e.get('total', '?'))} -> {e.get('result', '?')}{_spends(e)}."
    )


def _melee(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    attacker, defender = e.get("attacker"), e.get("defender")
    left = _arithmetic(e.get("attacker_dice"), e.get("attacker_total"), e.get("attacker_modifiers"))
    right = _arithmetic(
        e.get("defender_dice"), e.get("defender_total"), e.get("defender_modifiers")
    )
    outcome = e.get("outcome", "?")
    text = f"{attacker} fights {defender}: {left} vs {right} -> {outcome}"
    if e.get("winner"):
        text += f", {e['winner']} wins"
    return text + "."


def _shot(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    cover = e.get("cover", "none")
    cover_text = "no cover" if cover == "none" else f"{cover} cover"
    if e.get("system") == "riddle-of-steel":
        return (
            f"{e.get('shooter')} shoots {e.get('target')} ({cover_text}; The Riddle of Steel): "
            f"{_pool_words(e)} -> {e.get('result', '?')}."
        )
    roll = _arithmetic(e.get("dice"), e.get("total"), e.get("modifiers"))
    return (
        f"{e.get('shooter')} shoots {e.get('target')} ({cover_text}, TN {_num(e.get('tn', '?'))}): "
        f"{roll} -> {e.get('result', '?')}{_spends(e)}."
    )


def _wound(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    amount = e.get("amount", 1)
    text = f"{e.get('model')} takes {_num(amount)} {'wound' if amount == 1 else 'wounds'}"
    text += f" ({_num(e.get('wounds_left', '?'))} left)"
    if e.get("source"):
        text += f" from {e['source']}"
    if e.get("cause"):
        text += f" ({e['cause']})"
    return text + "."


def _out_check(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    verdict = "taken Out" if e.get("out") else "hangs on"
    return (
        f"{e.get('model')} is Down and rolls {_num(e.get('die', '?'))} "
        f"vs Mettle {e.get('mettle', '?')}+: {verdict}."
    )


def _removed(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    reason = e.get("reason")
    if reason == "fled":
        return f"{e.get('model')} flees the table and is removed."
    if reason == "out":
        return f"{e.get('model')} is Out and removed."
    return f"{e.get('model')} is removed ({reason})."


def _morale(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    text = (
        f"{e.get('model')} tests morale ({str(e.get('trigger', '?')).replace('_', ' ')}): "
        f"{_num(e.get('die', '?'))} vs Mettle {e.get('mettle', '?')}+ -> "
    )
    if e.get("passed"):
        return text + "holds."
    text += "fails"
    if e.get("flee_distance") is not None:
        text += f' and flees {_num(e["flee_distance"])}"'
    if e.get("fled_off_table"):
        text += " off the table"
    return text + "."


def _momentum(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    owner = _side(e.get("owner"), names)
    return (
        f"{owner} Momentum {_signed(e.get('delta', 0))} -> {_num(e.get('value', '?'))} "
        f"({str(e.get('reason', '?')).replace('_', ' ')})."
    )


def _strain(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    return (
        f"{e.get('model')} Strain {_signed(e.get('delta', 0))} -> {_num(e.get('value', '?'))} "
        f"({str(e.get('reason', '?')).replace('_', ' ')})."
    )


def _condition(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    verb = "gains" if e.get("gained") else "loses"
    text = f"{e.get('model')} {verb} {str(e.get('condition', '?')).capitalize()}"
    if e.get("reason"):
        text += f" ({str(e['reason']).replace('_', ' ')})"
    return text + "."


def _complication(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    text = (
        f"Complication for {e.get('model')} (roll {_num(e.get('roll', '?'))}): {e.get('name', '?')}"
    )
    detail = e.get("text") or e.get("effect")
    return f"{text}: {detail}." if detail else f"{text}."


def _objective(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    verb = _OBJECTIVE_VERBS.get(str(e.get("event")), str(e.get("event")))
    return f"{_side(e.get('side'), names)} {verb} {e.get('objective')}."


def _score(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    return (
        f"{_side(e.get('side'), names)} scores {_num(e.get('points', '?'))} "
        f"({str(e.get('reason', '?')).replace('_', ' ')}); total {_num(e.get('total', '?'))}."
    )


def _game_end(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    if e.get("draw") or e.get("winner") is None:
        verdict = "a draw"
    else:
        verdict = f"{_side(e.get('winner'), names)} wins"
    points = e.get("points") or {}
    scores = ", ".join(f"{_side(side, names)} {_num(n)}" for side, n in points.items())
    text = f"Game over after {_num(e.get('rounds', '?'))} rounds: {verdict}"
    if e.get("reason"):
        text += f" ({str(e['reason']).replace('_', ' ')})"
    return text + (f". Points: {scores}." if scores else ".")


# ----------------------------------------------------------------------------- other systems
def _who_rolls(e: Mapping[str, Any]) -> str:
    """``"blue-2 (melee vs red-1)"``: who rolled what, from a test, shot or melee event."""
    if e.get("type") == "melee":
        return f"{e.get('attacker')} attacks {e.get('defender')}"
    if e.get("type") == "shot":
        cover = e.get("cover", "none")
        return f"{e.get('shooter')} shoots {e.get('target')} ({'no' if cover == 'none' else cover} cover)"
    kind = str(e.get("kind", "test")).replace("_", " ")
    return f"{e.get('model')} tests {e.get('attribute', '?')} ({kind})"


def _invictus(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    d = e["detail"]
    dice = e.get("attacker_dice") if e.get("type") == "melee" else e.get("dice")
    how = []
    if d.get("favourable"):
        how.append("Favourable" + ("" if d.get("favour_used") else ", raise unused"))
    if d.get("unfavourable"):
        how.append("Unfavourable: highest die -1")
    if d.get("critical_health"):
        how.append("Critical Health -1d")
    text = f"{_who_rolls(e)}: {_num(d.get('pool', '?'))}d6"
    text += f" ({'; '.join(how)})" if how else ""
    rolled = " ".join(_num(x) for x in d.get("rolled_dice", []))
    final = " ".join(_num(x) for x in dice or [])
    text += f" rolled {rolled}" + (f", read as {final}" if final != rolled else "")
    band = str(d.get("band", "?")).capitalize()
    text += f" -> {band}"
    if d.get("luck_spent"):
        text += f" ({_num(d['luck_spent'])} Luck spent)"
    spends = [s for s in e.get("spends", d.get("spends", [])) or []]
    if spends:
        text += f" [{', '.join(str(s) for s in spends)}]"
    danger = d.get("danger_dice") or []
    if danger:
        factors = ", ".join(str(f).replace("_", " ") for f in d.get("danger_factors", []))
        text += f"; Danger {' '.join(_num(x) for x in danger)} ({factors})"
        move = d.get("move")
        text += f": {move} move" if move else ": no consequence"
    if e.get("type") == "melee":
        text += f"; {e.get('outcome', '?')}"
    else:
        text += f" (RIVEN {e.get('result', '?')})"
    return text + "."


def _new_world(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    d = e["detail"]
    if e.get("type") == "melee":
        left = "+".join(_num(x) for x in e.get("attacker_dice") or [])
        right = "+".join(_num(x) for x in e.get("defender_dice") or [])
        a_terms, _ = _modifier_terms(e.get("attacker_modifiers"))
        d_terms, _ = _modifier_terms(e.get("defender_modifiers"))
        text = (
            f"{_who_rolls(e)}: 2d6 {left} +{_num(d.get('bonus', 0))}"
            + "".join(f" ({t})" for t in a_terms)
            + (f" (+{_num(d['luck_spent'])} Luck)" if d.get("luck_spent") else "")
            + f" = {_num(e.get('attacker_total', '?'))} vs {right} +{_num(d.get('defender_bonus', 0))}"
            + "".join(f" ({t})" for t in d_terms)
            + (f" (+{_num(d['defender_luck_spent'])} Luck)" if d.get("defender_luck_spent") else "")
            + f" = {_num(e.get('defender_total', '?'))}"
        )
        if d.get("snake_eyes"):
            text += " (snake eyes: the attack fails)"
        elif d.get("defender_snake_eyes"):
            text += " (the defender's snake eyes)"
        return text + f" -> {e.get('outcome', '?')} (margin {_num(d.get('margin', 0))})."
    dice = "+".join(_num(x) for x in e.get("dice") or [])
    extras = ""
    if d.get("helpers"):
        extras += f" +{_num(d.get('helper_bonus', 0))} ({_num(d['helpers'])} helper(s))"
    if d.get("luck_spent"):
        extras += f" +{_num(d['luck_spent'])} Luck"
    terms, _ = _modifier_terms(e.get("modifiers"))
    mods = (" " + " ".join(f"({t})" for t in terms)) if terms else ""
    verdict = "success" if d.get("success") else "failure"
    if d.get("snake_eyes"):
        verdict = "snake eyes: failure"
    return (
        f"{_who_rolls(e)}: 2d6 {dice} +{_num(d.get('bonus', 0))}{mods}{extras} = "
        f"{_num(e.get('total', '?'))} vs difficulty {_num(d.get('difficulty', '?'))} -> "
        f"{verdict} (RIVEN {e.get('result', '?')})."
    )


NARRATORS: dict[str, Callable[[Mapping[str, Any], Mapping[str, str]], str]] = {
    "invictus": _invictus,
    "new-world": _new_world,
}
"""How a resolution system's rolls read in words, by the ``system`` of an event's ``detail``
(``docs/resolution-systems.md``); a system without an entry reads as RIVEN's."""


def _resource(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    delta = e.get("delta", 0)
    verb = "gains" if isinstance(delta, int | float) and delta > 0 else "spends"
    amount = abs(delta) if isinstance(delta, int | float) else delta
    return (
        f"{e.get('model')} {verb} {_num(amount)} {e.get('resource', '?')} "
        f"(now {_num(e.get('value', '?'))}; {e.get('reason', '')})."
    )


_ROS_MANOEUVRES = {
    "thrust": "thrusts",
    "thrust_full": "thrusts, paying a die for full damage,",
    "swing": "swings",
    "swing_heavy": "swings hard (a die paid for +1 level)",
}
_ROS_DEFENCES = {
    "parry": "parries",
    "block": "blocks",
    "dodge_break": "dodges and breaks off",
    "dodge_stand": "dodges and stands",
    "duck_weave": "ducks and weaves",
    "counter": "counters",
}


def _ros_dice(dice: Any) -> str:
    return ", ".join(_num(d) for d in dice or []) or "no dice"


def _ros_round(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    pools = e.get("pools") or {}
    weapons = e.get("weapons") or {}
    parts = []
    for model, pool in pools.items():
        weapon = weapons.get(model) or {}
        shield = f" and {weapon['shield']} shield" if weapon.get("shield") else ""
        parts.append(
            f"{model} {_num(pool)} dice ({weapon.get('name', '?')}{shield}, "
            f"ATN {_num(weapon.get('atn', '?'))}, DTN {_num(weapon.get('dtn', '?'))})"
        )
    return (
        f"Combat Round (The Riddle of Steel): {e.get('attacker')} attacks {e.get('defender')}; "
        f"Combat Pools: {'; '.join(parts)}."
    )


def _ros_exchange(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    attacker, defender = e.get("attacker"), e.get("defender")
    verb = _ROS_MANOEUVRES.get(str(e.get("manoeuvre")), str(e.get("manoeuvre")))
    zone = f"zone {e.get('zone')} ({e.get('zone_name', '?')})"
    feint = f" after a feint ({e['feint']})" if e.get("feint") else ""
    attack = (
        f"{attacker} {verb} at {zone}{feint} with {_num(len(e.get('attack_dice') or []))} dice "
        f"vs ATN {_num(e.get('atn', '?'))}: {_ros_dice(e.get('attack_dice'))} = "
        f"{_num(e.get('attack_successes', 0))} successes"
        + (", a fumble" if e.get("attack_fumble") else "")
    )
    if e.get("defence") in (None, "none"):
        defence = f"{defender} does not defend"
    else:
        defence = (
            f"{defender} {_ROS_DEFENCES.get(str(e.get('defence')), e.get('defence'))} with "
            f"{_num(len(e.get('defence_dice') or []))} dice vs DTN {_num(e.get('dtn', '?'))}: "
            f"{_ros_dice(e.get('defence_dice'))} = {_num(e.get('defence_successes', 0))} successes"
        )
    text = f"Exchange {_num(e.get('exchange', '?'))}: {attack}; {defence}"
    if e.get("counter_failed"):
        text += " (the failed counter gives the attacker a success)"
    outcome = e.get("outcome")
    if outcome == "hit":
        text += f". Hit by {_num(e.get('margin', '?'))}: damage {_num(e.get('damage', '?'))}"
        if e.get("armour"):
            text += f" (after armour {_num(e['armour'])})"
        level = e.get("wound_level", 0)
        if level:
            text += (
                f", a level-{_num(level)} wound: {e.get('wound_text', '?')} (shock "
                f"{_num(e.get('shock', 0))}, pain {_num(e.get('pain', 0))}"
                + (f", blood loss {_num(e['bl'])}" if e.get("bl") else "")
                + ")"
            )
        else:
            text += ", a scratch"
        knock = e.get("knockdown")
        if knock:
            text += (
                f"; knockdown test {_ros_dice(knock.get('dice'))} vs TN {_num(knock.get('tn'))}: "
                + ("knocked prone" if knock.get("prone") else "stays up")
            )
    elif outcome == "tie":
        text += ". A tie: no damage, the attacker keeps the initiative"
    else:
        text += f". {defender} holds the blow off"
        if e.get("counter_bonus"):
            text += f" and counters for {_num(e['counter_bonus'])} bonus dice"
        if e.get("attacker_pool_lost"):
            text += f"; {attacker} loses {_num(e['attacker_pool_lost'])} dice"
    return text + f". Initiative: {e.get('initiative')}."


def _generic(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    skip = {"type", "seq", "round", "side"}
    fields = ", ".join(f"{k}={v}" for k, v in e.items() if k not in skip)
    return f"{e.get('type', 'event')}: {fields}" if fields else str(e.get("type", "event"))


_DESCRIBERS: dict[str, Callable[[Mapping[str, Any], Mapping[str, str]], str]] = {
    "game_start": _game_start,
    "round_start": lambda e, n: f"Round {e.get('round')} begins.",
    "turn_start": lambda e, n: f"{_side(e.get('side'), n)} to play (round {e.get('round')}).",
    "decision": lambda e, n: (
        f"{_side(e.get('side'), n)}: {decision_words(e.get('decision'), _context(n))}."
    ),
    "oracle_decision": lambda e, n: (
        f"Oracle ({e.get('profile')}) for {e.get('model')}, rule {e.get('rule')}: "
        f"{decision_words(e.get('decision'), _context(n))}"
        + (f" ({e['explanation']})." if e.get("explanation") else ".")
    ),
    "activation": _activation,
    "action": _action,
    "move": _move,
    "test": _test,
    "melee": _melee,
    "shot": _shot,
    "wound": _wound,
    "down": lambda e, n: f"{e.get('model')} is Down.",
    "stabilise": lambda e, n: f"{e.get('by')} stabilises {e.get('model')}.",
    "out_check": _out_check,
    "removed": _removed,
    "morale": _morale,
    "momentum": _momentum,
    "strain": _strain,
    "condition": _condition,
    "complication": _complication,
    "objective": _objective,
    "score": _score,
    "turn_end": lambda e, n: (
        f"End of turn for {_side(e.get('side'), n)} "
        f"({str(e.get('reason', '?')).replace('_', ' ')})."
    ),
    "round_end": lambda e, n: f"Round {e.get('round')} ends.",
    "game_end": _game_end,
    "resource": _resource,
    "ros_round": _ros_round,
    "ros_exchange": _ros_exchange,
    "ros_steal": lambda e, n: (
        f"{e.get('model')} "
        + (
            f"pays {_num(e.get('cost'))} dice to steal the initiative."
            if e.get("stole")
            else "keeps its dice and lets the initiative go."
        )
    ),
    "ros_round_end": lambda e, n: f"The Combat Round ends: {e.get('reason')}.",
    "ros_pain": lambda e, n: (
        f"{e.get('model')} suffers {_num(e.get('pain'))} Pain "
        f"({_num(e.get('total'))} dice off its Combat Pool for the rest of the game)."
    ),
}


class _Names(dict):
    """Side names that also carry the log's :class:`LogContext` to the describers."""

    def __init__(self, context: LogContext):
        super().__init__(context.names)
        self.context = context


def describe_event(
    event: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    *,
    context: LogContext | None = None,
) -> str:
    """Return one human-readable sentence for an event.

    Args:
        event: An event dict as described in ``docs/event-log.md``.
        names: ``{side id: display name}`` (see :func:`side_names`); side ids are shown
            when a side is missing from it.
        context: The log's :class:`LogContext`, which names the models and objectives of
            decision codes (without it they keep their indices); its side names are used
            when ``names`` is not given.

    Returns:
        A sentence such as ``"blue-2 shoots red-1 (soft cover, TN 10): 4+3+3 = 10 -> partial."``.
        Unknown event types get a generic ``"type: key=value, ..."`` line.
    """
    detail = event.get("detail")
    if isinstance(detail, Mapping) and detail.get("system") in NARRATORS:
        return NARRATORS[str(detail["system"])](event, names or {})
    describer = _DESCRIBERS.get(str(event.get("type")), _generic)
    context = context or LogContext()
    if names is not None:
        context.names = dict(names)
    return describer(event, _Names(context))


def describe_events(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return :func:`describe_event` for every event, with the log's own names."""
    context = LogContext(events)
    return [describe_event(event, context=context) for event in events]
