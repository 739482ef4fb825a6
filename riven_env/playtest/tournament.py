"""Round-robin tournaments between agents, with OpenSkill ratings.

Every ordered pair of distinct agents plays ``games`` games (so each pair meets on both
sides), all pairs on the same run seed: game ``i`` of A-vs-B and of B-vs-A use the same
seed, so side advantage cancels out. Ratings use OpenSkill's Plackett-Luce model (the
``ratings`` extra), updated game by game in a fixed order (game index, then pair), so the
same results always give the same ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any
from uuid import uuid4

from riven_env.extras import require
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.results import rate_json
from riven_env.playtest.runner import run_playtest
from riven_env.playtest.stats import Interval, wilson_interval


@dataclass
class Standing:
    """One agent's line in the tournament table.

    Attributes:
        agent: Agent spec.
        mu: OpenSkill mean skill.
        sigma: OpenSkill uncertainty.
        ordinal: Conservative rating ``mu - 3 sigma`` (the table's sort key).
        wins: Games won.
        draws: Games drawn.
        losses: Games lost.
        win_rate: Wilson interval of wins over games played.
    """

    agent: str
    mu: float
    sigma: float
    ordinal: float
    wins: int = 0
    draws: int = 0
    losses: int = 0
    win_rate: Interval = field(default_factory=lambda: Interval(0.0, 0.0, 1.0, 0))
    # The same per colour the agent held: a pooled rate hides a seat or roster effect.
    win_rate_by_colour: dict[str, Interval] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "agent": self.agent,
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal},
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "games": self.games,
            "win_rate": rate_json(self.win_rate),
            "win_rate_by_colour": {
                side: rate_json(i) | {"games": i.n} for side, i in self.win_rate_by_colour.items()
            },
        }


@dataclass(frozen=True)
class TournamentResult:
    """Outcome of :func:`run_tournament`.

    Attributes:
        group_id: Id shared by the tournament's runs.
        standings: Agents, best rating first.
        pairings: One dict per ordered pair: ``blue``, ``red``, ``run_id``, ``blue_wins``,
            ``red_wins``, ``draws``.
        config: The base configuration (scenario, games per pairing, seed...).
    """

    group_id: str
    standings: list[Standing]
    pairings: list[dict[str, Any]]
    config: PlaytestConfig

    def to_json(self) -> dict[str, Any]:
        """The documented ``riven tournament --json`` object."""
        c = self.config
        return {
            "group_id": self.group_id,
            "standings": [s.to_json() for s in self.standings],
            "pairings": self.pairings,
            "config": {
                "scenario": c.scenario,
                "games_per_pairing": c.games,
                "seed": c.seed,
                "workers": c.worker_count,
                "backend": c.backend,
                "overrides": dict(c.overrides),
                "db": str(c.db),
            },
        }


def parse_agents(text: str) -> list[str]:
    """Split ``a,b,c`` into agent specs (at least two, no repeats).

    Raises:
        PlaytestError: Fewer than two agents or a repeated one.
    """
    agents = [a.strip() for a in text.split(",") if a.strip()]
    if len(agents) < 2:
        raise PlaytestError(f"--agents {text!r} names {len(agents)} agent(s); allowed: two or more")
    if len(set(agents)) != len(agents):
        raise PlaytestError(f"--agents {text!r} repeats an agent; list each once")
    return agents


def rate_games(
    agents: Sequence[str], games: Sequence[tuple[str, str, str | None]]
) -> dict[str, Standing]:
    """Rate agents from game results in the given order.

    Args:
        agents: Every agent (each gets a standing, even without games).
        games: ``(blue agent, red agent, winner side or None for a draw)`` in play order.

    Returns:
        ``{agent: Standing}`` with ratings and W/D/L filled in.
    """
    models = require("openskill.models", "playtest", "tournament ratings")
    model = models.PlackettLuce()
    ratings = {agent: model.rating(name=agent) for agent in agents}
    record = {agent: [0, 0, 0] for agent in agents}  # wins, draws, losses
    colour = {(agent, side): [0, 0] for agent in agents for side in ("blue", "red")}  # wins, games
    for blue, red, winner in games:
        colour[(blue, "blue")][0] += int(winner == "blue")
        colour[(blue, "blue")][1] += 1
        colour[(red, "red")][0] += int(winner == "red")
        colour[(red, "red")][1] += 1
        ranks = [1, 1] if winner is None else ([1, 2] if winner == "blue" else [2, 1])
        [[ratings[blue]], [ratings[red]]] = model.rate(
            [[ratings[blue]], [ratings[red]]], ranks=ranks
        )
        if winner is None:
            record[blue][1] += 1
            record[red][1] += 1
        else:
            victor, loser = (blue, red) if winner == "blue" else (red, blue)
            record[victor][0] += 1
            record[loser][2] += 1
    standings = {}
    for agent in agents:
        wins, draws, losses = record[agent]
        rating = ratings[agent]
        standings[agent] = Standing(
            agent=agent,
            mu=float(rating.mu),
            sigma=float(rating.sigma),
            ordinal=float(rating.ordinal()),
            wins=wins,
            draws=draws,
            losses=losses,
            win_rate=wilson_interval(wins, wins + draws + losses),
            win_rate_by_colour={
                side: wilson_interval(*colour[(agent, side)]) for side in ("blue", "red")
            },
        )
    return standings


def run_tournament(
    base: PlaytestConfig, agents: Sequence[str], *, progress: bool = True
) -> TournamentResult:
    """Play a round robin (both sides of every pair) and rate the agents.

    Args:
        base: Scenario, games per ordered pairing, seed, workers, backend, database and
            overrides; its ``blue``/``red`` are ignored.
        agents: Two or more agent specs.
        progress: Show progress bars.

    Returns:
        The :class:`TournamentResult`.
    """
    # Import first: a missing extra should fail before hours of games, not after.
    require("openskill.models", "playtest", "tournament ratings")
    if len(agents) < 2 or len(set(agents)) != len(agents):
        raise PlaytestError("a tournament needs two or more distinct agents")
    group = f"tournament-{uuid4().hex[:12]}"
    pairings = []
    by_pair: dict[tuple[str, str], list[str | None]] = {}
    with ResultsDB(base.db) as db:
        for blue, red in permutations(agents, 2):
            config = base.with_(
                blue=blue, red=red, kind="tournament", group_id=group, label=f"{blue} vs {red}"
            )
            result = run_playtest(config, progress=progress, db=db)
            winners = [g["winner"] for g in db.games(result.run_id)]
            by_pair[(blue, red)] = winners
            pairings.append(
                {
                    "blue": blue,
                    "red": red,
                    "run_id": result.run_id,
                    "blue_wins": result.summary.wins["blue"],
                    "red_wins": result.summary.wins["red"],
                    "draws": result.summary.draws,
                }
            )
    order = [
        (blue, red, winners[i])
        for i in range(base.games)
        for (blue, red), winners in by_pair.items()
        if i < len(winners)
    ]
    standings = sorted(rate_games(agents, order).values(), key=lambda s: (-s.ordinal, s.agent))
    return TournamentResult(group_id=group, standings=standings, pairings=pairings, config=base)
