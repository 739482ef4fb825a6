"""The Oracle stress test (``riven stress-oracle``): how exploitable is each Oracle profile?

For every Oracle under test (``oracle`` or ``oracle:PROFILE``) and every game ``g`` (seed
``seed + g``; the player under test sits on blue in even games, red in odd ones, so each
colour gets half the games) four *arms* play the same seed from the same seat against
the Oracle:

* ``responder``: the best responder, any agent spec (default: ``[responder] default`` of
  ``riven_env/analytics/data/stress.toml``: the strongest agent the build has);
* ``mirror``: the Oracle itself in that seat (the Oracle mirror, same seeds and seats);
* ``baseline``: a reference player (``random``);
* ``recipe K``: the scripted agent of recipe K (below), on the seeds of its colour.

Every game is ``riven_env.engines.play_game``, so ``riven play --scenario S --blue B
--red R --seed N`` replays any of them exactly.

**Exploitability** per colour is the responder's win rate minus (a) the mirror's and (b)
the baseline's, as paired differences over the common seeds with Newcombe's paired 95%
interval (:func:`riven_env.playtest.stats.paired_proportion_difference`). Colours are never
pooled: the two seats hold different rosters, and under ``oracle`` different profiles. An
Oracle is *exploitable* from a seat when (a)'s interval lies above 0: the responder wins
there more often than the Oracle itself does.

**Rules that fire in lost games**: per colour, over every game the Oracle played from the
other seat (all arms), each rule's rate (games in which it fired) in the games the Oracle
lost against those it did not lose, with Newcombe's hybrid interval on the difference; only
with at least ``[rules] min_lost_games`` and ``min_other_games`` games in each group, or
else "not enough lost games".

**Exploit recipes** (:mod:`riven_env.analytics.recipes`): the responder's winning games,
described (bait, stance, targets, timing), each with replayable games, then checked by
the scripted :class:`riven_agents.recipe.RecipeAgent` on the same seeds: does it reproduce
the responder's gain over the baseline (paired interval above 0)?
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from riven_env.errors import DataFileError

SIDES = ("blue", "red")
ARMS = ("responder", "mirror", "baseline")
SETTINGS_KEYS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "responder": {"default": str},
    "statistics": {"confidence": float},
    "rules": {"min_lost_games": int, "min_other_games": int, "top": int},
    "recipes": {
        "min_games": int,
        "max_recipes": int,
        "min_bait_lift": (int, float),
        "bait_window_rounds": int,
        "distance_bands": list,
        "replays": int,
        "target_share": (int, float),
        "hold_min_inches": (int, float),
        "cover_margin": (int, float),
    },
}


def settings_path() -> Path:
    """The installed data file of the stress test's tunables."""
    return Path(__file__).resolve().parent / "data" / "stress.toml"


def load_settings(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """Read and check the stress test's tunables (``docs/stress-oracle.md``).

    Raises:
        DataFileError: A section or key is missing, unknown or of the wrong type (the
            message names the file and the key).
    """
    from riven_env.files import read_toml

    source = Path(path) if path is not None else settings_path()
    data = read_toml(source, what="stress-oracle settings")
    out: dict[str, dict[str, Any]] = {}
    for section, keys in SETTINGS_KEYS.items():
        table = data.get(section)
        if not isinstance(table, dict):
            raise DataFileError(f"{source}: section [{section}] is missing")
        unknown = sorted(set(table) - set(keys))
        if unknown:
            raise DataFileError(
                f"{source}: [{section}] {unknown[0]} is not a key; allowed: {sorted(keys)}"
            )
        out[section] = {}
        for key, kind in keys.items():
            value = table.get(key)
            if value is None or isinstance(value, bool) or not isinstance(value, kind):
                raise DataFileError(f"{source}: [{section}] {key} = {value!r}: expected {kind}")
            out[section][key] = value
    for section, key in (("rules", "min_lost_games"), ("rules", "min_other_games"),
                         ("recipes", "min_games"), ("recipes", "max_recipes")):  # fmt: skip
        if out[section][key] < 1:
            raise DataFileError(f"{source}: [{section}] {key} = {out[section][key]}: must be >= 1")
    if not 0 < out["statistics"]["confidence"] < 1:
        raise DataFileError(f"{source}: [statistics] confidence must lie in (0, 1)")
    bands = out["recipes"]["distance_bands"]
    if (
        len(bands) < 2
        or bands[0] != 0
        or any(not isinstance(b, int | float) or isinstance(b, bool) for b in bands)
        or any(b >= c for b, c in zip(bands, bands[1:], strict=False))
    ):
        raise DataFileError(
            f"{source}: [recipes] distance_bands = {bands!r}: expected ascending inches from 0"
        )
    return out


def default_responder(path: str | Path | None = None) -> str:
    """The best responder named by the data file (``[responder] default``)."""
    return load_settings(path)["responder"]["default"]


@dataclass
class StressConfig:
    """What to stress and how hard.

    Attributes:
        scenario: Bundled scenario name or file.
        oracles: Oracle specs under test (``oracle``, ``oracle:PROFILE``).
        responder: Agent spec of the best responder (None: the data file's default).
        baseline: The reference agent (the second comparison).
        games: Games per arm and Oracle, colours alternating (half per colour).
        seed: Game ``g`` has seed ``seed + g``.
        overrides: Rules data overrides (``--set``).
        workers: Worker processes (the results do not depend on it).
        progress: Show progress bars on stderr.
        check: Play each recipe's scripted agent on the same seeds.
        min_lost_games: Overrides ``[rules] min_lost_games`` when given.
        settings: The tunables (None: the installed data file).
    """

    scenario: str
    oracles: Sequence[str] = ("oracle",)
    responder: str | None = None
    baseline: str = "random"
    games: int = 40
    seed: int = 0
    overrides: Mapping[str, object] = field(default_factory=dict)
    workers: int = 1
    progress: bool = False
    check: bool = True
    min_lost_games: int | None = None
    settings: dict[str, dict[str, Any]] | None = None


# -- playing ---------------------------------------------------------------------------------

_SCENARIOS: dict[str, Any] = {}


def _scenario(name: Any) -> Any:
    """The loaded scenario of a name or path, once per process (games share its table)."""
    from riven_env.scenario import load_scenario

    key = str(name)
    if key not in _SCENARIOS:
        _SCENARIOS[key] = load_scenario(name)
    return _SCENARIOS[key]


def _profile_label(start: Mapping[str, Any], side: str) -> str:
    """The Oracle profile(s) ``side`` played, from ``game_start.oracle_profiles``."""
    resolved = (start.get("oracle_profiles") or {}).get(side) or {}
    names = sorted(set((resolved.get("models") or {}).values())) or [str(resolved.get("side"))]
    return names[0] if len(names) == 1 else "mixed: " + ", ".join(names)


def play_arm_game(task: tuple[Any, ...]) -> dict[str, Any]:
    """Play one game of an arm; return its outcome and facts (a task of :func:`run`).

    ``task`` is ``(scenario, subject spec, oracle spec, seed, subject side, overrides,
    distance edges, bait window)``.
    """
    from riven_env.analytics.recipes import game_facts
    from riven_env.engines import play_game

    scenario, subject, oracle, seed, side, overrides, edges, window = task
    blue, red = (subject, oracle) if side == "blue" else (oracle, subject)
    events = play_game(_scenario(scenario), blue, red, seed, overrides=dict(overrides) or None)
    facts = game_facts(events, side, seed, edges=edges, bait_window=window)
    other = SIDES[1 - SIDES.index(side)]
    return {
        "seed": seed,
        "side": side,
        "winner": facts.winner,
        "profile": _profile_label(events[0], other),
        "facts": facts,
    }


def _play_all(
    config: StressConfig, tasks: list[tuple[Any, ...]], description: str
) -> list[dict[str, Any]]:
    from riven_training.evaluate import run_tasks

    return run_tasks(
        play_arm_game, tasks, workers=config.workers, progress=config.progress,
        description=description,
    )  # fmt: skip


def replay_command(
    scenario: Any, subject: str, oracle: str, seed: int, side: str, overrides: Mapping
) -> str:
    """The ``riven play`` command that replays one game, with an HTML replay."""
    import shlex

    blue, red = (subject, oracle) if side == "blue" else (oracle, subject)
    parts = ["riven", "play", "--scenario", str(scenario), "--blue", blue, "--red", red]
    parts += ["--seed", str(seed)]
    for key, value in overrides.items():
        parts += ["--set", f"{key}={value}"]
    parts += ["--replay", f"game-{seed}-{side}.html"]
    return shlex.join(parts)


# -- statistics ------------------------------------------------------------------------------


def rate(games: Sequence[Mapping[str, Any]], confidence: float) -> dict[str, Any]:
    """Wins of the subject in ``games`` with a Wilson interval."""
    from riven_env.playtest.stats import wilson_interval

    wins = sum(g["winner"] == g["side"] for g in games)
    draws = sum(g["winner"] is None for g in games)
    ci = wilson_interval(wins, len(games), confidence)
    return {"games": len(games), "wins": wins, "draws": draws, "win_rate": ci.value,
            "low": ci.low, "high": ci.high}  # fmt: skip


def paired(
    first: Sequence[Mapping[str, Any]], second: Sequence[Mapping[str, Any]], confidence: float
) -> dict[str, Any]:
    """Paired win-rate difference of two arms on the same seeds (Newcombe's interval)."""
    from riven_env.playtest.stats import paired_proportion_difference

    by_seed = {g["seed"]: g for g in second}
    common = [g for g in first if g["seed"] in by_seed]
    a = [int(g["winner"] == g["side"]) for g in common]
    b = [int(by_seed[g["seed"]]["winner"] == g["side"]) for g in common]
    d = paired_proportion_difference(a, b, confidence)
    return {"value": d.value, "low": d.low, "high": d.high, "n": d.n,
            "significant": bool(d.n and (d.low > 0 or d.high < 0))}  # fmt: skip


def rules_in_lost_games(
    games: Sequence[Mapping[str, Any]],
    min_lost: int,
    min_other: int,
    top: int,
    confidence: float,
) -> dict[str, Any]:
    """Oracle rules that fire more in the games it lost (module docstring).

    ``games`` are games of one colour: ``side`` is the subject's seat, so the Oracle lost
    when ``winner == side``.
    """
    from riven_env.playtest.stats import proportion_difference

    lost = [g for g in games if g["winner"] == g["side"]]
    other = [g for g in games if g["winner"] != g["side"]]
    out: dict[str, Any] = {"lost": len(lost), "not_lost": len(other), "rows": []}
    if len(lost) < min_lost or len(other) < min_other:
        short = "lost" if len(lost) < min_lost else "not-lost"
        need = min_lost if short == "lost" else min_other
        have = len(lost) if short == "lost" else len(other)
        out["note"] = f"not enough {short} games ({have} < {need})"
        return out
    keys = sorted({k for g in games for k in g["facts"].rules_fired})
    rows = []
    for key in keys:
        k1 = sum(1 for g in lost if g["facts"].rules_fired.get(key))
        k2 = sum(1 for g in other if g["facts"].rules_fired.get(key))
        d = proportion_difference(k1, len(lost), k2, len(other), confidence)
        rows.append({"rule": key, "rate_lost": k1 / len(lost), "rate_not_lost": k2 / len(other),
                     "difference": d.value, "low": d.low, "high": d.high,
                     "significant": bool(d.low > 0)})  # fmt: skip
    rows.sort(key=lambda r: (-r["low"], -r["difference"], r["rule"]))
    out["rows"] = [r for r in rows if r["difference"] > 0][:top]
    return out


# -- the run ---------------------------------------------------------------------------------


def _tasks(config: StressConfig, subject: str, oracle: str, edges: list, window: int,
           side: str | None = None) -> list[tuple[Any, ...]]:  # fmt: skip
    overrides = tuple(sorted(dict(config.overrides).items()))
    out = []
    for g in range(config.games):
        seat = SIDES[g % 2]
        if side is None or seat == side:
            out.append((config.scenario, subject, oracle, config.seed + g, seat,
                        dict(overrides), edges, window))  # fmt: skip
    return out


def run(config: StressConfig, log: Callable[[str], None] = lambda _m: None) -> dict[str, Any]:
    """Run the whole stress test; return the JSON-ready report (module docstring)."""
    from riven_agents.oracle.profiles import load_profiles

    from riven_env.analytics.recipes import find_recipes

    settings = config.settings or load_settings()
    responder = config.responder or settings["responder"]["default"]
    confidence = float(settings["statistics"]["confidence"])
    rules_cfg, recipes_cfg = settings["rules"], settings["recipes"]
    min_lost = config.min_lost_games or int(rules_cfg["min_lost_games"])
    edges = [float(b) for b in recipes_cfg["distance_bands"]]
    window = int(recipes_cfg["bait_window_rounds"])
    profiles = load_profiles()
    report: dict[str, Any] = {
        "scenario": str(config.scenario),
        "responder": responder,
        "baseline": config.baseline,
        "games": config.games,
        "games_per_colour": {s: len(range(i, config.games, 2)) for i, s in enumerate(SIDES)},
        "seed": config.seed,
        "overrides": dict(config.overrides),
        "confidence": confidence,
        "min_lost_games": min_lost,
        "oracles": [],
    }
    for oracle in config.oracles:
        log(f"{oracle}: {responder}, the mirror and {config.baseline} on {config.games} seeds")
        arms = {
            arm: _play_all(config, _tasks(config, spec, oracle, edges, window), f"{arm} vs {oracle}")
            for arm, spec in (("responder", responder), ("mirror", oracle),
                              ("baseline", config.baseline))
        }  # fmt: skip
        entry: dict[str, Any] = {"oracle": oracle, "colours": {}}
        for side in SIDES:
            seat = {arm: [g for g in games if g["side"] == side] for arm, games in arms.items()}
            if not seat["responder"]:
                continue
            colour = _colour(seat, confidence)
            colour["oracle_side"] = SIDES[1 - SIDES.index(side)]
            colour["oracle_profile"] = seat["responder"][0]["profile"]
            wins = [g["facts"] for g in seat["responder"] if g["winner"] == side]
            reference = [g["facts"] for g in seat["baseline"]]
            recipes, note = find_recipes(wins, reference, recipes_cfg, profiles)
            pool = [g for games in seat.values() for g in games]
            checked: dict[str, list[dict[str, Any]]] = {}
            for k, recipe in enumerate(recipes):
                recipe["replays"] = [
                    {"seed": s, "command": replay_command(config.scenario, responder, oracle, s,
                                                          side, config.overrides)}
                    for s in recipe["seeds"][: int(recipes_cfg["replays"])]
                ]  # fmt: skip
                if config.check:
                    from riven_agents.recipe import RecipeParams

                    spec = RecipeParams(**recipe["params"]).spec()
                    if spec not in checked:  # two recipes may ask for the same agent
                        log(f"{oracle}, {side}: checking recipe {k + 1} with {spec}")
                        checked[spec] = _play_all(
                            config, _tasks(config, spec, oracle, edges, window, side),
                            f"recipe {k + 1} vs {oracle}",
                        )  # fmt: skip
                        pool += checked[spec]
                    recipe["check"] = _check(spec, checked[spec], seat, confidence)
            colour["recipes"] = recipes
            if note:
                colour["recipe_note"] = note
            colour["rules"] = rules_in_lost_games(
                pool, min_lost, int(rules_cfg["min_other_games"]), int(rules_cfg["top"]),
                confidence,
            )  # fmt: skip
            entry["colours"][side] = colour
        report["oracles"].append(entry)
    report["ranking"] = ranking(report)
    return report


def _colour(seat: Mapping[str, list[dict[str, Any]]], confidence: float) -> dict[str, Any]:
    out: dict[str, Any] = {"n": len(seat["responder"])}
    for arm in ARMS:
        out[arm] = rate(seat[arm], confidence)
    out["vs_mirror"] = paired(seat["responder"], seat["mirror"], confidence)
    out["vs_baseline"] = paired(seat["responder"], seat["baseline"], confidence)
    out["exploitable"] = bool(out["vs_mirror"]["low"] > 0)
    return out


def _check(
    spec: str,
    played: list[dict[str, Any]],
    seat: Mapping[str, list[dict[str, Any]]],
    confidence: float,
) -> dict[str, Any]:
    """Does the scripted recipe reproduce the responder's gain over the baseline?"""
    check = {
        "agent": spec,
        "result": rate(played, confidence),
        "vs_baseline": paired(played, seat["baseline"], confidence),
        "vs_mirror": paired(played, seat["mirror"], confidence),
        "vs_responder": paired(played, seat["responder"], confidence),
    }
    gain = paired(seat["responder"], seat["baseline"], confidence)
    got = check["vs_baseline"]
    check["reproduces"] = bool(got["low"] > 0)
    share = got["value"] / gain["value"] if gain["value"] and gain["value"] > 0 else math.nan
    check["share_of_gain"] = None if math.isnan(share) else share
    if check["reproduces"]:
        check["verdict"] = (
            f"reproduces the gain: {got['value']:+.0%} [{got['low']:+.0%}, {got['high']:+.0%}] "
            f"over the baseline (the responder: {gain['value']:+.0%})"
        )
    else:
        check["verdict"] = (
            f"does NOT reproduce the gain: {got['value']:+.0%} [{got['low']:+.0%}, "
            f"{got['high']:+.0%}] over the baseline (the responder: {gain['value']:+.0%}); "
            "the recipe's words miss what made the responder win"
        )
    return check


# -- output ----------------------------------------------------------------------------------


def _pct(r: Mapping[str, Any]) -> str:
    return f"{r['win_rate']:.0%} [{r['low']:.0%}, {r['high']:.0%}]"


def _diff(d: Mapping[str, Any]) -> str:
    if not d["n"]:
        return "n/a"
    mark = " *" if d["significant"] else ""
    return f"{d['value']:+.0%} [{d['low']:+.0%}, {d['high']:+.0%}]{mark}"


def table_rows(report: Mapping[str, Any]) -> list[list[str]]:
    """One row per Oracle and responder colour: the exploitability table."""
    rows = []
    for entry in report["oracles"]:
        for side, c in entry["colours"].items():
            checks = [r.get("check") for r in c.get("recipes", []) if r.get("check")]
            check = (
                "; ".join("yes" if k["reproduces"] else "no" for k in checks)
                if checks
                else c.get("recipe_note", "-")
            )
            rows.append([
                entry["oracle"], str(c["oracle_profile"]), side, str(c["n"]),
                _pct(c["responder"]), _pct(c["mirror"]), _pct(c["baseline"]),
                _diff(c["vs_mirror"]), _diff(c["vs_baseline"]), check,
            ])  # fmt: skip
    return rows


TABLE_HEADER = [
    "Oracle", "Oracle profile", "responder colour", "n", "responder wins", "mirror wins",
    "baseline wins", "vs mirror", "vs baseline", "recipe reproduces",
]  # fmt: skip


def ranking(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Oracles weakest first: by the mean of the responder's per-colour win rates.

    Each colour is a separate estimate (never pooled games); the mean of the two rates only
    orders the Oracles, and the per-colour figures stay in the table.
    """
    rows = []
    for entry in report["oracles"]:
        colours = entry["colours"].values()
        if not colours:
            continue
        mean = sum(c["responder"]["win_rate"] for c in colours) / len(colours)
        base = sum(c["baseline"]["win_rate"] for c in colours) / len(colours)
        rows.append({
            "oracle": entry["oracle"],
            "mean_responder_win_rate": mean,
            "mean_baseline_win_rate": base,
            "exploitable": [s for s, c in entry["colours"].items() if c["exploitable"]],
        })  # fmt: skip
    rows.sort(key=lambda r: (-r["mean_responder_win_rate"], -r["mean_baseline_win_rate"]))
    return rows


def render_markdown(report: Mapping[str, Any]) -> str:
    """The whole report as Markdown (the table, then recipes and rules per colour)."""
    lines = [
        f"# Oracle stress test on {report['scenario']}",
        "",
        f"Best responder `{report['responder']}`, baseline `{report['baseline']}`, "
        f"{report['games']} seeds from {report['seed']} (n per colour: "
        f"{report['games_per_colour']['blue']} blue, {report['games_per_colour']['red']} red). "
        "Win rates of the player in the responder's seat against the Oracle, "
        f"{report['confidence']:.0%} intervals (Wilson; differences: Newcombe paired, "
        "same seeds and seats; * = the interval excludes 0).",
        "",
        "| " + " | ".join(TABLE_HEADER) + " |",
        "|" + "---|" * len(TABLE_HEADER),
    ]
    lines += ["| " + " | ".join(r) + " |" for r in table_rows(report)]
    if len(report["oracles"]) > 1:
        lines += ["", "Weakest first (mean of the two colours' win rates; each colour above):", ""]
        lines += [
            f"{k}. {r['oracle']}: responder {r['mean_responder_win_rate']:.0%}, baseline "
            f"{r['mean_baseline_win_rate']:.0%}; exploitable from: "
            f"{', '.join(r['exploitable']) or 'no colour'}"
            for k, r in enumerate(ranking(report), 1)
        ]
    for entry in report["oracles"]:
        for side, c in entry["colours"].items():
            lines += ["", f"## {entry['oracle']} ({c['oracle_profile']}), responder as {side}", ""]
            verdict = (
                "**exploitable**: the responder beats it from this seat more often than the "
                "Oracle itself does"
                if c["exploitable"]
                else "not shown exploitable against its own mirror at this n"
            )
            lines += [f"Verdict: {verdict}.", ""]
            if c.get("recipe_note"):
                lines += [f"Recipes: {c['recipe_note']}.", ""]
            for k, recipe in enumerate(c.get("recipes", []), 1):
                lines += [f"**Recipe {k}** ({recipe['games']} winning games): {recipe['words']}"]
                for replay in recipe["replays"]:
                    lines.append(f"- replay: `{replay['command']}`")
                if recipe.get("check"):
                    chk = recipe["check"]
                    lines.append(
                        f"- check: `{chk['agent']}` wins {_pct(chk['result'])}; it "
                        f"{chk['verdict']}."
                    )
                lines.append("")
            rules = c["rules"]
            if rules.get("note"):
                lines += [f"Rules that fire more in lost games: {rules['note']}.", ""]
            elif rules["rows"]:
                lines += [
                    f"Rules that fire more in lost games ({rules['lost']} lost, "
                    f"{rules['not_lost']} not lost; rate = share of games it fired in):",
                    "",
                    "| rule | rate lost | rate not lost | difference |",
                    "|---|---|---|---|",
                ]
                lines += [
                    f"| {r['rule']} | {r['rate_lost']:.0%} | {r['rate_not_lost']:.0%} | "
                    f"{r['difference']:+.0%} [{r['low']:+.0%}, {r['high']:+.0%}]"
                    f"{' *' if r['significant'] else ''} |"
                    for r in rules["rows"]
                ]
                lines.append("")
            else:
                lines += ["Rules that fire more in lost games: none.", ""]
    return "\n".join(lines).rstrip() + "\n"


def write_outputs(report: Mapping[str, Any], out: Path) -> list[Path]:
    """Write ``stress.json`` and ``stress.md`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "stress.json", out / "stress.md"]
    written[0].write_text(json.dumps(report, indent=2), encoding="utf-8")
    written[1].write_text(render_markdown(report), encoding="utf-8")
    return written


def write_replays(report: Mapping[str, Any], out: Path, count: int) -> list[str]:
    """Write HTML replays and logs of the first ``count`` recipe games of each colour."""
    from riven_env.engines import play_game
    from riven_env.game.events import write_jsonl
    from riven_env.replay import write_replay

    written: list[str] = []
    if count <= 0:
        return written
    out.mkdir(parents=True, exist_ok=True)
    overrides = dict(report["overrides"]) or None
    for entry in report["oracles"]:
        tag = entry["oracle"].replace(":", "-")
        for side, c in entry["colours"].items():
            seeds = [s for r in c.get("recipes", []) for s in r["seeds"]][:count]
            for seed in seeds:
                blue, red = ((report["responder"], entry["oracle"]) if side == "blue"
                             else (entry["oracle"], report["responder"]))  # fmt: skip
                events = play_game(_scenario(report["scenario"]), blue, red, seed,
                                   overrides=overrides)  # fmt: skip
                stem = out / f"{tag}-{side}-seed{seed}"
                write_jsonl(events, stem.with_suffix(".jsonl"))
                written.append(str(write_replay(events, stem.with_suffix(".html"))))
    return written


__all__ = [
    "StressConfig",
    "default_responder",
    "load_settings",
    "paired",
    "play_arm_game",
    "ranking",
    "render_markdown",
    "replay_command",
    "rules_in_lost_games",
    "run",
    "table_rows",
    "write_outputs",
    "write_replays",
]
