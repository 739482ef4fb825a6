"""Loading and validating campaign files; the bundled campaigns.

:func:`validate_campaign_file` returns every problem of a file as one line naming the file
and the field (``iron-road.toml: warband.models[0].might: bad value 6; must be at most 5``);
:func:`load_campaign` returns the :class:`~riven_env.campaign.schema.CampaignSpec` or raises
the first problem. Beyond each key's type and range it checks what the campaign means: the
models' profiles and creation caps (a hero's 9 points, no attribute over 4 at creation), the
solo-hero warband, recruit and threat profiles with a points cost, each chain step's mission
(it exists and can field the starting warband) or generator kind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from riven_env.campaign.errors import CampaignError, first_error
from riven_env.campaign.rules import ATTRIBUTES, CampaignRules, load_campaign_rules
from riven_env.campaign.schema import (
    CAMPAIGN_FIELDS,
    END_FIELDS,
    MODEL_FIELDS,
    SCHEMA_VERSION,
    STEP_FIELDS,
    THREAT_FIELDS,
    TOP_FIELDS,
    WARBAND_FIELDS,
    CampaignInfo,
    CampaignSpec,
    StepSpec,
    ThreatSpec,
)
from riven_env.campaign.state import Warband, from_profile
from riven_env.errors import RivenError, did_you_mean
from riven_env.files import parse_toml, read_text
from riven_env.scenario.checks import Problems, join_path, read_section


def bundled_campaign_dir() -> Path:
    """The folder of the bundled campaign files."""
    return Path(__file__).resolve().parent / "data"


def list_campaigns() -> list[CampaignInfo]:
    """The bundled campaigns, by name (each file loaded and checked)."""
    infos = []
    for path in sorted(bundled_campaign_dir().glob("*.toml")):
        spec = load_campaign(path)
        infos.append(
            CampaignInfo(spec.name, spec.title, spec.setting, spec.mode, len(spec.steps), path)
        )
    return sorted(infos, key=lambda i: i.name)


def resolve_campaign(name_or_path: str | Path) -> Path:
    """A bundled campaign's file by name, or the path given.

    Raises:
        CampaignError: Neither a bundled name nor an existing file.
    """
    text = str(name_or_path)
    bundled = {p.stem: p for p in bundled_campaign_dir().glob("*.toml")}
    if text in bundled:
        return bundled[text]
    if Path(text).exists() or text.endswith(".toml") or "/" in text:
        return Path(text)
    raise CampaignError(
        f"unknown campaign {text!r}{did_you_mean(text, bundled)} (not a bundled campaign nor "
        f"a file; bundled: {', '.join(sorted(bundled))})"
    )


class _Reader:
    def __init__(self, source: str, base_dir: Path) -> None:
        self.source = source
        self.base_dir = base_dir
        self.problems = Problems(source)

    def read(self, text: str) -> CampaignSpec | None:
        try:
            doc = parse_toml(text, self.source, what="campaign file", error=CampaignError)
        except CampaignError as exc:
            self.problems.errors.append(exc)
            return None
        top, ok = read_section(doc, TOP_FIELDS, "", self.problems)
        if top.get("schema_version") not in (None, SCHEMA_VERSION):
            self.problems.add(
                f"unsupported schema version {top['schema_version']!r}; "
                f"this loader reads {SCHEMA_VERSION}",
                "schema_version",
            )
        if not ok:
            return None
        header, _ = read_section(top["campaign"], CAMPAIGN_FIELDS, "campaign", self.problems)
        rules = self._rules(header)
        if rules is None or self.problems:
            return None
        from riven_env.rules import bundled_rules
        from riven_env.scenario import load_library

        core = bundled_rules()
        library = load_library(rules=core)
        warband = self._warband(top["warband"], header.get("mode"), rules, library, core)
        threat = self._threat(top["threat"], rules, library)
        steps = self._chain(top["chain"])
        end, _ = read_section(top["end"], END_FIELDS, "end", self.problems)
        if self.problems or warband is None or threat is None:
            return None
        spec = CampaignSpec(
            name=header["name"],
            title=header["title"],
            description=header["description"],
            setting=header["setting"],
            mode=header["mode"],
            rules_path=self._rules_path(header),
            warband=warband,
            threat=threat,
            steps=tuple(steps),
            min_models=end["min_models"],
            wins=end["wins"],
            source=self.source,
        )
        self._dry_run(spec, rules, library)
        return None if self.problems else spec

    def _rules_path(self, header: dict[str, Any]) -> Path | None:
        if not header.get("rules"):
            return None
        path = Path(header["rules"])
        return path if path.is_absolute() else self.base_dir / path

    def _rules(self, header: dict[str, Any]) -> CampaignRules | None:
        try:
            return load_campaign_rules(self._rules_path(header))
        except CampaignError as exc:
            self.problems.add(f"campaign rules: {exc}", "campaign.rules")
            return None

    def _warband(
        self, data: Any, mode: str | None, rules: CampaignRules, library: Any, core: Any
    ) -> Warband | None:
        values, ok = read_section(data, WARBAND_FIELDS, "warband", self.problems)
        if not ok:
            return None
        cap = int(core.get("profiles.hero.creation_max"))
        hero_points = int(core.get("profiles.hero.points"))
        models = []
        seen: set[str] = set()
        for k, entry in enumerate(values["models"]):
            path = join_path("warband.models", k)
            m, ok = read_section(entry, MODEL_FIELDS, path, self.problems)
            if not ok:
                continue
            profile = library.profiles.get(m["profile"])
            if profile is None:
                self._unknown_profile(m["profile"], join_path(path, "profile"), library)
                continue
            if m["id"] in seen:
                self.problems.add(f"duplicate model id {m['id']!r}", join_path(path, "id"))
                continue
            seen.add(m["id"])
            changes = {a: m[a] for a in ATTRIBUTES if m.get(a) is not None}
            for attribute, value in changes.items():
                if value > cap:
                    self.problems.add(
                        f"bad value {value}; no attribute may be above {cap} at "
                        "creation (profiles.hero.creation_max)",
                        join_path(path, attribute),
                    )
            model = from_profile(m["id"], m["profile"], profile, **changes)
            if "hero" in model.keywords and changes:
                spent = sum(model.attribute(a) for a in ATTRIBUTES)
                if spent != hero_points:
                    self.problems.add(
                        f"a hero distributes exactly {hero_points} points over "
                        f"{', '.join(ATTRIBUTES)}; these add up to {spent}",
                        path,
                    )
            models.append(model)
        if len(values["models"]) > values["max_models"]:
            self.problems.add(
                f"{len(values['models'])} models; at most max_models = {values['max_models']}",
                "warband.models",
            )
        if not values["models"]:
            self.problems.add("a warband needs at least one model", "warband.models")
        self._costed_profiles(values["recruits"], "warband.recruits", rules, library)
        if mode == "solo_hero":
            if len(models) != 1 or "hero" not in models[0].keywords:
                self.problems.add(
                    "mode 'solo_hero' needs exactly one model with the 'hero' keyword",
                    "warband.models",
                )
            if values["recruits"] or values["max_models"] != 1:
                self.problems.add(
                    "a solo hero recruits no one: give max_models = 1 and no recruits",
                    "warband.max_models",
                )
        return Warband(
            values["name"],
            tuple(models),
            values["points"],
            values["max_models"],
            tuple(values["recruits"]),
        )

    def _unknown_profile(self, key: str, path: str, library: Any) -> None:
        self.problems.add(
            f"unknown profile {key!r}{did_you_mean(key, library.profiles)}; "
            "profiles of the library scenarios/profiles.toml",
            path,
        )

    def _costed_profiles(self, keys: Any, path: str, rules: CampaignRules, library: Any) -> None:
        """Each of ``keys`` (the list at ``path``) names a library profile with a points cost."""
        for k, key in enumerate(keys):
            where = join_path(path, k)
            if key not in library.profiles:
                self._unknown_profile(key, where, library)
            elif key not in rules.points:
                self.problems.add(
                    f"profile {key!r} has no campaign points cost (points.{key} in {rules.source})",
                    where,
                )

    def _threat(self, data: Any, rules: CampaignRules, library: Any) -> ThreatSpec | None:
        values, ok = read_section(data, THREAT_FIELDS, "threat", self.problems)
        if not ok:
            return None
        if not values["enemy"]:
            self.problems.add("name at least one enemy profile", "threat.enemy")
        self._costed_profiles(values["enemy"], "threat.enemy", rules, library)
        if values["points_max"] < values["points_start"]:
            self.problems.add(
                f"bad value {values['points_max']}; must be at least points_start "
                f"({values['points_start']})",
                "threat.points_max",
            )
        if values.get("oracle") is not None:
            from riven_env.scenario import oracle_profile_names

            names = oracle_profile_names()
            if values["oracle"] not in names:
                self.problems.add(
                    f"unknown Oracle profile {values['oracle']!r}"
                    f"{did_you_mean(values['oracle'], names)}; allowed: "
                    f"{', '.join(names)}",
                    "threat.oracle",
                )
        return ThreatSpec(
            tuple(values["enemy"]),
            values["points_start"],
            values["points_per_step"],
            values["points_max"],
            values.get("oracle"),
        )

    def _chain(self, entries: list[Any]) -> list[StepSpec]:
        from riven_env.scenario import list_bundled

        bundled = {info.name: info.path for info in list_bundled()}
        steps: list[StepSpec] = []
        if not entries:
            self.problems.add("the chain needs at least one step", "chain")
        for k, entry in enumerate(entries):
            path = join_path("chain", k)
            v, ok = read_section(entry, STEP_FIELDS, path, self.problems)
            if not ok:
                continue
            if (v.get("mission") is None) == (v.get("generator") is None):
                self.problems.add(
                    "give exactly one of mission (a bundled name or a file) and "
                    "generator (field, ruins, dungeon)",
                    path,
                )
                continue
            mission = None
            if v.get("mission") is not None:
                name = v["mission"]
                if name in bundled:
                    mission = bundled[name]
                else:
                    mission = Path(name) if Path(name).is_absolute() else self.base_dir / name
                    if not mission.is_file():
                        self.problems.add(
                            f"missing mission {name!r}{did_you_mean(name, bundled)}: not a "
                            f"bundled mission nor a file (looked for {mission})",
                            join_path(path, "mission"),
                        )
                        continue
            elif v["enemy"] == "mission":
                self.problems.add(
                    "a generated mission has no own enemy; use enemy = 'threat'",
                    join_path(path, "enemy"),
                )
                continue
            for _ in range(v["count"]):
                steps.append(
                    StepSpec(
                        len(steps),
                        mission,
                        v.get("mission"),
                        v.get("generator"),
                        v.get("seed"),
                        v["enemy"],
                        v.get("enemy_points"),
                        path,
                    )
                )
        if len(steps) > 100:
            self.problems.add(f"{len(steps)} steps; at most 100", "chain")
        return steps

    def _dry_run(self, spec: CampaignSpec, rules: CampaignRules, library: Any) -> None:
        """Each file mission must field the starting warband (ids, mode, placement)."""
        from riven_env.campaign.mission import step_mission

        checked: set[tuple[str, str]] = set()
        for step in spec.steps:
            if step.mission is None or (str(step.mission), step.enemy) in checked:
                continue
            checked.add((str(step.mission), step.enemy))
            try:
                step_mission(spec, step, spec.warband, 0, rules, library)
            except RivenError as exc:
                first = getattr(exc, "errors", [exc])[0]
                self.problems.add(
                    f"mission {step.mission_name!r} cannot field this warband: "
                    f"{getattr(first, 'detail', first)}",
                    join_path(step.field, "mission"),
                )


def _reader(path: Path) -> tuple[_Reader, CampaignSpec | None]:
    source = str(path)
    reader = _Reader(source, path.parent)
    try:
        text = read_text(path, what="campaign file (.toml)", error=CampaignError)
    except CampaignError as exc:
        reader.problems.errors.append(exc)
        return reader, None
    return reader, reader.read(text)


def validate_campaign_file(path: str | Path) -> list[str]:
    """Every problem of a campaign file, one line each (empty: valid)."""
    reader, _ = _reader(Path(path))
    return [" ".join(str(e).split()) for e in reader.problems.errors]


def load_campaign(name_or_path: str | Path) -> CampaignSpec:
    """Load and check a campaign (a bundled name or a file).

    Raises:
        CampaignError: The first problem, one line naming the file and the field.
    """
    reader, spec = _reader(resolve_campaign(name_or_path))
    if spec is None or reader.problems:
        raise first_error(reader.problems)
    return spec


__all__ = [
    "bundled_campaign_dir",
    "list_campaigns",
    "load_campaign",
    "resolve_campaign",
    "validate_campaign_file",
]
