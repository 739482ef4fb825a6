"""The HTML report: content from the database, and it renders in headless Chromium."""

from __future__ import annotations

import pytest
from browser import dump_dom, read_json_element, require_chromium
from playtest_fake_game import FAKE_SCENARIO

from riven_env.analytics.report import write_report
from riven_env.playtest.analysis import analyse_run
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.runner import run_playtest

SECTIONS = ["win-rates", "first-player", "game-length", "casualties", "morale",
            "activation-dice", "oracle-rules", "momentum-strain",
            "game-metrics"]  # fmt: skip


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    config = PlaytestConfig(scenario=FAKE_SCENARIO, blue="oracle:aggressive", red="random",
                            games=60, seed=3, workers=1, db=folder / "r.duckdb",
                            player="playtest_fake_game:play_game")  # fmt: skip
    return run_playtest(config, progress=False)


def test_analysis_lists_oracle_rules_that_never_fired(fake_run):
    with ResultsDB(fake_run.config.db, read_only=True) as db:
        analysis = analyse_run(db, fake_run.run_id)
    fired = {rule for (_, rule) in analysis.oracle_fired}
    # The fake Oracle fires every rule but its last one ("advance") and none of the real ones.
    assert "advance" not in fired and "finish-down" in fired
    never = analysis.oracle_never["aggressive"]
    assert "charge_weakest" in never and "finish-down" not in never
    # The fake game has no bonus activations: every activation is a dice choice.
    per_game = sum(side["activations"] for side in analysis.per_side.values())
    assert sum(c.count for c in analysis.dice) == round(per_game * analysis.summary.games)


def test_report_has_every_section_and_embedded_plots(fake_run, tmp_path):
    out = write_report(fake_run.config.db, None, tmp_path / "sub" / "report.html")
    text = out.read_text(encoding="utf-8")
    for section in SECTIONS:
        assert f'id="{section}"' in text
    assert text.count("data:image/png;base64,") >= 8
    assert "http://" not in text and "https://" not in text  # self-contained
    assert "never fired" in text and "dominated" in text


@pytest.mark.browser
def test_report_renders_in_chromium(fake_run, tmp_path):
    require_chromium()
    out = write_report(fake_run.config.db, fake_run.run_id, tmp_path / "report.html")
    check = read_json_element(dump_dom(out), "report-check")
    assert check["sections"] == SECTIONS
    assert check["images"] >= 8 and check["decoded"] == check["images"]


@pytest.mark.browser
def test_report_of_real_games_renders_in_chromium(tmp_path):
    require_chromium()
    config = PlaytestConfig(scenario="duel-1v1", blue="oracle", red="random", games=3, seed=4,
                            workers=1, db=tmp_path / "real.duckdb")  # fmt: skip
    result = run_playtest(config, progress=False)
    out = write_report(config.db, result.run_id, tmp_path / "real.html")
    check = read_json_element(dump_dom(out), "report-check")
    assert check["sections"] == SECTIONS and check["decoded"] == check["images"] > 0
