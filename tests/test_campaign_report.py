"""The campaign playtest report: its numbers (survival, snowball, rows read from the log),
its HTML in headless Chromium, and ``riven campaign report``'s bad input."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.cli.main import app

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("lifelines")
runner = CliRunner()


def test_campaign_rows_replay_to_the_final_warband() -> None:
    """The roster snapshots folded from the log end where the campaign's warband ends."""
    from riven_env.campaign import load_campaign, load_campaign_rules, play_campaign
    from riven_env.campaign.playtest import campaign_rows
    from riven_env.rules import bundled_rules
    from riven_env.scenario import load_library

    library = load_library(rules=bundled_rules())
    spec = load_campaign("iron-road")
    result = play_campaign(spec, "oracle", "oracle", 1, policy="random")
    rows = campaign_rows(result.records, load_campaign_rules(spec.rules_path), library)
    last = max(r[0] for r in rows["roster"])
    snapshot = {r[1]: r[3:] for r in rows["roster"] if r[0] == last}
    for m in result.warband.models:
        assert snapshot[m.id] == (m.status, m.might, m.agility, m.wit, m.resolve, m.mettle,
                                  m.wounds, float(m.move), m.xp_total)  # fmt: skip
    start = [r for r in rows["roster"] if r[0] == -1]
    assert [r[1] for r in start] == [m.id for m in spec.warband.models]
    advances = [r for r in result.records if r["type"] == "advance"]
    assert [(a[0], a[1], a[3]) for a in rows["advances"]] == [
        (r["step"], r["model"], r["advance"]) for r in advances
    ]
    fates = [r for r in result.records if r["type"] == "fate"]
    assert [(f[0], f[1], f[4]) for f in rows["fates"]] == [
        (r["step"], r["model"], r["outcome"]) for r in fates
    ]


def test_kaplan_meier_matches_the_product_limit_by_hand() -> None:
    from riven_env.campaign.analysis import kaplan_meier

    # 5 campaigns: lost at 1, lost at 2, censored at 2, lost at 3, censored at 3.
    points = kaplan_meier([1, 2, 2, 3, 3], [True, True, False, True, False], 3)
    expected = [1.0, 4 / 5, 4 / 5 * 3 / 4, 4 / 5 * 3 / 4 * 1 / 2]
    assert [p.time for p in points] == [0, 1, 2, 3]
    assert [p.survival for p in points] == pytest.approx(expected)
    assert [p.at_risk for p in points] == [5, 5, 4, 2]
    assert [p.events for p in points] == [0, 1, 1, 1]
    for p in points[1:]:
        assert 0.0 <= p.low <= p.survival <= p.high <= 1.0


def test_snowball_finds_a_snowball_and_its_bootstrap_is_seeded() -> None:
    from riven_env.campaign.analysis import snowball

    # 60 campaigns of 4 missions: winners keep winning, losers keep losing (mostly).
    pairs = {}
    for seed in range(60):
        first = seed % 2 == 0
        outcomes = [first, first, first if seed % 5 else not first, first]
        pairs[seed] = [(k, outcomes[k], outcomes[k + 1]) for k in range(3)]
    a, b = snowball(pairs), snowball(pairs)
    assert a.difference == b.difference  # seeded: the same data give the same interval
    assert a.after_win.value > 0.8 and a.after_other.value < 0.2
    assert a.difference.low > 0.5 and a.difference.n == 60
    assert len(a.per_step) == 3 and all(d.low > 0 for _, _, _, d in a.per_step)
    # No pairs after a loss: no difference, and no crash.
    none = snowball({0: [(0, True, True)]})
    assert math.isnan(none.difference.value) and none.after_other.n == 0


def _playtest(tmp_path: Path, *extra: str) -> dict:
    db = tmp_path / "c.duckdb"
    args = ["campaign", "playtest", "barrow-delve", "--campaigns", "4", "--workers", "1",
            "--db", str(db), "--json", "--quiet", *extra]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.slow
@pytest.mark.browser
def test_campaign_report_renders_every_section_in_chromium(tmp_path: Path) -> None:
    from browser import dump_dom, read_json_element, require_chromium

    from riven_env.campaign.report import SECTIONS

    out = _playtest(tmp_path, "--report", str(tmp_path / "r.html"))
    assert out["report"] == str(tmp_path / "r.html")
    text = (tmp_path / "r.html").read_text()
    assert "Kaplan-Meier" in text and "lifelines" in text and "http" not in text.lower()
    require_chromium()
    check = read_json_element(dump_dom(tmp_path / "r.html"), "report-check")
    assert check["sections"] == list(SECTIONS)
    assert check["images"] == 7 and check["decoded"] == check["images"]
    # The report command writes the same page from the stored run.
    again = runner.invoke(app, ["campaign", "report", str(tmp_path / "c.duckdb"), "-o",
                                str(tmp_path / "again.html")])  # fmt: skip
    assert again.exit_code == 0, again.output
    assert (tmp_path / "again.html").read_text() == text


def test_report_of_a_missing_database_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["campaign", "report", str(tmp_path / "none.duckdb"), "-o",
                                 str(tmp_path / "r.html")])  # fmt: skip
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: {tmp_path / 'none.duckdb'}: no such campaign playtest database"
    )
    assert not (tmp_path / "r.html").exists()


def test_report_refuses_a_non_html_output_and_an_unknown_run(tmp_path: Path) -> None:
    from riven_env.campaign.playtest import open_schema

    db = tmp_path / "c.duckdb"
    con = duckdb.connect(str(db))
    open_schema(con, db)
    for key in ("iron-road|oracle|oracle|oracle", "iron-road|oracle|oracle|random"):
        con.execute("INSERT INTO campaign_runs VALUES (?, 'iron-road', 0, 'oracle', 'oracle', "
                    "'oracle', 'completed', 6, 6, 6, 0, 0, 0, 4, 0, 0)", [key])  # fmt: skip
    con.close()
    several = runner.invoke(app, ["campaign", "report", str(db), "-o", str(tmp_path / "r.html")])
    assert several.exit_code == 2
    assert several.output.count("\n") == 1 and "holds 2 runs; name one with --run" in several.output
    unknown = runner.invoke(app, ["campaign", "report", str(db), "--run",
                                  "iron-road|oracle|oracle|orcle", "-o", str(tmp_path / "r.html")])  # fmt: skip
    assert (
        unknown.exit_code == 2 and "did you mean iron-road|oracle|oracle|oracle" in unknown.output
    )
    assert not (tmp_path / "r.html").exists()


def test_an_old_campaign_database_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE campaign_runs (run_key VARCHAR, seed BIGINT)")
    con.close()
    result = runner.invoke(app, ["campaign", "playtest", "barrow-delve", "--campaigns", "1",
                                 "--db", str(db), "--quiet"])  # fmt: skip
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: {db}: holds campaign tables of schema version 1, this version writes 2; "
        "use another --db"
    )
