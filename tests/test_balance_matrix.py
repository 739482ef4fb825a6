"""The target-matrix mode of ``riven balance`` (``[[balance.matrix]]``, docs/balance.md).

Validation of the cells, a search on the fast fake game (``tests/balance_fake_game.py``, whose
agents have a skill as well as the rosters a strength) and a small check with the real game.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.balance.check import check_balance
from riven_env.balance.objective import BalanceError, balance_settings
from riven_env.balance.report import write_search_report
from riven_env.balance.search import run_search
from riven_env.cli.main import app
from riven_env.errors import ScenarioError
from riven_env.scenario import load_scenario
from riven_env.scenario.loader import resolve_scenario

UNBALANCED = Path(__file__).parent / "data" / "skirmish-5v5-unbalanced.toml"
FAKE = "balance_fake_game:play_game"
SETTINGS = replace(balance_settings(), trials=30, startup_trials=4, stages=(10, 30, 80))
#: The mirror at 50% and two cells between agents of different strength (the fake's skills:
#: random -0.25, oracle 0, greedy +0.1), with tolerances to match a last look of 160 games.
#: The targets are what the fake game gives an even mirror (oracle vs random about 82%,
#: greedy vs oracle about 57%), so a setting exists that meets every cell.
MATRIX = """mode = "symmetric"
tolerance = 0.1
interval = 0.15

[[balance.matrix]]
row = "oracle"
column = "random"
win_rate = 0.8

[[balance.matrix]]
row = "greedy"
column = "oracle"
win_rate = 0.57
"""


def _mission(tmp_path: Path, balance: str, source: Path = UNBALANCED) -> Path:
    """``source`` with the plain keys of its ``[balance]`` (the lines before the first blank
    one) replaced by ``balance``; its knobs are kept."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    text = source.read_text(encoding="utf-8")
    head, _, tail = text.partition("\n[balance]\n")
    tail = tail.split("\n\n", 1)[1]
    path = tmp_path / "mission.toml"
    path.write_text(f"{head}\n[balance]\n{balance}\n{tail}", encoding="utf-8")
    return path


def test_cells_are_read_with_defaults_and_listed(tmp_path):
    spec = load_scenario(_mission(tmp_path / "a", MATRIX)).balance
    cells = spec.cells()
    assert [c.label for c in cells] == ["Oracle mirror", "oracle vs random", "greedy vs oracle"]
    assert cells[0].is_mirror and not cells[1].is_mirror
    assert all(c.side == "blue" and c.tolerance == 0.1 and c.interval == 0.15 for c in cells)
    assert spec.describe() == (
        "symmetric: each side 50%; matrix: oracle vs random 80%, greedy vs oracle 57%"
    )
    only = load_scenario(
        _mission(
            tmp_path / "b",
            'mode = "matrix"\n[[balance.matrix]]\nrow = "expert:40"\ncolumn = "oracle"\n'
            'win_rate = 0.7\nside = "red"\ntolerance = 0.08\ninterval = 0.1\n',
        )
    ).balance
    (cell,) = only.cells()
    assert (cell.row, cell.side, cell.tolerance, cell.interval) == ("expert:40", "red", 0.08, 0.1)
    assert cell.label == "expert:40 vs oracle (red roster)"


CELL = '[[balance.matrix]]\nrow = "oracle"\ncolumn = "random"\n'


@pytest.mark.parametrize(
    ("balance", "field", "words"),
    [
        ('mode = "matrix"', "balance.matrix", "needs at least one [[balance.matrix]] cell"),
        (
            f'mode = "matrix"\nside = "red"\n{CELL}win_rate = 0.9',
            "balance.side",
            "not allowed with mode = 'matrix'",
        ),
        (f'mode = "matrix"\n{CELL}', "balance.matrix[0].win_rate", "required key 'win_rate'"),
        (f'mode = "matrix"\n{CELL}win_rate = 1.2', "balance.matrix[0].win_rate", "at most 0.99"),
        (
            f'mode = "matrix"\n{CELL}win_rate = 0.9\nside = "green"',
            "balance.matrix[0].side",
            "allowed: blue, red",
        ),
        (
            f'mode = "matrix"\n{CELL}win_rate = 0.9\ntolerance = 0.1\ninterval = 0.05',
            "balance.matrix[0].interval",
            "at least the tolerance",
        ),
        (
            f'mode = "matrix"\n{CELL}win_rate = 0.9\nweight = 2',
            "balance.matrix[0].weight",
            "unknown key 'weight'",
        ),
        (
            'mode = "matrix"\n[[balance.matrix]]\nrow = " "\ncolumn = "random"\nwin_rate = 0.9',
            "balance.matrix[0].row",
            "expected an agent spec",
        ),
        (
            f'mode = "matrix"\n{CELL}win_rate = 0.9\n{CELL}win_rate = 0.8',
            "balance.matrix[1]",
            "declared twice (also balance.matrix[0])",
        ),
        (
            'mode = "symmetric"\n[[balance.matrix]]\nrow = "oracle"\ncolumn = "oracle"\n'
            "win_rate = 0.5",
            "balance.matrix[0]",
            "also the Oracle mirror of this [balance]",
        ),
        (
            'mode = "matrix"\n'
            + "".join(f"{CELL.replace('random', f'mcts:{k}')}win_rate = 0.5\n" for k in range(17)),
            "balance.matrix",
            "balance.max_cells",
        ),
    ],
)
def test_bad_cells_name_the_file_field_value_and_what_is_allowed(tmp_path, balance, field, words):
    path = _mission(tmp_path, balance)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    text = str(info.value)
    assert str(path) in text and f"{field}:" in text and words in text, text


def test_an_unknown_agent_is_refused_before_any_game(tmp_path):
    path = _mission(tmp_path, f'mode = "matrix"\n{CELL.replace("random", "wizard")}win_rate = 0.9')
    for call in (
        lambda: check_balance(path, pairs=2, progress=False, db_path=tmp_path / "d.duckdb"),
        lambda: run_search(path, progress=False, db_path=tmp_path / "d.duckdb", player=FAKE),
    ):
        with pytest.raises(BalanceError) as info:
            call()
        text = str(info.value)
        assert str(path) in text and "balance.matrix[0].column = 'wizard'" in text, text
        assert "allowed:" in text and "expert[:BUDGET]" in text, text
    result = CliRunner().invoke(
        app, ["balance", str(path), "--check", "--db", str(tmp_path / "d.duckdb")]
    )
    assert result.exit_code == 2 and "error: " in result.output, result.output


def _search(tmp_path: Path, **options):
    mission = _mission(tmp_path, MATRIX)
    options.setdefault("settings", SETTINGS)
    return run_search(mission, db_path=tmp_path / "runs" / "b.duckdb", workers=1,
                      progress=False, player=FAKE, **options)  # fmt: skip


@pytest.mark.slow  # minutes of games on 2 cores: CI's second step
def test_the_search_meets_every_cell_and_drops_a_candidate_at_its_first_bad_cell(tmp_path):
    result = _search(tmp_path, out=tmp_path / "tuned.toml")
    summary = [(c.values, c.state, c.games, c.cell_reasons) for c in result.candidates]
    assert result.met, summary
    chosen = result.best()
    assert chosen.state == "chosen" and chosen.cell_reasons == [[], [], []]
    for cell, est in zip(result.spec.cells(), chosen.last_cells, strict=True):
        share = est["win_rate"]
        assert abs(share["rate"] - cell.win_rate) <= cell.tolerance, (cell.label, share)
        assert est["games"] == 2 * SETTINGS.stages[-1]
    # A candidate clearly off at a cell is dropped at that look: the cells after it are not
    # played (their reason says so), and it paid only for the cells it played.
    dropped = [c for c in result.candidates if c.state == "pruned" and c.cells[-1][-1] is None]
    assert dropped, summary
    for candidate in dropped:
        look = candidate.cells[-1]
        played = look.index(None)
        assert played >= 1 and all(e is None for e in look[played:]), candidate.cells
    # Dropped at its first look: a cell never played says so, and only the cells before
    # it were paid for.
    first_look = [c for c in dropped if len(c.cells) == 1]
    assert first_look, summary
    for candidate in first_look:
        played = candidate.cells[0].index(None)
        assert any("not played" in r for r in candidate.cell_reasons[played])
        assert candidate.games == played * candidate.cells[0][0]["games"]
    # Every cell of a candidate plays the same seeds (common random numbers) and the
    # combined distance is the sum of the cells' distances.
    assert chosen.distance == pytest.approx(
        sum(abs(e["win_rate"]["rate"] - c.win_rate)
            for c, e in zip(result.spec.cells(), chosen.last_cells, strict=True))
    )  # fmt: skip
    assert result.grid_games == 144 * 2 * SETTINGS.stages[-1] * 3
    assert result.games < result.grid_games
    assert load_scenario(tmp_path / "tuned.toml").balance.matrix == result.spec.matrix


@pytest.mark.slow  # minutes of games on 2 cores: CI's second step
def test_same_seed_same_matrix_search(tmp_path):
    quick = replace(SETTINGS, stages=(5, 15))

    def summary(r):
        # Every estimate but its run ids (which carry the time a run was stored).
        cells = [
            [[{k: v for k, v in e.items() if k != "runs"} if e else e for e in look]
             for look in c.cells]
            for c in r.candidates
        ]  # fmt: skip
        return [(c.values, c.state, c.games, cells[i]) for i, c in enumerate(r.candidates)]

    one = _search(tmp_path / "a", seed=2, trials=4, settings=quick)
    two = _search(tmp_path / "b", seed=2, trials=4, settings=quick)
    assert summary(one) == summary(two) and len(one.candidates) == 4


@pytest.mark.slow  # minutes of games on 2 cores: CI's second step
def test_the_report_and_json_show_the_matrix(tmp_path):
    result = _search(tmp_path, trials=6)
    html = write_search_report(result, tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'id="matrix"' in html and "Target matrix" in html
    assert "oracle vs random" in html and "greedy vs oracle" in html and "on red" in html
    data = result.to_json()
    json.dumps(data)
    assert [c["name"] for c in data["cells"]] == [
        "Oracle mirror", "oracle vs random", "greedy vs oracle"
    ]  # fmt: skip
    look = data["candidates"][-1]["looks"][0]
    assert len(look["cells"]) == 3 and set(look["cells"][0]["win_rate"]) == {
        "rate", "low", "high", "n"
    }  # fmt: skip


DUEL_CELLS = (
    'mode = "matrix"\n[[balance.matrix]]\nrow = "oracle"\ncolumn = "random"\nwin_rate = 0.9\n'
    '[[balance.matrix]]\nrow = "random"\ncolumn = "oracle"\nwin_rate = 0.1\n'
)


@pytest.mark.parametrize(
    ("extra", "code"), [([], 1), (["--tolerance", "0.9", "--interval", "0.95"], 0)]
)
def test_cli_check_reports_every_cell_with_the_real_game(tmp_path, extra, code):
    # Three seeds of the real duel, two cells: far too few for the default tolerances
    # (exit 1 with each cell's reason); with 90 and 95 points anything passes.
    duel = _mission(tmp_path, DUEL_CELLS, source=resolve_scenario("duel-1v1"))
    result = CliRunner().invoke(
        app,
        ["balance", str(duel), "--check", "--pairs", "3", "--workers", "1", "--quiet",
         "--db", str(tmp_path / "d.duckdb"), *extra],
    )  # fmt: skip
    assert result.exit_code == code, result.output
    for words in ("oracle vs random", "random vs oracle", "on blue", "on red", "n=6"):
        assert words in result.output, (words, result.output)
    if code:
        assert "balance NOT met: oracle vs random: " in result.output
    else:
        assert "balance met" in result.output
    data = json.loads(
        CliRunner().invoke(
            app,
            ["balance", str(duel), "--check", "--pairs", "3", "--workers", "1", "--quiet",
             "--json", "--db", str(tmp_path / "d.duckdb"), *extra],
        ).stdout
    )  # fmt: skip
    cells = data["cells"]
    assert [c["name"] for c in cells] == ["oracle vs random", "random vs oracle"]
    # Row agent's share as given (on blue) and swapped (on red), each with its n.
    assert all(c["estimate"]["win_rate_given"]["n"] <= 3 for c in cells)
    assert data["met"] is (code == 0) and data["estimate"] == cells[0]["estimate"]
