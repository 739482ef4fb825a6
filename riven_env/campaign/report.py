"""The campaign playtest's self-contained HTML report (``riven campaign report``).

Built from the same pieces as the mission report (:mod:`riven_env.playtest.html`: style,
tables, explained sections, embedded PNGs and the JSON self-check the headless-browser test
reads); the numbers come from :func:`riven_env.campaign.analysis.analyse_campaigns`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from riven_env.campaign import plots
from riven_env.campaign.analysis import (
    BOOTSTRAP_SAMPLES,
    BOOTSTRAP_SEED,
    CampaignAnalysis,
    analyse_campaigns,
    run_keys,
)
from riven_env.campaign.errors import CampaignError
from riven_env.errors import did_you_mean
from riven_env.extras import require
from riven_env.playtest.html import SELF_CHECK, STYLE
from riven_env.playtest.html import escape as _e
from riven_env.playtest.html import image as _img
from riven_env.playtest.html import section as _section
from riven_env.playtest.html import table as _table
from riven_env.playtest.stats import Interval

_STYLE = "td { white-space: nowrap; }"  # intervals stay on one line
SECTIONS = ("outcomes", "survival", "win-rates", "campaign-length", "casualties", "growth",
            "advances", "snowball")  # fmt: skip


def _interval_text(i: Interval, template: str) -> str:
    """``template`` with the estimate and its bounds in percent (``v``, ``low``, ``high``)."""
    if i.n == 0 or math.isnan(i.value):
        return "no data"
    return template.format(v=i.value * 100, low=i.low * 100, high=i.high * 100)


def _pct(i: Interval) -> str:
    return _interval_text(i, "{v:.1f}% ({low:.1f}-{high:.1f}%)")


def _short(i: Interval) -> str:
    """A table cell: ``86.2% [81.7, 89.7]``."""
    return _interval_text(i, "{v:.1f}% [{low:.1f}, {high:.1f}]")


def _short_pts(i: Interval) -> str:
    """A table cell: ``+2.5 [-4.4, +10.3]`` (points)."""
    return _interval_text(i, "{v:+.1f} [{low:+.1f}, {high:+.1f}]")


def _pts(i: Interval) -> str:
    return _interval_text(i, "{v:+.1f} pts ({low:+.1f} to {high:+.1f})")


def _outcomes(a: CampaignAnalysis) -> str:
    rows = [(_e(r.replace("_", " ")), n, f"{n / max(1, a.campaigns) * 100:.1f}%")
            for r, n in a.results.items()]  # fmt: skip
    body = _table(["How the campaign ended", "Campaigns", "Share"], rows) + _table(
        ["Measure", "Estimate (95% interval)"],
        [("Campaigns the warband lived through", _pct(a.completion)),
         ("Missions won (all steps)", _pct(a.mission_win))],
    )  # fmt: skip
    return _section(
        "outcomes",
        "How campaigns end",
        "<b>completed</b>: the whole chain was played; <b>victory</b>: the story objective "
        "(enough wins) ended it early; <b>wiped out</b> / <b>hero dead</b> / <b>hero "
        "retired</b>: the warband (or the solo hero) is gone. 'Lived through' is the share "
        "that did not end gone (Wilson interval). 'Missions won' pools every mission played; "
        "its interval is a bootstrap over campaigns, since a campaign's missions are not "
        f"independent ({BOOTSTRAP_SAMPLES} resamples, seed {BOOTSTRAP_SEED}).",
        body,
    )


def _survival(a: CampaignAnalysis) -> str:
    rows = [(f"after {p.time}", f"{p.survival * 100:.1f}%",
             f"{p.low * 100:.1f}-{p.high * 100:.1f}%", p.at_risk, p.events)
            for p in a.survival if p.time > 0]  # fmt: skip
    table = _table(["Missions played", "Warband still going", "95% interval", "At risk", "Ended"],
                   rows)  # fmt: skip
    return _section(
        "survival",
        "Survival: does the warband live through the campaign?",
        "Left: the share of warbands still in the campaign after each mission (Kaplan-Meier, "
        "from <code>lifelines</code>, with its 95% interval as the band). A campaign that ends "
        "with the warband gone counts as a death at its last mission; one that is completed "
        "or won early is 'censored' there (it survived as far as we saw). A steep drop at one "
        "mission is a difficulty spike; a curve that keeps falling faster is a death spiral. "
        "Right: the same for single models, by missions fought (death is the event; a model "
        "that retired or whose campaign ended is censored).",
        _img(plots.survival(a), "survival curve") + table,
    )


def _win_rates(a: CampaignAnalysis) -> str:
    rows = [(plots.mission_label(step), played, i.n, _pct(i)) for step, i, played in a.win_rates]
    return _section(
        "win-rates",
        "Mission win rate by step",
        "Bars: the share of the missions at each step that the warband won, with the 95% "
        "Wilson interval; under each, how many were played. 'Reached' counts the campaigns "
        "that got that far (the rest ended before); a mission is not played when no model "
        "was fit (it is skipped). A difficulty ramp shows as falling bars; bars that rise "
        "toward 100% mean the threat never catches up with a growing warband.",
        _img(plots.win_rates(a), "win rate by step")
        + _table(["Mission", "Reached", "Played", "Won (95% interval)"], rows),
    )


def _length(a: CampaignAnalysis) -> str:
    results = sorted({r for _, r in a.lengths})
    rows = [(n, *(a.lengths.get((n, r), 0) for r in results))
            for n in range(1, a.steps + 1)]  # fmt: skip
    return _section(
        "campaign-length",
        "How long campaigns last",
        "Campaigns by the number of missions played before they ended, coloured by how they "
        "ended. A pile at the last mission is a chain that is usually played out; bars early "
        "on are warbands lost (or stories won) quickly.",
        _img(plots.length(a), "campaign length")
        + _table(["Missions played", *(r.replace("_", " ") for r in results)], rows),
    )


def _casualties(a: CampaignAnalysis) -> str:
    rows = [(plots.mission_label(c.step), c.campaigns,
             *(f"{getattr(c, k) / max(1, c.campaigns):.2f}"
               for k in ("dead", "retired", "injured", "convalescing")))
            for c in a.casualties]  # fmt: skip
    return _section(
        "casualties",
        "Deaths and injuries by step",
        "Per campaign that reached the mission: models that died (failed the fate test after "
        "being taken Out), retired (an injury past a bound, or too many injuries), took a "
        "lasting injury, or sit the next mission out convalescing. A death spiral shows here "
        "first: deaths rising from mission to mission while the warband shrinks (the survival "
        "curve falling ever faster); a spike at one mission is that mission's difficulty.",
        _img(plots.casualties(a), "deaths and injuries")
        + _table(["Mission", "Campaigns", "Dead", "Retired", "Injured", "Convalescing"], rows),
    )


def _growth(a: CampaignAnalysis) -> str:
    rows = [("start" if g["step"] < 0 else plots.mission_label(int(g["step"])),
             f"{g['models']:.2f}", *(f"{g[k]:.2f}" for k in
                                     ("might", "agility", "wit", "resolve", "total", "mettle")))
            for g in a.growth]  # fmt: skip
    return _section(
        "growth",
        "Attribute and Mettle growth",
        "Mean attributes and Mettle threshold of the living models after each mission's "
        "post-battle sequence and advances (recruits included, the dead and retired not). "
        "Advances raise attributes up to 5 and Mettle toward 2+; lasting injuries lower them. "
        "Mettle is a threshold (lower is better), so the right plot's axis is flipped: up is "
        "better. 'Living models' is per campaign, the campaigns that ended counting 0.",
        _img(plots.growth(a), "attribute growth")
        + _table(
            [
                "After mission",
                "Living models",
                "Might",
                "Agility",
                "Wit",
                "Resolve",
                "Sum",
                "Mettle",
            ],
            rows,
        ),  # fmt: skip
    )


def _advances(a: CampaignAnalysis) -> str:
    if not a.advances:
        return _section("advances", "Advances chosen", "No advance was bought.", "")
    rows = [(_e(u.advance), u.chosen,
             f"{u.campaigns / max(1, a.campaigns) * 100:.0f}%", _short(u.after),
             _short(u.without), _short_pts(u.difference)) for u in a.advances]  # fmt: skip
    return _section(
        "advances",
        "Advances chosen and winning",
        f"Which advances the campaign policy (<b>{_e(a.policy)}</b>) bought, most bought first, "
        "and the win rate of the next mission after a step where the warband bought it, "
        "against after a step where it did not (difference with Newcombe's 95% interval). "
        "This is an association, not a cause: warbands that win earn more experience and buy "
        "more. An advance bought in nearly every campaign is the 'always take it' choice; one "
        "never bought is dead text.",
        _img(plots.advances(a), "advances")
        + _table(
            [
                "Advance",
                "Bought",
                "In campaigns",
                "Next won, after it [95%]",
                "... without it",
                "Difference (pts)",
            ],
            rows,
        ),  # fmt: skip
    )


def _snowball(a: CampaignAnalysis) -> str:
    s = a.snowball
    d = s.difference
    if d.n == 0 or math.isnan(d.value):
        verdict = "There are not enough missions after both a win and a loss to tell."
    elif d.low > 0:
        verdict = ("<b>Winning snowballs</b>: the warband is more likely to win a mission after "
                   "winning the one before, beyond chance.")  # fmt: skip
    elif d.high < 0:
        verdict = ("<b>Winning evens out</b>: after a win the next mission is less likely won, "
                   "beyond chance (the threat catches up).")  # fmt: skip
    else:
        verdict = "The interval includes 0: no snowball is detected at this sample size."
    rows = [(f"{k + 1} → {k + 2}", _short(w), _short(o), _short_pts(diff))
            for k, w, o, diff in s.per_step]  # fmt: skip
    rows.append(("<b>pooled</b>", _short(s.after_win), _short(s.after_other), _short_pts(d)))
    headline = (f"<p>{verdict} Pooled: {_pct(s.after_win)} of missions won after a win, "
                f"{_pct(s.after_other)} after a loss or draw; difference {_pts(d)}.</p>")  # fmt: skip
    return _section(
        "snowball",
        "Snowball: does winning a mission raise the chance of winning the next?",
        "P(win mission k+1 | won mission k) against P(win mission k+1 | lost or drew mission "
        "k). Per pair of missions the difference has Newcombe's interval; pooled over every "
        f"pair, a percentile bootstrap over campaigns ({BOOTSTRAP_SAMPLES} resamples, seed "
        f"{BOOTSTRAP_SEED}). A large positive difference is a snowball (the rich get richer); "
        "combined with a falling survival curve after losses it is a death spiral.",
        headline
        + _img(plots.snowball(a), "snowball")
        + _table(
            ["Missions", "Won after a win [95%]", "Won after no win", "Difference (pts)"], rows
        ),  # fmt: skip
    )


def render_campaign_report(a: CampaignAnalysis) -> str:
    """The HTML text of the report of one analysed run."""
    variant = a.run_key.split("|", 4)[4] if a.run_key.count("|") >= 4 else ""
    rules = _e(variant.replace("&", ", ")) if variant else "the campaign's own"
    header = (
        f"<h1>Campaign playtest: {_e(a.campaign)}</h1>"
        f'<p class="meta">{a.campaigns} campaigns of up to {a.steps} missions; warband: '
        f"<b>{_e(a.blue)}</b>, threat: <b>{_e(a.red)}</b>, campaign policy: "
        f"<b>{_e(a.policy)}</b>; rules: {rules}. Run <code>{_e(a.run_key)}</code>.</p>"
    )
    if a.campaigns == 0:
        body = "<p>This run has no stored campaigns yet.</p>"
    else:
        body = "".join((_outcomes(a), _survival(a), _win_rates(a), _length(a), _casualties(a),
                        _growth(a), _advances(a), _snowball(a)))  # fmt: skip
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>RIVEN campaign playtest: {_e(a.campaign)}</title><style>{STYLE}{_STYLE}</style>"
        "</head>"
        f'<body>{header}{body}<pre id="report-check" hidden></pre>{SELF_CHECK}</body></html>'
    )


def pick_run(con: Any, run: str | None, db: str | Path) -> str:
    """The run key to report: ``run``, or the only run stored.

    Raises:
        CampaignError: No run, an unknown run, or several runs and none named.
    """
    keys = run_keys(con)
    if not keys:
        raise CampaignError("holds no campaign playtest runs", file=str(db))
    if run is None:
        if len(keys) > 1:
            raise CampaignError(
                f"holds {len(keys)} runs; name one with --run: " + ", ".join(keys), file=str(db)
            )
        return keys[0]
    if run not in keys:
        raise CampaignError(f"no run {run!r}{did_you_mean(run, keys)}", file=str(db))
    return run


def open_campaign_db(db: str | Path) -> Any:
    """A read-only DuckDB connection to a campaign playtest database (one line if not)."""
    duckdb = require("duckdb", "playtest", "campaign reports")
    path = Path(db)
    if not path.is_file():
        raise CampaignError("no such campaign playtest database", file=str(db))
    try:
        con = duckdb.connect(str(path), read_only=True)
        con.execute("SELECT count(*) FROM campaign_roster").fetchone()
    except Exception as exc:  # duckdb's own errors: not a database, or no campaign tables
        raise CampaignError(
            f"not a campaign playtest database ({type(exc).__name__})", file=str(db)
        ) from None
    return con


def write_campaign_report(db: str | Path, run: str | None, output: str | Path) -> Path:
    """Analyse run ``run`` (default: the only one) of ``db`` and write its report."""
    con = open_campaign_db(db)
    try:
        analysis = analyse_campaigns(con, pick_run(con, run, db))
    finally:
        con.close()
    out = Path(output)
    out.write_text(render_campaign_report(analysis), encoding="utf-8")
    return out


__all__ = [
    "SECTIONS",
    "open_campaign_db",
    "pick_run",
    "render_campaign_report",
    "write_campaign_report",
]
