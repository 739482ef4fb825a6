"""``riven balance --check`` on every bundled mission, with the real game (slow).

At a small sample (:data:`PAIRS` seeds, each played as given and swapped) the check runs with
wider tolerances than the files declare, since an interval on 80 games is about +/- 11 points
wide; the full check (``riven balance NAME --check``, 1,000 seeds) uses the files' own. Even
so the small check catches the rosters skirmish-5v5 had before it was rebalanced (the Wardens
won about 86% of the decisive games).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from riven_env.balance.check import check_balance
from riven_env.scenario.loader import list_bundled

PAIRS = 40
TOLERANCE = 0.15
INTERVAL = 0.25
UNBALANCED = Path(__file__).parent / "data" / "skirmish-5v5-unbalanced.toml"
#: Missions `riven balance` has tuned and a 2,000-game check has confirmed. The others declare
#: their balance and knobs but are not tuned yet (issue 15, left over): their check is
#: expected to fail until they are, and passes unexpectedly (XPASS) without failing the run.
REBALANCED = frozenset(
    {
        "skirmish-5v5",
        "scifi-skirmish-5v5",
        "skirmish-5v5-mirror",
        "solo-hero-horde",
        "ranged-vs-melee",
        "hold-the-line",
        "scifi-hold",
        "open-field",
        "duel-1v1",
        "escort-extract",
        "ruins",
        "scifi-derelict",
        "dungeon-crawl",
    }
)


def _check(path: Path, db: Path):
    return check_balance(path, pairs=PAIRS, tolerance=TOLERANCE, interval=INTERVAL, workers=1,
                         progress=False, db_path=db)  # fmt: skip


def _case(name: str):
    if name in REBALANCED:
        return name
    return pytest.param(name, marks=pytest.mark.xfail(reason="not rebalanced yet", strict=False))


@pytest.mark.slow
@pytest.mark.parametrize("name", [_case(info.name) for info in list_bundled()])
def test_bundled_mission_meets_its_declared_balance_at_a_small_sample(tmp_path, name):
    info = next(i for i in list_bundled() if i.name == name)
    result = _check(info.path, tmp_path / "b.duckdb")
    assert result.estimate.games == 2 * PAIRS
    assert result.met, (name, result.reasons, result.estimate.to_dict()["win_rate"])


@pytest.mark.slow
def test_the_small_check_catches_the_unbalanced_skirmish(tmp_path):
    result = _check(UNBALANCED, tmp_path / "b.duckdb")
    assert not result.met
    assert result.estimate.role.value > 0.75, result.estimate.to_dict()
    assert "outside 50 +/- 15" in result.reasons[0]
