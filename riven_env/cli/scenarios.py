"""``riven scenarios``: list, show, validate and generate scenario files.

Every command reports bad input without a traceback. ``show`` and ``generate`` print one
line ``error: ...`` and exit with status 2, as every command does. ``validate`` is a checker:
it prints every problem of each file (a missing file, a directory, a binary file or broken
TOML is a problem like any other), one per line, and exits with status 2 when a file is
invalid: bad input, as everywhere.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from riven_env.cli.common import check_output, friendly_errors
from riven_env.errors import RivenError, ScenarioError

#: Exit status of ``validate`` when a file is invalid: bad input, as everywhere (docs/cli.md).
EXIT_INVALID = 2
#: Exit status when the validator itself failed (a bug, reported without a traceback).
EXIT_INTERNAL = 2
#: Exit status of bad input (an unknown scenario or generator option), as everywhere.
EXIT_USAGE = 2

_CONDITION_WORDS = {
    "eliminate": "a side with no active models (all Down, Out or Fled) loses at once",
    "hold": "each hold objective controlled at the end of a round from round {from_round} scores its points",
    "casualties": "{points} point(s) per enemy model taken Out or Fled",
    "extract": "{side} models {models} reaching zone {zone}: {outcome}",
    "protect": "{side} loses at once when any of {models} is Out or Fled",
    "survive": "{side} scores {points} point(s) at the round limit with at least {min_models} active model(s)",
}


def _fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    from riven_env.cli.common import fail

    return fail(message, code)


def _list() -> None:
    """List the bundled scenarios: name, title, setting, mode, declared balance (one per line)."""
    from riven_env.scenario import list_bundled

    infos = list_bundled()
    width = max((len(info.name) for info in infos), default=0)
    title_width = max((len(info.title) for info in infos), default=0)
    mode_width = max((len(info.mode) for info in infos), default=0)
    for info in infos:
        typer.echo(
            f"{info.name:<{width}}  {info.title:<{title_width}}  {info.setting:<7}  "
            f"{info.mode:<{mode_width}}  balance: {info.balance}"
        )


def _number(value: float) -> str:
    return f"{value:g}"


def _point(point: tuple[float, float]) -> str:
    return f"({_number(point[0])}, {_number(point[1])})"


def _rect(rect: tuple[float, ...]) -> str:
    return "[" + ", ".join(_number(v) for v in rect) + "]"


def describe(scenario: object) -> list[str]:
    """The readable summary ``riven scenarios show`` prints, as lines.

    Args:
        scenario: A loaded :class:`~riven_env.scenario.schema.Scenario`.
    """
    from riven_env.scenario.schema import Scenario

    if not isinstance(scenario, Scenario):
        raise TypeError(f"expected a Scenario, got {type(scenario).__name__}")
    s = scenario
    lines = [f"{s.name} - {s.title} ({s.setting}, {s.mode})"]
    if s.description.strip():
        lines += [f"  {line}" for line in s.description.strip().splitlines()]
    kinds = Counter(piece.type for piece in s.table.pieces)
    terrain = ", ".join(f"{kind} x{count}" for kind, count in sorted(kinds.items())) or "none"
    lines += [
        f'Table: {_number(s.table.width)}" x {_number(s.table.height)}", '
        f"{len(s.table.pieces)} terrain pieces ({terrain})",
        f"Rounds: {s.rounds}; first side: {s.first_side}",
        "Deployment: "
        + "; ".join(
            f"{side} {', '.join(_rect(r) for r in rects)}" for side, rects in s.deployment.items()
        ),
        "Sides:",
    ]
    for side in s.sides.values():
        lines.append(f"  {side.key}: {side.name} (oracle {side.oracle}), {len(side.models)} models")
        for m in side.models:
            p = m.profile
            weapons = " / ".join(
                w.display_name(s.setting) for w in (p.melee, p.ranged) if w is not None
            )
            oracle = f"  oracle {m.oracle}" if m.oracle else ""
            keywords = f"  [{', '.join(sorted(p.keywords))}]" if p.keywords else ""
            lines.append(
                f"    {m.id}: {p.name} ({p.display_name(s.setting)})  M{p.might} A{p.agility} W{p.wit} "
                f'R{p.resolve}  Mettle {p.mettle}+  Wounds {p.wounds}  Move {_number(p.move)}"  '
                f"{weapons}  at {_point(m.position)}{keywords}{oracle}"
            )
    lines.append("Objectives:" if s.objectives else "Objectives: none")
    for o in s.objectives:
        lines.append(
            f'  {o.name}: {o.kind}, {o.points} point(s), at {_point((o.x, o.y))}, radius {_number(o.radius)}"'
        )
    lines.append(f"Victory (at the round limit: {s.victory.at_round_limit}):")
    for c in s.victory.conditions:
        outcome = "wins at once" if c.win else f"{c.points} point(s) each"
        text = _CONDITION_WORDS[c.type].format(
            from_round=c.from_round,
            points=c.points,
            side=c.side,
            models=", ".join(c.models),
            zone=_rect(c.zone) if c.zone else "-",
            outcome=outcome,
            min_models=c.min_models,
        )
        lines.append(f"  {c.type}: {text}")
    if s.balance is not None:
        b = s.balance
        lines.append(
            f"Balance: {b.describe()} (within +/- {b.tolerance * 100:g} points, 95% interval "
            f"inside +/- {b.interval * 100:g}; docs/balance.md)"
        )
        lines += [f"  knob: {knob.describe()}" for knob in b.knobs]
    return lines


def _show(target: str) -> None:
    """Print a readable summary of a bundled scenario or a scenario file."""
    from riven_env.cli.common import fail_error
    from riven_env.scenario import load_scenario

    try:
        scenario = load_scenario(target)
    except RivenError as exc:
        raise fail_error(exc) from None
    for line in describe(scenario):
        typer.echo(line)


def _validate(files: list[Path]) -> None:
    """Validate scenario files; print "valid" or every problem of each."""
    from riven_env.scenario import validate_file

    failed = False
    for file in files:
        try:
            problems = validate_file(file)
        except Exception as exc:  # noqa: BLE001 - the CLI promises no traceback, even on a bug
            raise _fail(
                f"{file}: internal error while validating ({type(exc).__name__}: {exc})",
                EXIT_INTERNAL,
            ) from None
        if problems:
            failed = True
            typer.echo(
                f"{file}: invalid ({len(problems)} problem{'s' if len(problems) > 1 else ''})"
            )
            for problem in problems:
                typer.echo(f"  {problem}")
        else:
            typer.echo(f"{file}: valid")
    if failed:
        raise typer.Exit(EXIT_INVALID)


def _generate(
    kind: str, seed: int, setting: str, models_per_side: int, output: Path | None
) -> None:
    """Generate a scenario file from a seed (same seed, same file)."""
    from riven_env.scenario import generate_scenario, to_toml

    try:
        doc = generate_scenario(kind, seed, setting=setting, models_per_side=models_per_side)  # type: ignore[arg-type]
    except ScenarioError as exc:
        # Name the command-line option the value came from (--kind), not the API field.
        option = f"--{exc.field.replace('_', '-')}: " if exc.field else ""
        raise _fail(f"{option}{exc.detail}") from None
    except RivenError as exc:
        raise _fail(str(exc)) from None
    text = to_toml(doc)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{output}: cannot write: {exc.strerror or exc}") from None
    typer.echo(f"wrote {output} (scenario {doc['scenario']['name']})")


def register(app: typer.Typer) -> None:
    """Add the ``scenarios`` command group to the ``riven`` app."""
    group = typer.Typer(
        name="scenarios",
        help="List, show, validate and generate scenario files.",
        no_args_is_help=True,
    )

    @group.command("list")
    def list_command() -> None:
        """List the bundled scenarios: name (what --scenario accepts), title, setting, mode."""
        _list()

    @group.command("show")
    def show_command(
        target: Annotated[str, typer.Argument(help="A bundled scenario name or a scenario file.")],
    ) -> None:
        """Show a scenario: table, terrain, sides and models, objectives, victory."""
        _show(target)

    @group.command("validate")
    def validate_command(
        files: Annotated[list[Path], typer.Argument(help="Scenario files to check.")],
    ) -> None:
        """Validate scenario files: "valid", or every problem with its field path."""
        _validate(files)

    @group.command("generate")
    @friendly_errors
    def generate_command(
        kind: Annotated[str, typer.Option("--kind", help="field | ruins | dungeon")],
        seed: Annotated[int, typer.Option("--seed", min=0, help="Random seed (>= 0).")],
        setting: Annotated[str, typer.Option("--setting", help="fantasy | scifi")] = "fantasy",
        models_per_side: Annotated[
            int, typer.Option("--models-per-side", min=1, max=12, help="Models on each side.")
        ] = 5,
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="File to write (default: print).")
        ] = None,
    ) -> None:
        """Generate a valid scenario file procedurally (same seed, same file)."""
        check_output(output, "--output")
        _generate(kind, seed, setting, models_per_side, output)

    app.add_typer(group, name="scenarios")


__all__ = ["EXIT_INTERNAL", "EXIT_INVALID", "describe", "register"]
