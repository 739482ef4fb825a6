"""League training: self-play snapshots, every Oracle profile and random, drawn PFSP-style.

The league (``riven train --league``) is the opponent pool of a training run:

* every Oracle profile of ``agents/oracle/data/profiles.toml`` as ``oracle:PROFILE``, the
  agents of ``league.fixed`` (``random`` by default), and the ``selfplay.pool_size`` most
  recent snapshots of the learner (one every ``selfplay.snapshot_every`` timesteps);
* each is drawn with a weight from the learner's recent win rate against it
  (prioritised fictitious self-play, Vinyals et al. 2019): ``weight = f(p)`` with ``p`` the
  win rate over the last ``league.window`` finished games against that opponent (a draw is
  not a win), ``f`` named by ``league.pfsp`` (:data:`WEIGHTINGS`) with exponent
  ``league.pfsp_power``, at least ``league.min_weight``. An opponent with fewer than
  ``league.min_games`` games so far counts as ``p = league.prior_win_rate``;
* the weights are recomputed after every rollout and sent to the environments, which draw
  one opponent per episode.

Missions come from ``env.missions`` (bundled names, paths, ``generated:KIND:SEED``), one
drawn per episode; ``league.holdout_missions`` and ``league.holdout_opponents`` are kept out
of training and used to pick the best checkpoint (:mod:`riven_training.colours`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from riven_training.selfplay import SelfPlayPool

from riven_env.envs.opponents import OpponentPool
from riven_env.errors import RivenError


def _hard(p: float, power: float) -> float:
    return (1.0 - p) ** power


def _variance(p: float, power: float) -> float:
    return (p * (1.0 - p)) ** power


def _uniform(p: float, power: float) -> float:
    return 1.0


#: PFSP weighting functions by their ``league.pfsp`` name: ``hard`` favours the opponents the
#: learner loses to, ``(1 - p) ** power``; ``variance`` the even ones, ``(p (1 - p)) **
#: power``; ``uniform`` weighs all alike.
WEIGHTINGS = {"hard": _hard, "variance": _variance, "uniform": _uniform}


def pfsp_weight(win_rate: float, weighting: str, power: float, floor: float) -> float:
    """The draw weight of an opponent the learner beats at ``win_rate``.

    Raises:
        RivenError: An unknown ``weighting`` (the message lists :data:`WEIGHTINGS`).
    """
    function = WEIGHTINGS.get(weighting)
    if function is None:
        raise RivenError(f"league.pfsp = {weighting!r}: expected one of {sorted(WEIGHTINGS)}")
    return max(float(floor), function(min(1.0, max(0.0, win_rate)), power))


def league_opponents(fixed: Sequence[str]) -> list[str]:
    """``oracle:PROFILE`` for every bundled Oracle profile, then ``fixed`` (in order, once)."""
    from riven_agents.oracle.profiles import profile_names

    return list(dict.fromkeys([*(f"oracle:{name}" for name in profile_names()), *fixed]))


class League(SelfPlayPool):
    """The league's opponents and the learner's recent results against each.

    Args:
        opponents: The fixed opponents (agent specs).
        settings: The ``[league]`` table (``pfsp``, ``pfsp_power``, ``min_weight``,
            ``window``, ``min_games``, ``prior_win_rate``).
        pool_size: Most recent snapshots kept.
    """

    def __init__(self, opponents: Sequence[str], settings: Mapping[str, Any], pool_size: int):
        super().__init__(opponents[0], pool_size, include_opponent=True, opponent_weight=1.0)
        self.fixed = list(opponents)
        self.settings = dict(settings)
        self.recent: dict[str, deque[float]] = {}

    def members(self) -> list[str]:
        """Every opponent spec: the fixed ones, then the snapshots."""
        return [*self.fixed, *self.snapshots]

    def win_rate(self, spec: str) -> tuple[float, int]:
        """``(p, n)``: the recent win rate against ``spec`` (the prior below ``min_games``)."""
        games = self.recent.get(self.short_name(spec), ())
        n = len(games)
        if n < int(self.settings["min_games"]):
            return float(self.settings["prior_win_rate"]), n
        return sum(games) / n, n

    def weights(self) -> dict[str, float]:
        """Spec -> PFSP draw weight."""
        s = self.settings
        return {
            spec: pfsp_weight(
                self.win_rate(spec)[0], s["pfsp"], float(s["pfsp_power"]), s["min_weight"]
            )
            for spec in self.members()
        }

    def pool(self) -> OpponentPool:
        weights = self.weights()
        return OpponentPool(list(weights), list(weights.values()))

    def record(self, info: dict[str, Any]) -> None:
        super().record(info)
        result = info.get("result")
        if result is None:
            return
        name = self.short_name(info.get("opponent", "?"))
        games = self.recent.get(name)
        if games is None:
            games = self.recent[name] = deque(maxlen=int(self.settings["window"]))
        games.append(1.0 if result["winner"] == info.get("learner_side") else 0.0)


__all__ = ["WEIGHTINGS", "League", "league_opponents", "pfsp_weight"]
