"""The one progress bar of every command that plays games (rich, on stderr).

``riven play``, ``playtest``, ``compare``, ``tournament``, ``eval``, ``stress-oracle`` and the
evaluations of ``riven train`` all show their games with :func:`game_progress`. The bar:

* goes to stderr, so ``--json`` output on stdout stays one clean object;
* is off with ``--quiet`` (``enabled=False``) and whenever stderr is not an interactive
  terminal (a pipe, a file, CI), so logs never fill with bar redraws; rich's
  ``TTY_INTERACTIVE=1`` / ``TTY_COMPATIBLE=1`` force it on (the tests do).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class GamesPerSecondColumn(ProgressColumn):
    """Progress column showing the finishing rate in games (or another unit) per second."""

    def __init__(self, unit: str = "games") -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        """Render ``task.speed`` (units/s) or a dash before the first one."""
        speed = task.finished_speed or task.speed
        return Text(
            f"- {self.unit}/s" if speed is None else f"{speed:.2f} {self.unit}/s", style="cyan"
        )


def progress_console() -> Console:
    """The console progress bars draw on (stderr)."""
    return Console(stderr=True)


def progress_enabled(requested: bool = True) -> bool:
    """Whether a bar would be drawn: asked for, and stderr is an interactive terminal."""
    return requested and progress_console().is_interactive


def game_progress(enabled: bool = True, unit: str = "games") -> Progress:
    """A progress bar: description, bar, done/total, rate, elapsed time and ETA.

    Args:
        enabled: ``False`` (``--quiet``) hides it; it is hidden anyway when stderr is not an
            interactive terminal.
        unit: What the rate counts (``games``, ``rounds``).
    """
    console = progress_console()
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerSecondColumn(unit),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=not (enabled and console.is_interactive),
        transient=False,
    )


@contextmanager
def tracked(
    total: int, description: str, enabled: bool = True, unit: str = "games"
) -> Iterator[Callable[[int], None]]:
    """A bar of ``total`` steps for the ``with`` block; yields ``advance(n)``.

    Example::

        with tracked(len(seeds), "eval", enabled=not quiet) as advance:
            for seed in seeds:
                play(seed)
                advance(1)
    """
    bar = game_progress(enabled, unit)
    task = bar.add_task(description, total=total)
    with bar:
        yield lambda n=1: bar.advance(task, n)


__all__ = [
    "GamesPerSecondColumn",
    "game_progress",
    "progress_console",
    "progress_enabled",
    "tracked",
]
