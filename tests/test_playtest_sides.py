"""Each side's agent, resolved Oracle profile and roster: in the summary, the database, the
``playtest`` text and ``--json`` output and the report; and the report's plots read right."""

from __future__ import annotations

import json

import duckdb
import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app
from riven_env.engines import play_game
from riven_env.playtest import plots
from riven_env.playtest.analysis import analyse_run
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import TABLES, ResultsDB
from riven_env.playtest.report import render_report
from riven_env.playtest.runner import run_playtest
from riven_env.playtest.stats import wilson_interval
from riven_env.playtest.summary import roster_text, side_rosters, summarise_game

# skirmish-5v5: the Wardens play tactical, the Reavers aggressive (the second balance pass of
# issue 15, on the reflected table); solo-hero-horde below covers a model's own profile.
SKIRMISH_ROSTERS = {
    "blue": "captain, veteran, warrior, archer, marksman",
    "red": "captain, brute, 2x warrior, archer, marksman",
}


def test_the_oracle_resolves_each_sides_profile_from_the_mission():
    summary = summarise_game(play_game("skirmish-5v5", "oracle", "oracle", 5, max_decisions=3))
    assert summary.sides["blue"].oracle_profile == "tactical"
    assert summary.sides["red"].oracle_profile == "aggressive"
    assert summary.sides["blue"].name == "Wardens of the Ford"
    assert {m.oracle for m in summary.models if m.side == "red"} == {"aggressive"}
    rosters = side_rosters(summary)
    assert roster_text(rosters["blue"]) == SKIRMISH_ROSTERS["blue"]
    assert roster_text(rosters["red"]) == SKIRMISH_ROSTERS["red"]


def test_a_forced_profile_and_a_side_without_the_oracle():
    events = play_game("skirmish-5v5", "random", "oracle:cautious", 5, max_decisions=3)
    summary = summarise_game(events)
    assert summary.sides["blue"].oracle_profile is None
    assert {m.oracle for m in summary.models if m.side == "blue"} == {None}
    assert summary.sides["red"].oracle_profile == "cautious"
    assert {m.oracle for m in summary.models if m.side == "red"} == {"cautious"}


def test_a_model_with_its_own_profile_is_named_in_the_roster():
    # solo-hero-horde: the Goblin war party is aggressive, its wolf plays the beast profile.
    summary = summarise_game(play_game("solo-hero-horde", "random", "oracle", 2, max_decisions=3))
    red = side_rosters(summary)["red"]
    assert red["oracle_profile"] == "aggressive"
    assert roster_text(red) == "6x goblin, goblin_slinger, 2x wolf (beast)"
    assert sum(entry["count"] for entry in red["roster"]) == red["models"] == 9


def test_a_log_without_resolved_profiles_keeps_the_scenarios():
    events = play_game("skirmish-5v5", "oracle", "oracle", 5, max_decisions=3)
    del events[0]["oracle_profiles"]
    summary = summarise_game(events)
    assert summary.sides["blue"].oracle_profile is None  # unknown who played, so not claimed
    assert {m.oracle for m in summary.models if m.side == "blue"} == {"tactical"}


@pytest.fixture(scope="module")
def skirmish_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sides")
    config = PlaytestConfig(scenario="skirmish-5v5", blue="oracle", red="oracle", games=2,
                            seed=1, workers=1, db=folder / "s.duckdb")  # fmt: skip
    return run_playtest(config, progress=False)


def test_the_run_row_the_json_and_the_report_name_profiles_and_rosters(skirmish_run):
    with ResultsDB(skirmish_run.config.db, read_only=True) as db:
        stored = json.loads(db.run(skirmish_run.run_id)["sides"])
        analysis = analyse_run(db, skirmish_run.run_id)
    assert stored["blue"]["oracle_profile"] == "tactical"
    assert stored["red"]["oracle_profile"] == "aggressive"
    sides = skirmish_run.to_json()["sides"]
    assert sides["blue"]["oracle_profile"] == "tactical" and sides["blue"]["agent"] == "oracle"
    for side, text in SKIRMISH_ROSTERS.items():
        assert roster_text(sides[side]) == text
        assert sides[side]["mean_points"] is not None
    page = render_report(analysis)
    header = page[: page.index('id="win-rates"')]
    assert "tactical" in header and "Wardens of the Ford" in header
    assert SKIRMISH_ROSTERS["red"] in header and "Reaver Band" in header


def test_the_playtest_text_output_names_profiles_and_rosters(tmp_path):
    result = CliRunner().invoke(
        app,
        ["playtest", "--scenario", "skirmish-5v5", "--blue", "oracle", "--red", "oracle",
         "--games", "1", "--workers", "1", "--max-decisions", "30",
         "--db", str(tmp_path / "t.duckdb")],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    blue = next(line for line in lines if line.startswith("blue: "))
    red = next(line for line in lines if line.startswith("red: "))
    assert "Oracle profile tactical" in blue and SKIRMISH_ROSTERS["blue"] in blue
    assert "Oracle profile aggressive" in red and SKIRMISH_ROSTERS["red"] in red


def test_a_database_written_before_the_sides_column_still_opens(tmp_path):
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    old = ", ".join(f"{c} {k}" for c, k in TABLES["runs"] if c != "sides")
    con.execute(f"CREATE TABLE runs ({old})")
    con.close()
    with ResultsDB(path) as db:
        assert "sides" in {row["column_name"] for row in db.query("DESCRIBE runs")}


def test_bar_labels_round_as_the_tables_do():
    assert plots.percent_label(12.5) == "12.5%"
    # 1 win in 8 games: the table says 12.5%, so must the bar.
    interval = wilson_interval(1, 8)
    plt = plots._pyplot()
    fig, ax = plt.subplots()
    plots._interval_bars(ax, ["Blue wins"], [interval])
    assert [t.get_text() for t in ax.texts] == ["12.5%"]
    plt.close(fig)


def _overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("kind", ["resources", "grouped"])
def test_legends_do_not_cover_the_bars(kind):
    if kind == "resources":
        # Long bars on every row: a legend inside the plot would have nowhere to hide.
        rows = [(side, "strain", direction, reason, 40)
                for side in ("blue", "red") for direction in ("gained", "spent")
                for reason in ("max dice", "wound", "rest", "recoiled", "complication")]  # fmt: skip
        fig = plots.resources_figure(rows, "strain", 4)
    else:
        per_side = {"blue": {"down": 3.0, "out": 3.0}, "red": {"down": 3.0, "out": 3.0}}
        fig = plots.grouped_per_side_figure(per_side, [("down", "Down"), ("out", "Out")], "n")
    fig.tight_layout()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent(renderer)
    bars = [p.get_window_extent(renderer) for p in ax.patches if p.get_width() > 0]
    assert bars and not any(_overlaps(legend, bar) for bar in bars)
    # ... and the legend is inside the figure, not cut off.
    figure = fig.bbox
    assert legend.x1 <= figure.x1 + 1 and legend.y0 >= figure.y0 - 1
    plots._pyplot().close(fig)
