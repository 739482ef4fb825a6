"""The dice of the post-battle sequence: one seeded stream per campaign, or a script.

Every roll between missions (fate tests, the injury table, rest tests) comes from one
:class:`CampaignDice`: a ``numpy.random.Generator`` of the campaign's seed, separate from the
missions' own streams, so the same seed gives the same campaign on either engine.
:class:`ScriptedDice` plays back a fixed list of faces (the tests' way to pin each rule).
A 2d6 test reads RIVEN's bands from the core rules (``test.bands``, margin = total - TN).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from riven_env.rules import RulesConfig, bundled_rules
from riven_env.rules.tests_2d6 import band_for_margin, difficulty_tn


class CampaignDice:
    """d6 rolls from a seeded stream (``np.random.default_rng(seed)``)."""

    def __init__(self, seed: int | np.random.SeedSequence | None) -> None:
        self.rng = np.random.default_rng(seed)

    def d6(self) -> int:
        """One d6."""
        return int(self.rng.integers(1, 7))


class ScriptedDice:
    """d6 rolls from a fixed sequence; running out is an error (a test that asks too much)."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.used = 0

    def d6(self) -> int:
        """The next scripted face."""
        if self.used >= len(self.faces):
            raise AssertionError(f"scripted dice ran out after {self.used} rolls")
        face = int(self.faces[self.used])
        self.used += 1
        return face


@dataclass(frozen=True)
class TestOutcome:
    """One 2d6 test between missions: ``dice`` + ``attribute`` + ``modifier`` vs ``tn``."""

    dice: tuple[int, int]
    attribute: int
    modifier: int
    tn: int
    total: int
    band: str

    def to_dict(self) -> dict[str, object]:
        return {
            "dice": list(self.dice),
            "attribute": self.attribute,
            "modifier": self.modifier,
            "tn": self.tn,
            "total": self.total,
            "result": self.band,
        }


def roll_2d6_test(
    dice: CampaignDice | ScriptedDice,
    attribute: int,
    difficulty: str,
    modifier: int = 0,
    rules: RulesConfig | None = None,
) -> TestOutcome:
    """A RIVEN 2d6 test: 2d6 + attribute + modifier vs the named difficulty's TN."""
    rules = rules or bundled_rules()
    tn = difficulty_tn(difficulty, rules)
    pair = (dice.d6(), dice.d6())
    total = sum(pair) + attribute + modifier
    return TestOutcome(pair, attribute, modifier, tn, total, band_for_margin(total - tn, rules))


__all__ = ["CampaignDice", "ScriptedDice", "TestOutcome", "roll_2d6_test"]
