"""Helpers shared by the command modules: option parsing and friendly errors."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import typer

from riven_env.errors import RivenError

F = TypeVar("F", bound=Callable[..., Any])


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
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def echo_json(obj: Any) -> None:
    """Print one JSON object on stdout."""
    typer.echo(json.dumps(obj, sort_keys=False))
