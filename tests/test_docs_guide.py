"""The designer's guide runs as written, and the docs index lists every document."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
GUIDE = DOCS / "getting-started.md"
INDEX = DOCS / "README.md"
# The guide plays hundreds of games on 2 workers; the test plays a handful of each in one
# process, which checks the commands, not the figures.
TEST_GAMES = 4
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
LINK = re.compile(r"\]\(([^)#]+)(?:#[^)]*)?\)")


def _blocks(text: str, language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(text) if lang == language]


def guide_commands(text: str) -> list[str]:
    """Every command of the guide in order: the lines of its bash blocks (but the install
    line) and the ``riven ...`` commands quoted inline."""
    commands: list[tuple[int, str]] = []
    for match in FENCE.finditer(text):
        if match.group(1) != "bash":
            continue
        for k, line in enumerate(match.group(2).splitlines()):
            if line.strip() and not line.startswith("python3 -m pip install"):
                commands.append((match.start(2) + k, line.strip()))
    prose = FENCE.sub(lambda m: " " * len(m.group(0)), text)
    for match in re.finditer(r"`(riven [^`]+)`", prose):
        commands.append((match.start(), match.group(1)))
    return [command for _, command in sorted(commands)]


def test_the_index_lists_every_document_with_one_line():
    index = INDEX.read_text(encoding="utf-8")
    rows = [line for line in index.splitlines() if line.startswith("| [")]
    listed = [LINK.search(row).group(1) for row in rows]
    documents = sorted(p.name for p in DOCS.glob("*.md") if p.name != INDEX.name)
    assert sorted(listed) == documents
    assert len(listed) == len(set(listed))
    for row in rows:
        assert len(row.split("|")[2].strip()) > 20, row  # a real one-line description


def test_readme_links_the_guide_and_the_index():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "](docs/getting-started.md)" in readme and "](docs/README.md)" in readme


@pytest.mark.parametrize("page", [GUIDE, INDEX], ids=lambda p: p.name)
def test_links_of_the_guide_and_index_resolve(page):
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if "://" not in target:
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_the_guide_covers_each_step():
    text = GUIDE.read_text(encoding="utf-8")
    commands = guide_commands(text)
    for verb in ("scenarios validate", "play ", "playtest ", "report ", "compare "):
        assert any(c.startswith(f"riven {verb}") for c in commands), verb
    assert "architecture.md" in text  # contributors are sent to their own document


def _shell(command: str) -> str:
    command = re.sub(r"^riven ", f"{sys.executable} -m riven_env.cli.main ", command)
    command = re.sub(r"--workers \d+", "--workers 1", command)  # no pool to start: faster
    return re.sub(r"--games \d+", f"--games {TEST_GAMES}", command)


@pytest.mark.slow
def test_every_command_of_the_guide_runs(tmp_path):
    text = GUIDE.read_text(encoding="utf-8")
    for block in _blocks(text, "toml"):
        name = block.splitlines()[0].lstrip("# ").strip()
        assert name.endswith(".toml"), "a TOML block of the guide starts with '# FILE.toml'"
        (tmp_path / name).write_text(block, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    commands = guide_commands(text)
    assert len(commands) >= 8
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", _shell(command)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        output = done.stdout + done.stderr
        if "# fails" in command:
            assert done.returncode != 0, command
            assert "Traceback" not in output and "archr" in output, output
        else:
            assert done.returncode == 0, f"{command}\n{output}"
    assert (
        "ford-crossing.toml: valid"
        in subprocess.run(
            ["bash", "-c", _shell("riven scenarios validate ford-crossing.toml")],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    )
    for written in ("game.html", "game.jsonl", "ford-report.html", "latest.html", "ford.duckdb"):
        assert (tmp_path / written).exists(), written
