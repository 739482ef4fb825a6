"""Campaign rules variants against the baseline on common seeds (``riven campaign compare``).

Each arm is a campaign playtest run of its own (:func:`run_campaign_playtest`) on the same
campaign seeds ``seed..seed + campaigns - 1``: campaign ``i`` of every arm starts from the
same seed, so the missions' seeds, the post-battle dice streams and the policy's stream
start alike and only the rule change differs. A variant's rules are the campaign's rules
file with the ``--set KEY=VALUE`` overrides written over it (checked by the rules loader, so
a bad value is refused in one line naming the key); an unknown key is refused with the
closest known key. Per arm: the share of campaigns the warband lived through (Wilson) and
the mission win rate (missions pooled, bootstrap over campaigns); per variant, the paired
differences on the same seeds: lived through (Newcombe's paired interval) and mission win
rate (a paired bootstrap over seeds, resampling a seed in both arms at once).
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from riven_env.campaign.analysis import BOOTSTRAP_SAMPLES, BOOTSTRAP_SEED, LOST_RESULTS
from riven_env.campaign.errors import CampaignError
from riven_env.errors import did_you_mean
from riven_env.playtest.config import parse_value
from riven_env.playtest.stats import Interval, paired_proportion_difference, wilson_interval
from riven_env.rules.config import leaf_keys


@dataclass(frozen=True)
class CampaignVariant:
    """One arm: its label (``KEY=VALUE&...``) and its rules overrides."""

    label: str
    overrides: Mapping[str, Any]


def rules_keys(doc: Mapping[str, Any]) -> list[str]:
    """Every leaf key of a rules document, dotted (``fate.out.miss``), in the file's order."""
    return list(leaf_keys(doc))


def parse_variant(text: str, known: Sequence[str]) -> CampaignVariant:
    """``KEY=VALUE`` (several joined by ``&``) into a variant of the rules ``known``.

    Raises:
        CampaignError: Not KEY=VALUE, or a key the campaign rules do not have.
    """
    overrides: dict[str, Any] = {}
    for part in text.split("&"):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            raise CampaignError(f"--set {text!r}: expected KEY=VALUE (e.g. fate.out.miss=injury)")
        if key not in known:
            raise CampaignError(
                f"--set {key}: unknown campaign rules key{did_you_mean(key, known)}"
            )
        overrides[key] = parse_value(value)
    return CampaignVariant(text.strip(), overrides)


def rules_document(path: str | Path | None) -> dict[str, Any]:
    """The campaign rules file as a TOML document (default: the bundled rules)."""
    from riven_env.campaign.rules import default_campaign_rules_path
    from riven_env.files import read_toml

    return read_toml(path or default_campaign_rules_path(), what="campaign rules file",
                     error=CampaignError)  # fmt: skip


def write_variant_rules(doc: Mapping[str, Any], variant: CampaignVariant, folder: Path,
                        index: int) -> Path:  # fmt: skip
    """``doc`` with the variant's overrides, written as ``folder/variant-INDEX.toml`` and
    checked by the rules loader (a bad value: one line naming the key)."""
    import copy

    import tomli_w

    from riven_env.campaign.rules import load_campaign_rules

    changed = copy.deepcopy(dict(doc))
    for key, value in variant.overrides.items():
        *parents, leaf = key.split(".")
        node = changed
        for name in parents:
            node = node[name]
        node[leaf] = value
    path = folder / f"variant-{index}.toml"
    path.write_text(tomli_w.dumps(changed), encoding="utf-8")
    try:
        load_campaign_rules(path)
    except CampaignError as exc:  # name the option, not the temporary file
        where = f"{exc.field}: " if exc.field else ""
        raise CampaignError(f"--set {variant.label}: {where}{exc.detail}") from None
    return path


@dataclass(frozen=True)
class ArmOutcomes:
    """Per seed (in seed order): lived through (1/0), missions won, missions played."""

    label: str
    seeds: list[int]
    lived: np.ndarray
    won: np.ndarray
    played: np.ndarray
    results: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        from riven_env.campaign.analysis import mission_win_rate

        return {
            "label": self.label,
            "campaigns": len(self.seeds),
            "results": self.results,
            "lived_through": wilson_interval(int(self.lived.sum()), len(self.seeds)).to_dict(),
            "mission_win_rate": mission_win_rate(self.won, self.played).to_dict(),
            "mean_missions_played": float(self.played.mean()) if len(self.seeds) else math.nan,
        }


def arm_outcomes(con: Any, key: str, label: str, seeds: range) -> ArmOutcomes:
    """The outcomes of run ``key`` on ``seeds``."""
    rows = con.execute(
        "SELECT seed, result, won, lost, draw FROM campaign_runs WHERE run_key = ? ORDER BY seed",
        [key],
    ).fetchall()
    rows = [r for r in rows if r[0] in seeds]
    results: dict[str, int] = {}
    for r in rows:
        results[r[1]] = results.get(r[1], 0) + 1
    return ArmOutcomes(
        label,
        [r[0] for r in rows],
        np.array([float(r[1] not in LOST_RESULTS) for r in rows]),
        np.array([float(r[2]) for r in rows]),
        np.array([float(r[2] + r[3] + r[4]) for r in rows]),
        dict(sorted(results.items())),
    )


def paired_win_rate_difference(variant: ArmOutcomes, base: ArmOutcomes,
                               rng_seed: int = BOOTSTRAP_SEED) -> Interval:  # fmt: skip
    """Mission win rate (pooled) of ``variant`` minus ``base`` on the same seeds, with a
    percentile bootstrap that resamples seeds in both arms at once."""
    n = len(base.seeds)
    if n == 0 or base.played.sum() == 0 or variant.played.sum() == 0:
        return Interval(math.nan, -1.0, 1.0, n)
    rng = np.random.default_rng(rng_seed)
    weights = rng.multinomial(n, np.full(n, 1.0 / n), size=BOOTSTRAP_SAMPLES).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        diffs = (weights @ variant.won) / (weights @ variant.played) - (weights @ base.won) / (
            weights @ base.played
        )
    low, high = np.nanpercentile(diffs, [2.5, 97.5])
    value = variant.won.sum() / variant.played.sum() - base.won.sum() / base.played.sum()
    return Interval(float(value), float(low), float(high), n)


def run_campaign_compare(
    target: str,
    variants: Sequence[str],
    campaigns: int,
    db: str | Path,
    *,
    blue: str = "oracle",
    red: str = "oracle",
    policy: str = "oracle",
    workers: int = 1,
    seed: int = 0,
    engine: str | None = None,
    on_arm: Callable[[str], None] | None = None,
    on_done: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play the baseline and each variant on the same campaign seeds; compare them.

    Every variant is parsed and its rules written and checked before the first campaign is
    played, so a bad ``--set`` costs nothing. Resumable: each arm is its own run key.
    """
    from riven_env.campaign import load_campaign
    from riven_env.campaign.playtest import run_campaign_playtest, run_key

    spec = load_campaign(target)
    doc = rules_document(spec.rules_path)
    known = rules_keys(doc)
    parsed = [parse_variant(text, known) for text in variants]
    seeds = range(seed, seed + campaigns)
    common = dict(blue=blue, red=red, policy=policy, workers=workers, seed=seed, engine=engine,
                  on_done=on_done)  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="riven-campaign-compare-") as folder:
        files = [write_variant_rules(doc, v, Path(folder), k) for k, v in enumerate(parsed)]
        arms = [("baseline", None, "")] + [
            (v.label, f, v.label) for v, f in zip(parsed, files, strict=True)
        ]
        for label, rules_file, variant in arms:
            if on_arm is not None:
                on_arm(label)
            run_campaign_playtest(target, campaigns, db, rules_file=rules_file, variant=variant,
                                  **common)  # fmt: skip
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        outcomes = [
            arm_outcomes(con, run_key(spec.name, blue, red, policy, variant), label, seeds)
            for label, _, variant in arms
        ]
    finally:
        con.close()
    base = outcomes[0]
    return {
        "campaign": spec.name,
        "blue": blue,
        "red": red,
        "policy": policy,
        "seeds": [seed, seed + campaigns - 1],
        "db": str(db),
        "baseline": base.to_json(),
        "variants": [
            {
                **arm.to_json(),
                "overrides": dict(v.overrides),
                "lived_through_diff": paired_proportion_difference(arm.lived, base.lived).to_dict(),
                "mission_win_rate_diff": paired_win_rate_difference(arm, base).to_dict(),
            }
            for v, arm in zip(parsed, outcomes[1:], strict=True)
        ],
    }


__all__ = [
    "ArmOutcomes",
    "CampaignVariant",
    "arm_outcomes",
    "paired_win_rate_difference",
    "parse_variant",
    "rules_document",
    "rules_keys",
    "run_campaign_compare",
    "write_variant_rules",
]
