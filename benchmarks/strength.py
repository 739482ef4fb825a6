"""An agent's strength against every Oracle profile, per colour, with 95% intervals.

Plays ``--games`` seeded games of ``--agent`` on blue against ``oracle:PROFILE`` on red, and
as many with the colours swapped, for each profile (default: all seven of
``agents/oracle/data/profiles.toml``), and prints per profile and colour: n, wins, draws,
losses, the win rate with its Wilson 95% interval, and the agent's mean CPU time per
decision (the runner's ``costs``: the cost on one core, whatever else the machine runs). Game ``g`` of a cell uses seed ``--seed + g`` for
both colours, so blue and red games of one profile share their seeds.

Each finished game is appended to ``--out`` (JSON Lines) as it ends, so a long run that is
stopped keeps what it played; ``--summary FILE`` prints the table of such a file again.
docs/agents.md holds the tables this script measured.

Usage::

    python benchmarks/strength.py --agent expert --games 10 --workers 1 --out expert.jsonl
    python benchmarks/strength.py --agent greedy --profiles tactical,beast --games 4
    python benchmarks/strength.py --summary expert.jsonl
    python benchmarks/strength.py --summary oracle.jsonl --matrix   # agents x profiles
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from riven_agents.oracle import profile_names  # noqa: E402

from riven_env.playtest.stats import wilson_interval  # noqa: E402

DEFAULT_SCENARIO = "skirmish-5v5-mirror"


def play_one(
    job: tuple[str, str, str, str, int] | tuple[str, str, str, str, int, str],
) -> dict[str, Any]:
    """Play one game: ``(scenario, agent, profile, agent's colour, seed[, engine])``."""
    from riven_env.engines import play_game

    scenario, agent, profile, colour, seed = job[:5]
    engine = job[5] if len(job) > 5 else "python"
    opponent = f"oracle:{profile}"
    blue, red = (agent, opponent) if colour == "blue" else (opponent, agent)
    costs: dict[str, dict[str, Any]] = {}
    events = play_game(scenario, blue, red, seed, costs=costs, engine=engine)
    end = next(e for e in reversed(events) if e["type"] == "game_end")
    spent = costs.get(colour, {"decisions": 0, "seconds": 0.0})
    winner = end["winner"]
    return {
        "scenario": scenario,
        "engine": engine,
        "agent": agent,
        "profile": profile,
        "colour": colour,
        "seed": seed,
        "result": "win" if winner == colour else "draw" if winner is None else "loss",
        "rounds": end["rounds"],
        "points": end["points"],
        "decisions": spent["decisions"],
        "seconds": spent["seconds"],
        "cpu_seconds": spent.get("cpu_seconds", spent["seconds"]),
    }


def summarise(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per (agent, profile, colour): counts, win rate, interval, ms per decision."""
    cells: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for row in rows:
        cells.setdefault((row["agent"], row["profile"], row["colour"]), []).append(row)
    out = []
    for (agent, profile, colour), games in cells.items():
        wins = sum(g["result"] == "win" for g in games)
        draws = sum(g["result"] == "draw" for g in games)
        rate = wilson_interval(wins, len(games))
        decisions = sum(g["decisions"] for g in games)
        seconds = sum(g.get("cpu_seconds", g["seconds"]) for g in games)
        out.append(
            {
                "agent": agent,
                "profile": profile,
                "colour": colour,
                "n": len(games),
                "wins": wins,
                "draws": draws,
                "losses": len(games) - wins - draws,
                "win_rate": rate.value,
                "low": rate.low,
                "high": rate.high,
                "ms_per_decision": 1000 * seconds / decisions if decisions else None,
                "decisions_per_s": decisions / seconds if seconds else None,
            }
        )
    return out


def markdown(cells: list[dict[str, Any]]) -> str:
    """The summary as a Markdown table (one row per profile, blue and red side by side)."""
    by = {(c["agent"], c["profile"], c["colour"]): c for c in cells}
    lines = [
        "| agent | vs profile | as blue: wins/n, rate [95%] | as red: wins/n, rate [95%] "
        "| CPU ms/decision |",
        "|---|---|---|---|---|",
    ]
    for agent, profile in dict.fromkeys((c["agent"], c["profile"]) for c in cells):
        parts = []
        ms = []
        for colour in ("blue", "red"):
            c = by.get((agent, profile, colour))
            if c is None:
                parts.append("-")
                continue
            parts.append(
                f"{c['wins']}/{c['n']} ({c['draws']} drawn), {100 * c['win_rate']:.0f}% "
                f"[{100 * c['low']:.0f}, {100 * c['high']:.0f}]"
            )
            if c["ms_per_decision"] is not None:
                ms.append(c["ms_per_decision"])
        cost = f"{sum(ms) / len(ms):.1f}" if ms else "-"
        lines.append(f"| {agent} | {profile} | {parts[0]} | {parts[1]} | {cost} |")
    return "\n".join(lines)


def matrix(cells: list[dict[str, Any]]) -> str:
    """The summary as an agent x profile Markdown matrix: "blue wins/n, red wins/n" per cell."""
    by = {(c["agent"], c["profile"], c["colour"]): c for c in cells}
    agents = list(dict.fromkeys(c["agent"] for c in cells))
    profiles = list(dict.fromkeys(c["profile"] for c in cells))
    lines = [
        "| agent \\ vs | " + " | ".join(profiles) + " |",
        "|---|" + "---|" * len(profiles),
    ]
    for agent in agents:
        row = []
        for profile in profiles:
            pair = [by.get((agent, profile, colour)) for colour in ("blue", "red")]
            row.append(" · ".join("-" if c is None else f"{c['wins']}/{c['n']}" for c in pair))
        lines.append(f"| {agent} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="expert")
    parser.add_argument("--scenario", default=DEFAULT_SCENARIO)
    parser.add_argument("--profiles", default="all", help="Comma-separated, or all.")
    parser.add_argument("--games", type=int, default=4, help="Games per profile and colour.")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--engine", default="python", choices=("python", "native"), help="Game engine."
    )
    parser.add_argument("--out", type=Path, help="Append each game to this JSON Lines file.")
    parser.add_argument(
        "--summary", type=Path, nargs="+", help="Only print the table of these files."
    )
    parser.add_argument(
        "--matrix", action="store_true", help="Agents x profiles, blue and red wins per cell."
    )
    parser.add_argument("--json", action="store_true", help="Print the summary as JSON.")
    args = parser.parse_args(argv)
    if args.summary is not None:
        rows = [
            json.loads(x)
            for file in args.summary
            for x in file.read_text(encoding="utf-8").splitlines()
            if x.strip()
        ]
    else:
        names = profile_names() if args.profiles == "all" else args.profiles.split(",")
        jobs = [
            (args.scenario, args.agent, profile, colour, args.seed + g, args.engine)
            for g in range(args.games)
            for profile in names
            for colour in ("blue", "red")
        ]
        rows = []
        with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
            for row in pool.map(play_one, jobs):
                rows.append(row)
                if args.out is not None:
                    with args.out.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(row) + "\n")
    cells = summarise(rows)
    if args.json:
        print(json.dumps(cells, indent=2))
    else:
        print(matrix(cells) if args.matrix else markdown(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
