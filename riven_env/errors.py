"""The error hierarchy of RIVEN Lab.

Every error a user can cause with bad data or a bad decision derives from
:class:`RivenError`. Messages name the file, field or value at fault and what was
allowed, so that a designer can fix the data without reading a traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class RivenError(Exception):
    """Base class of every error RIVEN Lab raises on purpose."""


class DataFileError(RivenError):
    """A data file (TOML, JSON, JSON Lines) cannot be read: missing, a directory, not UTF-8
    text, malformed, too large or nested too deep; the message names the file."""


class RulesDataError(RivenError):
    """A rules data file (TOML) holds a bad value; the message names the key."""


class ProfileError(RivenError):
    """A model profile is invalid (for example a hero that breaks the creation rules)."""


class TerrainError(RivenError):
    """Terrain or table geometry is malformed; the message names the piece and the problem."""


class ScenarioError(RivenError):
    """A scenario file is invalid; the message names the file, the field path and what was allowed."""

    def __init__(self, message: str, *, file: str | None = None, field: str | None = None):
        self.file = file
        self.field = field
        self.detail = message  # the message without the file and field in front
        where = ": ".join(part for part in (file, field) if part)
        super().__init__(f"{where}: {message}" if where else message)


class IllegalActionError(RivenError):
    """A decision is not legal in the current state; the message lists the legal ones."""

    def __init__(self, decision: object, legal: Iterable[object] = (), reason: str = ""):
        self.decision = decision
        self.legal = list(legal)
        shown = ", ".join(str(d) for d in self.legal[:40])
        more = f" (+{len(self.legal) - 40} more)" if len(self.legal) > 40 else ""
        why = f" ({reason})" if reason else ""
        super().__init__(f"illegal decision {decision}{why}; legal decisions: [{shown}{more}]")


class AgentSpecError(RivenError):
    """An agent name given on the command line or in a config cannot be resolved."""


class MissingExtraError(RivenError, ImportError):
    """An optional dependency is missing; the message names the extra that installs it."""

    def __init__(self, extra: str, module: str, feature: str):
        self.extra = extra
        self.module = module
        super().__init__(
            f"{feature} needs the optional package '{module}', which is not installed. "
            f'Install the extra: pip install "riven-lab[{extra}]"'
        )


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """``"; did you mean X?"`` for the choice closest to ``name`` (closest first), or ``""``.

    Every "unknown name" message uses it, so that the likeliest fix is the first thing a
    user reads: ``unknown scenario 'skirmish5v5'; did you mean skirmish-5v5?``.
    """

    options = [str(c) for c in choices]
    close = difflib.get_close_matches(str(name), options, n=3, cutoff=0.6)
    if not close:
        lowered = {o.lower(): o for o in options}
        close = [lowered[str(name).lower()]] if str(name).lower() in lowered else []
    if not close:
        return ""
    others = f" (or {', '.join(close[1:])})" if len(close) > 1 else ""
    return f"; did you mean {close[0]}?{others}"


class OutputPathError(RivenError):
    """An output path given to a command cannot be written (a folder where a file goes, a
    file where a folder goes, no write permission); the message names the option."""
