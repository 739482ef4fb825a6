"""Loading and validating scenario files into :class:`~riven_env.scenario.schema.Scenario`.

:func:`load_scenario` takes a bundled scenario name (``"skirmish-5v5"``) or a file path and
returns a fully validated scenario with every model placed, or raises
:class:`~riven_env.errors.ScenarioError`. :func:`validate_file` runs the same checks and
returns every problem as a message instead (``riven scenarios validate``). The checks
themselves are :class:`~riven_env.scenario.reader.ScenarioReader`'s.
"""

from __future__ import annotations

from pathlib import Path

from riven_env.errors import ScenarioError, did_you_mean
from riven_env.files import parse_toml, read_text
from riven_env.rules.config import RulesConfig
from riven_env.scenario.balance import describe_balance_table
from riven_env.scenario.checks import combined_error
from riven_env.scenario.defaults import loader_defaults
from riven_env.scenario.reader import ScenarioReader
from riven_env.scenario.schema import Scenario, ScenarioInfo

#: Files in the bundled folder that are not missions.
NON_SCENARIO_FILES: frozenset[str] = frozenset({"profiles.toml"})


# ---------------------------------------------------------------------------------------
# Files and bundled scenarios
# ---------------------------------------------------------------------------------------


def bundled_dir() -> Path:
    """Return the folder of the bundled mission files (the ``scenarios`` package)."""
    from riven_scenarios import bundled_dir as scenarios_folder

    return scenarios_folder()


def read_scenario_text(path: str | Path) -> str:
    """Read a scenario file as UTF-8 text.

    Raises:
        ScenarioError: The path is missing, a directory, unreadable or not UTF-8 text.
    """
    return read_text(path, what="scenario file (.toml)", error=ScenarioError)


def list_bundled() -> list[ScenarioInfo]:
    """List the bundled missions, sorted by name.

    Only each file's ``[scenario]`` table is read; use :func:`load_scenario` to validate.
    A file that cannot be read is listed under its file name with the reason as its title.

    Returns:
        One :class:`ScenarioInfo` per mission file.
    """
    infos: list[ScenarioInfo] = []
    for path in sorted(bundled_dir().glob("*.toml")):
        if path.name in NON_SCENARIO_FILES:
            continue
        try:
            doc = parse_toml(read_scenario_text(path), str(path), error=ScenarioError)
            header = doc.get("scenario", {})
        except ScenarioError as exc:
            infos.append(ScenarioInfo(path.stem, f"<unreadable: {exc}>", "?", "?", path))
            continue
        if not isinstance(header, dict):
            header = {}
        infos.append(
            ScenarioInfo(
                name=str(header.get("name", path.stem)),
                title=str(header.get("title", "")),
                setting=str(header.get("setting", "?")),
                mode=str(header.get("mode", loader_defaults()["scenario"]["mode"])),
                path=path,
                balance=describe_balance_table(doc.get("balance")),
            )
        )
    return sorted(infos, key=lambda info: info.name)


def resolve_scenario(name_or_path: str | Path) -> Path:
    """Find the file of a bundled scenario name, or accept a path to a scenario file.

    Args:
        name_or_path: A bundled name (``"skirmish-5v5"``) or a path (anything with a
            ``.toml`` suffix or a path separator, or an existing file).

    Returns:
        The scenario file's path.

    Raises:
        ScenarioError: Neither a bundled name nor an existing file; the message lists the
            bundled names.
    """
    text = str(name_or_path)
    looks_like_path = (
        isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text or "\\" in text
    )
    if not looks_like_path:
        for info in list_bundled():
            if info.name == text:
                return info.path
    if looks_like_path or Path(text).exists():
        return Path(name_or_path)
    bundled = [info.name for info in list_bundled()]
    raise ScenarioError(
        f"unknown scenario {text!r}{did_you_mean(text, bundled)} (not a bundled scenario name "
        f"nor a file; bundled: {', '.join(bundled)})"
    )


def load_scenario(name_or_path: str | Path, *, rules: RulesConfig | None = None) -> Scenario:
    """Load, validate and place a scenario.

    Args:
        name_or_path: A bundled scenario name or a path to a scenario file.
        rules: Rules data (hero checks, default objective radius); the bundled rules when
            ``None``.

    Returns:
        The scenario, every model with a position.

    Raises:
        ScenarioError: The name is unknown or the file is invalid. With several independent
            problems the error is a :class:`~riven_env.scenario.checks.ScenarioProblems`
            whose ``errors`` lists each.
    """
    path = resolve_scenario(name_or_path)
    return load_scenario_text(read_scenario_text(path), source=str(path), rules=rules)


def load_scenario_text(
    text: str, source: str = "<string>", *, rules: RulesConfig | None = None
) -> Scenario:
    """Load, validate and place a scenario from TOML text.

    Args:
        text: The scenario document.
        source: The name problems are reported against.
        rules: Rules data; the bundled rules when ``None``.

    Returns:
        The scenario.

    Raises:
        ScenarioError: The document is invalid (see :func:`load_scenario`).
    """
    reader = ScenarioReader(source, rules)
    scenario = reader.read(text)
    if scenario is None or reader.problems:
        raise combined_error(reader.problems)
    return scenario


def validate_text(
    text: str, source: str = "<string>", *, rules: RulesConfig | None = None
) -> list[str]:
    """Return every problem of a scenario document as a message (empty when valid)."""
    reader = ScenarioReader(source, rules)
    reader.read(text)
    return [str(error) for error in reader.problems.errors]


def validate_file(path: str | Path, *, rules: RulesConfig | None = None) -> list[str]:
    """Return every problem of a scenario file as a message (empty when valid).

    Never raises for a bad file: a missing file, a directory, binary data or broken TOML is
    reported as a message like any other problem.

    Args:
        path: The scenario file.
        rules: Rules data; the bundled rules when ``None``.

    Returns:
        The messages, each naming the file and the field path at fault.
    """
    try:
        text = read_scenario_text(path)
    except ScenarioError as exc:
        return [str(exc)]
    return validate_text(text, str(path), rules=rules)


__all__ = [
    "NON_SCENARIO_FILES",
    "bundled_dir",
    "list_bundled",
    "load_scenario",
    "load_scenario_text",
    "read_scenario_text",
    "resolve_scenario",
    "validate_file",
    "validate_text",
]
