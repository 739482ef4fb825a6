"""The campaign's one error type: a bad campaign file, campaign rules file or policy spec."""

from __future__ import annotations

from riven_env.errors import ScenarioError


class CampaignError(ScenarioError):
    """A campaign file, a campaign rules file or a campaign policy is invalid; the message
    names the file, the field and what is allowed (``FILE: FIELD: problem``)."""


def first_error(problems: object) -> CampaignError:
    """The first problem of a :class:`~riven_env.scenario.checks.Problems` as one error
    (commands print one line; ``riven campaign validate`` lists every problem)."""
    error = problems.errors[0]  # type: ignore[attr-defined]
    return CampaignError(error.detail, file=error.file, field=error.field)


__all__ = ["CampaignError", "first_error"]
