"""``riven balance --check`` on every bundled mission, with the real game (slow).

At a small sample (:data:`PAIRS` seeds, each played as given and swapped: 300 games on the
native engine, 80 on the Python one) the check runs with wider tolerances than the files
declare, since an interval on 300 games is about +/- 5.7 points wide (+/- 11 on 80); the full
check (``riven balance NAME --check``, 1,000 seeds) uses the files' own. Even so the small
check catches the rosters skirmish-5v5 had before it was rebalanced (the Wardens won about
86% of the decisive games). Every bundled mission meets its declared balance since issue 15.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from riven_env import native
from riven_env.balance.check import check_balance
from riven_env.scenario.loader import list_bundled

#: The native engine plays the same games byte for byte (tests/test_native_oracle_loop.py) about
#: ten times faster, so with it the sample is larger and the tolerances nearer the files' own.
ENGINE = "native" if native.available() else "python"
PAIRS = 150 if ENGINE == "native" else 40
TOLERANCE = 0.10 if ENGINE == "native" else 0.15
INTERVAL = 0.17 if ENGINE == "native" else 0.25
UNBALANCED = Path(__file__).parent / "data" / "skirmish-5v5-unbalanced.toml"


def _check(path: Path, db: Path):
    return check_balance(path, pairs=PAIRS, tolerance=TOLERANCE, interval=INTERVAL, workers=1,
                         progress=False, db_path=db, engine=ENGINE)  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("name", [info.name for info in list_bundled()])
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
    assert f"outside 50 +/- {TOLERANCE * 100:g}" in result.reasons[0]
