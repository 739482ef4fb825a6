"""Play a whole campaign: missions, the post-battle sequence and the decisions between them.

:func:`play_campaign` is the one entry point. Its randomness comes from the campaign seed
alone, split (``numpy.random.SeedSequence(seed).spawn(3)``) into three streams: the missions'
seeds (per step, a generator seed and a game seed, drawn whether used or not), the
post-battle dice and the random policy's choices. Every mission is played by
:func:`riven_env.engines.play_game` on the engine asked for (``auto``: the native core where
it can play the mission), and both engines give the same events, so the same seed gives the
same campaign log byte for byte on either engine. The log's records: docs/campaigns.md, "Log".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from riven_env.campaign.aftermath import post_battle
from riven_env.campaign.decisions import (
    advance_cost,
    advance_options,
    apply_advance,
    apply_recruit,
    recruit_options,
    rest_options,
)
from riven_env.campaign.dice import CampaignDice
from riven_env.campaign.mission import step_mission
from riven_env.campaign.outcome import MissionOutcome, read_outcome
from riven_env.campaign.policy import CampaignPolicy, make_policy
from riven_env.campaign.rules import CampaignRules, load_campaign_rules
from riven_env.campaign.schema import CampaignSpec
from riven_env.campaign.state import Warband

LOG_SCHEMA = 1
Record = dict[str, Any]
_SEED_BOUND = 2**31 - 1


@dataclass(frozen=True)
class CampaignResult:
    """A played campaign: its log records, final warband and summary."""

    records: list[Record]
    warband: Warband
    summary: dict[str, Any]


def _decide(
    policy: CampaignPolicy,
    kind: str,
    options: list[str],
    context: dict[str, Any],
    step: int,
    emit: Callable[[Record], None],
    model: str | None = None,
) -> str:
    choice, rule, text = policy.choose(kind, options, context)
    emit(
        {
            "type": "decision",
            "step": step,
            "kind": kind,
            "model": model,
            "options": options,
            "choice": choice,
            "policy": policy.name,
            "rule": rule,
            "explanation": text,
        }
    )
    return choice


def _between(
    warband: Warband,
    step: int,
    rules: CampaignRules,
    policy: CampaignPolicy,
    library: Any,
    emit: Callable[[Record], None],
) -> Warband:
    """Advances, then recruits, then rest: the decisions after a mission."""
    for model in warband.models:
        if not model.alive:
            continue
        for _ in range(rules.advances_per_mission):
            current = warband.model(model.id)
            options = advance_options(current, rules)
            if len(options) == 1:
                break
            choice = _decide(
                policy,
                "advance",
                options,
                {"model": current, "warband": warband},
                step,
                emit,
                current.id,
            )
            if choice == "save":
                break
            advanced = apply_advance(current, choice, rules)
            warband = warband.with_model(advanced)
            emit(
                {
                    "type": "advance",
                    "step": step,
                    "model": current.id,
                    "advance": choice,
                    "cost": advance_cost(choice, rules),
                    "xp": advanced.xp,
                }
            )
    for _ in range(rules.recruits_per_step):
        options = recruit_options(warband, rules)
        if len(options) == 1:
            break
        choice = _decide(policy, "recruit", options, {"warband": warband}, step, emit)
        if choice == "none":
            break
        warband, recruit = apply_recruit(warband, choice, rules, library)
        assert recruit is not None
        emit(
            {
                "type": "recruit",
                "step": step,
                "model": recruit.id,
                "profile": recruit.base,
                "cost": rules.points[recruit.base],
                "points": warband.points,
            }
        )
    rested = False
    order = sorted((m for m in warband.models if m.alive), key=lambda m: -len(m.injuries))
    for model in order:
        options = rest_options(model)
        if len(options) == 1:
            continue
        others = sum(1 for m in warband.fielded() if m.id != model.id)
        choice = _decide(
            policy,
            "rest",
            options,
            {"model": model, "warband": warband, "fielding_others": others, "rested": rested},
            step,
            emit,
            model.id,
        )
        if choice == "rest":
            rested = True
            warband = warband.with_model(replace(model, resting=True))
    return warband


def _end_reason(spec: CampaignSpec, warband: Warband, wins: int) -> str | None:
    living = warband.living()
    if len(living) < spec.min_models:
        if spec.solo:
            return "hero_dead" if warband.models[0].status == "dead" else "hero_retired"
        return "wiped_out"
    if spec.wins and wins >= spec.wins:
        return "victory"
    return None


def play_campaign(
    spec: CampaignSpec,
    blue: str = "oracle",
    red: str = "oracle",
    seed: int = 0,
    *,
    policy: str = "oracle",
    engine: str | None = None,
    on_record: Callable[[Record], None] | None = None,
    on_step: Callable[[int, int], None] | None = None,
) -> CampaignResult:
    """Play ``spec`` to its end.

    Args:
        spec: A loaded campaign (:func:`~riven_env.campaign.loader.load_campaign`).
        blue: The warband's battle agent spec (``oracle``, ``expert``, ``mcts:100``...).
        red: The enemy's battle agent spec.
        seed: The campaign seed (>= 0).
        policy: The campaign policy deciding between missions (``oracle`` or ``random``).
        engine: ``auto``, ``python`` or ``native`` (None: the process default).
        on_record: Called with each log record as it is made.
        on_step: Called with (steps done, steps in the chain) after each step.
    """
    from riven_env.engines import play_game
    from riven_env.rules import bundled_rules
    from riven_env.scenario import load_library

    rules = load_campaign_rules(spec.rules_path)
    library = load_library(rules=bundled_rules())
    missions_seq, dice_seq, policy_seq = np.random.SeedSequence(int(seed)).spawn(3)
    seeds = np.random.default_rng(missions_seq)
    dice = CampaignDice(dice_seq)
    chooser = make_policy(policy, rules, policy_seq)
    records: list[Record] = []

    def emit(record: Record) -> None:
        records.append(record)
        if on_record is not None:
            on_record(record)

    warband = spec.warband
    emit(
        {
            "type": "campaign_start",
            "schema": LOG_SCHEMA,
            "campaign": spec.name,
            "title": spec.title,
            "setting": spec.setting,
            "mode": spec.mode,
            "seed": int(seed),
            "agents": {"blue": blue, "red": red},
            "policy": policy,
            "rules": rules.source,
            "steps": len(spec.steps),
            "warband": warband.to_dict(),
        }
    )
    results: list[dict[str, Any]] = []
    wins = 0
    reason = "completed"
    for step in spec.steps:
        k = step.index
        generator_seed = int(seeds.integers(0, _SEED_BOUND))
        game_seed = int(seeds.integers(0, _SEED_BOUND))
        if step.seed is not None:
            generator_seed = step.seed
        fielded = tuple(m.id for m in warband.fielded())
        sitting = [m.id for m in warband.living() if m.id not in fielded]
        if not fielded:
            emit(
                {
                    "type": "step_skipped",
                    "step": k,
                    "sitting_out": sitting,
                    "reason": "no model is fit to play",
                }
            )
            outcome = MissionOutcome("blue", None, False, "skipped", None, {}, ())
            results.append({"step": k, "result": "skipped"})
        else:
            mission = step_mission(spec, step, warband, generator_seed, rules, library)
            emit(
                {
                    "type": "step_start",
                    "step": k,
                    "mission": mission.scenario.name,
                    "source": f"generator:{step.generator}"
                    if step.generator
                    else f"mission:{step.mission_name}",
                    "generator_seed": generator_seed if step.generator else None,
                    "game_seed": game_seed,
                    "enemy_points": mission.enemy_points,
                    "enemy": list(mission.enemy),
                    "fielded": list(fielded),
                    "sitting_out": sitting,
                }
            )
            events = play_game(mission.scenario, blue, red, game_seed, engine=engine)
            for event in events:
                emit({"type": "mission_event", "step": k, "event": event})
            outcome = read_outcome(events, "blue")
            emit({"type": "step_end", "step": k, **outcome.to_dict()})
            result = (
                "draw"
                if outcome.draw or outcome.winner is None
                else ("won" if outcome.won else "lost")
            )
            wins += outcome.won
            results.append(
                {"step": k, "result": result, "fielded": len(fielded), "enemy": len(mission.enemy)}
            )
        warband, after = post_battle(warband, fielded, outcome, rules, dice, solo=spec.solo)
        results[-1]["alive"] = len(warband.living())
        for record in after:
            emit({"type": record.pop("type"), "step": k, **record})
        ended = _end_reason(spec, warband, wins)
        if on_step is not None:
            on_step(k + 1, len(spec.steps))
        if ended is not None:
            reason = ended
            break
        if k + 1 < len(spec.steps):
            warband = _between(warband, k, rules, chooser, library, emit)
    counts = {
        r: sum(1 for s in results if s["result"] == r) for r in ("won", "lost", "draw", "skipped")
    }
    summary = {
        "campaign": spec.name,
        "seed": int(seed),
        "blue": blue,
        "red": red,
        "policy": policy,
        "result": reason,
        "steps_played": len(results),
        "steps": len(spec.steps),
        **counts,
        "living": [m.id for m in warband.living()],
        "dead": [m.id for m in warband.models if m.status == "dead"],
        "retired": [m.id for m in warband.models if m.status == "retired"],
        "per_step": results,
    }
    emit(
        {
            "type": "campaign_end",
            **{
                k: v
                for k, v in summary.items()
                if k not in ("campaign", "seed", "blue", "red", "policy")
            },
            "warband": warband.to_dict(),
        }
    )
    return CampaignResult(records, warband, summary)


__all__ = ["LOG_SCHEMA", "CampaignResult", "play_campaign"]
