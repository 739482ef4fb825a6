"""``riven campaign``: list, validate, play, playtest, report and compare campaigns
(docs/campaigns.md).

Bad input (an unknown campaign, a bad file, an unknown agent or policy, an unwritable
``--log``) prints one line ``error: ...`` on stderr and exits 2, before anything is written.
``validate`` prints every problem of each file, one per line, and exits 2 when one is invalid.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from riven_env.cli.common import (
    EngineOption,
    QuietOption,
    apply_engine,
    check_output,
    echo_json,
    fail,
    friendly_errors,
)

if TYPE_CHECKING:
    from riven_env.campaign.loader import CampaignSpec

EXIT_INVALID = 2

#: Options that ``play``, ``playtest`` and ``compare`` share.
Target = Annotated[str, typer.Argument(help="A bundled campaign name or a campaign file.")]
Blue = Annotated[str, typer.Option("--blue", help="Battle agent of the warband.")]
Red = Annotated[str, typer.Option("--red", help="Battle agent of the threat.")]
#: ``--policy`` of ``playtest`` and ``compare`` (``play`` says more in its help).
Policy = Annotated[str, typer.Option("--policy", help="oracle | random.")]
FirstSeed = Annotated[int, typer.Option("--seed", help="First campaign seed.")]
Workers = Annotated[
    int | None, typer.Option("--workers", min=1, help="Worker processes (default: CPUs).")
]
Db = Annotated[Path, typer.Option("--db", help="DuckDB file (resumable).")]
SummaryJson = Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")]


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The readable summary ``riven campaign play`` prints."""
    s = summary
    lines = [
        f"{s['campaign']}: {s['blue']} (warband) vs {s['red']} (threat), policy {s['policy']}, "
        f"seed {s['seed']}: {s['result']} after {s['steps_played']} of {s['steps']} missions: "
        f"{s['won']} won, {s['lost']} lost, {s['draw']} drawn, {s['skipped']} skipped",
        f"living: {', '.join(s['living']) or '-'}; dead: {', '.join(s['dead']) or '-'}; "
        f"retired: {', '.join(s['retired']) or '-'}",
    ]
    for step in s["per_step"]:
        if step["result"] == "skipped":
            lines.append(f"  mission {step['step'] + 1}: skipped")
        else:
            lines.append(
                f"  mission {step['step'] + 1}: {step['result']:<4}  "
                f"warband {step['fielded']} vs threat {step['enemy']}, {step['alive']} living after"
            )
    return lines


def _check_counts(campaigns: int, seed: int) -> None:
    if campaigns < 1 or seed < 0:
        raise fail(
            f"--campaigns {campaigns} / --seed {seed}: expected --campaigns >= 1, --seed >= 0"
        )


def _checked_campaign(target: str, policy: str, blue: str, red: str) -> CampaignSpec:
    """The campaign spec, once its policy and both battle agents are known good: a bad one
    is refused up front, before anything is played or written."""
    from riven_agents.registry import make_agent

    from riven_env.campaign import load_campaign, make_policy
    from riven_env.campaign.rules import load_campaign_rules

    spec = load_campaign(target)
    make_policy(policy, load_campaign_rules(spec.rules_path), 0)
    for side, agent in (("blue", blue), ("red", red)):
        make_agent(agent, side, [0, 1])
    return spec


def _play(
    target: str,
    blue: str,
    red: str,
    seed: int,
    policy: str,
    log: Path | None,
    as_json: bool,
    quiet: bool,
    engine: str | None,
) -> None:
    check_output(log, "--log")
    from riven_env.campaign import play_campaign, write_campaign_log

    if seed < 0:
        raise fail(f"--seed {seed}: expected an integer >= 0")
    spec = _checked_campaign(target, policy, blue, red)
    apply_engine(engine)
    from riven_env.progress import game_progress

    bar = game_progress(not quiet, unit="missions")
    task = bar.add_task(spec.name, total=len(spec.steps))
    with bar:
        result = play_campaign(
            spec,
            blue,
            red,
            seed,
            policy=policy,
            engine=engine,
            on_step=lambda done, total: bar.update(task, completed=done),
        )
    if log is not None:
        write_campaign_log(result.records, log)
    if as_json:
        echo_json(
            {**result.summary, "log": str(log) if log else None, "records": len(result.records)}
        )
        return
    for line in summary_lines(result.summary):
        typer.echo(line)
    if log is not None:
        typer.echo(f"log: {log} ({len(result.records)} records)")


def _list() -> None:
    from riven_env.campaign import list_campaigns

    infos = list_campaigns()
    width = max((len(i.name) for i in infos), default=0)
    title = max((len(i.title) for i in infos), default=0)
    for info in infos:
        typer.echo(
            f"{info.name:<{width}}  {info.title:<{title}}  {info.setting:<7}  "
            f"{info.mode:<9}  {info.steps} missions"
        )


def _validate(files: list[Path]) -> None:
    from riven_env.campaign import validate_campaign_file

    bad = 0
    for path in files:
        problems = validate_campaign_file(path)
        if problems:
            bad += 1
            for problem in problems:
                typer.echo(problem, err=True)
        else:
            typer.echo(f"{path}: valid")
    if bad:
        raise typer.Exit(EXIT_INVALID)


def _playtest(
    target: str,
    campaigns: int,
    workers: int | None,
    db: Path,
    blue: str,
    red: str,
    policy: str,
    seed: int,
    as_json: bool,
    quiet: bool,
    engine: str | None,
    report: Path | None = None,
) -> None:
    check_output(db, "--db", default=Path("runs/campaigns.duckdb"))
    check_output(report, "--report", suffixes=(".html", ".htm"))
    if report is not None:  # the report's survival curves: refuse before playing
        from riven_env.extras import require

        require("lifelines", "campaign", "campaign survival curves")
    from riven_env.campaign.playtest import run_campaign_playtest
    from riven_env.cli.common import default_workers

    _check_counts(campaigns, seed)
    spec = _checked_campaign(target, policy, blue, red)
    apply_engine(engine)
    from riven_env.progress import game_progress

    bar = game_progress(not quiet, unit="campaigns")
    task = bar.add_task(spec.name, total=None)
    with bar:
        out = run_campaign_playtest(
            target,
            campaigns,
            db,
            blue=blue,
            red=red,
            policy=policy,
            workers=default_workers(workers),
            seed=seed,
            engine=engine,
            on_done=lambda done, total: bar.update(task, completed=done, total=total),
        )
    if report is not None:
        from riven_env.campaign.report import write_campaign_report

        write_campaign_report(db, out["run"], report)
        out["report"] = str(report)
    if as_json:
        echo_json(out)
        return
    typer.echo(
        f"{out['campaign']}: {out['campaigns']} campaigns stored ({out['played']} played "
        f"now); results: " + ", ".join(f"{k} {v}" for k, v in out["results"].items())
    )
    for step in out["steps"]:
        rate = step["win_rate"]
        typer.echo(
            f"  mission {step['step'] + 1}: reached {step['reached']:.0%}, won "
            f"{rate['value']:.0%} [{rate['low']:.0%}, {rate['high']:.0%}] of "
            f"{step['played']}, mean living after {step['mean_alive']:.2f}"
        )
    if report is not None:
        typer.echo(f"report: {report}")
    typer.echo(f"results: {out['db']} ({_campaigns(out['campaigns'])})")


def _report(db: Path, run: str | None, output: Path) -> None:
    check_output(output, "--output", suffixes=(".html", ".htm"))
    from riven_env.campaign.report import write_campaign_report

    written = write_campaign_report(db, run, output)
    typer.echo(f"wrote {written}", err=True)


def _rate(d: dict[str, Any]) -> str:
    if d.get("n", 0) == 0 or d["value"] != d["value"]:
        return "-"
    return f"{d['value']:.1%} [{d['low']:.1%}, {d['high']:.1%}]"


def _pts(d: dict[str, Any]) -> str:
    if d["value"] != d["value"]:
        return "-"
    return f"{d['value'] * 100:+.1f} pts [{d['low'] * 100:+.1f}, {d['high'] * 100:+.1f}]"


def compare_lines(data: dict[str, Any]) -> list[str]:
    """The readable table ``riven campaign compare`` prints."""
    arms = [("baseline", data["baseline"]), *[(v["label"], v) for v in data["variants"]]]
    width = max(len(label) for label, _ in arms)
    lines = [
        f"{data['campaign']}: {data['blue']} (warband) vs {data['red']} (threat), policy "
        f"{data['policy']}, campaign seeds {data['seeds'][0]}..{data['seeds'][1]} in every arm",
        f"  {'arm':<{width}}  {'campaigns':>9}  {'lived through [95%]':<26}  "
        f"{'missions won [95%]':<26}  results",
    ]
    for label, arm in arms:
        results = ", ".join(f"{k} {v}" for k, v in arm["results"].items())
        lines.append(
            f"  {label:<{width}}  {arm['campaigns']:>9}  {_rate(arm['lived_through']):<26}  "
            f"{_rate(arm['mission_win_rate']):<26}  {results}"
        )
    if data["variants"]:
        lines.append("  paired differences, variant - baseline, same seeds [95%]:")
        for v in data["variants"]:
            lines.append(
                f"  {v['label']:<{width}}  lived through {_pts(v['lived_through_diff'])}; "
                f"missions won {_pts(v['mission_win_rate_diff'])}"
            )
    return lines


def _compare(
    target: str,
    sets: list[str],
    campaigns: int,
    workers: int | None,
    db: Path,
    blue: str,
    red: str,
    policy: str,
    seed: int,
    as_json: bool,
    quiet: bool,
    engine: str | None,
) -> None:
    check_output(db, "--db", default=Path("runs/campaign-compare.duckdb"))
    from riven_env.campaign.compare import (
        parse_variant,
        rules_document,
        rules_keys,
        run_campaign_compare,
    )
    from riven_env.cli.common import default_workers

    _check_counts(campaigns, seed)
    if not sets:
        raise fail("--set: give at least one variant KEY=VALUE (e.g. fate.out.miss=injury)")
    spec = _checked_campaign(target, policy, blue, red)
    known = rules_keys(rules_document(spec.rules_path))
    for text in sets:  # refuse a bad key before anything is played or written
        parse_variant(text, known)
    apply_engine(engine)
    from riven_env.progress import game_progress

    bar = game_progress(not quiet, unit="campaigns")
    task = bar.add_task("baseline", total=None)
    with bar:
        data = run_campaign_compare(
            target,
            sets,
            campaigns,
            db,
            blue=blue,
            red=red,
            policy=policy,
            workers=default_workers(workers),
            seed=seed,
            engine=engine,
            on_arm=lambda label: bar.update(task, description=label, completed=0),
            on_done=lambda done, total: bar.update(task, completed=done, total=total),
        )
    if as_json:
        echo_json(data)
        return
    for line in compare_lines(data):
        typer.echo(line)
    typer.echo(f"results: {data['db']} ({_campaigns(campaigns * (1 + len(sets)))})")


def register(app: typer.Typer) -> None:
    """Add the ``campaign`` command group to the ``riven`` app."""
    group = typer.Typer(
        name="campaign",
        help="List, validate, play, playtest, report and compare campaigns.",
        no_args_is_help=True,
    )

    @group.command("list")
    @friendly_errors
    def list_command() -> None:
        """List the bundled campaigns: name, title, setting, mode, missions."""
        _list()

    @group.command("validate")
    @friendly_errors
    def validate_command(
        files: Annotated[list[Path], typer.Argument(help="Campaign files to check.")],
    ) -> None:
        """Validate campaign files: "valid", or every problem with its field path."""
        _validate(files)

    @group.command("play")
    @friendly_errors
    def play_command(
        target: Target,
        blue: Blue = "oracle",
        red: Red = "oracle",
        seed: Annotated[int, typer.Option("--seed", help="Campaign seed (>= 0).")] = 0,
        policy: Annotated[
            str, typer.Option("--policy", help="Campaign policy between missions: oracle | random.")
        ] = "oracle",
        log: Annotated[
            Path | None, typer.Option("--log", help="Write the campaign log (JSON Lines) here.")
        ] = None,
        as_json: SummaryJson = False,
        quiet: QuietOption = False,
        engine: EngineOption = None,
    ) -> None:
        """Play a whole campaign and print its summary."""
        _play(target, blue, red, seed, policy, log, as_json, quiet, engine)

    @group.command("playtest")
    @friendly_errors
    def playtest_command(
        target: Target,
        campaigns: Annotated[int, typer.Option("--campaigns", help="Campaigns to play.")] = 100,
        workers: Workers = None,
        db: Db = Path("runs/campaigns.duckdb"),
        blue: Blue = "oracle",
        red: Red = "oracle",
        policy: Policy = "oracle",
        seed: FirstSeed = 0,
        as_json: SummaryJson = False,
        quiet: QuietOption = False,
        engine: EngineOption = None,
        report: Annotated[
            Path | None, typer.Option("--report", help="Also write the HTML report here.")
        ] = None,
    ) -> None:
        """Play many campaigns into DuckDB: per-step win rates and survival by step."""
        _playtest(
            target, campaigns, workers, db, blue, red, policy, seed, as_json, quiet, engine, report
        )

    @group.command("report")
    @friendly_errors
    def report_command(
        db: Annotated[Path, typer.Argument(help="A campaign playtest database (DuckDB).")],
        run: Annotated[
            str | None, typer.Option("--run", help="Run key (default: the only run stored).")
        ] = None,
        output: Annotated[Path, typer.Option("-o", "--output", help="HTML file.")] = Path(
            "campaign-report.html"
        ),
    ) -> None:
        """Write the HTML report of a campaign playtest run."""
        _report(db, run, output)

    @group.command("compare")
    @friendly_errors
    def compare_command(
        target: Target,
        sets: Annotated[
            list[str] | None,
            typer.Option(
                "--set",
                metavar="KEY=VALUE",
                help="A variant of the campaign rules (KEY=VALUE, several joined by &); "
                "repeatable: one arm each.",
            ),
        ] = None,
        campaigns: Annotated[
            int, typer.Option("--campaigns", help="Campaigns per arm (the same seeds).")
        ] = 100,
        workers: Workers = None,
        db: Db = Path("runs/campaign-compare.duckdb"),
        blue: Blue = "oracle",
        red: Red = "oracle",
        policy: Policy = "oracle",
        seed: FirstSeed = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
        quiet: QuietOption = False,
        engine: EngineOption = None,
    ) -> None:
        """Compare campaign rules variants with the baseline on the same campaign seeds."""
        _compare(
            target, sets or [], campaigns, workers, db, blue, red, policy, seed, as_json, quiet,
            engine,
        )  # fmt: skip

    app.add_typer(group, name="campaign")


__all__ = ["compare_lines", "register", "summary_lines"]


def _campaigns(count: int) -> str:
    return f"{count} campaign{'' if count == 1 else 's'}"
