"""Campaign policies: who decides between missions (separate from the battle agents).

A policy answers :meth:`CampaignPolicy.choose` with ``(option, rule, explanation)``.
Specs (``--policy``): ``oracle`` (the documented default rules below, each choice explained)
and ``random`` (uniform over the options, on its own stream of the campaign seed).

The Oracle's rules (docs/campaigns.md, "Between missions"):

* advance, in order: ``mettle-first`` (Mettle threshold 4 or worse and affordable: every
  action starts with an activation roll), ``main-attribute`` (+1 to the attribute it fights
  with: Agility for a model with a ranged weapon and Agility >= Might, else Might),
  ``talent`` (the first affordable talent in the rules' order), else ``save``;
* recruit: ``strongest-affordable`` (the dearest profile it can pay for; ties: the
  campaign's recruit order), else ``none``;
* rest: ``rest-injured`` (rest a model with a lasting injury while at least
  ``rest.min_fielded`` others play; one per step, the most injured first), else ``play``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from riven_env.campaign.errors import CampaignError
from riven_env.campaign.rules import CampaignRules
from riven_env.errors import did_you_mean

POLICIES: tuple[str, ...] = ("oracle", "random")

Choice = tuple[str, str, str]


class CampaignPolicy:
    """Base: subclasses implement :meth:`choose`."""

    name = "policy"

    def choose(self, kind: str, options: list[str], context: dict[str, Any]) -> Choice:
        raise NotImplementedError


class OraclePolicy(CampaignPolicy):
    """The default, explained rules of the module docstring."""

    name = "oracle"

    def __init__(self, rules: CampaignRules) -> None:
        self.rules = rules

    def choose(self, kind: str, options: list[str], context: dict[str, Any]) -> Choice:
        return getattr(self, f"_{kind}")(options, context)

    def _advance(self, options: list[str], context: dict[str, Any]) -> Choice:
        model = context["model"]
        if "mettle" in options and model.mettle >= 4:
            return (
                "mettle",
                "mettle-first",
                (
                    f"Mettle {model.mettle}+ fails too many activations; an advance to "
                    f"{model.mettle - 1}+ pays off on every activation"
                ),
            )
        main = "agility" if (model.ranged and model.agility >= model.might) else "might"
        if f"attribute:{main}" in options:
            return (
                f"attribute:{main}",
                "main-attribute",
                (
                    f"+1 {main}: the attribute it fights with "
                    f"({'a shooter' if main == 'agility' else 'a fighter'})"
                ),
            )
        talents = [o for o in options if o.startswith("talent:")]
        if talents:
            return (
                talents[0],
                "talent",
                f"{talents[0].split(':', 1)[1]}: the first talent it can take",
            )
        return "save", "save", f"saves its {model.xp} experience for a better advance"

    def _recruit(self, options: list[str], context: dict[str, Any]) -> Choice:
        points = self.rules.points
        hires = [o for o in options if o.startswith("recruit:")]
        if not hires:
            return "none", "none", "no room or not enough points to recruit"
        best = max(hires, key=lambda o: (points[o.split(":", 1)[1]], -hires.index(o)))
        return (
            best,
            "strongest-affordable",
            (
                f"{best.split(':', 1)[1]} ({points[best.split(':', 1)[1]]} points) is the "
                f"strongest profile it can pay for ({context['warband'].points} points)"
            ),
        )

    def _rest(self, options: list[str], context: dict[str, Any]) -> Choice:
        model = context["model"]
        others = context["fielding_others"]
        if "rest" in options and not context["rested"] and others >= self.rules.rest_min_fielded:
            return (
                "rest",
                "rest-injured",
                (
                    f"{len(model.injuries)} lasting injur{'y' if len(model.injuries) == 1 else 'ies'};"
                    f" {others} others still play, so it rests to heal"
                ),
            )
        return "play", "play", "plays: no injury to heal, or too few others would play"


class RandomPolicy(CampaignPolicy):
    """Uniform over the options, on its own seeded stream."""

    name = "random"

    def __init__(self, seed: int | np.random.SeedSequence | None) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, kind: str, options: list[str], context: dict[str, Any]) -> Choice:
        pick = options[int(self.rng.integers(0, len(options)))]
        return pick, "random", f"drawn uniformly from {len(options)} options"


def make_policy(
    spec: str, rules: CampaignRules, seed: int | np.random.SeedSequence | None
) -> CampaignPolicy:
    """The campaign policy named ``spec`` (``oracle`` or ``random``)."""
    if spec == "oracle":
        return OraclePolicy(rules)
    if spec == "random":
        return RandomPolicy(seed)
    raise CampaignError(
        f"unknown campaign policy {spec!r}{did_you_mean(spec, POLICIES)}; "
        f"allowed: {', '.join(POLICIES)}",
        field="--policy",
    )


__all__ = ["POLICIES", "CampaignPolicy", "OraclePolicy", "RandomPolicy", "make_policy"]
