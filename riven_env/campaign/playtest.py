"""Many campaigns into DuckDB: ``riven campaign playtest`` (resumable).

Each campaign (seed ``seed0 + i``) is played in a worker process and stored in one
transaction: a ``campaign_runs`` row, its ``campaign_steps`` rows and its ``campaign_models``
rows, keyed by the run (campaign, agents, policy) and the seed. A killed run started again
skips the seeds already stored, so no campaign is lost or counted twice. The summary gives
each step's mission win rate with its Wilson interval and the survival by step (the share of
campaigns still going at the step, the mean living models after it).

Beyond the summary, three tables feed the report (:mod:`riven_env.campaign.report`), all
read from the campaign's log records alone (:func:`campaign_rows`): ``campaign_fates`` (each
fate test and the injury it led to), ``campaign_advances`` (each advance bought) and
``campaign_roster`` (every model's attributes, Mettle and status after each step's
post-battle sequence and decisions). A variant (``riven campaign compare``) is a run of its
own: its rules overrides are part of the run key.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from riven_env.campaign.errors import CampaignError

#: The version of the tables below; a database written by another version is refused.
SCHEMA_VERSION = 2

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS campaign_runs (run_key VARCHAR, campaign VARCHAR, seed BIGINT,
    blue VARCHAR, red VARCHAR, policy VARCHAR, result VARCHAR, steps_played INTEGER,
    steps INTEGER, won INTEGER, lost INTEGER, draw INTEGER, skipped INTEGER, living INTEGER,
    dead INTEGER, retired INTEGER, PRIMARY KEY (run_key, seed))""",
    """CREATE TABLE IF NOT EXISTS campaign_steps (run_key VARCHAR, seed BIGINT, step INTEGER,
    result VARCHAR, fielded INTEGER, enemy INTEGER, alive INTEGER)""",
    """CREATE TABLE IF NOT EXISTS campaign_models (run_key VARCHAR, seed BIGINT, model VARCHAR,
    base VARCHAR, status VARCHAR, missions INTEGER, xp_total INTEGER, kills INTEGER,
    injuries INTEGER, talents INTEGER)""",
    """CREATE TABLE IF NOT EXISTS campaign_fates (run_key VARCHAR, seed BIGINT, step INTEGER,
    model VARCHAR, base VARCHAR, ending VARCHAR, outcome VARCHAR, injury VARCHAR,
    retired BOOLEAN)""",
    """CREATE TABLE IF NOT EXISTS campaign_advances (run_key VARCHAR, seed BIGINT,
    step INTEGER, model VARCHAR, base VARCHAR, advance VARCHAR, cost INTEGER)""",
    """CREATE TABLE IF NOT EXISTS campaign_roster (run_key VARCHAR, seed BIGINT, step INTEGER,
    model VARCHAR, base VARCHAR, status VARCHAR, might INTEGER, agility INTEGER, wit INTEGER,
    resolve INTEGER, mettle INTEGER, wounds INTEGER, move DOUBLE, xp_total INTEGER)""",
]
_TABLES = ("campaign_runs", "campaign_steps", "campaign_models", "campaign_fates",
           "campaign_advances", "campaign_roster")  # fmt: skip


def open_schema(con: Any, db: str | Path) -> None:
    """Create the tables (a new database) or check the stored schema version.

    Raises:
        CampaignError: ``db`` holds campaign tables of another schema version.
    """
    tables = {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    if "campaign_runs" in tables:
        stored = None
        if "campaign_meta" in tables:
            row = con.execute(
                "SELECT value FROM campaign_meta WHERE key = 'schema_version'"
            ).fetchone()
            stored = row[0] if row else None
        if stored != str(SCHEMA_VERSION):
            raise CampaignError(
                f"holds campaign tables of schema version {stored or 1}, this version writes "
                f"{SCHEMA_VERSION}; use another --db",
                file=str(db),
            )
        return
    for statement in _SCHEMA:
        con.execute(statement)
    con.execute("CREATE TABLE IF NOT EXISTS campaign_meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
    con.execute(
        "INSERT OR REPLACE INTO campaign_meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)]
    )


def run_key(campaign: str, blue: str, red: str, policy: str, variant: str = "") -> str:
    """The identity of a run: what must match for stored campaigns to count (``variant``:
    a compare arm's rules overrides, ``KEY=VALUE&...``; empty for the campaign's own rules)."""
    key = f"{campaign}|{blue}|{red}|{policy}"
    return f"{key}|{variant}" if variant else key


def _model(record: dict[str, Any]) -> Any:
    from riven_env.campaign.state import WarbandModel

    fields = {k: v for k, v in record.items()}
    for name in ("keywords", "talents", "injuries"):
        fields[name] = tuple(fields[name])
    return WarbandModel(**fields)


def campaign_rows(records: list[dict[str, Any]], rules: Any, library: Any) -> dict[str, list]:
    """The report's rows of one campaign, read from its log records alone.

    Folds the log: the starting warband of ``campaign_start``, then each fate, injury, rest,
    advance and recruit record, in order, applied with the campaign's own rules functions; a
    snapshot of every model after each step (its post-battle sequence and its decisions), and
    one of the starting warband as step -1.

    Returns:
        ``{"fates": [...], "advances": [...], "roster": [...]}``: tuples of the columns of
        ``campaign_fates``, ``campaign_advances`` and ``campaign_roster`` after ``run_key``
        and ``seed``.
    """
    from riven_env.campaign.aftermath import revert_injury
    from riven_env.campaign.decisions import apply_advance
    from riven_env.campaign.state import from_profile

    models: dict[str, Any] = {}
    fates: list[tuple] = []
    advances: list[tuple] = []
    roster: list[tuple] = []
    current: int | None = None

    def snapshot(step: int) -> None:
        for m in models.values():
            roster.append((step, m.id, m.base, m.status, m.might, m.agility, m.wit, m.resolve,
                           m.mettle, m.wounds, float(m.move), m.xp_total))  # fmt: skip

    for record in records:
        kind = record["type"]
        step = record.get("step")
        if current is not None and (kind == "campaign_end" or step != current):
            snapshot(current)
        if kind != "campaign_start":
            current = step
        if kind == "campaign_start":
            models = {m["id"]: _model(m) for m in record["warband"]["models"]}
            snapshot(-1)  # the starting warband
        elif kind == "experience":
            m = models[record["model"]]
            models[m.id] = replace(m, xp=record["xp"], xp_total=m.xp_total + record["earned"])
        elif kind == "fate":
            m = models[record["model"]]
            outcome = record["outcome"]
            status = {"dead": "dead", "convalesce": "convalescing"}.get(outcome, m.status)
            models[m.id] = replace(m, status=status)
            fates.append([step, m.id, m.base, record["ending"], outcome, None, False])
        elif kind == "injury":
            m = models[record["model"]]
            changes: dict[str, Any] = dict(record.get("effect") or {})
            if "xp" in record:  # a lesson, not an injury
                changes = {"xp": m.xp + record["xp"], "xp_total": m.xp_total + record["xp"]}
            else:
                changes["injuries"] = (*m.injuries, record["injury"])
            if record.get("retired"):
                changes["status"] = "retired"
            models[m.id] = replace(m, **changes)
            fates[-1][5] = record["injury"]
            fates[-1][6] = bool(record.get("retired"))
        elif kind == "rest":
            m = replace(models[record["model"]], status="fit", resting=False)
            models[m.id] = revert_injury(m, rules) if record.get("healed") else m
        elif kind == "advance":
            m = models[record["model"]]
            models[m.id] = apply_advance(m, record["advance"], rules)
            advances.append((step, m.id, m.base, record["advance"], record["cost"]))
        elif kind == "recruit":
            base = record["profile"]
            models[record["model"]] = from_profile(record["model"], base, library.profiles[base])
        elif kind == "campaign_end":
            break
    return {"fates": [tuple(f) for f in fates], "advances": advances, "roster": roster}


def _play_one(job: tuple[str, str, str, int, str, str | None, str | None]) -> dict[str, Any]:
    target, blue, red, seed, policy, engine, rules_file = job
    from riven_env.campaign import load_campaign, load_campaign_rules, play_campaign
    from riven_env.rules import bundled_rules
    from riven_env.scenario import load_library

    spec = load_campaign(target)
    if rules_file is not None:
        spec = replace(spec, rules_path=Path(rules_file))
    result = play_campaign(spec, blue, red, seed, policy=policy, engine=engine)
    rows = campaign_rows(
        result.records,
        load_campaign_rules(spec.rules_path),
        load_library(rules=bundled_rules()),
    )
    return {"summary": result.summary, "warband": result.warband.to_dict(), **rows}


def _store(con: Any, key: str, played: dict[str, Any]) -> None:
    s = played["summary"]
    con.execute("BEGIN TRANSACTION")
    con.execute(
        "INSERT INTO campaign_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            key,
            s["campaign"],
            s["seed"],
            s["blue"],
            s["red"],
            s["policy"],
            s["result"],
            s["steps_played"],
            s["steps"],
            s["won"],
            s["lost"],
            s["draw"],
            s["skipped"],
            len(s["living"]),
            len(s["dead"]),
            len(s["retired"]),
        ],
    )
    for step in s["per_step"]:
        con.execute(
            "INSERT INTO campaign_steps VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                key,
                s["seed"],
                step["step"],
                step["result"],
                step.get("fielded", 0),
                step.get("enemy", 0),
                step["alive"],
            ],
        )
    for m in played["warband"]["models"]:
        con.execute(
            "INSERT INTO campaign_models VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                key,
                s["seed"],
                m["id"],
                m["base"],
                m["status"],
                m["missions"],
                m["xp_total"],
                m["kills"],
                len(m["injuries"]),
                len(m["talents"]),
            ],
        )
    seed = s["seed"]
    for table, rows in (
        ("campaign_fates", played["fates"]),
        ("campaign_advances", played["advances"]),
        ("campaign_roster", played["roster"]),
    ):
        if rows:
            marks = ", ".join("?" * (len(rows[0]) + 2))
            con.executemany(
                f"INSERT INTO {table} VALUES ({marks})", [[key, seed, *row] for row in rows]
            )
    con.execute("COMMIT")


def summarise(con: Any, key: str) -> dict[str, Any]:
    """Per-step win rates (Wilson) and survival by step of the stored campaigns of ``key``."""
    from riven_env.playtest.stats import wilson_interval

    total = con.execute("SELECT count(*) FROM campaign_runs WHERE run_key = ?", [key]).fetchone()[0]
    results = dict(
        con.execute(
            "SELECT result, count(*) FROM campaign_runs WHERE run_key = ? GROUP BY result ORDER BY result",
            [key],
        ).fetchall()
    )
    rows = con.execute(
        """SELECT step, count(*), count(*) FILTER (WHERE result = 'won'),
        count(*) FILTER (WHERE result = 'lost'), avg(alive)
        FROM campaign_steps WHERE run_key = ? GROUP BY step ORDER BY step""",
        [key],
    ).fetchall()
    steps = []
    for step, played, won, lost, alive in rows:
        rate = wilson_interval(int(won), int(played))
        steps.append(
            {
                "step": int(step),
                "played": int(played),
                "won": int(won),
                "lost": int(lost),
                "win_rate": rate.to_dict(),
                "reached": int(played) / total if total else 0.0,
                "mean_alive": float(alive),
            }
        )
    return {
        "campaigns": int(total),
        "results": {k: int(v) for k, v in results.items()},
        "steps": steps,
    }


def run_campaign_playtest(
    target: str,
    campaigns: int,
    db: str | Path,
    *,
    blue: str = "oracle",
    red: str = "oracle",
    policy: str = "oracle",
    workers: int = 1,
    seed: int = 0,
    engine: str | None = None,
    on_done: Callable[[int, int], None] | None = None,
    rules_file: str | Path | None = None,
    variant: str = "",
) -> dict[str, Any]:
    """Play ``campaigns`` campaigns (seeds ``seed``..``seed + campaigns - 1``) into ``db``;
    skip the seeds already stored for this run. Returns :func:`summarise`'s dict plus
    ``played`` (this call) and ``db``.

    ``rules_file`` replaces the campaign's rules file (a compare arm's variant rules) and
    ``variant`` names it in the run key: a variant's campaigns never mix with the baseline's.
    """
    import duckdb

    from riven_env.campaign import load_campaign

    spec = load_campaign(target)
    key = run_key(spec.name, blue, red, policy, variant)
    rules_text = None if rules_file is None else str(rules_file)
    Path(db).parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(db))
    try:
        open_schema(con, db)
        done = {
            int(r[0])
            for r in con.execute(
                "SELECT seed FROM campaign_runs WHERE run_key = ?", [key]
            ).fetchall()
        }
        jobs = [
            (target, blue, red, s, policy, engine, rules_text)
            for s in range(seed, seed + campaigns)
            if s not in done
        ]
        count = 0
        if workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                _store(con, key, _play_one(job))
                count += 1
                if on_done:
                    on_done(count, len(jobs))
        else:
            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                for played in pool.imap_unordered(_play_one, jobs):
                    _store(con, key, played)
                    count += 1
                    if on_done:
                        on_done(count, len(jobs))
        summary = summarise(con, key)
    finally:
        con.close()
    return {"campaign": spec.name, "run": key, "played": count, "db": str(db), **summary}


__all__ = [
    "SCHEMA_VERSION",
    "campaign_rows",
    "open_schema",
    "run_campaign_playtest",
    "run_key",
    "summarise",
]
