"""One self-contained HTML report of a playtest run, written for designers.

Every plot is an embedded PNG and every section has a short plain-language explanation,
so the file can be mailed or opened offline. A tiny script at the end writes a JSON
self-check (``<pre id="report-check">``: sections present, images decoded) used by the
headless-browser test.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from riven_env.playtest import plots
from riven_env.playtest.analysis import MIN_ACTIVATIONS_TO_COMPARE, RunAnalysis
from riven_env.playtest.html import SELF_CHECK, STYLE
from riven_env.playtest.html import escape as _e
from riven_env.playtest.html import image as _img
from riven_env.playtest.html import section as _section
from riven_env.playtest.html import table as _table
from riven_env.playtest.stats import Interval
from riven_env.playtest.summary import roster_text


def _pct(interval: Interval) -> str:
    if interval.n == 0:
        return "no games"
    return f"{interval.value * 100:.1f}% (95% interval {interval.low * 100:.1f}-{interval.high * 100:.1f}%)"


def _overview(a: RunAnalysis) -> str:
    s = a.summary
    rows = [(f"{side.capitalize()} wins", count, _pct(s.win_rate[side]))
            for side, count in s.wins.items()]  # fmt: skip
    rows.append(("Draws", s.draws, _pct(s.draw_rate)))
    table = _table(["Result", "Games", "Rate"], rows)
    return _section(
        "win-rates",
        "Who wins",
        "Each bar is the share of games a side won; the whisker is the range where the true "
        "rate lies with 95% confidence (Wilson interval). If the whiskers of blue and red "
        "overlap a lot, the run cannot yet tell which side is favoured: play more games.",
        _img(plots.win_rates(a), "win rates") + table,
    )


def _first_player(a: RunAnalysis) -> str:
    fp = a.first_player
    body = _img(plots.first_player(a), "first player advantage") + _table(
        ["Turn order", "Win rate"],
        [("Moved first", _pct(fp["first"])), ("Moved second", _pct(fp["second"]))],
    )
    return _section(
        "first-player",
        "Does moving first matter?",
        "Win rates of whichever side took the first turn, against the side that went second "
        "(draws count for neither). A clear gap means the first turn is an advantage the "
        "mission may need to balance, for example with deployment or objectives.",
        body,
    )


def _length(a: RunAnalysis) -> str:
    s = a.summary
    mean = "no games" if s.rounds.n == 0 else f"{s.rounds.value:.2f} rounds on average"
    reasons = _table(["How the game ended", "Games"], list(a.reasons.items()))
    return _section(
        "game-length",
        "How long games last",
        f"How many rounds games lasted ({mean}). A pile-up at the round limit means games "
        "usually run out of time rather than being decided by fighting or objectives.",
        _img(plots.game_length(a), "game length") + reasons,
    )


def _casualties(a: RunAnalysis) -> str:
    measures = [("wounds_taken", "wounds taken"), ("down", "went Down"), ("out", "taken Out"),
                ("fled", "fled"), ("survivors", "survivors")]  # fmt: skip
    rows = [
        (side.capitalize(), *(f"{v.get(k, 0.0):.2f}" for k, _ in measures))
        for side, v in a.per_side.items()
    ]
    return _section(
        "casualties",
        "Casualties: Down, Out and Fled",
        "Average per game for each side. Down: reduced to 0 wounds but still on the table. "
        "Out: removed after failing the roll while Down. Fled: ran off the table after a "
        "failed morale test. Survivors: models still standing at the end.",
        _img(plots.grouped_per_side(a.per_side, measures, "per game"), "casualties")
        + _table(["Side", *(label for _, label in measures)], rows),
    )


def _morale(a: RunAnalysis) -> str:
    measures = [("morale_tests", "tests"), ("morale_failures", "failed"),
                ("morale_flights", "fled the table")]  # fmt: skip
    rows = [
        (side.capitalize(), *(f"{v.get(k, 0.0):.2f}" for k, _ in measures))
        for side, v in a.per_side.items()
    ]
    return _section(
        "morale",
        "Morale and flight",
        "Average morale tests per game, how many failed (the model ran toward the nearest "
        "table edge) and how many of those runs carried the model off the table. Many flights "
        "mean morale, not wounds, is deciding games.",
        _img(plots.grouped_per_side(a.per_side, measures, "per game"), "morale")
        + _table(["Side", *(label for _, label in measures)], rows),
    )


def _dice(a: RunAnalysis) -> str:
    if not a.dice:
        return _section("activation-dice", "Activation dice", "No activations were recorded.", "")
    rows = []
    for c in a.dice:
        flag = (
            f'<span class="flag">dominated by {c.dominated_by} dice</span>'
            if c.dominated_by is not None
            else ""
        )
        rows.append((c.side.capitalize(), c.mettle, c.dice, c.count, f"{c.share * 100:.0f}%",
                     f"{c.mean_actions:.2f}", f"{c.pass_rate * 100:.0f}%", flag))  # fmt: skip
    table = _table(
        ["Side", "Mettle", "Dice", "Activations", "Chosen", "Actions each", "Turn passed",
         "Observed"], rows, text_columns=1,
    )  # fmt: skip
    exact = ""
    if a.rules_dominated:
        items = "".join(f"<li>{_e(d['why'])}</li>" for d in a.rules_dominated)
        exact = (
            "<p><b>By the exact odds of this run's rules</b>, these choices are dominated "
            f"(another number of dice is at least as good on both counts):</p><ul>{items}</ul>"
        )
    return _section(
        "activation-dice",
        "Activation dice: chosen vs actions gained and turns passed",
        "For each Mettle, how often players chose 1, 2 or 3 dice, how many actions that "
        "gave on average (green bars) and how often it handed the turn to the opponent (red "
        "line). A choice is <b>dominated</b> when another number of dice at the same Mettle "
        "gives more actions and passes the turn no more often: a rules design smell, because "
        "a sensible player never needs the worse option. 'Observed' flags come from these "
        f"games (only with at least {MIN_ACTIVATIONS_TO_COMPARE} activations of each choice); the list below comes "
        "from the exact probabilities.",
        _img(plots.dice_choices(a.dice), "activation dice") + table + exact,
    )


def _oracle(a: RunAnalysis) -> str:
    if not a.oracle_fired:
        return _section(
            "oracle-rules",
            "Enemy Oracle rules",
            "No side in this run was played by the Enemy Oracle, so no Oracle rules fired.",
            "",
        )
    never = ""
    for profile, rules in a.oracle_never.items():
        listed = ", ".join(_e(r) for r in rules) or "none: every rule fired at least once"
        never += f'<p><b>{_e(profile)}</b> never fired: <span class="never">{listed}</span></p>'
    if a.oracle_note:
        never += f"<p>The never-fired list is unavailable: {_e(a.oracle_note)}.</p>"
    return _section(
        "oracle-rules",
        "Enemy Oracle rules: which fired and which never did",
        "Each Oracle decision names the rule that made it. Rules that fire constantly shape "
        "the enemy's character; rules that never fire are dead text on the printed card: "
        "either their conditions never happen in these missions or an earlier rule always "
        "wins first. 'd6:N' is the fallback table entry N, 'dice:N' the N-th dice rule.",
        _img(plots.oracle_rules(a.oracle_fired), "oracle rules") + never,
    )


def _resources(a: RunAnalysis) -> str:
    games = max(1, a.summary.games)
    parts = []
    for resource in ("momentum", "strain"):
        if any(r[1] == resource for r in a.resources):
            parts.append(_img(plots.resources(a.resources, resource, games), resource))
    rows = [(side.capitalize(), resource, direction, _e(reason), f"{total / games:.2f}")
            for side, resource, direction, reason, total in a.resources]  # fmt: skip
    table = _table(["Side", "Resource", "Gained/spent", "Reason", "Per game"], rows, 4)
    return _section(
        "momentum-strain",
        "Momentum and Strain",
        "Momentum is the side's pool of advantage tokens; Strain is each model's personal "
        "pressure track. The bars show, per game, where they came from and what they were "
        "spent on. Tokens gained but rarely spent suggest the spending options are weak or "
        "hard to use; Strain that is never spent means the Miss-to-Partial conversion is not "
        "tempting.",
        "".join(parts) + (table if rows else "<p>No Momentum or Strain was used.</p>"),
    )


def _sides(a: RunAnalysis) -> str:
    """Who played each side: agent, the Oracle profile it resolved, warband and roster."""
    rows = []
    for side in ("blue", "red"):
        info = a.summary.sides.get(side, {})
        points = info.get("mean_points")
        rows.append(
            (
                f"<b>{_e(side.capitalize())}</b>",
                _e(info.get("agent") or a.run[side]),
                _e(info.get("oracle_profile") or "not the Oracle"),
                _e(info.get("name") or "-"),
                _e(roster_text(info)) if info.get("roster") else "-",
                "-" if points is None else f"{points:.2f}",
            )
        )
    return _table(
        ["Side", "Agent", "Oracle profile", "Warband", "Roster", "Points per game"], rows, 5
    )


def render_report(analysis: RunAnalysis, extra_sections: Sequence[str] = ()) -> str:
    """Render the HTML text of the report for an analysed run.

    ``extra_sections`` are HTML sections appended after the playtest's own (the analytics
    of ``riven_env.analytics.report_sections``).
    """
    run = analysis.run
    overrides = json.loads(run["overrides"]) if run["overrides"] else {}
    rules = ", ".join(f"{k} = {v}" for k, v in overrides.items()) or "rules as written"
    config = run.get("config")
    config = json.loads(config) if isinstance(config, str) else (config or {})
    engine = config.get("engine") or "python"  # runs from before engines: the Python engine
    header = (
        f"<h1>Playtest report: {_e(run['scenario'])}</h1>"
        f"{_sides(analysis)}"
        f'<p class="meta">{analysis.summary.games} games played '
        f"(of {run['games_requested']} requested), run "
        f"seed {run['seed']}, rules: {_e(rules)}, engine: {_e(engine)}. "
        f"Run <code>{_e(run['run_id'])}</code>, "
        f"created {_e(run['created'])}, code {_e(run['code_version'])}.</p>"
    )
    if analysis.summary.games == 0:
        body = "<p>This run has no finished games yet.</p>"
    else:
        body = "".join(
            (
                _overview(analysis),
                _first_player(analysis),
                _length(analysis),
                _casualties(analysis),
                _morale(analysis),
                _dice(analysis),
                _oracle(analysis),
                _resources(analysis),
                *extra_sections,
            )
        )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>RIVEN playtest: {_e(run['scenario'])}</title><style>{STYLE}</style></head>"
        f'<body>{header}{body}<pre id="report-check" hidden></pre>{SELF_CHECK}</body></html>'
    )
