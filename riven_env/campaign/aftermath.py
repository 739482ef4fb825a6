"""The post-battle sequence: experience, the fate of the fallen, lasting injuries, rest.

Pure functions of a warband, a mission's outcome, the campaign rules and the dice; each
returns the new warband and the log records of what happened (``docs/campaigns.md``, "Log").
Rolls come in a fixed order (the warband's models in joining order), so one seeded stream
gives one campaign.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from riven_env.campaign.dice import CampaignDice, ScriptedDice, roll_2d6_test
from riven_env.campaign.outcome import MissionOutcome, ModelOutcome
from riven_env.campaign.rules import CampaignRules, Injury
from riven_env.campaign.state import Warband, WarbandModel
from riven_env.rules import RulesConfig, bundled_rules

Dice = CampaignDice | ScriptedDice
Record = dict[str, Any]


def experience(
    model: WarbandModel, result: ModelOutcome, outcome: MissionOutcome, rules: CampaignRules
) -> tuple[int, dict[str, int]]:
    """Experience ``model`` earned in a mission: (total after the cap, earned per reason)."""
    table = rules.experience
    standing = result.ending != "out"
    earned = {
        "survived": table["survived"] if standing else 0,
        "objective": table["objective"] * len(outcome.objectives) if standing else 0,
        "kill": table["kill"] * result.kills,
        "critical": table["critical"] * result.criticals,
        "won": table["won"] if (standing and outcome.won) else 0,
    }
    earned = {k: v for k, v in earned.items() if v}
    return min(sum(earned.values()), table["per_mission_max"]), earned


def fate_test(
    model: WarbandModel,
    ending: str,
    rules: CampaignRules,
    dice: Dice,
    *,
    solo: bool = False,
    momentum: int = 0,
    core: RulesConfig | None = None,
) -> tuple[str, Record]:
    """The fate of a model that ended a mission Down, stabilised, Out or fled.

    Returns:
        The outcome (``recovered``, ``convalesce``, ``injury``, ``dead``) and the record's
        fields (the test, when one was rolled).
    """
    if ending in ("active", "extracted"):
        return "recovered", {}
    if ending == "fled":
        return rules.fate_fled, {"test": None}
    table = rules.fate_out if ending == "out" else rules.fate_down
    difficulty = rules.solo_out_difficulty if (solo and ending == "out") else table.difficulty
    modifier = table.stabilised_modifier if ending == "stabilised" else 0
    bonus = min(momentum * rules.solo_momentum_to_fate, rules.solo_fate_bonus_max) if solo else 0
    test = roll_2d6_test(
        dice, model.attribute(rules.fate_attribute), difficulty, modifier + bonus, core
    )
    fields: Record = {"test": test.to_dict(), "difficulty": difficulty}
    if bonus:
        fields["momentum_bonus"] = bonus
    return table.outcomes[test.band], fields


def apply_injury(
    model: WarbandModel, injury: Injury, rules: CampaignRules, core: RulesConfig | None = None
) -> tuple[WarbandModel, Record]:
    """``model`` after one lasting injury (or retired, when it cannot take it)."""
    core = core or bundled_rules()
    low, high = int(core.get("profiles.attribute_min")), int(core.get("profiles.attribute_max"))
    worst = int(core.get("profiles.mettle_max"))
    changes: dict[str, Any] = {}
    past_bound = False
    if injury.attribute is not None:
        value = model.attribute(injury.attribute) + injury.delta
        past_bound = not low <= value <= high
        changes[injury.attribute] = min(high, max(low, value))
    elif injury.mettle:
        value = model.mettle + injury.mettle
        past_bound = value > worst or value < int(core.get("profiles.mettle_min"))
        changes["mettle"] = min(worst, max(int(core.get("profiles.mettle_min")), value))
    elif injury.move:
        value = model.move + injury.move
        past_bound = value < rules.move_min
        changes["move"] = max(rules.move_min, value)
    record: Record = {"roll": injury.roll, "injury": injury.name}
    if injury.xp:
        changes["xp"] = model.xp + injury.xp
        changes["xp_total"] = model.xp_total + injury.xp
        record["xp"] = injury.xp
        return replace(model, **changes), record
    changes["injuries"] = (*model.injuries, injury.name)
    record["effect"] = {k: v for k, v in changes.items() if k != "injuries"}
    injured = replace(model, **changes)
    if past_bound and rules.below_minimum == "retired":
        record["retired"] = "past a bound"
        return replace(injured, status="retired"), record
    if len(injured.injuries) >= rules.retire_at:
        record["retired"] = f"{len(injured.injuries)} lasting injuries"
        return replace(injured, status="retired"), record
    return injured, record


def revert_injury(model: WarbandModel, rules: CampaignRules) -> WarbandModel:
    """``model`` with its latest lasting injury healed (its effect undone)."""
    name = model.injuries[-1]
    injury = next(i for i in rules.injuries.values() if i.name == name)
    changes: dict[str, Any] = {"injuries": model.injuries[:-1]}
    if injury.attribute is not None:
        changes[injury.attribute] = model.attribute(injury.attribute) - injury.delta
    elif injury.mettle:
        changes["mettle"] = model.mettle - injury.mettle
    elif injury.move:
        changes["move"] = model.move - injury.move
    return replace(model, **changes)


def rest_test(
    model: WarbandModel, rules: CampaignRules, dice: Dice, core: RulesConfig | None = None
) -> tuple[WarbandModel, Record]:
    """A model that sat a mission out: back to fit; with an injury, a test to heal the latest."""
    back = replace(model, status="fit", resting=False)
    if not model.injuries:
        return back, {"test": None, "healed": None}
    test = roll_2d6_test(
        dice, model.attribute(rules.rest_attribute), rules.rest_difficulty, 0, core
    )
    healed = test.band in ("hit", "critical")
    record = {"test": test.to_dict(), "healed": model.injuries[-1] if healed else None}
    return (revert_injury(back, rules) if healed else back), record


def post_battle(
    warband: Warband,
    fielded: tuple[str, ...],
    outcome: MissionOutcome,
    rules: CampaignRules,
    dice: Dice,
    *,
    solo: bool = False,
    core: RulesConfig | None = None,
) -> tuple[Warband, list[Record]]:
    """The whole post-battle sequence of one mission (before the decisions).

    Order: for each fielded model (joining order): experience, then its fate test and, on an
    injury, the d6 on the lasting-injury table; then for each model that sat out: its rest
    test; then the warband's income.
    """
    records: list[Record] = []
    for model_id in fielded:
        model = warband.model(model_id)
        result = outcome.models[model_id]
        gained, reasons = experience(model, result, outcome, rules)
        model = replace(
            model,
            xp=model.xp + gained,
            xp_total=model.xp_total + gained,
            missions=model.missions + 1,
            kills=model.kills + result.kills,
        )
        records.append(
            {
                "type": "experience",
                "model": model_id,
                "earned": gained,
                "reasons": reasons,
                "xp": model.xp,
            }
        )
        if result.ending not in ("active", "extracted"):
            fate, fields = fate_test(
                model,
                result.ending,
                rules,
                dice,
                solo=solo,
                momentum=outcome.momentum.get(model_id, 0),
                core=core,
            )
            records.append(
                {
                    "type": "fate",
                    "model": model_id,
                    "ending": result.ending,
                    **fields,
                    "outcome": fate,
                }
            )
            if fate == "convalesce":
                model = replace(model, status="convalescing")
            elif fate == "dead":
                model = replace(model, status="dead")
            elif fate == "injury":
                roll = dice.d6()
                model, record = apply_injury(model, rules.injuries[roll], rules, core)
                records.append({"type": "injury", "model": model_id, **record})
        warband = warband.with_model(model)
    for model in warband.models:
        if model.id in fielded or not model.alive:
            continue
        model, record = rest_test(model, rules, dice, core)
        records.append({"type": "rest", "model": model.id, **record})
        warband = warband.with_model(model)
    income = rules.income + (rules.income_won if outcome.won else 0)
    warband = replace(warband, points=warband.points + income)
    records.append({"type": "income", "points": income, "total": warband.points})
    return warband, records


__all__ = ["apply_injury", "experience", "fate_test", "post_battle", "rest_test", "revert_injury"]
