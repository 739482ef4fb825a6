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
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from riven_env.errors import RivenError

F = TypeVar("F", bound=Callable[..., Any])

#: Width of tables written to a pipe or a file: wide enough that no table of the CLI is cut
#: (rich would otherwise assume 80 columns and truncate cells to "Sequenti…").
PIPE_WIDTH = 1000

#: ``--workers``: parallel worker processes of a command that plays games.
WorkersOption = Annotated[
    int | None,
    typer.Option("--workers", min=1, help="Parallel worker processes (default: all CPUs)."),
]
#: ``--quiet``: no progress bar (it is never drawn when stderr is not a terminal anyway).
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress bar (never shown when not a TTY).")
]


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


def friendly_errors(func: F) -> F:
    """Turn a RivenError into a one-line message and exit code 2 (no traceback)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RivenError as exc:
            raise fail(str(exc)) from None

    return wrapper  # type: ignore[return-value]


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: MESSAGE`` (one line) on stderr; return the Exit to raise."""
    first, *rest = str(message).strip().splitlines() or [""]
    text = first if not rest else f"{first} ({'; '.join(line.strip() for line in rest)})"
    typer.echo(f"error: {text}", err=True)
    return typer.Exit(code)


def echo_json(obj: Any) -> None:
    """Print one JSON object on stdout."""
    typer.echo(json.dumps(obj, sort_keys=False))
