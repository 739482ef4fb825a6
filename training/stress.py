"""Oracle stress test: train a best response against the Enemy Oracle and show its holes.

``riven stress-oracle`` runs :func:`stress_oracle`:

1. Train a MaskablePPO best response against the Oracle (``riven_training.train``).
2. Play ``games`` evaluation games of the best response against the Oracle, alternating
   sides, and the same seeds with a baseline agent (``random`` by default) in its place
   (common random numbers: the same dice seeds for both).
3. Exploitability = the best response's win rate against the Oracle minus the baseline's,
   with a paired 95% interval. A positive, significant number means the trained policy
   found play that beats the Oracle more often than the baseline does: a hole to look at.
4. Tactics of the best response, read from the event logs: its action mix, where its
   models ended their moves (in cover or not, a 6x6 grid of the table from its own side's
   view), what it targeted (leader, wounded, in cover), and the Oracle rules that fired
   in the games the Oracle lost compared with those it won.
5. Example games the best response won, as JSON Lines logs and HTML replays.

Everything is written to ``OUT/stress.json`` and summarised in ``OUT/stress.md``.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from riven_env.game import SIDES

GRID = 6  # the position heat map is GRID x GRID cells of the table


@dataclass
class StressConfig:
    """What to stress and how hard.

    Attributes:
        scenario: Bundled scenario name or file.
        timesteps: Training timesteps of the best response.
        out: Output folder.
        envs: Parallel training environments.
        oracle: The Oracle spec under test (``oracle`` or ``oracle:PROFILE``).
        baseline: The agent whose win rate against the Oracle is the reference.
        games: Evaluation games for each of the best response and the baseline.
        replays: Example games (best-response wins first) written as replays.
        seed: Seed of training and of evaluation game ``g`` (``seed + g``).
        train_overrides: ``{"section": {"key": value}}`` over the training config.
        workers: Worker processes for the evaluation games (the results do not depend on it).
        progress: Show progress bars (training and evaluation) on stderr.
    """

    scenario: str
    timesteps: int
    out: Path
    envs: int = 2
    oracle: str = "oracle"
    baseline: str = "random"
    games: int = 40
    replays: int = 3
    seed: int = 0
    train_overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    workers: int = 1
    progress: bool = False


def _games(
    scenario: Any,
    make_subject: Callable[[str], Any],
    opponent: str,
    games: int,
    seed: int,
    *,
    workers: int = 1,
    progress: bool = False,
    description: str | None = None,
) -> list[dict[str, Any]]:
    """Play the subject against ``opponent`` on alternating sides; keep every log.

    ``make_subject`` is called for every game (picklable when ``workers > 1``).
    """
    from riven_training.evaluate import subject_games

    return subject_games(
        scenario, make_subject, opponent, games, seed=seed, keep_events=True,
        workers=workers, progress=progress, description=description,
    )  # fmt: skip


def _seeded_agent(spec: str, seed: int, side: str) -> Any:
    """The baseline agent of ``side``, seeded as the stress test always seeded it."""
    from riven_agents.registry import make_agent

    return make_agent(spec, side, [seed, 99, SIDES.index(side)])


def _model_sides(events: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    start = next(e for e in events if e["type"] == "game_start")
    return {m["id"]: m["side"] for m in start["models"]}


def _cover_pieces(scenario: Any) -> list[Any]:
    return [p for p in scenario.table.pieces if p.cover != "none"]


def tactics(scenario: Any, played: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the subject side did in ``played`` games, from the event logs alone."""
    import shapely

    actions: Counter[str] = Counter()
    targets: Counter[str] = Counter()
    grid = [[0] * GRID for _ in range(GRID)]
    moves = in_cover = 0
    cover = _cover_pieces(scenario)
    width, height = scenario.table.width, scenario.table.height
    start = next(e for e in played[0]["events"] if e["type"] == "game_start") if played else None
    leaders = {m["id"] for m in start["models"] if "leader" in m["keywords"]} if start else set()
    for game in played:
        side = game["side"]
        sides = _model_sides(game["events"])
        wounds = {
            m["id"]: m["wounds"]
            for m in next(e for e in game["events"] if e["type"] == "game_start")["models"]
        }
        full = dict(wounds)
        for event in game["events"]:
            kind = event["type"]
            if kind == "wound":
                wounds[event["model"]] = event["wounds_left"]
            if kind == "action" and sides.get(event["model"]) == side:
                actions[event["action"]] += 1
                target = event.get("target")
                if target and sides.get(target) != side:
                    targets["any"] += 1
                    targets["leader"] += target in leaders
                    targets["wounded"] += wounds.get(target, 0) < full.get(target, 0)
            if (
                kind == "move"
                and sides.get(event["model"]) == side
                and event["kind"] in ("move", "charge", "disengage")
            ):
                x, y = event["to"]
                if side == "red":  # seen from the subject's own table edge
                    x, y = width - x, height - y
                col = min(GRID - 1, max(0, int(x / width * GRID)))
                row = min(GRID - 1, max(0, int(y / height * GRID)))
                grid[row][col] += 1
                moves += 1
                point = shapely.Point(event["to"])
                in_cover += any(p.polygon.intersects(point.buffer(0.5)) for p in cover)
    total_actions = sum(actions.values()) or 1
    return {
        "action_mix": {
            k: v / total_actions for k, v in sorted(actions.items(), key=lambda kv: -kv[1])
        },
        "actions": dict(actions),
        "moves": moves,
        "moves_ending_in_cover": in_cover / moves if moves else 0.0,
        "position_grid": grid,
        "targets": {
            "attacks": targets["any"],
            "at_leader": targets["leader"] / targets["any"] if targets["any"] else 0.0,
            "at_wounded": targets["wounded"] / targets["any"] if targets["any"] else 0.0,
        },
    }


def oracle_rules(played: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Oracle rules that fired in the games the Oracle lost vs the games it did not lose."""
    lost: Counter[str] = Counter()
    other: Counter[str] = Counter()
    lost_games = other_games = 0
    for game in played:
        subject_won = game["winner"] == game["side"]
        counter = lost if subject_won else other
        lost_games += subject_won
        other_games += not subject_won
        for event in game["events"]:
            if event["type"] == "oracle_decision":
                counter[f"{event['profile']}/{event['rule']}"] += 1
    rows = []
    for rule in sorted(set(lost) | set(other)):
        per_lost = lost[rule] / lost_games if lost_games else 0.0
        per_other = other[rule] / other_games if other_games else 0.0
        rows.append(
            {
                "rule": rule,
                "per_game_lost": per_lost,
                "per_game_not_lost": per_other,
                "excess_in_losses": per_lost - per_other,
            }
        )
    rows.sort(key=lambda r: -r["excess_in_losses"])
    return {"games_oracle_lost": lost_games, "games_oracle_not_lost": other_games, "rules": rows}


def _rate(played: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    from riven_env.playtest.stats import wilson_interval

    wins = sum(g["winner"] == g["side"] for g in played)
    draws = sum(g["winner"] is None for g in played)
    interval = wilson_interval(wins, len(played))
    return {
        "games": len(played),
        "wins": wins,
        "draws": draws,
        "losses": len(played) - wins - draws,
        "win_rate": interval.value,
        "low": interval.low,
        "high": interval.high,
    }


def _write_examples(played: Sequence[Mapping[str, Any]], out: Path, count: int) -> list[str]:
    from riven_env.game.events import write_jsonl
    from riven_env.replay import write_replay

    ordered = sorted(played, key=lambda g: (g["winner"] != g["side"], g["seed"]))
    written = []
    out.mkdir(parents=True, exist_ok=True)
    for game in ordered[:count]:
        stem = out / f"game-{game['seed']}-{game['side']}"
        write_jsonl(game["events"], stem.with_suffix(".jsonl"))
        written.append(str(write_replay(game["events"], stem.with_suffix(".html"))))
    return written


def stress_oracle(config: StressConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the whole stress test; return (and write) the JSON-ready report."""
    from riven_agents.ppo import PPOAgent
    from riven_training.evaluate import loaded_scenario
    from riven_training.hyperparams import load_train_config
    from riven_training.train import TrainRun, live_subject, train

    from riven_env.playtest.stats import paired_difference

    out = Path(config.out)
    train_config = load_train_config()
    for section, values in config.train_overrides.items():
        train_config.setdefault(section, {}).update(values)
    log(f"training a best response against {config.oracle} for {config.timesteps} timesteps")
    model_path = train(
        TrainRun(
            scenario=config.scenario,
            opponent=config.oracle,
            timesteps=config.timesteps,
            envs=config.envs,
            out=out / "best_response",
            seed=config.seed,
            config=train_config,
            eval_progress=config.progress,
            eval_workers=config.workers,
        )
    )
    scenario = loaded_scenario(config.scenario)
    # Loaded once here; the policy object (not the file) goes to the evaluation workers.
    policy = PPOAgent(f"ppo:{model_path}", "blue", None, path=model_path)
    subject = functools.partial(live_subject, policy.model, policy.metadata)
    log(f"evaluating the best response and {config.baseline} against {config.oracle}")
    evaluation = {"workers": config.workers, "progress": config.progress}
    best = _games(
        scenario, subject, config.oracle, config.games, config.seed,
        description="best response", **evaluation,
    )  # fmt: skip
    baseline = functools.partial(_seeded_agent, config.baseline, config.seed)
    base = _games(
        scenario, baseline, config.oracle, config.games, config.seed,
        description=config.baseline, **evaluation,
    )  # fmt: skip
    won_best = [float(g["winner"] == g["side"]) for g in best]
    won_base = [float(g["winner"] == g["side"]) for g in base]
    gap = paired_difference(won_best, won_base)
    report = {
        "scenario": config.scenario,
        "oracle": config.oracle,
        "baseline": config.baseline,
        "timesteps": config.timesteps,
        "model": str(model_path),
        "best_response": _rate(best),
        "baseline_result": _rate(base),
        # Pooled figures hide colour: the same numbers for each colour the player held.
        "per_colour": {
            side: {
                "best_response": _rate([g for g in best if g["side"] == side]),
                "baseline_result": _rate([g for g in base if g["side"] == side]),
            }
            for side in SIDES
        },
        "exploitability": {
            "value": gap.value,
            "low": gap.low,
            "high": gap.high,
            "significant": bool(gap.low > 0),
        },
        "tactics": tactics(scenario, best),
        "baseline_tactics": tactics(scenario, base),
        "oracle_rules": oracle_rules(best),
        "replays": _write_examples(best, out / "replays", config.replays),
    }
    (out / "stress.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    (out / "stress.md").write_text(render_markdown(report), encoding="utf-8")
    return report


def render_markdown(report: Mapping[str, Any]) -> str:
    """A designer-readable summary of a stress report."""
    best, base, gap = report["best_response"], report["baseline_result"], report["exploitability"]
    lines = [
        f"# Oracle stress test: {report['oracle']} on {report['scenario']}",
        "",
        f"Best response trained for {report['timesteps']} timesteps (`{report['model']}`).",
        "",
        "| Player vs the Oracle | Games | Wins | Draws | Win rate [95% interval] |",
        "|---|---|---|---|---|",
        f"| best response | {best['games']} | {best['wins']} | {best['draws']} | "
        f"{best['win_rate']:.1%} [{best['low']:.1%}, {best['high']:.1%}] |",
        f"| {report['baseline']} | {base['games']} | {base['wins']} | {base['draws']} | "
        f"{base['win_rate']:.1%} [{base['low']:.1%}, {base['high']:.1%}] |",
    ]
    for side, arms in report.get("per_colour", {}).items():
        for name, label in (("best_response", "best response"), ("baseline_result", None)):
            r = arms[name]
            if not r["games"]:
                continue
            lines.append(
                f"| {label or report['baseline']} as {side} | {r['games']} | {r['wins']} | "
                f"{r['draws']} | {r['win_rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}] |"
            )
    lines += [
        "",
        f"**Exploitability** (best response minus {report['baseline']}, same seeds): "
        f"{gap['value']:+.1%} [{gap['low']:+.1%}, {gap['high']:+.1%}]"
        + (
            " - significant: the Oracle has a hole."
            if gap["significant"]
            else " - not significant."
        ),
        "",
        "## What the best response does",
        "",
        "| Action | Share |",
        "|---|---|",
    ]
    lines += [f"| {k} | {v:.1%} |" for k, v in report["tactics"]["action_mix"].items()]
    t = report["tactics"]
    lines += [
        "",
        f"Moves ending in or touching cover: {t['moves_ending_in_cover']:.1%} "
        f"(baseline {report['baseline_tactics']['moves_ending_in_cover']:.1%}). "
        f"Attacks at the leader: {t['targets']['at_leader']:.1%}; at wounded models: "
        f"{t['targets']['at_wounded']:.1%}.",
        "",
        "Where its models ended their moves (rows from its own table edge, far edge last):",
        "",
    ]
    lines += ["    " + " ".join(f"{c:4d}" for c in row) for row in t["position_grid"]]
    lines += [
        "",
        "## Oracle rules that fired more in the games it lost",
        "",
        "| Rule | Per lost game | Per other game |",
        "|---|---|---|",
    ]
    lines += [
        f"| {r['rule']} | {r['per_game_lost']:.2f} | {r['per_game_not_lost']:.2f} |"
        for r in report["oracle_rules"]["rules"][:10]
    ]
    lines += ["", "## Example games", ""] + [f"- {p}" for p in report["replays"]]
    return "\n".join(lines) + "\n"
