"""``riven odds``: exact probabilities of activation rolls, 2d6 tests, melee and shots.

Every command prints a rich table (percent and exact fraction) or, with ``--json``,
exactly one JSON object of outcome -> probability (as a float) on stdout. Rules data
comes from ``--rules FILE`` and ``--set KEY=VALUE`` (on the ``odds`` group or on each
command; the command's settings win), passed to ``load_rules(path, overrides)``.
Bad input exits with status 2 and a one-line message on stderr naming the option.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from riven_env.cli.common import make_console

if TYPE_CHECKING:  # the rules engine loads only when a command runs
    from riven_env.rules.odds import RulesLike

# Exit status for bad input, as click uses for usage errors.
USAGE_ERROR = 2

RulesFileOption = typer.Option(
    None,
    "--rules",
    metavar="FILE",
    help="Rules TOML file (default: the bundled riven-v0.1.toml).",
)
SetOption = typer.Option(
    None,
    "--set",
    metavar="KEY=VALUE",
    help="Override one rules value, KEY=VALUE (dotted or unique leaf key); repeatable.",
)
JsonOption = typer.Option(False, "--json", help="Print one JSON object instead of a table.")
ResolutionOption = typer.Option(
    None, "--resolution", help="Dice engine (riven, riddle-of-steel, ...); default riven."
)


@dataclass
class _RulesChoice:
    """Where the rules come from: a file and overrides gathered from group and command."""

    path: Path | None = None
    overrides: dict[str, str] = field(default_factory=dict)


class _BadInput(Exception):
    """Bad command-line input; the message is printed as one line."""


def _parse_sets(values: list[str] | None) -> dict[str, str]:
    overrides: dict[str, str] = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise _BadInput(f"--set {item!r}: expected KEY=VALUE, e.g. activation.turnover=sbh")
        overrides[key.strip()] = value.strip()
    return overrides


def _option_name(argument: str) -> str:
    # OddsInputError names the function argument; every option here is spelled after it.
    return "--" + argument.replace("_", "-")


@contextmanager
def _reported_errors() -> Iterator[None]:
    """Turn known errors into one line on stderr and exit status 2 (no traceback)."""
    from riven_env.errors import RivenError
    from riven_env.rules.odds import OddsInputError

    try:
        yield
    except _BadInput as error:
        message = str(error)
    except OddsInputError as error:
        from riven_env.errors import did_you_mean

        # A list of names ("none, soft, hard (shooting.cover_tn)") gets the closest one first.
        names = [n.strip() for n in error.allowed.split("(")[0].split(",")]
        hint = did_you_mean(error.value, names) if isinstance(error.value, str) else ""
        message = (
            f"{_option_name(error.field)} {error.value!r} is not allowed{hint} "
            f"(allowed: {error.allowed})"
        )
    except RivenError as error:
        message = str(error)
    else:
        return
    one_line = " ".join(message.split())  # a data error may quote a multi-line value
    typer.echo(f"error: {one_line}", err=True)
    raise typer.Exit(USAGE_ERROR)


def _load(ctx: typer.Context, path: Path | None, sets: list[str] | None, **extra: str) -> RulesLike:
    from riven_env.rules.config import load_rules

    group: _RulesChoice = ctx.obj if isinstance(ctx.obj, _RulesChoice) else _RulesChoice()
    overrides = {**group.overrides, **_parse_sets(sets), **extra}
    return load_rules(path or group.path, overrides or None)


# ----------------------------------------------------------------------- printing


def _percent_text(value: Fraction) -> str:
    return f"{float(value) * 100:.2f}%"


def _signed(modifier: int) -> str:
    if modifier == 0:
        return ""
    return f" + {modifier}" if modifier > 0 else f" - {-modifier}"


def _print_json(payload: object) -> None:
    typer.echo(json.dumps(payload))


def _print_odds(title: str, odds: Mapping[str, Fraction], notes: Mapping[str, str]) -> None:
    from rich.table import Table

    table = Table(title=title)
    table.add_column("Outcome")
    table.add_column("Probability", justify="right")
    table.add_column("Exact", justify="right")
    table.add_column("Meaning")
    for key, value in odds.items():
        if key == "expected_actions":
            table.add_row(key, f"{float(value):.3f}", str(value), notes.get(key, ""))
        else:
            table.add_row(key, _percent_text(value), str(value), notes.get(key, ""))
    make_console().print(table)


_ACTIVATION_NOTES = {
    "pass": "no action; the turn passes",
    "zero_clean": "no action; may activate another model",
    "one_then_pass": "1 action, then the turn passes",
    "one_clean": "1 action; may activate another model",
    "two": "2 actions",
    "three": "3 actions",
    "expected_actions": "mean actions per activation",
    "p_turn_passes": "chance the side's turn ends after this model",
}


def _band_notes(rules: RulesLike) -> dict[str, str]:
    return {
        "miss": "fail with a complication",
        "partial": "success at a cost",
        "hit": "clean success",
        "critical": f"exceptional (+{rules.get('momentum.gain.critical')} Momentum)",
    }


def _shot_notes(rules: RulesLike) -> dict[str, str]:
    # Each band's effect as the data defines it (shooting.effects.<band>).
    notes: dict[str, str] = {}
    for band in ("miss", "partial", "hit", "critical"):
        effect = rules.get(f"shooting.effects.{band}")
        parts = []
        wounds = effect.get("wounds", 0)
        parts.append(f"{wounds} wound" + ("" if wounds == 1 else "s"))
        if effect.get("push_distance"):
            parts.append(f'target pushed {effect["push_distance"]}"')
        if effect.get("shooter_exposed"):
            parts.append("shooter exposed")
        if effect.get("complication"):
            parts.append("Complication Oracle")
        notes[band] = "; ".join(parts)
    return notes


def _melee_notes(rules: RulesLike) -> dict[str, str]:
    # Built from the data, so a designer's house rules show up in the explanation.
    margin = rules.get("melee.wound_margin")
    ratio = rules.get("melee.critical_ratio")
    recoil = rules.get("melee.recoil_distance")
    condition = rules.get("melee.critical_condition")
    recoil_range = f"1-{margin - 1}" if margin > 2 else "1" if margin == 2 else "never"
    return {
        "parry": "equal totals: nothing happens",
        "recoil_dealt": f'win by {recoil_range}: foe recoils {recoil}"',
        "wound_dealt": f"win by {margin}+: foe takes a wound",
        "critical_dealt": f"{ratio}x foe's total: wound + {condition}",
        "recoil_taken": f'lose by {recoil_range}: you recoil {recoil}"',
        "wound_taken": f"lose by {margin}+: you take a wound",
        "critical_taken": f"foe gets {ratio}x yours: wound + {condition}",
    }


def _print_activation_table(rules: RulesLike) -> None:
    from rich import box
    from rich.table import Table

    from riven_env.rules.odds import activation_outcome_keys, activation_table, dominated_choices

    rows = activation_table(rules)
    dominated = dominated_choices(rules)
    flags: dict[tuple[int, int], list[int]] = {}
    for choice in dominated:
        flags.setdefault((choice.mettle, choice.dice), []).append(choice.dominated_by)

    turnover = rules.get("activation.turnover")
    # Two tables sharing the Mettle/Dice key columns: together they would not fit an
    # 80-column terminal. The first carries the two measures that decide dominance.
    summary = Table(title=f"Activation choices (turnover: {turnover})", box=box.SIMPLE_HEAD)
    for heading in ("Mettle", "Dice", "Expected actions", "P(turn passes)", "Dominated by"):
        summary.add_column(heading, justify="left" if heading == "Dominated by" else "right")
    outcomes = Table(title=f"Activation outcomes (turnover: {turnover})", box=box.SIMPLE_HEAD)
    outcome_keys = activation_outcome_keys(rules)
    for heading in ("Mettle", "Dice", *outcome_keys):
        # Fold, not truncate: variant rules add columns, and a key must stay readable.
        outcomes.add_column(heading, justify="right", overflow="fold")
    for row in rows:
        odds = row.odds
        better = flags.get((row.mettle, row.dice), [])
        summary.add_row(
            f"{row.mettle}+",
            str(row.dice),
            f"{float(odds['expected_actions']):.3f} ({odds['expected_actions']})",
            f"{_percent_text(odds['p_turn_passes'])} ({odds['p_turn_passes']})",
            ", ".join(f"{count} dice" for count in better),
            style="dim" if better else None,
        )
        outcomes.add_row(
            f"{row.mettle}+",
            str(row.dice),
            *(_percent_text(odds[key]) for key in outcome_keys),
        )
    console = make_console()
    console.print(summary)
    console.print(outcomes)
    for choice in dominated:
        console.print(f"dominated: {choice.why}", highlight=False, soft_wrap=True)


# ----------------------------------------------------------------------- commands

odds_app = typer.Typer(
    name="odds",
    help="Exact odds of activation rolls, 2d6 tests, melee and shots.",
    no_args_is_help=True,
)


@odds_app.callback()
def odds_group(
    ctx: typer.Context,
    rules_file: Path | None = RulesFileOption,
    set_values: list[str] | None = SetOption,
) -> None:
    """Exact odds of activation rolls, 2d6 tests, melee and shots."""
    with _reported_errors():
        ctx.obj = _RulesChoice(rules_file, _parse_sets(set_values))


@odds_app.command("activation")
def activation_command(
    ctx: typer.Context,
    mettle: int | None = typer.Option(
        None, "--mettle", help="Mettle threshold: a die succeeds on this or higher."
    ),
    dice: int | None = typer.Option(None, "--dice", help="Activation dice to roll."),
    table: bool = typer.Option(False, "--table", help="The whole Mettle x dice table."),
    turnover: str | None = typer.Option(None, "--turnover", help="Turnover rule: raw or sbh."),
    as_json: bool = JsonOption,
    rules_file: Path | None = RulesFileOption,
    set_values: list[str] | None = SetOption,
) -> None:
    """Odds of an activation roll of DICE dice against METTLE (or the whole table)."""
    from riven_env.rules.odds import TURNOVER_RULES, activation_odds, activation_table
    from riven_env.rules.odds import dominated_choices as find_dominated

    with _reported_errors():
        extra: dict[str, str] = {}
        if turnover is not None:
            if turnover not in TURNOVER_RULES:
                raise _BadInput(
                    f"--turnover {turnover!r} is not allowed; allowed: {', '.join(TURNOVER_RULES)}"
                )
            extra["activation.turnover"] = turnover
        rules = _load(ctx, rules_file, set_values, **extra)
        if table:
            if as_json:
                _print_json(
                    {
                        "rows": [row.to_dict() for row in activation_table(rules)],
                        "dominated": [choice.to_dict() for choice in find_dominated(rules)],
                    }
                )
            else:
                _print_activation_table(rules)
            return
        missing = [
            name for name, value in (("--mettle", mettle), ("--dice", dice)) if value is None
        ]
        if missing:
            raise _BadInput(f"{' and '.join(missing)} required (or use --table)")
        odds = activation_odds(mettle, dice, rules)  # type: ignore[arg-type]
        if as_json:
            _print_json({key: float(value) for key, value in odds.items()})
        else:
            turnover_rule = rules.get("activation.turnover")
            title = f"Activation: {dice} dice vs Mettle {mettle}+ (turnover: {turnover_rule})"
            _print_odds(title, odds, _ACTIVATION_NOTES)


ResolutionOption = typer.Option(
    "riven",
    "--resolution",
    metavar="SYSTEM",
    help="Resolution system (riven, invictus, new-world, ...; see docs/resolution-systems.md).",
)


def _system_odds(
    ctx: typer.Context,
    resolution: str,
    what: str,
    rules_file: Path | None,
    set_values: list[str] | None,
    options: Mapping[str, object],
) -> tuple[RulesLike, dict[str, object]]:
    """Load the rules with ``resolution`` and call the odds function that system registered."""
    from riven_env.rules.resolution import system_spec

    rules = _load(ctx, rules_file, set_values, resolution=resolution)
    spec = system_spec(resolution)
    function = {"test": spec.odds_test, "melee": spec.odds_melee, "shoot": spec.odds_shoot}.get(
        what
    )
    if function is None:
        raise _BadInput(f"--resolution {resolution}: the system defines no {what} odds")
    return rules, function(rules, **options)


def _jsonable_odds(value: object) -> object:
    """Odds as JSON: numbers as floats, lists and tables (a RoS margin table) kept."""
    if isinstance(value, (list, tuple)):
        return [_jsonable_odds(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable_odds(v) for k, v in value.items()}
    return float(value)  # type: ignore[arg-type]


def _print_system_odds(
    title: str, odds: Mapping[str, object], as_json: bool, notes: Mapping[str, str] | None = None
) -> None:
    """Print a system's odds: fractions in the table, floats (lists, tables) in JSON."""
    if as_json:
        _print_json(_jsonable_odds(odds))
        return
    flat: dict[str, Fraction] = {}
    for key, value in odds.items():
        if isinstance(value, (list, tuple)):
            flat.update({f"{key}[{n}]": Fraction(x) for n, x in enumerate(value)})
        elif isinstance(value, Mapping):
            flat.update({f"{key} {k}": Fraction(x) for k, x in value.items()})
        else:
            flat[key] = Fraction(value)  # type: ignore[arg-type]
    _print_odds(title, flat, notes or {})


def _int_option(name: str, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise _BadInput(f"--{name} {value!r}: expected an integer") from None


@odds_app.command("test")
def test_command(
    ctx: typer.Context,
    attribute: int | None = typer.Option(None, "--attribute", help="Attribute added to 2d6."),
    tn: int | None = typer.Option(None, "--tn", help="Target number."),
    difficulty: str | None = typer.Option(
        None,
        "--difficulty",
        help="Named difficulty instead of --tn (easy, standard, hard, brutal); "
        "New World: the difficulty number.",
    ),
    modifier: int = typer.Option(0, "--modifier", help="Sum of other modifiers."),
    resolution: str = ResolutionOption,
    dice: int | None = typer.Option(None, "--dice", help="Pool size (Invictus, Riddle of Steel)."),
    favourable: bool = typer.Option(False, "--favourable", help="Invictus: a Favourable roll."),
    unfavourable: bool = typer.Option(
        False, "--unfavourable", help="Invictus: an Unfavourable roll."
    ),
    bonus: int | None = typer.Option(
        None, "--bonus", help="New World: characteristic + skill rank + modifiers."
    ),
    as_json: bool = JsonOption,
    rules_file: Path | None = RulesFileOption,
    set_values: list[str] | None = SetOption,
) -> None:
    """Odds of a test: RIVEN's 2d6 + ATTRIBUTE + MODIFIER against a TN, or another
    system's roll (``--resolution invictus --dice N``, ``--resolution new-world --bonus B
    --difficulty D``, ``--resolution riddle-of-steel --dice N --tn T``)."""
    from riven_env.rules.odds import difficulty_tn, test_odds

    with _reported_errors():
        if resolution != "riven":
            options = {
                "dice": dice,
                "tn": tn,
                "favourable": favourable or None,
                "unfavourable": unfavourable or None,
                "bonus": bonus,
                "difficulty": _int_option("difficulty", difficulty),
                "attribute": attribute,
                "modifier": modifier or None,
            }
            rules, odds = _system_odds(ctx, resolution, "test", rules_file, set_values, options)
            given = " ".join(
                f"--{k}" + ("" if v is True else f" {v}")
                for k, v in options.items()
                if v is not None
            )
            _print_system_odds(f"{resolution} test: {given}", odds, as_json)
            return
        if attribute is None:
            raise _BadInput("--attribute is required (RIVEN's 2d6 + attribute)")
        if (tn is None) == (difficulty is None):
            raise _BadInput("give exactly one of --tn or --difficulty")
        rules = _load(ctx, rules_file, set_values)
        target = tn if tn is not None else difficulty_tn(difficulty, rules)  # type: ignore[arg-type]
        odds = test_odds(attribute, target, modifier, rules)
        if as_json:
            _print_json({key: float(value) for key, value in odds.items()})
        else:
            named = f" ({difficulty})" if difficulty else ""
            title = f"2d6 + {attribute}{_signed(modifier)} vs TN {target}{named}"
            _print_odds(title, odds, _band_notes(rules))


@odds_app.command("melee")
def melee_command(
    ctx: typer.Context,
    might: int | None = typer.Option(None, "--might", help="Your Might."),
    vs: int | None = typer.Option(None, "--vs", help="The opponent's Might."),
    modifier: int = typer.Option(0, "--modifier", help="Sum of your modifiers."),
    vs_modifier: int = typer.Option(0, "--vs-modifier", help="Sum of the opponent's modifiers."),
    resolution: str = ResolutionOption,
    attack_dice: int | None = typer.Option(None, "--attack-dice", help="Attack dice (RoS)."),
    atn: int | None = typer.Option(None, "--atn", help="Attack TN (RoS)."),
    defence_dice: int | None = typer.Option(None, "--defence-dice", help="Defence dice (RoS)."),
    dtn: int | None = typer.Option(None, "--dtn", help="Defence TN (RoS)."),
    as_json: bool = JsonOption,
    rules_file: Path | None = RulesFileOption,
    set_values: list[str] | None = SetOption,
) -> None:
    """Odds of one melee exchange, from your side: 2d6 + MIGHT vs 2d6 + VS (RIVEN), or
    another system's melee (``--resolution``; The Riddle of Steel: one exchange,
    ``--attack-dice A --atn T --defence-dice D --dtn T2``)."""
    from riven_env.rules.odds import melee_odds

    with _reported_errors():
        if resolution != "riven":
            pools = {
                "attack_dice": attack_dice,
                "atn": atn,
                "defence_dice": defence_dice,
                "dtn": dtn,
            }
            options: dict[str, object] = {
                "might": might,
                "vs": vs,
                "modifier": modifier,
                "vs_modifier": vs_modifier,
            }
            options.update({k: v for k, v in pools.items() if v is not None})
            _, odds = _system_odds(ctx, resolution, "melee", rules_file, set_values, options)
            if any(v is not None for v in pools.values()):
                title = (
                    f"{resolution} melee: {attack_dice} dice vs ATN {atn} against "
                    f"{defence_dice} dice vs DTN {dtn}"
                )
            else:
                title = f"{resolution} melee: Might {might}{_signed(modifier)} vs {vs}{_signed(vs_modifier)}"
            _print_system_odds(title, odds, as_json)
            return
        if might is None or vs is None:
            raise _BadInput("--might and --vs are required")
        rules = _load(ctx, rules_file, set_values)
        odds = melee_odds(might, vs, modifier, vs_modifier, rules)
        if as_json:
            _print_json({key: float(value) for key, value in odds.items()})
        else:
            title = f"Melee: 2d6 + {might}{_signed(modifier)} vs 2d6 + {vs}{_signed(vs_modifier)}"
            _print_odds(title, odds, _melee_notes(rules))


@odds_app.command("shoot")
def shoot_command(
    ctx: typer.Context,
    agility: int = typer.Option(..., "--agility", help="The shooter's Agility."),
    cover: str = typer.Option(..., "--cover", help="Target's cover: none, soft or hard."),
    modifier: int = typer.Option(0, "--modifier", help="Sum of other modifiers."),
    vs_agility: int | None = typer.Option(
        None, "--vs-agility", help="New World: the target's Agility (its passive difficulty)."
    ),
    resolution: str = ResolutionOption,
    as_json: bool = JsonOption,
    rules_file: Path | None = RulesFileOption,
    set_values: list[str] | None = SetOption,
) -> None:
    """Odds of a shot: 2d6 + AGILITY + MODIFIER against the cover's Evasion TN (RIVEN), or
    another system's shot (``--resolution``)."""
    from riven_env.rules.odds import shoot_odds

    with _reported_errors():
        if resolution != "riven":
            options = {
                "agility": agility,
                "cover": cover,
                "modifier": modifier,
                "vs_agility": vs_agility,
            }
            _, odds = _system_odds(ctx, resolution, "shoot", rules_file, set_values, options)
            target = "" if vs_agility is None else f" at Agility {vs_agility}"
            title = (
                f"{resolution} shot: Agility {agility}{_signed(modifier)}{target}, {cover} cover"
            )
            _print_system_odds(title, odds, as_json)
            return
        rules = _load(ctx, rules_file, set_values)
        odds = shoot_odds(agility, cover, modifier, rules)
        if as_json:
            _print_json({key: float(value) for key, value in odds.items()})
        else:
            tn = rules.get(f"shooting.cover_tn.{cover}")
            title = f"Shot: 2d6 + {agility}{_signed(modifier)} vs Evasion TN {tn} ({cover} cover)"
            _print_odds(title, odds, _shot_notes(rules))


def register(app: typer.Typer) -> None:
    """Add the ``odds`` command group to the ``riven`` app."""
    app.add_typer(odds_app, name="odds")
