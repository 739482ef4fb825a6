"""The README runs: every command of its Usage block (scaled down) and its Python snippet.

The commands are read from ``README.md`` itself, so an example can never drift from what the
code does again (it did: ``ppo:runs/duel/final_model.zip`` named a file training never wrote).
Sizes are scaled down by rewriting their flags' values (:data:`SMALL`); training gets a few
extra ``--set`` keys so that one small update and evaluation fit in seconds. The commands run
in order in one temporary folder, so ``eval`` loads the policy that ``train`` just wrote.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: Flag -> the small value it gets in the test.
SMALL = {"--games": "1", "--campaigns": "1", "--timesteps": "128", "--envs": "1", "--workers": "1"}
#: Extra options per command, to make the step small (never to change what is tested).
EXTRA = {
    "train": [
        "--set", "ppo.n_steps=64", "--set", "ppo.batch_size=64", "--set", "ppo.n_epochs=1",
        "--set", "train.eval_games=2", "--set", "train.vec_env=dummy", "--no-progress",
    ],
    # An audit measures over at least two games; the handicap search multiplies them.
    "oracle audit": ["--games", "2", "--no-compensate"],
}  # fmt: skip


def _block(heading: str, language: str) -> str:
    section = README.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert match, f"no {language} block under ## {heading}"
    return match.group(1)


def usage_commands() -> list[list[str]]:
    """The ``riven`` commands of the Usage block, comments stripped, sizes scaled down."""
    commands = []
    for line in _block("Usage", "bash").splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        assert words[0] == "riven", f"not a riven command: {line!r}"
        words = words[1:]
        for k, word in enumerate(words[:-1]):
            if word in SMALL:
                words[k + 1] = SMALL[word]
        commands.append(words + EXTRA.get(words[0], []) + EXTRA.get(" ".join(words[:2]), []))
    return commands


def _default_env() -> dict[str, str]:
    """The environment of a reader's shell: the README runs on the real default engine
    (``auto``), not on the suite's pin of ``RIVEN_ENGINE`` (tests/conftest.py)."""
    env = {k: v for k, v in os.environ.items() if k != "RIVEN_ENGINE"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = _default_env()
    return subprocess.run(
        [sys.executable, "-m", "riven_env.cli.main", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_usage_block_lists_every_command_group() -> None:
    groups = {words[0] for words in usage_commands()}
    expected = {
        "odds",
        "scenarios",
        "play",
        "oracle",
        "playtest",
        "compare",
        "tournament",
        "campaign",
    }
    assert expected | {"train", "eval"} <= groups
    eval_line = next(w for w in usage_commands() if w[0] == "eval")
    train_line = next(w for w in usage_commands() if w[0] == "train")
    out = Path(train_line[train_line.index("--out") + 1])
    assert eval_line[eval_line.index("--blue") + 1] == f"ppo:{out / 'final.safetensors'}"


@pytest.mark.slow
def test_every_usage_command_runs(tmp_path: Path) -> None:
    for args in usage_commands():
        done = _run(args, tmp_path)
        assert done.returncode == 0, f"riven {shlex.join(args)}\n{done.stderr[-3000:]}"
    for written in (
        "dungeon-7.toml",
        "game.jsonl",
        "game.html",
        "aggressive.html",
        "campaign.jsonl",
        "campaign.html",
    ):
        assert (tmp_path / written).stat().st_size > 0, written
    assert (tmp_path / "runs" / "duel" / "final.safetensors").exists()


@pytest.mark.slow
def test_main_job_command_runs(tmp_path: Path) -> None:
    first = README.split("**Run the main job**", 1)[1]
    line = re.search(r"```bash\n(.*?)\n```", first, re.S).group(1)
    command = shlex.split(line.split("&&", 1)[1])
    assert command[0] == "riven"
    args = command[1:]
    args[args.index("--games") + 1] = SMALL["--games"]
    done = _run(args, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    report = (tmp_path / "report.html").read_text(encoding="utf-8")
    # The built core plays the bundled mission by default (auto), and the report says so.
    assert "engine: native" in report


@pytest.mark.slow
def test_python_snippet_runs(tmp_path: Path) -> None:
    code = _block("Usage", "python")
    code += "\nobs, info = env.reset(seed=0)\nprint('reset ok')\n"
    env = _default_env()
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "reset ok" in done.stdout


def test_readme_says_how_to_get_the_cpu_build_of_torch() -> None:
    # The CI path that works on the CI machine, and the index that gives the CPU build anywhere.
    assert "python3 -m pip install torch==2.13.0 && python3 -m pip install" in README
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install torch==2.13.0" in ci


def _extra(name: str) -> list[str]:
    import tomllib

    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [
        re.split(r"[<>=!;\[ ]", dep, maxsplit=1)[0]
        for dep in doc["project"]["optional-dependencies"][name]
    ]


#: The optional modules each command imports (riven_env.extras.require), by the extra they
#: come from. Every Usage line runs after the main-job install (``.[playtest]``) unless it is
#: marked ``# needs [EXTRA]``.
_OPTIONAL_BY_COMMAND = {
    "tournament": "openskill",
    "train": "stable-baselines3",
    "eval": "stable-baselines3",
    "campaign playtest": "lifelines",  # its --report's survival curves
}


def test_every_usage_command_runs_with_the_main_job_extra_or_names_its_extra() -> None:
    playtest = set(_extra("playtest"))
    for line in _block("Usage", "bash").splitlines():
        words = shlex.split(line, comments=True)
        if not words:
            continue
        marked = re.search(r"# needs \[(\w+)\]", line)
        needed = _OPTIONAL_BY_COMMAND.get(" ".join(words[1:3]), _OPTIONAL_BY_COMMAND.get(words[1]))
        if marked:
            assert needed in _extra(marked.group(1)), line
        else:
            assert needed is None or needed in playtest, f"needs more than .[playtest]: {line}"
    assert "needs [rl]" in README and '".[rl]"' in README


def test_tournament_needs_nothing_outside_the_main_job_extra(tmp_path: Path) -> None:
    # Block every optional module that the playtest extra does not install.
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        "import sys\n"
        "class _Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in {'torch', 'sb3_contrib', 'stable_baselines3', 'ray',"
        " 'optuna', 'pettingzoo', 'pygame', 'safetensors'}:\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, _Block())\n"
    )
    env = _default_env()
    env["PYTHONPATH"] = f"{tmp_path}{os.pathsep}{ROOT}"
    result = subprocess.run(
        [sys.executable, "-m", "riven_env.cli.main", "tournament", "--scenario", "duel-1v1",
         "--agents", "random,greedy", "--games", "1"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_readme_says_how_long_the_core_compiles_and_the_build_says_what_it_does() -> None:
    import tomllib

    assert "about 5 minutes on 2 cores" in README and "-v" in README
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert build["tool"]["scikit-build"]["build"]["verbose"] is True
    assert "message(STATUS" in (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
