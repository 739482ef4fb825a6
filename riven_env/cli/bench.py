"""``riven bench``: speed benchmarks (environment, games, worker scaling, vs KAZ)."""

from __future__ import annotations

import typer

from riven_env.cli.common import (
    EngineOption,
    apply_engine,
    echo_json,
    friendly_errors,
    make_console,
)


def register(app: typer.Typer) -> None:
    app.command("bench")(bench)


@friendly_errors
def bench(
    scenario: str = typer.Option("skirmish-5v5", "--scenario", help="Mission to measure on."),
    env_steps: int = typer.Option(3000, "--env-steps", min=50, help="Env steps to time."),
    games: int = typer.Option(30, "--games", min=1, help="Oracle-vs-oracle games to time."),
    scaling_games: int = typer.Option(
        400,
        "--scaling-games",
        min=2,
        help="Games per worker-count run (playtests run thousands; small runs measure process start-up).",
    ),
    kaz_steps: int = typer.Option(
        10000, "--kaz-steps", min=100, help="knights_archers_zombies steps."
    ),
    memory_games: int = typer.Option(
        200,
        "--memory-games",
        min=1,
        help="Oracle games played after the warm-up to see whether memory levels off.",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object (ratio under kaz_ratio)."
    ),
    quick: bool = typer.Option(
        False, "--quick", help="Every measure at a token size (checks the output, not speed)."
    ),
    engine: EngineOption = None,
) -> None:
    """Measure env steps/s, oracle games/s, scaling, memory, the KAZ ratio, and both engines
    side by side (speed-ups native over python, the batched native env)."""
    from riven_env.bench import run_bench

    engine = apply_engine(engine, scenario)
    result = run_bench(
        quick=quick,
        engine=engine,
        scenario=scenario,
        env_steps=env_steps,
        games=games,
        scaling_games=scaling_games,
        kaz_steps=kaz_steps,
        memory_games=memory_games,
    )
    if as_json:
        echo_json(result)
        return
    from rich.table import Table

    table = Table(title=f"riven bench ({scenario}, this machine)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    table.add_column("met")
    met = result["met"]
    targets = result["targets"]
    scaling = result["scaling"]
    memory = result["memory"]
    rows = [
        ("env steps/s (vs random)", f"{result['env_steps_per_s']:.0f}", "", ""),
        ("env steps/s (vs oracle)", f"{result['env_steps_per_s_vs_oracle']:.0f}", "", ""),
        ("PettingZoo AEC env steps/s", f"{result['pz_steps_per_s']:.0f}", "", ""),
        ("knights_archers_zombies steps/s", f"{result['kaz_steps_per_s']:.0f}", "", ""),
        (
            "env / KAZ ratio (kaz_ratio)",
            f"{result['kaz_ratio']:.2f}",
            f">= {targets['kaz_ratio']}",
            str(met["kaz_ratio"]),
        ),
        ("PettingZoo env / KAZ (pz_kaz_ratio)", f"{result['pz_kaz_ratio']:.2f}", "", ""),
        (
            "oracle-vs-oracle games/s (1 core)",
            f"{result['oracle_games_per_s']:.2f}",
            f">= {targets['oracle_games_per_s_per_core']:.0f}",
            str(met["oracle_games_per_s_per_core"]),
        ),
        ("playtest games/s, 1 worker", f"{scaling['games_per_s']['1']:.2f}", "", ""),
        ("playtest games/s, 2 workers", f"{scaling['games_per_s']['2']:.2f}", "", ""),
        (
            "2 workers / 1 worker",
            f"{scaling['ratio']:.2f}",
            f">= {targets['scaling_ratio_2_workers']}",
            str(met["scaling_ratio_2_workers"]),
        ),
        (
            f"memory after {memory['warmup_games']} games, MiB",
            _mib(memory["rss_mib_after_warmup"]),
            "",
            "",
        ),
        (f"... after {memory['games']} more games, MiB", _mib(memory["rss_mib"]), "", ""),
        *[
            (
                # riven train's ratio is of wall clock (its Python envs run in other processes).
                f"native / python ({'wall' if name == 'train_timesteps' else 'CPU'}): {name}",
                f"{value:.2f}x",
                f">= {targets['speedup.' + name]:.0f}x" if "speedup." + name in targets else "",
                str(met["speedup." + name]) if "speedup." + name in met else "",
            )
            for name, value in result["speedup"].items()
        ],
        *_train_rows(result.get("train", {})),
        (
            f"batched native env steps per CPU s (N = {result['batched']['games']})",
            f"{result['batched']['steps_per_cpu_s']:.0f}",
            "",
            "",
        ),
        (
            "batched / KAZ (batched_kaz_ratio)",
            f"{result['batched_kaz_ratio']:.2f}",
            f">= {targets['batched_kaz_ratio']:.0f}",
            str(met["batched_kaz_ratio"]),
        ),
        (
            "memory per game native / python",
            f"{result['memory_per_game']['ratio']:.2f}",
            f"<= {targets['memory_per_game_ratio']:.0f}",
            str(met["memory_per_game_ratio"]),
        ),
    ]
    for row in rows:
        table.add_row(*row)
    make_console().print(table)


def _train_rows(train: dict) -> list[tuple[str, str, str, str]]:
    """riven train timesteps/s per engine and where the time went."""
    if "skipped" in train or not train:
        return [("riven train timesteps/s", "skipped: " + train.get("skipped", "n/a"), "", "")]
    rows = []
    for engine in ("python", "native"):
        split = train[engine]
        shares = ", ".join(f"{k} {v:.0%}" for k, v in split["share"].items())
        rows.append(
            (
                f"riven train timesteps/s, {engine} ({split.get('vec_env', '?')}; {shares})",
                f"{split['timesteps_per_s']:.0f}",
                "",
                "",
            )
        )
    return rows


def _mib(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}"
