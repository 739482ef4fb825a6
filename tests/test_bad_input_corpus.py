"""The bad-input corpus: every malformed input a user can give is refused cleanly.

Each case of :data:`CASES` writes one bad input into ``tmp_path`` (a scenario, a rules file,
a ``--set`` override, a training config, an Oracle or unit profile file, an agent spec, an
event log, a results database, a model file) and names what the refusal must say: the field
at fault (and the file, for files). Every case is fed to the Python API and to the command
line (in process with typer's runner; a representative subset in a real subprocess), and
must be refused with an error of the :mod:`riven_env.errors` hierarchy, exit status 2, a
one-line ``error: ...`` message, no traceback, within the per-case timeout (pytest-timeout,
5 s in process; a subprocess adds the interpreter's start-up).

Kinds covered: wrong types, NaN and infinities, huge sizes, deep nesting, binary data,
directories, overlapping or off-table placements, unknown names and keys.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riven_env.errors import RivenError
from riven_env.files import limit
from riven_env.rules.config import default_rules_path

ROOT = Path(__file__).resolve().parents[1]
DUEL = (ROOT / "scenarios" / "duel-1v1.toml").read_text(encoding="utf-8")
RULES = default_rules_path().read_text(encoding="utf-8")
LIBRARY = (ROOT / "scenarios" / "profiles.toml").read_text(encoding="utf-8")
ORACLE = (ROOT / "agents" / "oracle" / "data" / "profiles.toml").read_text(encoding="utf-8")
TRAIN = (ROOT / "training" / "config" / "default.toml").read_text(encoding="utf-8")

#: Nesting far beyond tomllib's and json's recursion limit, and nesting just past ours.
ABYSS = 5000
DEEP = int(limit("files.max_depth")) + 8

runner = CliRunner()


# ----------------------------------------------------------------------------- inputs
def swap(text: str, old: str, new: str) -> str:
    """``text`` with its first ``old`` replaced (the case table must name real text)."""
    assert old in text, f"the base text has no {old!r}"
    return text.replace(old, new, 1)


def inline_profile(**fields: object) -> str:
    """The duel with blue's model replaced by an inline profile holding ``fields``."""
    values = {
        "might": 3, "agility": 3, "wit": 2, "resolve": 2, "mettle": 4, "wounds": 2,
        "melee": '"sword"', **fields,
    }  # fmt: skip
    body = "".join(f"{key} = {value}\n" for key, value in values.items())
    text = swap(DUEL, 'profile = "veteran"\nid = "blue-champion"', 'profile = "odd"\nid = "b"')
    return text + f"\n[profiles.odd]\n{body}"


def inline_weapon(**fields: object) -> str:
    """The duel with an inline ranged weapon holding ``fields``, carried by blue."""
    body = "".join(f"{key} = {value}\n" for key, value in {"kind": '"ranged"', **fields}.items())
    return inline_profile(ranged='"odd_bow"') + f"\n[weapons.odd_bow]\n{body}"


def many_circles(count: int) -> str:
    pieces = "".join(
        f'\n[[table.terrain]]\ntype = "scrub"\ncircle = [{3 + (k % 9) * 2.2}, {6 + (k // 9) * 2.4}, 0.5]\n'
        for k in range(count)
    )
    return swap(DUEL, "\n[deployment]", pieces + "\n[deployment]")


def many_objectives(count: int) -> str:
    body = "".join(
        f'\n[[objectives]]\nname = "o{k}"\nx = {1 + k % 20}\ny = {8 + k // 20}\n'
        for k in range(count)
    )
    return swap(DUEL, "\n[sides.blue]", body + "\n[sides.blue]")


def many_entries(count: int) -> str:
    body = "".join('\n[[sides.blue.models]]\nprofile = "warrior"\n' for _ in range(count))
    return swap(DUEL, "\n[sides.red]", body + "\n[sides.red]")


def star_polygon(vertices: int) -> str:
    import math

    points = ", ".join(
        f"[{12 + (3 if k % 2 else 1.5) * math.cos(2 * math.pi * k / vertices):.4f}, "
        f"{12 + (3 if k % 2 else 1.5) * math.sin(2 * math.pi * k / vertices):.4f}]"
        for k in range(vertices)
    )
    return swap(DUEL, "[[table.terrain]]\nname = \"west stones\"\ntype = \"rocks\"\npolygon = [[5, 12], [7, 10.5], [8, 12], [7, 13.5]]",
                f'[[table.terrain]]\nname = "star"\ntype = "rocks"\npolygon = [{points}]')  # fmt: skip


def nested_toml(depth: int) -> str:
    return "x = " + "[" * depth + "]" * depth + "\n"


def nested_json(depth: int) -> str:
    return '{"type": "x", "v": ' + "[" * depth + "]" * depth + "}\n"


BINARY = bytes(range(256)) * 4


@dataclass(frozen=True)
class Case:
    """One bad input.

    Attributes:
        id: The test id.
        kind: What the input is (selects the API call and the command line).
        data: The file's content (text or bytes), ``DIR`` for a directory, ``MISSING`` for
            a path that does not exist, or the value itself (agent specs, ``--set`` items).
        expect: Text the message must hold: the field (or key, or agent spec) at fault.
        subprocess: Also run the command in a real subprocess.
    """

    id: str
    kind: str
    data: str | bytes
    expect: tuple[str, ...]
    subprocess: bool = False


DIR = "<directory>"
MISSING = "<missing>"


def case(id: str, kind: str, data: str | bytes, *expect: str, sub: bool = False) -> Case:
    return Case(id, kind, data, expect, sub)


S, R, T = "scenario", "rules", "train"
CASES: list[Case] = [
    # -- scenarios: NaN and infinities --------------------------------------------------
    case("scenario-move-nan", S, inline_profile(move="nan"), "profiles.odd.move", sub=True),
    case("scenario-move-inf", S, inline_profile(move="inf"), "profiles.odd.move"),
    case("scenario-base-nan", S, inline_profile(base="nan"), "profiles.odd.base"),
    case("scenario-base-minus-inf", S, inline_profile(base="-inf"), "profiles.odd.base"),
    case("scenario-weapon-range-nan", S, inline_weapon(range="nan"), "weapons.odd_bow.range"),
    case("scenario-weapon-range-inf", S, inline_weapon(range="inf"), "weapons.odd_bow.range"),
    case("scenario-width-nan", S, swap(DUEL, "width = 24", "width = nan"), "table.width"),
    case("scenario-height-inf", S, swap(DUEL, "height = 24", "height = inf"), "table.height"),
    case("scenario-objective-x-nan", S, swap(DUEL, "x = 12.0", "x = nan"), "objectives[0].x"),
    case("scenario-objective-radius-inf", S, swap(DUEL, 'kind = "hold"', 'kind = "hold"\nradius = inf'), "objectives[0].radius"),  # fmt: skip
    case("scenario-position-nan", S, swap(DUEL, 'id = "blue-champion"', 'id = "blue-champion"\nposition = [nan, 2]'), "sides.blue.models[0].position"),  # fmt: skip
    case("scenario-circle-nan", S, swap(DUEL, "circle = [18, 12, 1.5]", "circle = [18, 12, nan]"), "table.terrain[1]"),  # fmt: skip
    case("scenario-zone-inf", S, swap(DUEL, "blue = [[0, 0, 24, 4]]", "blue = [[0, 0, inf, 4]]"), "deployment.blue[0]"),  # fmt: skip
    # -- scenarios: huge sizes ----------------------------------------------------------
    case("scenario-table-1e9", S, swap(DUEL, "width = 24", "width = 1e9"), "table.width", sub=True),  # fmt: skip
    case("scenario-table-100000", S, swap(swap(DUEL, "width = 24", "width = 100000"), "height = 24", "height = 100000"), "table.width", "table.height"),  # fmt: skip
    case("scenario-table-241", S, swap(DUEL, "height = 24", "height = 241"), "table.height"),
    case("scenario-count-10000", S, swap(DUEL, 'id = "blue-champion"', "count = 10000"), "sides.blue.models[0].count"),  # fmt: skip
    case("scenario-count-sum", S, swap(many_entries(1), 'profile = "warrior"', 'profile = "warrior"\ncount = 100'), "sides.blue.models[1].count"),  # fmt: skip
    case("scenario-101-entries", S, many_entries(101), "sides.blue.models"),
    case("scenario-rounds-int64", S, swap(DUEL, "rounds = 6", "rounds = 9200000000000000000"), "scenario.rounds"),  # fmt: skip
    case("scenario-rounds-float", S, swap(DUEL, "rounds = 6", "rounds = 9.2e18"), "scenario.rounds"),  # fmt: skip
    case("scenario-rounds-101", S, swap(DUEL, "rounds = 6", "rounds = 101"), "scenario.rounds"),
    case("scenario-objective-points-2^31", S, swap(DUEL, "points = 1\n\n[sides", "points = 2147483648\n\n[sides"), "objectives[0].points"),  # fmt: skip
    case("scenario-condition-points-2^40", S, swap(DUEL, 'type = "casualties"\npoints = 1', 'type = "casualties"\npoints = 1099511627776'), "victory.conditions[1].points"),  # fmt: skip
    case("scenario-1000-pieces", S, many_circles(1000), "table.terrain"),
    case("scenario-vertices-sum", S, many_circles(30), "table.terrain", "vertices"),
    case("scenario-polygon-5000", S, star_polygon(5000), "table.terrain[0]", "vertices"),
    case("scenario-100-objectives", S, many_objectives(100), "objectives"),
    case("scenario-40-zones", S, swap(DUEL, "blue = [[0, 0, 24, 4]]", "blue = [" + ", ".join(["[0, 0, 1, 1]"] * 40) + "]"), "deployment.blue"),  # fmt: skip
    case("scenario-file-too-large", S, DUEL + "#" * (int(limit("files.max_bytes")) + 1) + "\n", "too large"),  # fmt: skip
    # -- scenarios: nesting, binary, files ----------------------------------------------
    case("scenario-nested-abyss", S, DUEL + nested_toml(ABYSS), "nested", sub=True),
    case("scenario-nested-deep", S, DUEL + nested_toml(DEEP), "nested"),
    case("scenario-binary", S, BINARY, "UTF-8", sub=True),
    case("scenario-directory", S, DIR, "directory"),
    case("scenario-missing", S, MISSING, "no such file"),
    case("scenario-empty", S, "", "schema_version"),
    case("scenario-not-toml", S, "<html>not toml</html>\n", "not valid TOML"),
    case("scenario-utf16", S, DUEL.encode("utf-16"), "UTF-8"),
    # -- scenarios: wrong types ---------------------------------------------------------
    case("scenario-width-text", S, swap(DUEL, "width = 24", 'width = "wide"'), "table.width"),
    case("scenario-rounds-text", S, swap(DUEL, "rounds = 6", 'rounds = "six"'), "scenario.rounds"),
    case("scenario-rounds-bool", S, swap(DUEL, "rounds = 6", "rounds = true"), "scenario.rounds"),
    case("scenario-models-text", S, swap(DUEL, '[[sides.red.models]]\nprofile = "brawler"\nid = "red-champion"', 'models = "brawler"'), "sides.red.models"),  # fmt: skip
    case("scenario-circle-text", S, swap(DUEL, "circle = [18, 12, 1.5]", 'circle = "round"'), "table.terrain[1]"),  # fmt: skip
    case("scenario-wounds-float", S, inline_profile(wounds=2.5), "profiles.odd.wounds"),
    case("scenario-count-zero", S, swap(DUEL, 'id = "blue-champion"', "count = 0"), "sides.blue.models[0].count"),  # fmt: skip
    # -- scenarios: placements ----------------------------------------------------------
    case("scenario-overlapping-models", S, swap(swap(DUEL, 'id = "blue-champion"', 'id = "blue-champion"\nposition = [12, 2]'), 'id = "red-champion"', 'id = "red-champion"\nposition = [12.5, 2]'), "sides.red.models[0].position", "overlaps"),  # fmt: skip
    case("scenario-model-off-table", S, swap(DUEL, 'id = "blue-champion"', 'id = "blue-champion"\nposition = [30, 2]'), "sides.blue.models[0].position"),  # fmt: skip
    case("scenario-model-in-rock", S, swap(DUEL, 'id = "blue-champion"', 'id = "blue-champion"\nposition = [12, 7]'), "sides.blue.models[0].position"),  # fmt: skip
    case("scenario-zone-off-table", S, swap(DUEL, "red = [[0, 20, 24, 24]]", "red = [[0, 20, 24, 30]]"), "deployment.red[0]"),  # fmt: skip
    case("scenario-objective-off-table", S, swap(DUEL, "y = 12.0", "y = -3.0"), "objectives[0]"),
    case("scenario-zone-too-small", S, swap(DUEL, 'id = "blue-champion"', "count = 100"), "deployment"),  # fmt: skip
    # -- scenarios: unknown names -------------------------------------------------------
    case("scenario-unknown-key", S, swap(DUEL, "rounds = 6", "rouns = 6"), "scenario.rouns", "did you mean rounds"),  # fmt: skip
    case("scenario-unknown-profile", S, swap(DUEL, 'profile = "veteran"', 'profile = "veteren"'), "sides.blue.models[0].profile"),  # fmt: skip
    case("scenario-unknown-oracle", S, swap(DUEL, 'oracle = "defensive"', 'oracle = "defensiv"'), "sides.blue.oracle"),  # fmt: skip
    case("scenario-unknown-condition", S, swap(DUEL, 'type = "eliminate"', 'type = "eliminat"'), "victory.conditions[0].type"),  # fmt: skip
    case("scenario-unknown-terrain-type", S, swap(DUEL, 'type = "rocks"', 'type = "rockz"'), "table.terrain[0]"),  # fmt: skip
    case("scenario-unknown-weapon", S, inline_profile(melee='"swrod"'), "profiles.odd.melee"),
    # -- rules files --------------------------------------------------------------------
    case("rules-objective-radius-nan", R, swap(RULES, "objective_radius = 2.0", "objective_radius = nan"), "distances.objective_radius", sub=True),  # fmt: skip
    case("rules-recoil-inf", R, swap(RULES, "recoil_distance = 2.0", "recoil_distance = inf"), "melee.recoil_distance"),  # fmt: skip
    case("rules-flee-base-minus-inf", R, swap(RULES, "flee_base = 3.0", "flee_base = -inf"), "morale.flee_base"),  # fmt: skip
    case("rules-trigger-radius-nan", R, swap(RULES, "radius = 6.0", "radius = nan"), "morale.triggers.friend_lost.radius"),  # fmt: skip
    case("rules-unarmed-range-nan", R, swap(RULES, "range = 0.0", "range = nan"), "profiles.unarmed.range"),  # fmt: skip
    case("rules-table-width-inf", R, swap(RULES, "width = 36.0", "width = inf"), "distances.tables.standard.width"),  # fmt: skip
    case("rules-unknown-key", R, swap(RULES, 'turnover = "raw"', 'turnovr = "sbh"\nturnover = "raw"'), "activation.turnovr", "did you mean turnover", sub=True),  # fmt: skip
    case("rules-unknown-section", R, RULES + "\n[dicee]\nfaces = 8\n", "dicee", "did you mean dice"),  # fmt: skip
    case("rules-unknown-distance", R, swap(RULES, "rally_range = 3.0", "rally_range = 3.0\nobjective_raduis = 3.0"), "distances.objective_raduis", "did you mean"),  # fmt: skip
    case("rules-max-dice-text", R, swap(RULES, "max_dice = 3", 'max_dice = "three"'), "activation.max_dice"),  # fmt: skip
    case("rules-max-dice-huge", R, swap(RULES, "max_dice = 3", "max_dice = 99999999999"), "activation.max_dice"),  # fmt: skip
    case("rules-nested", R, RULES + nested_toml(ABYSS), "nested"),
    case("rules-binary", R, BINARY, "UTF-8"),
    case("rules-directory", R, DIR, "directory"),
    case("rules-missing", R, MISSING, "no such file"),
    # -- --set overrides ----------------------------------------------------------------
    case("set-objective-radius-nan", "set", "objective_radius=nan", "objective_radius", sub=True),
    case("set-move-inf", "set", "move=inf", "distances.move"),
    case("set-recoil-minus-inf", "set", "recoil_distance=-inf", "recoil_distance"),
    case("set-unknown-key", "set", "turnovr=sbh", "turnovr", "turnover"),
    case("set-max-dice-huge", "set", "max_dice=99999999999", "max_dice"),
    case("set-charge-bonus-float", "set", "charge_bonus=2.5", "charge_bonus"),
    # -- training configs ---------------------------------------------------------------
    case("train-learning-rate-nan", T, "[ppo]\nlearning_rate = nan\n", "ppo.learning_rate", sub=True),  # fmt: skip
    case("train-gamma-5", T, "[ppo]\ngamma = 5\n", "ppo.gamma"),
    case("train-clip-range-negative", T, "[ppo]\nclip_range = -1\n", "ppo.clip_range"),
    case("train-ent-coef-inf", T, "[ppo]\nent_coef = inf\n", "ppo.ent_coef"),
    case("train-n-steps-huge", T, "[ppo]\nn_steps = 99999999999\n", "ppo.n_steps"),
    case("train-net-arch-zero", T, "[policy]\nnet_arch = [0, 64]\n", "policy.net_arch"),
    case("train-unknown-key", T, "[ppo]\nlerning_rate = 0.001\n", "ppo.lerning_rate", "did you mean learning_rate"),  # fmt: skip
    case("train-unknown-section", T, "[ppoo]\ngamma = 0.9\n", "ppoo", "did you mean ppo"),
    case("train-wrong-type", T, '[ppo]\nbatch_size = "big"\n', "ppo.batch_size"),
    case("train-nested", T, TRAIN + nested_toml(ABYSS), "nested"),
    case("train-binary", T, BINARY, "UTF-8"),
    case("train-directory", T, DIR, "directory"),
    case("train-set-gamma-nan", "train-set", "ppo.gamma=nan", "ppo.gamma"),
    case("train-set-unknown", "train-set", "ppo.gama=0.9", "ppo.gama", "did you mean gamma"),
    # -- Oracle profile files -----------------------------------------------------------
    case("oracle-turnover-cost-nan", "oracle", swap(ORACLE, "turnover_cost = 1.0", "turnover_cost = nan"), "turnover_cost"),  # fmt: skip
    case("oracle-within-inf", "oracle", swap(ORACLE, "friend_engaged_within:3", "friend_engaged_within:inf"), "friend_engaged_within"),  # fmt: skip
    case("oracle-nested", "oracle", ORACLE + nested_toml(ABYSS), "nested"),
    case("oracle-binary", "oracle", BINARY, "UTF-8"),
    case("oracle-directory", "oracle", DIR, "directory"),
    # -- unit profile libraries ---------------------------------------------------------
    case("library-move-nan", "library", swap(LIBRARY, "move = 5", "move = nan"), "move"),
    case("library-range-inf", "library", swap(LIBRARY, "range = 0", "range = inf"), "range"),
    case("library-wounds-huge", "library", swap(LIBRARY, "wounds = 2", "wounds = 99999999999"), "wounds"),  # fmt: skip
    case("library-unknown-field", "library", swap(LIBRARY, "move = 5", "mvoe = 5"), "mvoe"),
    case("library-binary", "library", BINARY, "UTF-8"),
    # -- agent specs --------------------------------------------------------------------
    case("agent-mcts-nan", "agent", "mcts:nan", "mcts"),
    case("agent-mcts-huge", "agent", "mcts:99999999999", "mcts", sub=True),
    case("agent-mcts-inf", "agent", "mcts:inf", "mcts"),
    case("agent-mcts-negative", "agent", "mcts:-5", "mcts"),
    case("agent-mcts-many-digits", "agent", "mcts:" + "9" * 5000, "mcts"),
    case("agent-unknown", "agent", "orcale", "orcale"),
    case("agent-oracle-unknown-profile", "agent", "oracle:agresive", "agresive"),
    case("agent-greedy-argument", "agent", "greedy:3", "greedy"),
    # -- model files (ppo:PATH) ---------------------------------------------------------
    case("model-directory", "model", DIR, "directory", sub=True),
    case("model-missing", "model", MISSING, "does not exist"),
    case("model-empty", "model", b"", "empty"),
    case("model-not-a-zip", "model", b"this is not a model\n", "sidecar"),
    case("model-binary", "model", BINARY, "sidecar"),
    case("model-wrong-zip", "model", b"<zip>", "sidecar"),
    # -- event logs (JSON Lines) --------------------------------------------------------
    case("log-truncated-line", "log", '{"type": "game_start", "scenario": "du', "line 1"),
    case("log-nan", "log", '{"type": "x", "v": NaN}\n', "line 1", "non-finite"),
    case("log-infinity", "log", '{"type": "x"}\n{"type": "y", "v": -Infinity}\n', "line 2"),
    case("log-not-object", "log", '{"type": "x"}\n[1, 2]\n', "line 2", "JSON object"),
    case("log-nested", "log", nested_json(ABYSS), "line 1", "nested"),
    case("log-nested-deep", "log", nested_json(DEEP), "line 1", "nested"),
    case("log-binary", "log", b"\xff" + BINARY, "UTF-8"),
    case("log-directory", "log", DIR, "directory"),
    case("log-missing", "log", MISSING, "no such file"),
    # -- results databases --------------------------------------------------------------
    case("db-truncated-half", "db", "<half>", "results database", sub=True),
    case("db-truncated-header", "db", "<header>", "results database"),
    case("db-text", "db", "this is not a database\n" * 100, "results database"),
    case("db-binary", "db", BINARY * 64, "results database"),
    case("db-directory", "db", DIR, "input.duckdb"),
    # -- command-line sizes and numbers (the command line only) -------------------------
    case("argv-compare-alpha-nan", "argv", "compare --scenario duel-1v1 --games 2 --variant turnover=sbh --alpha nan --workers 1 --db {tmp}/c.duckdb", "--alpha"),  # fmt: skip
    case("argv-playtest-workers-huge", "argv", "playtest --scenario duel-1v1 --blue random --red random --games 2 --workers 100000 --db {tmp}/p.duckdb", "workers=100000", sub=True),  # fmt: skip
    case("argv-train-envs-huge", "argv", "train --scenario duel-1v1 --opponent random --timesteps 8 --envs 100000 --out {tmp}/run --no-progress", "--envs"),  # fmt: skip
]  # fmt: skip


# ----------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def results_db(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a small valid results database (two games), to damage."""
    from riven_env.playtest.config import PlaytestConfig
    from riven_env.playtest.runner import run_playtest

    path = tmp_path_factory.mktemp("db") / "good.duckdb"
    config = PlaytestConfig("duel-1v1", "random", "random", games=2, workers=1, db=path)
    run_playtest(config, progress=False)
    return path.read_bytes()


@pytest.fixture(scope="module")
def warm() -> None:
    """Import and load once what every case uses, so the timeout measures the refusal."""
    from riven_env.rules.config import bundled_rules
    from riven_env.scenario import load_scenario

    bundled_rules()
    load_scenario("duel-1v1")
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("duckdb")


def materialise(case: Case, tmp_path: Path, db_bytes: Callable[[], bytes]) -> str:
    """Write the case's input under ``tmp_path``; return the path (or the value itself)."""
    if case.kind in ("set", "train-set", "agent", "argv"):
        assert isinstance(case.data, str)
        return case.data.replace("{tmp}", str(tmp_path))
    suffix = {"db": ".duckdb", "model": ".safetensors", "log": ".jsonl"}.get(case.kind, ".toml")
    path = tmp_path / f"input{suffix}"
    if case.data == DIR:
        path.mkdir()
        (path / "step_1.safetensors").write_bytes(b"")
    elif case.data == MISSING:
        pass
    elif case.data == "<half>":
        good = db_bytes()
        path.write_bytes(good[: len(good) // 2])
    elif case.data == "<header>":
        path.write_bytes(db_bytes()[:4096])
    elif case.data == b"<zip>":
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("hello.txt", "not a policy")
    elif isinstance(case.data, bytes):
        path.write_bytes(case.data)
    else:
        path.write_text(case.data, encoding="utf-8")
    return str(path)


# ----------------------------------------------------------------------------- API
def call_api(case: Case, target: str, tmp_path: Path) -> None:
    """Feed the input to the Python API that reads it (expected to raise).

    Command-line-only cases (``argv``) have no API call of their own.
    """
    if case.kind == "scenario":
        from riven_env.scenario import load_scenario

        load_scenario(target)
    elif case.kind == "rules":
        from riven_env.rules.config import load_rules

        load_rules(target)
    elif case.kind == "set":
        from riven_env.cli.common import parse_overrides
        from riven_env.rules.config import load_rules

        load_rules(overrides=parse_overrides([target]))
    elif case.kind == "train":
        from riven_training.hyperparams import load_train_config

        load_train_config(target)
    elif case.kind == "train-set":
        from riven_training.hyperparams import load_train_config

        load_train_config(None, [target])
    elif case.kind == "oracle":
        from riven_agents.oracle.profiles import load_profiles

        load_profiles(target)
    elif case.kind == "library":
        from riven_env.rules.config import bundled_rules
        from riven_env.scenario.library import load_library

        load_library(target, rules=bundled_rules())
    elif case.kind == "agent":
        from riven_agents.registry import make_agent

        make_agent(target, "blue", 0)
    elif case.kind == "model":
        from riven_agents.registry import make_agent

        make_agent(f"ppo:{target}", "blue", 0)
    elif case.kind == "log":
        from riven_env.game import read_jsonl

        read_jsonl(target)
    elif case.kind == "db":
        from riven_env.analytics.report import write_report
        from riven_env.playtest.config import PlaytestConfig
        from riven_env.playtest.errors import PlaytestError
        from riven_env.playtest.runner import run_playtest

        with pytest.raises(PlaytestError) as refused:
            write_report(target, None, tmp_path / "report.html")
        check_message(case, str(refused.value), target)
        config = PlaytestConfig("duel-1v1", "random", "random", games=2, workers=1, db=Path(target))
        run_playtest(config, progress=False, resume=True)
    else:  # pragma: no cover - the case table is closed
        raise AssertionError(case.kind)


def check_message(case: Case, message: str, target: str) -> None:
    assert "Traceback" not in message
    for text in case.expect:
        assert text in message, f"{case.id}: {text!r} not in {message!r}"
    if case.kind not in ("set", "train-set", "agent", "argv") and case.data != MISSING:
        # A file's error names the file (a missing file's too, but under its given name).
        assert Path(target).name in message, f"{case.id}: the file is not named: {message!r}"


API_CASES = [c for c in CASES if c.kind != "argv"]


@pytest.mark.timeout(5, func_only=True)
@pytest.mark.parametrize("case", API_CASES, ids=[c.id for c in API_CASES])
def test_api_refuses_cleanly(case: Case, tmp_path: Path, warm: None, results_db: bytes) -> None:
    target = materialise(case, tmp_path, lambda: results_db)
    with pytest.raises(RivenError) as refused:
        call_api(case, target, tmp_path)
    check_message(case, str(refused.value), target)


# ----------------------------------------------------------------------------- CLI
def cli_args(case: Case, target: str, tmp_path: Path) -> list[list[str]]:
    """The command lines that read the input (none for inputs only the API reads)."""
    play = ["play", "--scenario", "duel-1v1", "--blue", "random", "--red", "random"]
    if case.kind == "scenario":
        return [["play", "--scenario", target, "--blue", "random", "--red", "random"]]
    if case.kind == "rules":
        return [["odds", "test", "--attribute", "2", "--tn", "10", "--rules", target]]
    if case.kind == "set":
        return [[*play, "--set", target]]
    train = ["train", "--scenario", "duel-1v1", "--opponent", "random", "--timesteps", "8",
             "--envs", "1", "--out", str(tmp_path / "run"), "--no-progress"]  # fmt: skip
    if case.kind == "train":
        return [[*train, "--config", target]]
    if case.kind == "train-set":
        return [[*train, "--set", target]]
    if case.kind == "oracle":
        return [["oracle", "print", "--profiles", target]]
    if case.kind == "agent":
        return [["play", "--scenario", "duel-1v1", "--blue", target, "--red", "random"]]
    if case.kind == "model":
        return [["play", "--scenario", "duel-1v1", "--blue", f"ppo:{target}", "--red", "random"]]
    if case.kind == "db":
        return [
            ["report", target, "-o", str(tmp_path / "report.html")],
            ["playtest", "--scenario", "duel-1v1", "--blue", "random", "--red", "random",
             "--games", "2", "--workers", "1", "--db", target, "--resume", "--json"],
        ]  # fmt: skip
    if case.kind == "argv":
        return [target.split()]
    return []  # library files and logs: read by the API only


CLI_CASES = [c for c in CASES if c.kind not in ("library", "log")]


def check_cli(case: Case, code: int, output: str, target: str) -> None:
    assert code == 2, f"{case.id}: exit {code}: {output}"
    assert "Traceback" not in output, output
    assert output.startswith("error: "), output
    check_message(case, output, target)


@pytest.mark.timeout(5, func_only=True)
@pytest.mark.parametrize("case", CLI_CASES, ids=[c.id for c in CLI_CASES])
def test_cli_refuses_cleanly(case: Case, tmp_path: Path, warm: None, results_db: bytes) -> None:
    from riven_env.cli.main import app

    target = materialise(case, tmp_path, lambda: results_db)
    for args in cli_args(case, target, tmp_path):
        result = runner.invoke(app, args)
        assert isinstance(result.exception, SystemExit | None), result.exception
        check_cli(case, result.exit_code, result.output, target)


SUBPROCESS_CASES = [c for c in CLI_CASES if c.subprocess]


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", SUBPROCESS_CASES, ids=[c.id for c in SUBPROCESS_CASES])
def test_subprocess_refuses_cleanly(case: Case, tmp_path: Path, request) -> None:
    target = materialise(case, tmp_path, lambda: request.getfixturevalue("results_db"))
    for args in cli_args(case, target, tmp_path):
        done = subprocess.run(
            [sys.executable, "-m", "riven_env.cli.main", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=110,
        )
        check_cli(case, done.returncode, done.stderr, target)
        assert done.stderr.count("\n") == 1, f"more than one line: {done.stderr!r}"


def test_the_corpus_is_large_and_varied() -> None:
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)
    assert len(SUBPROCESS_CASES) >= 8
    assert {c.kind for c in CASES} >= {
        "scenario",
        "rules",
        "set",
        "train",
        "agent",
        "model",
        "log",
        "db",
    }


# ----------------------------------------------------------------------------- per item
def test_values_at_every_bound_are_still_accepted(tmp_path: Path) -> None:
    """The limits refuse what is above them, not what reaches them."""
    from riven_agents.mcts import parse_simulations

    from riven_env.scenario import load_scenario_text

    most = int(limit("scenario.max_models_per_side"))
    size = limit("table.max_size")
    text = swap(swap(DUEL, "width = 24", f"width = {size}"), "height = 24", f"height = {size}")
    text = swap(text, "red = [[0, 20, 24, 24]]", f"red = [[0, {size - 12}, {size}, {size}]]")
    text = swap(text, "blue = [[0, 0, 24, 4]]", f"blue = [[0, 0, {size}, 12]]")
    text = swap(text, 'id = "blue-champion"', f"count = {most}")
    text = swap(text, "rounds = 6", f"rounds = {limit('scenario.max_rounds')}")
    text = swap(text, "points = 1\n\n[sides", f"points = {limit('scenario.max_points')}\n\n[sides")
    scenario = load_scenario_text(text)
    assert len(scenario.sides["blue"].models) == most
    assert scenario.table.width == size and scenario.objectives[0].points == 2**31 - 1
    top = int(limit("agents.max_mcts_simulations"))
    assert parse_simulations(str(top)) == top


def test_terrain_vertices_are_counted_over_the_whole_table() -> None:
    from riven_env.errors import TerrainError
    from riven_env.table import Table

    most = int(limit("table.max_vertices"))
    circles = most // 16  # a circle is drawn with 16 vertices
    spec = {"width": 60, "height": 60, "terrain": [
        {"type": "scrub", "circle": [3 + 3 * (k % 18), 3 + 3 * (k // 18), 1]} for k in range(circles)
    ]}  # fmt: skip
    assert len(Table.from_spec(spec).pieces) == circles
    spec["terrain"].append({"type": "scrub", "circle": [57, 57, 1]})
    with pytest.raises(TerrainError, match=r"table\.terrain: the outlines have \d+ vertices"):
        Table.from_spec(spec)


def test_every_limit_is_documented() -> None:
    from riven_env.files import limits

    schema = (ROOT / "docs" / "scenario-schema.md").read_text(encoding="utf-8")
    for section, keys in limits().items():
        for key in keys:
            assert f"`{section}.{key}`" in schema, f"{section}.{key} is not in scenario-schema.md"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999"])
def test_set_overrides_refuse_non_finite_numbers_from_every_parser(value: str) -> None:
    """``riven play --set`` hands strings, ``riven playtest --set`` TOML values: both refused."""
    from riven_env.errors import RulesDataError
    from riven_env.playtest.config import parse_override
    from riven_env.rules.config import load_rules

    key, parsed = parse_override(f"objective_radius={value}")
    for given in (value, parsed):
        with pytest.raises(RulesDataError, match="distances.objective_radius"):
            load_rules(overrides={key: given})


def test_rules_files_still_take_new_named_entries(tmp_path: Path) -> None:
    """Typos are refused, but a designer's new Condition, difficulty or distance is not."""
    from riven_env.rules.config import load_rules

    text = swap(RULES, "brutal = 12", "brutal = 12\nheroic = 14")
    text = swap(text, "[conditions.bleeding]", '[conditions.burning]\ndescription = "On fire."\nexpires = "never"\n\n[conditions.bleeding]')  # fmt: skip
    text = swap(text, "rally_range = 3.0", "rally_range = 3.0\nshout_range = 6.0")
    text = swap(text, 'range = "rally_range"', 'range = "shout_range"')
    path = tmp_path / "variant.toml"
    path.write_text(text, encoding="utf-8")
    rules = load_rules(path)
    assert rules.get("test.difficulty.heroic") == 14 and rules.get("distances.shout_range") == 6.0


def test_training_ranges_name_real_keys_and_accept_their_bounds() -> None:
    from riven_training.hyperparams import RANGES_CONFIG, load_train_config

    from riven_env.files import read_toml

    config = load_train_config()
    for section, keys in read_toml(RANGES_CONFIG).items():
        for key in keys:
            assert key in config[section], f"{section}.{key} of ranges.toml is not a config key"
    edge = load_train_config(None, ["ppo.gamma=1.0", "ppo.gae_lambda=0", "ppo.learning_rate=1"])
    assert edge["ppo"]["gamma"] == 1.0 and edge["ppo"]["gae_lambda"] == 0.0


def test_the_safe_reader_survives_what_the_parsers_do_not(tmp_path: Path) -> None:
    """tomllib and json recurse without a bound; the reader turns that into one error."""
    from riven_env.errors import DataFileError
    from riven_env.files import check_depth, parse_json, read_toml

    deep = tmp_path / "deep.toml"
    deep.write_text(nested_toml(100_000), encoding="utf-8")
    with pytest.raises(DataFileError, match="deep.toml: .*nested deeper than"):
        read_toml(deep)
    with pytest.raises(DataFileError, match="nested deeper than"):
        parse_json("[" * 100_000 + "]" * 100_000, "x.json")
    with pytest.raises(DataFileError, match="non-finite number NaN"):
        parse_json('{"a": NaN}', "x.json")
    chain: list = []
    for _ in range(100_000):  # deeper than any recursion limit: the check walks a stack
        chain = [chain]
    with pytest.raises(DataFileError, match="nested deeper"):
        check_depth(chain, "chain")
    check_depth([[1, {"a": [2]}]], "shallow")
