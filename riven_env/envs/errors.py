"""The error of a bad environment argument, shared by every environment module."""

from __future__ import annotations

from riven_env.errors import RivenError


class EnvArgumentError(RivenError):
    """An environment argument is invalid; the message names it and what is allowed."""
