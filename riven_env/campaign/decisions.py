"""The between-mission decisions: what each is, which options it has, what a choice does.

Three kinds, each decided by the campaign policy (:mod:`riven_env.campaign.policy`):

* ``advance``: per living model (joining order), up to ``advances.per_mission`` times:
  ``save`` or an affordable advance (``attribute:NAME``, ``mettle``, ``talent:NAME``);
* ``recruit``: up to ``recruitment.max_per_step`` times: ``none`` or ``recruit:PROFILE``
  that the warband can pay for and has room for;
* ``rest``: per fit model with a lasting injury: ``play`` or ``rest`` (sit the next mission
  out; at its end a rest test may heal the latest injury).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from riven_env.campaign.rules import ATTRIBUTES, CampaignRules
from riven_env.campaign.state import Warband, WarbandModel, from_profile

SAVE = "save"
NO_RECRUIT = "none"
PLAY = "play"
REST = "rest"


def advance_cost(option: str, rules: CampaignRules) -> int:
    """The experience an advance costs."""
    if option.startswith("attribute:"):
        return rules.attribute_cost
    if option == "mettle":
        return rules.mettle_cost
    return rules.talent_cost


def advance_options(model: WarbandModel, rules: CampaignRules) -> list[str]:
    """``save`` and every advance ``model`` can afford and still take."""
    options = [SAVE]
    if model.xp >= rules.attribute_cost:
        options += [
            f"attribute:{a}" for a in ATTRIBUTES if model.attribute(a) < rules.attribute_max
        ]
    if model.xp >= rules.mettle_cost and model.mettle > rules.mettle_best:
        options.append("mettle")
    if model.xp >= rules.talent_cost:
        for name, talent in rules.talents.items():
            if name in model.talents:
                continue
            if talent.keyword and talent.keyword in model.keywords:
                continue
            if talent.melee and talent.melee == model.melee:
                continue
            if talent.ranged and talent.ranged == model.ranged:
                continue
            if talent.wounds and model.wounds + talent.wounds > (talent.max or 0):
                continue
            if talent.move and model.move + talent.move > (talent.max or 0):
                continue
            options.append(f"talent:{name}")
    return options


def apply_advance(model: WarbandModel, option: str, rules: CampaignRules) -> WarbandModel:
    """``model`` after taking ``option`` (its cost paid from its experience)."""
    if option == SAVE:
        return model
    paid = replace(model, xp=model.xp - advance_cost(option, rules))
    if option.startswith("attribute:"):
        name = option.split(":", 1)[1]
        return replace(paid, **{name: paid.attribute(name) + 1})
    if option == "mettle":
        return replace(paid, mettle=paid.mettle - 1)
    talent = rules.talents[option.split(":", 1)[1]]
    changes: dict[str, Any] = {"talents": (*paid.talents, talent.name)}
    if talent.keyword:
        changes["keywords"] = tuple(sorted({*paid.keywords, talent.keyword}))
    if talent.melee:
        changes["melee"] = talent.melee
    if talent.ranged:
        changes["ranged"] = talent.ranged
    if talent.wounds:
        changes["wounds"] = paid.wounds + talent.wounds
    if talent.move:
        changes["move"] = paid.move + talent.move
    return replace(paid, **changes)


def recruit_options(warband: Warband, rules: CampaignRules) -> list[str]:
    """``none`` and every profile the warband may recruit, can pay for and has room for."""
    options = [NO_RECRUIT]
    if len(warband.living()) >= warband.max_models:
        return options
    return options + [
        f"recruit:{p}" for p in warband.recruits if rules.points.get(p, 10**9) <= warband.points
    ]


def recruit_id(warband: Warband, base: str) -> str:
    """A new model id: ``BASE-N``, the first N not taken."""
    taken = {m.id for m in warband.models}
    n = 1
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def apply_recruit(
    warband: Warband, option: str, rules: CampaignRules, library: Any
) -> tuple[Warband, WarbandModel | None]:
    """The warband after ``option`` (and the recruit, or None for ``none``)."""
    if option == NO_RECRUIT:
        return warband, None
    base = option.split(":", 1)[1]
    model = from_profile(recruit_id(warband, base), base, library.profiles[base])
    paid = replace(warband, points=warband.points - rules.points[base])
    return paid.with_model(model), model


def rest_options(model: WarbandModel) -> list[str]:
    """``play`` and, for a fit model with a lasting injury, ``rest``."""
    return [PLAY, REST] if (model.status == "fit" and model.injuries) else [PLAY]


__all__ = [
    "NO_RECRUIT",
    "PLAY",
    "REST",
    "SAVE",
    "advance_cost",
    "advance_options",
    "apply_advance",
    "apply_recruit",
    "recruit_id",
    "recruit_options",
    "rest_options",
]
