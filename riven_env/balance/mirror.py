"""The Oracle mirror with seat swap: how a mission's balance is measured.

Both sides are played by the Enemy Oracle with the mission's own profiles (``oracle`` takes
each side's). Every seed is played twice (common random numbers: the same game seeds for
every candidate of a search, ``riven_env.playtest.game_seed``):

* **as given**;
* **swapped**: each roster on the other colour. A symmetric mission whose models are all
  placed by deployment exchanges the rosters between the seats (the seat keeps its
  deployment zone, objectives and first turn: ``riven playtest --swap-seats``,
  ``riven_env.analytics.rosters.swapped_scenario``). A mission whose roles belong to their
  ground (a ``target`` mission, or fixed positions) exchanges the *colours* of everything
  instead: roster, deployment zone, first turn, fixed positions and the side's victory
  conditions, so each role is played once as blue and once as red.

The measured **role** is the roster the mission puts on its declared side
(``[balance] side``; blue for a symmetric mission). Its win rate is its share of the
decisive games over both arms (a draw or an unfinished game counts for neither side).

A cell of a target matrix (``[[balance.matrix]]``, :class:`MatrixCell`) is measured the same
way with other agents: its ``row`` agent plays the roster of its ``side`` in both arms (on
that colour as given, on the other swapped) and its ``column`` agent the other roster. The
mirror is the cell ``oracle`` against ``oracle`` (:meth:`BalanceSpec.cells`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riven_env.analytics.rosters import (
    SIDES,
    drop_balance_knobs,
    model_id,
    scenario_document,
    swapped_scenario,
    write_derived,
)
from riven_env.playtest.config import DEFAULT_PLAYER, PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.results import rate_json
from riven_env.playtest.stats import Interval, mean_interval, wilson_interval
from riven_env.scenario.balance import MIRROR_AGENT, BalanceSpec, MatrixCell

KIND = "balance"


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def colour_swapped_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The mission with blue and red exchanged everywhere (only the colours change).

    Rosters keep their deployment zone, fixed positions, first turn and victory conditions;
    model ids are renamed (``blue-courier`` -> ``red-courier``).
    """
    new = copy.deepcopy(dict(doc))
    sides = new.get("sides", {})
    swapped_sides = {}
    for colour in SIDES:
        table = copy.deepcopy(sides[colour])
        for entry in table.get("models", []):
            if "id" in entry:
                entry["id"] = model_id(_other(colour), str(entry["id"]))
        swapped_sides[_other(colour)] = table
    new["sides"] = swapped_sides
    deployment = new.get("deployment", {})
    new["deployment"] = {_other(k) if k in SIDES else k: v for k, v in deployment.items()}
    header = new.get("scenario", {})
    if header.get("first_side") in SIDES:
        header["first_side"] = _other(header["first_side"])
    victory = new.get("victory", {})
    limit = str(victory.get("at_round_limit", ""))
    if limit.startswith("side:") and limit[5:] in SIDES:
        victory["at_round_limit"] = f"side:{_other(limit[5:])}"
    for condition in victory.get("conditions", []):
        if condition.get("side") in SIDES:
            condition["side"] = _other(condition["side"])
        if "models" in condition:
            condition["models"] = [model_id(condition["side"], m) for m in condition["models"]]
    drop_balance_knobs(new)
    return new


def _has_fixed_positions(doc: Mapping[str, Any]) -> bool:
    return any(
        "position" in entry
        for side in doc.get("sides", {}).values()
        for entry in side.get("models", [])
    )


def swap_kind(doc: Mapping[str, Any], spec: BalanceSpec) -> str:
    """``rosters`` or ``colours``: how the mirror's second arm swaps (module docstring).

    A ``matrix`` mission swaps as a symmetric one (its cells name agents, not a side)."""
    if spec.mode in ("symmetric", "matrix") and not _has_fixed_positions(doc):
        return "rosters"
    return "colours"


def swapped_file(scenario: str | Path, spec: BalanceSpec, folder: Path) -> tuple[Path, str]:
    """The second arm's mission file and the kind of swap (written under ``folder``)."""
    doc = scenario_document(scenario)
    kind = swap_kind(doc, spec)
    if kind == "rosters":
        return swapped_scenario(scenario, folder), kind
    name = str(doc["scenario"]["name"])
    return write_derived(colour_swapped_document(doc), name, "colours", folder), kind


@dataclass(frozen=True)
class MirrorEstimate:
    """What the mirror measured for one mission file.

    Attributes:
        side: The declared side (the role measured is the roster the file puts there).
        target: Its intended share of decisive games.
        pairs: Seeds played in both arms.
        games: Games played (both arms).
        role: The role's share of decisive games over both arms (Wilson 95%).
        role_given: Its share as given (on ``side``).
        role_swapped: Its share swapped (on the other colour).
        colours: ``{"blue", "red"}``: each colour's share of decisive games, both arms.
        draws: Draw rate (draws and unfinished games) over both arms.
        rounds: Mean rounds (t interval).
        wins: ``{"role", "other", "draws"}`` counts over both arms.
        swap: ``rosters`` or ``colours``.
        runs: ``{"given": run_id, "swapped": run_id}``.
    """

    side: str
    target: float
    pairs: int
    games: int
    role: Interval
    role_given: Interval
    role_swapped: Interval
    colours: dict[str, Interval]
    draws: Interval
    rounds: Interval
    wins: dict[str, int]
    swap: str
    runs: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; every rate is ``{"rate", "low", "high", "n"}``."""

        def rate(i: Interval) -> dict[str, Any]:
            return rate_json(i) | {"n": i.n}

        return {
            "side": self.side,
            "target": self.target,
            "pairs": self.pairs,
            "games": self.games,
            "win_rate": rate(self.role),
            "win_rate_given": rate(self.role_given),
            "win_rate_swapped": rate(self.role_swapped),
            "colours": {k: rate(v) for k, v in self.colours.items()},
            "draw_rate": rate(self.draws),
            "rounds": self.rounds.to_dict(),
            "wins": dict(self.wins),
            "swap": self.swap,
            "runs": dict(self.runs),
        }


def estimate(
    given: list[dict[str, Any]],
    swapped: list[dict[str, Any]],
    side: str,
    target: float,
    swap: str,
    runs: Mapping[str, str],
) -> MirrorEstimate:
    """The estimate from the ``games`` rows of both arms (only seeds played in both count).

    Args:
        given: Rows (``game_index``, ``winner``, ``rounds``) of the arm as given.
        swapped: Rows of the swapped arm.
        side: The declared side.
        target: The declared share.
        swap: ``rosters`` or ``colours``.
        runs: The two run ids.
    """
    first = {int(g["game_index"]): g for g in given}
    second = {int(g["game_index"]): g for g in swapped}
    paired = sorted(set(first) & set(second))
    other = _other(side)
    counts = {"given": [0, 0], "swapped": [0, 0]}  # [role wins, other wins]
    colour_wins = {"blue": 0, "red": 0}
    rounds: list[float] = []
    for index in paired:
        for arm, row, role_colour in (
            ("given", first[index], side),
            ("swapped", second[index], other),
        ):
            winner = row["winner"]
            rounds.append(float(row["rounds"] or 0))
            if winner in SIDES:
                colour_wins[winner] += 1
                counts[arm][0 if winner == role_colour else 1] += 1
    role_wins = counts["given"][0] + counts["swapped"][0]
    other_wins = counts["given"][1] + counts["swapped"][1]
    decisive = role_wins + other_wins
    games = 2 * len(paired)
    return MirrorEstimate(
        side=side,
        target=target,
        pairs=len(paired),
        games=games,
        role=wilson_interval(role_wins, decisive),
        role_given=wilson_interval(counts["given"][0], sum(counts["given"])),
        role_swapped=wilson_interval(counts["swapped"][0], sum(counts["swapped"])),
        colours={c: wilson_interval(colour_wins[c], decisive) for c in SIDES},
        draws=wilson_interval(games - decisive, games),
        rounds=mean_interval(rounds) if len(rounds) > 1 else Interval(float("nan"), 0, 0, 0),
        wins={"role": role_wins, "other": other_wins, "draws": games - decisive},
        swap=swap,
        runs=dict(runs),
    )


@dataclass(frozen=True)
class MirrorPlay:
    """One call of :func:`play_mirror`: the estimate and the games this call played."""

    estimate: MirrorEstimate
    played: int
    elapsed_s: float


def play_mirror(
    scenario: str | Path,
    spec: BalanceSpec,
    pairs: int,
    *,
    db: ResultsDB,
    folder: Path,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    progress: bool = True,
    label: str | None = None,
    group_id: str | None = None,
    player: str = DEFAULT_PLAYER,
    engine: str | None = None,
    cell: MatrixCell | None = None,
) -> MirrorPlay:
    """Play seeds ``0 .. pairs-1`` of the mirror (both arms) and estimate the balance.

    ``cell``: a target-matrix cell to measure instead of the Oracle mirror (its row agent
    on its side's roster against its column agent, module docstring); ``None`` or the
    mirror cell play the mirror, with the run identity the mirror always had.

    Games already stored for the same file and seed are reused (the playtest's
    ``--resume``): asking for more pairs later plays only the new seeds, which is how a
    search looks at a candidate in stages.

    ``player`` is the playtest's game function (``module:function``; a test double in tests).
    ``engine`` (``auto``, ``python`` or ``native``; None: the process default) plays every
    game; the concrete engine is part of each run's identity, so stored games of the other
    engine are never reused.

    Raises:
        PlaytestError: Bad scenario (the message names the file and field).
    """
    from riven_env.engines import resolve_engine
    from riven_env.playtest.runner import run_playtest

    scenario_path = str(Path(scenario).resolve()) if Path(scenario).exists() else str(scenario)
    other, kind = swapped_file(scenario, spec, folder)
    side = spec.side if cell is None else cell.side
    target = spec.win_rate if cell is None else cell.win_rate
    row = MIRROR_AGENT if cell is None else cell.row
    column = MIRROR_AGENT if cell is None else cell.column
    # As given the row agent plays its roster on ``side``; swapped, that roster (and the row
    # agent with it) is on the other colour.
    given_agents = {side: row, _other(side): column}
    base = PlaytestConfig(
        scenario=scenario_path,
        blue=given_agents["blue"],
        red=given_agents["red"],
        games=pairs,
        seed=seed,
        workers=workers,
        backend=backend,
        ray_address=ray_address,
        db=db.path or Path(":memory:"),
        kind=KIND,
        group_id=group_id,
        player=player,
        engine=resolve_engine(engine),
    )
    first = run_playtest(
        base.with_(label=f"{label or 'mirror'}: as given"), progress=progress, resume=True, db=db
    )
    second = run_playtest(
        base.with_(
            scenario=str(other),
            blue=given_agents["red"],
            red=given_agents["blue"],
            label=f"{label or 'mirror'}: swapped",
        ),
        progress=progress,
        resume=True,
        db=db,
    )
    # A run may hold more seeds than asked for now (an earlier, longer look): use the first
    # ``pairs`` only, so the estimate depends on the pairs asked for and nothing else.
    result = estimate(
        [g for g in db.games(first.run_id) if g["game_index"] < pairs],
        [g for g in db.games(second.run_id) if g["game_index"] < pairs],
        side,
        target,
        kind,
        {"given": first.run_id, "swapped": second.run_id},
    )
    return MirrorPlay(
        estimate=result,
        played=first.played + second.played,
        elapsed_s=first.elapsed_s + second.elapsed_s,
    )


__all__ = [
    "KIND",
    "MIRROR_AGENT",
    "MirrorEstimate",
    "MirrorPlay",
    "colour_swapped_document",
    "estimate",
    "play_mirror",
    "swap_kind",
    "swapped_file",
]
