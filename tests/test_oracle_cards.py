"""Oracle cards (Markdown and HTML) and the ``riven oracle print`` command."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
import typer
from riven_agents.oracle import OracleDataError, load_profiles
from riven_agents.oracle.cards import build_card, render, render_html, render_markdown
from typer.testing import CliRunner

from riven_env.cli.oracle import register
from riven_env.rules import load_rules

PROFILES = list(load_profiles().profiles)


class _TagChecker(HTMLParser):
    """Collects tags and fails on unbalanced sections, lists and tables."""

    VOID = {"meta", "br", "img", "link", "hr", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(values["id"])
        if tag in ("script", "link", "img") and (values.get("src") or values.get("href")):
            self.external.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()


@pytest.mark.parametrize("profile", PROFILES)
def test_markdown_card_has_every_part_of_the_profile(profile: str) -> None:
    data = load_profiles()
    p = data.profiles[profile]
    text = render_markdown([profile])
    assert f"## {p.title} (`{profile}`)" in text
    for k, rule in enumerate(p.priorities, 1):
        assert f"{k}. " in text and f"*({rule.id})*" in text
    for face in range(1, 7):
        assert f"| {face} | " in text
    assert "Activation order" in text and "Activation dice" in text and "Spending" in text
    assert "{" not in text and "}" not in text  # no unfilled template


@pytest.mark.parametrize("profile", PROFILES)
def test_html_card_is_self_contained_and_balanced(profile: str) -> None:
    page = render_html([profile])
    checker = _TagChecker()
    checker.feed(page)
    assert checker.stack == ["html"] or checker.stack == []
    assert f"oracle-{profile}" in checker.ids
    assert checker.external == []
    assert "@media print" in page and "<style>" in page


def test_all_cards_by_default_and_words_match_the_data() -> None:
    text = render("md")
    for profile in PROFILES:
        assert f"(`{profile}`)" in text
    card = build_card(load_profiles().profiles["aggressive"])
    assert card.priorities[0] == (
        "fight_engaged",
        "If it is in base contact with an enemy: Fight the engaged enemy with the fewest "
        "wounds left (then the nearest).",
    )


def test_dice_table_follows_the_rules_in_play() -> None:
    # The "safe" policy of a cautious model: under RAW three dice pass the turn least often
    # up to Mettle 4+, one die beyond; under the Song of Blades variant (two failures pass)
    # two dice are safest. The card is computed from the exact odds, not written down.
    profile = load_profiles().profiles["cautious"]
    raw = {m: dice[-1] for m, dice in build_card(profile).dice_by_mettle}
    sbh_rules = load_rules(overrides={"turnover": "sbh"})
    sbh = {m: dice[-1] for m, dice in build_card(profile, sbh_rules).dice_by_mettle}
    assert raw == {2: 3, 3: 3, 4: 3, 5: 1, 6: 1}
    assert set(sbh.values()) == {2}


def test_unknown_profile_and_format_are_refused() -> None:
    with pytest.raises(OracleDataError, match="unknown Oracle profile.*allowed: aggressive"):
        render_markdown(["nobody"])
    with pytest.raises(OracleDataError, match="unknown card format 'pdf'; allowed: md, html"):
        render("pdf")


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test app."""

    register(app)
    return app


def test_cli_prints_markdown_and_writes_html(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(_app(), ["oracle", "print", "--profile", "beast"])
    assert result.exit_code == 0, result.output
    assert "## Beast (`beast`)" in result.output and "## Rampage" not in result.output
    out = tmp_path / "cards" / "oracle.html"
    result = runner.invoke(_app(), ["oracle", "print", "--format", "html", "-o", str(out)])
    assert result.exit_code == 2 and "does not exist" in result.output  # never made
    out.parent.mkdir()
    result = runner.invoke(_app(), ["oracle", "print", "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and all(f"oracle-{p}" in page for p in PROFILES)


def test_cli_reports_bad_input_in_one_line() -> None:
    runner = CliRunner()
    result = runner.invoke(_app(), ["oracle", "print", "--profile", "nobody"])
    assert result.exit_code == 2
    assert "unknown Oracle profile(s) nobody" in result.output
    result = runner.invoke(_app(), ["oracle", "print", "--format", "pdf"])
    assert result.exit_code == 2
