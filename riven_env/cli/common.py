"""Helpers shared by the command modules: option parsing, consoles and friendly errors.

Conventions every command follows (``docs/cli.md``):

* errors are one line ``error: ...`` on stderr with exit status 2 (:func:`friendly_errors`
  for RivenError, :class:`riven_env.cli.main.RivenGroup` for usage errors);
* tables go through :func:`make_console`, which is not cut to 80 columns when the output is
  a pipe or a file;
* commands that play games take ``--workers`` (:data:`WorkersOption`) and ``--quiet``
  (:data:`QuietOption`), and show the shared progress bar (:mod:`riven_env.progress`).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import typer
from rich.console import Console

from riven_env.errors import OutputPathError, RivenError

F = TypeVar("F", bound=Callable[..., Any])
# Exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

#: Width of tables written to a pipe or a file: wide enough that no table of the CLI is cut
#: (rich would otherwise assume 80 columns and truncate cells to "Sequenti…").
PIPE_WIDTH = 1000

#: ``--workers``: parallel worker processes of a command that plays games.
WorkersOption = Annotated[
    int | None,
    typer.Option("--workers", min=1, help="Parallel worker processes (default: all CPUs)."),
]
#: ``--engine``: the game engine of every game a command plays (riven_env.engines).
EngineOption = Annotated[
    str | None,
    typer.Option(
        "--engine",
        help="Game engine: auto (native where the compiled core can play the mission, else "
        "python), python (the reference) or native (the compiled core). Default: "
        "RIVEN_ENGINE, else auto.",
        show_default=False,
    ),
]

#: ``--quiet``: no progress bar (it is never drawn when stderr is not a terminal anyway).
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress bar (never shown when not a TTY).")
]

#: Options of the commands that play and store games (playtest, compare, tournament,
#: balance, skill-trace, meta, oracle audit).
Scenario = Annotated[
    str, typer.Option("--scenario", help="Bundled scenario name or scenario file.")
]
Games = Annotated[int, typer.Option("--games", min=1, help="Number of games (per arm / pairing).")]
Seed = Annotated[
    int, typer.Option("--seed", min=0, help="Run seed; game i plays a seed derived from it.")
]
Backend = Annotated[str, typer.Option("--backend", help="local (processes) or ray.")]
RayAddress = Annotated[
    str | None,
    typer.Option("--ray-address", help="Ray cluster address (default: start a local Ray)."),
]
Db = Annotated[Path, typer.Option("--db", help="Results database (DuckDB file).")]
Sets = Annotated[
    list[str] | None,
    typer.Option("--set", metavar="KEY=VALUE", help="Override a rules value; repeatable."),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
MaxDecisions = Annotated[
    int | None,
    typer.Option("--max-decisions", min=1, help="Stop each game after this many decisions."),
]


def rate_text(rate: dict) -> str:
    """``12.5%  [8.6, 17.8]``: a rate and its interval as the tables print it."""
    if rate["rate"] is None:
        return "-"
    return f"{rate['rate'] * 100:.1f}%  [{rate['low'] * 100:.1f}, {rate['high'] * 100:.1f}]"


def make_console(stderr: bool = False) -> Console:
    """A rich console for tables: the terminal's width, or :data:`PIPE_WIDTH` when piped.

    ``COLUMNS`` in the environment still wins, as rich documents.
    """
    import os

    console = Console(stderr=stderr)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(stderr=stderr, width=PIPE_WIDTH)
    return console


def default_workers(workers: int | None) -> int:
    """``--workers`` or, when not given, every CPU this process may use."""
    if workers is not None:
        return workers
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def parse_overrides(pairs: Sequence[str] | None) -> dict[str, str]:
    """Turn repeated ``--set KEY=VALUE`` options into a dict (values stay strings; the
    rules loader coerces them to the type of the default and names any bad key)."""
    overrides: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(
                f"{pair!r}: expected KEY=VALUE, e.g. turnover=sbh", param_hint="--set"
            )
        overrides[key.strip()] = value.strip()
    return overrides


def apply_engine(
    engine: str | None, scenario: Any = None, overrides: dict[str, Any] | None = None
) -> str:
    """Make ``engine`` (None: ``RIVEN_ENGINE``, else ``auto``) the engine of this command and
    its workers; refuse a scenario it cannot play with one line (the engine, the scenario and
    what is allowed).

    Returns:
        The concrete engine of ``scenario``'s games (``auto`` settled on it: native where the
        core can play it, else python); without a scenario, the choice itself.

    Raises:
        EngineError: An unknown engine, or one that cannot play ``scenario``.
    """
    from riven_env.engines import check_engine, pick_engine, use_engine

    engine = use_engine(engine)
    if scenario is None:
        return engine
    if engine == "native":
        check_engine(scenario, engine, overrides)
    return pick_engine(engine, [scenario], overrides=overrides)


def friendly_errors(func: F) -> F:
    """Turn a RivenError into a one-line message and exit code 2 (no traceback); a mission
    with several problems gets one problem per line (:func:`fail_error`)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RivenError as exc:
            raise fail_error(exc) from None

    return wrapper  # type: ignore[return-value]


def fail_error(exc: RivenError, code: int = 2) -> typer.Exit:
    """Print a RivenError on stderr; return the Exit to raise.

    One line ``error: ...``, except a scenario with several problems: ``error: FILE: invalid
    (N problems)`` and then each problem on a line of its own, as ``riven scenarios validate``
    prints them.
    """
    problems = getattr(exc, "errors", None)
    if isinstance(problems, list) and len(problems) > 1:
        source = getattr(exc, "file", None) or "scenario"
        typer.echo(f"error: {source}: invalid ({len(problems)} problems)", err=True)
        for problem in problems:
            typer.echo(f"  {_one_line(str(problem))}", err=True)
        return typer.Exit(code)
    return fail(str(exc), code)


def _one_line(message: str) -> str:
    return " ".join(line.strip() for line in str(message).strip().splitlines() if line.strip())


def results_line(db: Path | str, games: int | None = None) -> None:
    """Say where a command's results went, last on stdout: ``results: runs/playtests.duckdb
    (N games)``. In ``--json`` mode the object carries it instead (:func:`results_field`)."""
    count = "" if games is None else f" ({games} game{'' if games == 1 else 's'})"
    typer.echo(f"results: {db}{count}")


def results_field(db: Path | str, games: int | None = None) -> dict[str, Any]:
    """The ``results`` key of a ``--json`` object: ``{"db": PATH, "games": N}``."""
    return {"db": str(db), "games": games}


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: MESSAGE`` (one line) on stderr; return the Exit to raise."""
    first, *rest = str(message).strip().splitlines() or [""]
    text = first if not rest else f"{first} ({'; '.join(line.strip() for line in rest)})"
    typer.echo(f"error: {text}", err=True)
    return typer.Exit(code)


def echo_json(obj: Any) -> None:
    """Print one JSON object on stdout."""
    typer.echo(json.dumps(obj, sort_keys=False))


def _nearest_existing(path: Path) -> Path:
    """``path`` or its closest ancestor that exists (the folder a new path is made in)."""
    current = path
    while not current.exists() and current != current.parent:
        current = current.parent
    return current


def check_output(
    path: Path | str | None,
    option: str,
    *,
    kind: Literal["file", "folder"] = "file",
    suffixes: Sequence[str] = (),
    default: Path | str | None = None,
) -> None:
    """Refuse an output path that cannot be written, before any work starts.

    A command that plays games or trains for an hour must not find out at the end that
    ``--report X/r.html`` names a file ``X``, or that ``-o`` is a folder. A missing parent
    folder is refused too (a typo must not create folders, even at the filesystem root),
    except for the option's default path and ``runs/`` under the current folder (``--out
    runs/duel``), which the command creates; the nearest existing folder must be one this process can write in.

    Args:
        path: The path given (``None``: option not given, nothing to check).
        option: The option's name for the message (``--report``).
        kind: ``file`` (the path is written as a file) or ``folder`` (files go inside).
        suffixes: For a file, the allowed suffixes (case-insensitive); empty: any.
        default: The option's default path: its missing parent folders are created later
            (as is ``runs/`` of the current folder for any path directly in it).

    Raises:
        OutputPathError: A folder where a file goes, a file where a folder goes (the path
            or one of its parents), a missing parent folder (not for ``default``), a suffix
            not allowed, or no write permission.
    """
    if path is None:
        return
    target = Path(path)
    where = f"{option} {target}"
    try:
        if kind == "file":
            if target.is_dir():
                raise OutputPathError(f"{where}: is a folder; give a file name")
            if suffixes and target.suffix.lower() not in {s.lower() for s in suffixes}:
                raise OutputPathError(
                    f"{where}: suffix {target.suffix or '(none)'!r} is not allowed; "
                    f"allowed: {', '.join(suffixes)}"
                )
            if target.exists():
                if not os.access(target, os.W_OK):
                    raise OutputPathError(f"{where}: the file is not writable")
                return
            parent = target.parent
        else:
            if target.exists() and not target.is_dir():
                raise OutputPathError(f"{where}: is a file; give a folder")
            parent = target if target.exists() else target.parent
        folder = _nearest_existing(parent)
        # Only the option's default and runs/ of the current folder are made by the command.
        may_create = (default is not None and target == Path(default)) or (
            parent.absolute() == Path.cwd() / "runs"
        )
        if folder != parent and folder.is_dir() and not may_create:
            raise OutputPathError(
                f"{where}: folder {parent} does not exist; create it first (mkdir -p {parent})"
            )
        if not folder.is_dir():
            raise OutputPathError(f"{where}: {folder} is a file, not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputPathError(f"{where}: cannot write in folder {folder} (permission denied)")
    except OSError as exc:  # a parent we may not even look into
        raise OutputPathError(f"{where}: cannot be checked ({exc.strerror or exc})") from None
