"""``riven play``: one game between two agents, with an event log and an HTML replay."""

from __future__ import annotations

from pathlib import Path

import typer

from riven_env.cli.common import (
    EngineOption,
    QuietOption,
    apply_engine,
    check_output,
    echo_json,
    friendly_errors,
    parse_overrides,
)


def register(app: typer.Typer) -> None:
    app.command("play")(play)


@friendly_errors
def play(
    scenario: str = typer.Option(
        "skirmish-5v5", "--scenario", help="Bundled scenario name or a scenario file."
    ),
    blue: str = typer.Option(
        "oracle",
        "--blue",
        help="Agent for blue: oracle, oracle:PROFILE, random, greedy, mcts[:N], expert[:BUDGET], "
        "ppo:PATH, or human (you, in the browser: docs/play.md).",
    ),
    red: str = typer.Option("oracle", "--red", help="Agent for red."),
    seed: int = typer.Option(0, "--seed", help="Game seed: the same seed gives the same game."),
    log: Path | None = typer.Option(None, "--log", help="Write the event log (JSON Lines) here."),
    replay: Path | None = typer.Option(
        None, "--replay", help="Write a self-contained HTML replay here."
    ),
    set_: list[str] | None = typer.Option(
        None, "--set", help="Rules override KEY=VALUE (repeatable)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    quiet: QuietOption = False,
    engine: EngineOption = None,
) -> None:
    """Play one game and print the result (a side given as ``human``: in the browser)."""
    if "human" in (blue.strip().lower(), red.strip().lower()):
        from riven_env.cli.serve import play_in_browser

        play_in_browser(
            scenario, blue, red, seed, engine, log=log, replay=replay, set_=set_, json=as_json
        )
        return
    check_output(log, "--log")
    apply_engine(engine, scenario, parse_overrides(set_))
    check_output(replay, "--replay")
    from riven_env.engines import play_game
    from riven_env.game.events import write_jsonl
    from riven_env.progress import game_progress

    # One game: the bar counts rounds (of the scenario's round limit).
    bar = game_progress(not quiet, unit="rounds")
    task = bar.add_task(f"{blue} vs {red}", total=None)

    def advance(state) -> None:
        bar.update(task, total=state.round_limit, completed=state.round - 1)

    costs: dict[str, dict] = {}
    with bar:
        events = play_game(
            scenario,
            blue,
            red,
            seed,
            overrides=parse_overrides(set_),
            on_decision=advance,
            costs=costs,
            engine=engine,
        )
        bar.update(task, completed=bar.tasks[0].total or 0)
    end = events[-1] if events and events[-1]["type"] == "game_end" else None
    if log is not None:
        write_jsonl(events, log)
    if replay is not None:
        from riven_env.replay import write_replay

        write_replay(events, replay)
    result = {
        "scenario": events[0]["scenario"],
        "blue": blue,
        "red": red,
        "seed": seed,
        "winner": end["winner"] if end else None,
        "draw": end["draw"] if end else False,
        "reason": end["reason"] if end else "unfinished",
        "rounds": end["rounds"] if end else None,
        "points": end["points"] if end else None,
        "events": len(events),
        # Wall-clock time each agent spent deciding (not reproducible: it is this machine's).
        "cost": {
            side: {
                "decisions": spent["decisions"],
                "ms_per_decision": round(1000 * spent["seconds"] / spent["decisions"], 3),
            }
            for side, spent in costs.items()
            if spent["decisions"]
        },
    }
    if as_json:
        echo_json(result)
        return
    outcome = "draw" if result["draw"] else f"{result['winner']} wins"
    points = ", ".join(f"{side} {n}" for side, n in (result["points"] or {}).items()) or "-"
    typer.echo(
        f"{result['scenario']}: {blue} (blue) vs {red} (red), seed {seed}: {outcome} "
        f"by {result['reason']} after {result['rounds']} rounds; points: {points}; "
        f"{len(events)} events"
    )
    for side, spent in costs.items():
        agent = blue if side == "blue" else red
        line = spent.get("search") or (
            f"{spent['decisions']} decisions, "
            f"{1000 * spent['seconds'] / max(1, spent['decisions']):.1f} ms per decision"
        )
        typer.echo(f"cost {side} ({agent}): {line}")
    if log is not None:
        typer.echo(f"log: {log}")
    if replay is not None:
        typer.echo(f"replay: {replay}")
