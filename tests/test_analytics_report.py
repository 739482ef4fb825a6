"""The analytics sections of the report render in headless Chromium with their plots."""

from __future__ import annotations

import pytest
from browser import dump_dom, read_json_element, require_chromium
from playtest_fake_game import FAKE_SCENARIO

from riven_env.analytics.meta import meta_of_group, store_meta
from riven_env.analytics.report import write_report
from riven_env.analytics.store import insert_rows
from riven_env.playtest.config import PlaytestConfig
from riven_env.playtest.db import ResultsDB
from riven_env.playtest.runner import run_playtest

FAKE = "playtest_fake_game:play_game"


@pytest.fixture(scope="module")
def db_with_analyses(tmp_path_factory):
    folder = tmp_path_factory.mktemp("analytics")
    db_path = folder / "a.duckdb"
    base = PlaytestConfig(scenario=FAKE_SCENARIO, blue="oracle", red="random", games=6, seed=2,
                          workers=1, db=db_path, player=FAKE)  # fmt: skip
    played = run_playtest(base, progress=False)
    # A round robin of three fake "rosters" stored as a meta-game and as a skill trace.
    names = ("random", "greedy", "oracle")
    for kind, group in (("meta", "meta-test"), ("skill-trace", "skill-test")):
        for blue in names:
            for red in names:
                if blue != red:
                    run_playtest(base.with_(blue=blue, red=red, kind=kind, group_id=group,
                                            label=f"{blue} vs {red}"), progress=False)  # fmt: skip
    with ResultsDB(db_path) as db:
        store_meta(db, meta_of_group(db, "meta-test", FAKE_SCENARIO))
        insert_rows(db, "oracle_audit", [
            ("audit-test", "beast", FAKE_SCENARIO, "predictability", 0.7, 0.6, 0.8, 10, "bootstrap"),
            ("audit-test", "beast", FAKE_SCENARIO, "bad_move_rate", 0.1, 0.05, 0.2, 80, "wilson"),
        ])  # fmt: skip
    return db_path, played.run_id


def test_one_report_shows_every_analysis_of_the_mission(db_with_analyses, tmp_path):
    db_path, run_id = db_with_analyses
    text = write_report(db_path, run_id, tmp_path / "r.html").read_text()
    for section in ("game-metrics", "skill-trace", "meta-game", "oracle-audit"):
        assert f'id="{section}"' in text


@pytest.mark.browser
def test_analytics_sections_render_in_chromium(db_with_analyses, tmp_path):
    require_chromium()
    db_path, run_id = db_with_analyses
    out = write_report(db_path, run_id, tmp_path / "r.html")
    check = read_json_element(dump_dom(out), "report-check")
    assert check["sections"][-4:] == ["game-metrics", "skill-trace", "meta-game", "oracle-audit"]
    assert check["images"] >= 14 and check["decoded"] == check["images"]
