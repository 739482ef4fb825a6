"""The Riddle of Steel's dice: d10 pools against a TN, Stacking, Fumbles, and their exact odds.

RAW (quickstart, "Attribute Tests" and "Fumbling"): roll a pool of d10 against a TN; each die
at or above it is a success. A die showing 10 is rerolled and the new face added (Stacking),
as long as it keeps rolling 10. No success and two or more 1s is a Fumble.

Bounds and readings (``[riddle_of_steel.dice]``, documented in
``docs/resolution-riddle-of-steel.md``):

* a die stacks at most ``max_stacks`` times (House; its largest total is
  ``faces * (1 + max_stacks)``); the exact odds use the same bound, so they are the engine's
  odds exactly, not an approximation of them;
* a stack is rolled only when the TN is above the highest face, the only case where it can
  change whether the die succeeds (a 10 succeeds at any TN up to 10 already);
* each die is one success at most, however high it stacks, so a pool of N dice scores 0..N
  successes and no count above N exists;
* a Fumble counts the 1s among the dice's first faces (a 1 rolled on a stack adds to a 10).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from riven_env.rules.results import _Record
from riven_env.rules.systems.ros_data import RosData


@dataclass(frozen=True)
class PoolRoll(_Record):
    """A pool rolled against a TN.

    Attributes:
        tn: The target number.
        faces: Each die's faces in order (the first, then any stacks).
        totals: Each die's total (its faces added).
        successes: Dice whose total met or beat the TN.
        ones: Dice whose first face was 1.
        fumble: No success and at least ``fumble_ones`` ones.
    """

    tn: int
    faces: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    successes: int
    ones: int
    fumble: bool

    @property
    def dice(self) -> int:
        """Dice rolled."""
        return len(self.totals)


def pool_from_faces(faces: tuple[tuple[int, ...], ...], tn: int, data: RosData) -> PoolRoll:
    """Read a pool from known faces (pure: the scripted-dice tests and the roller share it)."""
    totals = tuple(sum(f) for f in faces)
    successes = sum(1 for t in totals if t >= tn)
    ones = sum(1 for f in faces if f and f[0] == 1)
    return PoolRoll(
        tn=tn,
        faces=tuple(tuple(f) for f in faces),
        totals=totals,
        successes=successes,
        ones=ones,
        fumble=successes == 0 and ones >= data.fumble_ones,
    )


def roll_pool(dice: int, tn: int, rng: np.random.Generator, data: RosData) -> PoolRoll:
    """Roll ``dice`` d10 against ``tn`` (no dice: no successes, no fumble)."""
    high = data.faces + 1
    stacking = tn > data.faces
    faces = []
    for _ in range(max(0, dice)):
        die = [int(rng.integers(1, high))]
        while stacking and die[-1] >= data.stack_on and len(die) <= data.max_stacks:
            die.append(int(rng.integers(1, high)))
        faces.append(tuple(die))
    return pool_from_faces(tuple(faces), tn, data)


# ----------------------------------------------------------------------------- exact odds
def die_success_probability(tn: int, data: RosData) -> Fraction:
    """P(one die's total >= ``tn``), with Stacking bounded by ``max_stacks`` (exact).

    For ``tn = faces * k + t`` with ``1 <= t <= faces`` the die must stack ``k`` times (each
    stack 1 in ``faces - stack_on + 1``) and then show ``t`` or more.
    """
    faces = data.faces
    if tn <= 1:
        return Fraction(1)
    k, t = divmod(tn - 1, faces)
    t += 1
    if k == 0:
        return Fraction(faces - t + 1, faces)
    if k > data.max_stacks:
        return Fraction(0)
    stack = Fraction(faces - data.stack_on + 1, faces)
    # Only the highest face stacks (the data refuses another stack_on), so each stack adds
    # exactly ``faces`` and the total of k stacks and a last face t is faces * k + t.
    return stack**k * Fraction(faces - t + 1, faces)


@dataclass(frozen=True)
class PoolOdds:
    """Exact odds of a pool: ``successes[k]`` = P(k successes), k = 0..dice; ``fumble``."""

    dice: int
    tn: int
    successes: tuple[Fraction, ...]
    fumble: Fraction

    def at_least(self, k: int) -> Fraction:
        """P(``k`` or more successes)."""
        return sum(self.successes[k:], Fraction(0))


def pool_odds(dice: int, tn: int, data: RosData) -> PoolOdds:
    """Exact P(0..dice successes) and P(fumble) for ``dice`` d10 against ``tn``.

    A 1 on a die's first face never succeeds (TNs start at ``min_tn`` >= 2), so each die is
    a success (p), a 1 (1/faces) or another failure (q); a fumble is no success and at least
    ``fumble_ones`` ones.
    """
    p = die_success_probability(tn, data)
    one = Fraction(1, data.faces) if tn > 1 else Fraction(0)
    q = 1 - p - one
    successes = tuple(comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1))
    fumble = sum(
        (comb(dice, j) * one**j * q ** (dice - j) for j in range(data.fumble_ones, dice + 1)),
        Fraction(0),
    )
    return PoolOdds(dice, tn, successes, fumble)


def margin_odds(
    attack_dice: int, atn: int, defence_dice: int, dtn: int, data: RosData
) -> dict[int, Fraction]:
    """Exact distribution of attacker successes minus defender successes in one exchange."""
    attack = pool_odds(attack_dice, atn, data).successes
    defence = pool_odds(defence_dice, dtn, data).successes
    out: dict[int, Fraction] = {}
    for a, pa in enumerate(attack):
        for d, pd in enumerate(defence):
            out[a - d] = out.get(a - d, Fraction(0)) + pa * pd
    return dict(sorted(out.items()))


def band_odds(dice: int, tn: int, data: RosData) -> dict[str, Fraction]:
    """Exact odds of each test band (``[riddle_of_steel.tests.bands]``) of a pool."""
    odds = pool_odds(dice, tn, data)
    out = {"miss": Fraction(0), **{band: Fraction(0) for band, _ in data.bands}}
    for k, pk in enumerate(odds.successes):
        out[band_for(k, False, data)] += pk
    return out


def band_for(successes: int, fumble: bool, data: RosData) -> str:
    """The RIVEN band a count of successes reads as (a Fumble is always a miss)."""
    band = "miss"
    if fumble:
        return band
    for name, least in data.bands:
        if successes >= least:
            band = name
    return band


__all__ = [
    "PoolOdds",
    "PoolRoll",
    "band_for",
    "band_odds",
    "die_success_probability",
    "margin_odds",
    "pool_from_faces",
    "pool_odds",
    "roll_pool",
]
