"""Seat-swapped playtests: every seed played twice, rosters and agents exchanged.

Run 1 plays the mission as given: package **A** (the mission's blue roster with the blue
agent) on blue, package **B** (red roster, red agent) on red. Run 2 plays the same seeds
with A on red and B on blue (:func:`~riven_env.analytics.rosters.swapped_scenario`). Per
seed, with ``w`` the win indicators::

    roster effect = ((A1 - B1) + (A2 - B2)) / 2      > 0: package A is the stronger
    seat effect   = ((blue1 - red1) + (blue2 - red2)) / 2   > 0: the blue seat is favoured

Each is a mean of per-seed values in [-1, 1] with a paired t interval
(:func:`riven_env.playtest.stats.mean_interval`): the seat effect is what colour alone is
worth once the rosters have sat on both sides, the roster effect what the roster (and its
agent) is worth once both have sat on both seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from riven_env.analytics.rosters import derived_folder, swapped_scenario
from riven_env.analytics.store import replace_rows
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.results import rate_json
from riven_env.playtest.stats import Interval, mean_interval, wilson_interval

SIDES = ("blue", "red")
KIND = "seat-swap"


@dataclass(frozen=True)
class SeatSwap:
    """Results of a seat-swapped playtest.

    Attributes:
        group_id: Id shared by the two runs.
        runs: ``{"given": run_id, "swapped": run_id}``.
        packages: ``{"A": description, "B": description}``.
        roster_effect: Mean per-seed advantage of package A over B.
        seat_effect: Mean per-seed advantage of the blue seat over red.
        rates: ``{name: Interval}``: each package's win rate on each colour, each colour's
            win rate in each run, and the pooled ones.
        pairs: Seeds played in both runs.
    """

    group_id: str
    runs: dict[str, str]
    packages: dict[str, str]
    roster_effect: Interval
    seat_effect: Interval
    rates: dict[str, Interval] = field(default_factory=dict)
    pairs: int = 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``riven playtest --swap-seats --json`` key ``swap``)."""
        return {
            "group_id": self.group_id,
            "runs": dict(self.runs),
            "packages": dict(self.packages),
            "pairs": self.pairs,
            "roster_effect": self.roster_effect.to_dict(),
            "seat_effect": self.seat_effect.to_dict(),
            "rates": {name: rate_json(i) | {"n": i.n} for name, i in self.rates.items()},
        }


def _bounded(i: Interval) -> Interval:
    # A per-seed advantage lies in [-1, 1]; a t interval on few seeds can overshoot it.
    return Interval(i.value, max(-1.0, i.low), min(1.0, i.high), i.n)


def seat_effects(given: list[dict[str, Any]], swapped: list[dict[str, Any]]) -> dict[str, Any]:
    """Roster and seat effects from the ``games`` rows of the two runs (paired by index).

    Args:
        given: Rows (``game_index``, ``winner``) of the run as given.
        swapped: Rows of the swapped run.

    Returns:
        ``{"roster_effect", "seat_effect", "rates", "pairs"}``.
    """
    first = {int(g["game_index"]): g["winner"] for g in given}
    second = {int(g["game_index"]): g["winner"] for g in swapped}
    paired = sorted(set(first) & set(second))
    roster, seat = [], []
    for index in paired:
        a1, b1 = first[index] == "blue", first[index] == "red"
        a2, b2 = second[index] == "red", second[index] == "blue"
        roster.append(((a1 - b1) + (a2 - b2)) / 2)
        seat.append(((a1 - b1) - (a2 - b2)) / 2)
    n1, n2 = len(first), len(second)
    count = lambda rows, side: sum(1 for w in rows.values() if w == side)  # noqa: E731
    rates = {
        "A_as_blue": wilson_interval(count(first, "blue"), n1),
        "A_as_red": wilson_interval(count(second, "red"), n2),
        "B_as_blue": wilson_interval(count(second, "blue"), n2),
        "B_as_red": wilson_interval(count(first, "red"), n1),
        "A_pooled": wilson_interval(count(first, "blue") + count(second, "red"), n1 + n2),
        "B_pooled": wilson_interval(count(second, "blue") + count(first, "red"), n1 + n2),
        "blue_seat": wilson_interval(count(first, "blue") + count(second, "blue"), n1 + n2),
        "red_seat": wilson_interval(count(first, "red") + count(second, "red"), n1 + n2),
    }
    return {
        "roster_effect": _bounded(mean_interval(roster)),
        "seat_effect": _bounded(mean_interval(seat)),
        "rates": rates,
        "pairs": len(paired),
    }


def swapped_config(config: PlaytestConfig) -> PlaytestConfig:
    """The second arm: rosters and agents exchanged, same seeds."""
    path = swapped_scenario(config.scenario, derived_folder(config.db))
    return config.with_(scenario=str(path), blue=config.red, red=config.blue)


def run_swap(
    config: PlaytestConfig, *, progress: bool = True, resume: bool = False
) -> tuple[SeatSwap, dict[str, Any]]:
    """Play ``config`` and its seat-swapped twin on the same seeds; store the effects.

    Returns:
        The :class:`SeatSwap` (also written to the ``seat_effects`` table) and
        ``{"given": RunResult, "swapped": RunResult}``.
    """
    from riven_env.playtest.runner import run_playtest

    with ResultsDB(config.db) as db:
        other = swapped_config(config)
        first = run_playtest(
            config.with_(kind=KIND, label="as given"),
            progress=progress,
            resume=resume,
            db=db,
        )
        group = first.run_id  # the first run's id names the pair
        db.execute("UPDATE runs SET group_id = ? WHERE run_id = ?", [group, first.run_id])
        second = run_playtest(
            other.with_(kind=KIND, label="swapped", group_id=group),
            progress=progress,
            resume=resume,
            db=db,
        )
        db.execute("UPDATE runs SET group_id = ? WHERE run_id = ?", [group, second.run_id])
        result = swap_from_db(db, first.run_id, second.run_id)
        store_swap(db, result)
    return result, {"given": first, "swapped": second}


def swap_from_db(db: ResultsDB, given_id: str, swapped_id: str) -> SeatSwap:
    """Rebuild the :class:`SeatSwap` of two stored runs."""
    given = db.run(given_id)
    effects = seat_effects(db.games(given_id), db.games(swapped_id))
    return SeatSwap(
        group_id=given_id,
        runs={"given": given_id, "swapped": swapped_id},
        packages={
            "A": f"{given['scenario']} blue roster played by {given['blue']}",
            "B": f"{given['scenario']} red roster played by {given['red']}",
        },
        roster_effect=effects["roster_effect"],
        seat_effect=effects["seat_effect"],
        rates=effects["rates"],
        pairs=effects["pairs"],
    )


def store_swap(db: ResultsDB, swap: SeatSwap) -> None:
    """Write (replace) the ``seat_effects`` rows of a swap."""
    rows = []
    for effect, i, method in (
        ("roster_effect", swap.roster_effect, "paired t"),
        ("seat_effect", swap.seat_effect, "paired t"),
        *((name, i, "wilson") for name, i in swap.rates.items()),
    ):
        label = swap.packages["A"] if effect == "roster_effect" else ""
        rows.append((swap.group_id, None, effect, label, i.value, i.low, i.high, i.n, method))
    replace_rows(db, "seat_effects", "group_id", swap.group_id, rows)


def swap_of_run(db: ResultsDB, run: dict[str, Any]) -> SeatSwap | None:
    """The seat swap a stored run belongs to, if any."""
    if run.get("kind") != KIND or not run.get("group_id"):
        return None
    runs = db.runs(run["group_id"])
    given = [r for r in runs if r["label"] == "as given"]
    swapped = [r for r in runs if r["label"] == "swapped"]
    if not given or not swapped:
        return None
    return swap_from_db(db, given[-1]["run_id"], swapped[-1]["run_id"])
