"""`riven stress-oracle`: interval math, the lost-games gate, recipes, the recipe agent, CLI."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from conftest import FixedDice
from game_events import act, activate
from typer.testing import CliRunner

from riven_env.analytics import stress
from riven_env.analytics.recipes import (
    GameFacts,
    bait_excess,
    band_label,
    find_recipes,
    game_facts,
)
from riven_env.cli.main import app
from riven_env.errors import AgentSpecError, DataFileError
from riven_env.game import Decision
from riven_env.playtest.errors import PlaytestError
from riven_env.playtest.stats import paired_proportion_difference, proportion_difference

EDGES = [0, 1, 6, 12, 18, 24]


def _pairs(both: int, first: int, second: int, neither: int) -> tuple[list[int], list[int]]:
    a = [1] * both + [1] * first + [0] * second + [0] * neither
    b = [1] * both + [0] * first + [1] * second + [0] * neither
    return a, b


# -- interval math against published values ----------------------------------------------------


def test_paired_difference_matches_newcombe_square_and_add() -> None:
    # Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency Tables" (2017),
    # chapter 8, Cavo et al. (2012): [[59, 6], [16, 80]] -> -0.0621 (95% CI -0.1186 to -0.0046).
    d = paired_proportion_difference(*_pairs(59, 6, 16, 80))
    assert d.n == 161
    assert d.value == pytest.approx(-10 / 161)
    assert (round(d.low, 4), round(d.high, 4)) == (-0.1186, -0.0046)


def test_independent_difference_matches_newcombe_hybrid_score() -> None:
    # The same book, chapter 4, Perondi et al. (2004): 7/34 vs 1/34 -> 0.1765 (0.0189 to 0.3404).
    d = proportion_difference(7, 34, 1, 34)
    assert (round(d.value, 4), round(d.low, 4), round(d.high, 4)) == (0.1765, 0.0189, 0.3404)
    # Newcombe (1998), independent samples, example (a), method 10: 56/70 vs 48/80.
    d = proportion_difference(56, 70, 48, 80)
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)


def test_paired_difference_when_every_pair_agrees_is_zero_with_a_real_interval() -> None:
    d = paired_proportion_difference([1, 0, 1, 0], [1, 0, 1, 0])
    assert d.value == 0.0 and d.low < 0 < d.high and d.low >= -1 and d.high <= 1
    whole = paired_proportion_difference([1] * 10, [0] * 10)
    assert whole.value == 1.0 and 0 < whole.low < 1 and whole.high == 1.0


def test_paired_difference_refuses_unequal_or_non_binary_arms() -> None:
    with pytest.raises(PlaytestError, match="same seeds"):
        paired_proportion_difference([1, 0], [1])
    with pytest.raises(PlaytestError, match="0 or 1"):
        paired_proportion_difference([0.5], [1])
    empty = paired_proportion_difference([], [])
    assert empty.n == 0 and math.isnan(empty.value) and (empty.low, empty.high) == (-1.0, 1.0)


def test_paired_win_rates_pair_games_by_seed() -> None:
    first = [{"seed": s, "side": "blue", "winner": "blue"} for s in (1, 2, 3)]
    second = [{"seed": s, "side": "blue", "winner": w} for s, w in ((3, "red"), (1, "blue"))]
    d = stress.paired(first, second, 0.95)
    assert d["n"] == 2 and d["value"] == pytest.approx(0.5)


# -- the minimum-count gate of the rules table -------------------------------------------------


def _game(seed: int, oracle_lost: bool, rules: dict[str, int]) -> dict:
    facts = GameFacts(seed=seed, subject="blue", winner="blue" if oracle_lost else "red")
    facts.rules_fired = Counter(rules)
    return {"seed": seed, "side": "blue", "winner": facts.winner, "facts": facts}


def test_rules_need_enough_lost_games() -> None:
    games = [_game(s, s < 3, {"beast/pounce": 1}) for s in range(20)]
    out = stress.rules_in_lost_games(games, min_lost=4, min_other=4, top=5, confidence=0.95)
    assert out["note"] == "not enough lost games (3 < 4)" and out["rows"] == []
    out = stress.rules_in_lost_games(games, min_lost=3, min_other=18, top=5, confidence=0.95)
    assert out["note"] == "not enough not-lost games (17 < 18)"


def test_rules_in_lost_games_carry_the_newcombe_interval() -> None:
    lost = [_game(s, True, {"beast/pounce": 2} if s < 7 else {"beast/stalk": 1}) for s in range(10)]
    won = [_game(s, False, {"beast/pounce": 1} if s < 12 else {"beast/stalk": 1})
           for s in range(10, 20)]  # fmt: skip
    out = stress.rules_in_lost_games(lost + won, min_lost=5, min_other=5, top=5, confidence=0.95)
    assert (out["lost"], out["not_lost"]) == (10, 10) and "note" not in out
    (row,) = [r for r in out["rows"] if r["rule"] == "beast/pounce"]
    expected = proportion_difference(7, 10, 2, 10)
    assert (row["rate_lost"], row["rate_not_lost"]) == (0.7, 0.2)
    assert (row["low"], row["high"]) == pytest.approx((expected.low, expected.high))
    assert row["significant"] == (expected.low > 0)
    assert all(r["difference"] > 0 for r in out["rows"])  # stalk fired more in won games


# -- recipe extraction on a scripted game ------------------------------------------------------


def _script(state, *faces):
    state.rng = FixedDice(faces)


def scripted_log(mini_game):
    """Red's Oracle advances (rule aggressive/advance), then blue shoots it: one loss."""
    state = mini_game(
        [("blue", "trooper", "b1", (5, 5)), ("red", "trooper", "r1", (5, 20))], first_side="red"
    )
    events = list(state.start_events)
    events += activate(state, _script, 1, [4])
    state.emit("oracle_decision", model="r1", profile="aggressive", rule="advance",
               decision="move m1 @toward_enemy:0", explanation="scripted")  # fmt: skip
    events += state.drain_events()
    events += state.apply(Decision("move", model=1, destination=("toward_enemy", 0)))
    events += activate(state, _script, 0, [4])
    state.rng.push(6, 6)  # a Critical: one wound
    events += act(state, Decision("shoot", model=0, target=1))
    return events


def test_game_facts_charge_the_loss_to_the_oracle_rule_before_it(mini_game) -> None:
    events = scripted_log(mini_game)
    facts = game_facts(events, "blue", 7, edges=EDGES, bait_window=1)
    assert facts.seed == 7 and facts.subject == "blue"
    assert facts.baits == ["aggressive/advance"] and facts.loss_rounds == [1]
    assert facts.loss_causes == ["shot"]
    assert facts.oracle_actions == Counter({"aggressive/advance": 1})
    # b1 at (5, 5), r1 moved to (5, 15): 10" centre to centre, bases of 1" -> 9" edge to edge.
    ((action, cover, band, profile, leader, state),) = facts.attacks
    assert (action, cover, band, profile, leader, state) == (
        "shoot", "none", '6-12"', "trooper", False, "fresh"
    )  # fmt: skip
    assert facts.dice == [1] and facts.moves == []
    # A loss long after the Oracle's decision is charged to no rule.
    late = game_facts(events, "blue", 7, edges=EDGES, bait_window=-1)
    assert late.baits == ["none"]


def test_band_labels() -> None:
    assert [band_label(d, EDGES) for d in (0.0, 0.99, 1.0, 11.9, 30)] == [
        '0-1"', '0-1"', '1-6"', '6-12"', '24"+'
    ]  # fmt: skip


def _won(seed: int, baits: list[str], actions: dict[str, int], **extra) -> GameFacts:
    facts = GameFacts(seed=seed, subject="red", winner="red", rounds=6, baits=baits)
    facts.oracle_actions = Counter(actions)
    facts.loss_rounds = extra.get("loss_rounds", [3] * len(baits))
    facts.loss_causes = extra.get("causes", ["melee"] * len(baits))
    facts.moves = extra.get("moves", [("hidden", '12-18"')] * 4)
    facts.attacks = extra.get("attacks", [("melee", "none", '0-1"', "brute", False, "wounded")] * 3)
    facts.dice = [2, 2, 3]
    return facts


SETTINGS = {
    "min_games": 3,
    "max_recipes": 2,
    "min_bait_lift": 1.5,
    "target_share": 0.4,
    "hold_min_inches": 6,
    "cover_margin": 0.1,
}


def test_recipes_group_wins_by_the_rule_they_bait_and_derive_agent_params() -> None:
    actions = {"beast/pounce": 2, "beast/stalk": 8}
    wins = [_won(s, ["beast/pounce", "beast/pounce", "beast/stalk"], actions) for s in range(4)]
    reference = [_won(9, [], {}, moves=[("none", '6-12"')] * 4)]
    excess = bait_excess(wins)
    assert excess == {"beast/pounce": pytest.approx(2 / 3 - 0.2)}  # stalk: lift below 1
    assert bait_excess(wins, min_lift=4.0) == {}  # pounce's lift is (2/3) / 0.2 = 3.3
    recipes, note = find_recipes(wins, reference, SETTINGS, profiles=None)
    assert note is None and len(recipes) == 1
    (recipe,) = recipes
    assert recipe["games"] == 4 and recipe["seeds"] == [0, 1, 2, 3]
    assert recipe["bait"]["rule"] == "beast/pounce"
    assert recipe["bait"]["share_of_losses"] == pytest.approx(2 / 3)
    assert recipe["bait"]["lift"] == pytest.approx((2 / 3) / 0.2)
    assert recipe["stand"]["move_band"] == '12-18"' and recipe["stand"]["moves_in_cover"] == 1.0
    assert recipe["params"] == {
        "hold": 12.0, "until": 3, "cover": True, "target": "wounded", "attack": "melee",
        "finish": False, "dice": 2,
    }  # fmt: skip
    words = recipe["words"]
    assert "Bait `beast/pounce`" in words and '12-18"' in words and "round 3" in words


def test_too_few_wins_give_no_recipe_but_say_so() -> None:
    wins = [_won(s, ["beast/pounce"], {"beast/pounce": 1}) for s in range(2)]
    recipes, note = find_recipes(wins, [], SETTINGS, profiles=None)
    assert recipes == [] and note == "not enough winning games for a recipe (2 < 3)"


# -- the recipe agent ----------------------------------------------------------------------------


def test_recipe_specs_parse_and_round_trip() -> None:
    from riven_agents.recipe import RecipeParams, parse_params
    from riven_agents.registry import make_agent

    params = parse_params("hold=12,until=3,cover=1,target=wounded")
    assert params == RecipeParams(hold=12.0, until=3, cover=True, target="wounded")
    assert parse_params(params.spec().partition(":")[2]) == params
    agent = make_agent(params.spec(), "blue", 1)
    assert agent.params == params
    for bad, named in (("hold=-1", "hold"), ("target=weak", "target"), ("speed=2", "speed")):
        with pytest.raises(AgentSpecError, match=named):
            make_agent(f"recipe:{bad}", "blue", 1)


def test_recipe_agent_holds_back_until_the_oracle_comes_near(mini_game) -> None:
    from riven_agents.recipe import RecipeAgent

    state = mini_game([("blue", "brawler", "b1", (5, 3)), ("red", "brawler", "r1", (5, 21))])
    activate(state, _script, 0, [4])
    legal = state.legal_decisions()
    holding = RecipeAgent("recipe", "blue", 0, params="hold=12,until=4")
    assert holding.holding(state)
    held = holding.act(state, legal)
    assert held.kind != "charge" and (held.destination or ("",))[0] != "toward_enemy"
    eager = RecipeAgent("recipe", "blue", 0, params="attack=melee")
    assert not eager.holding(state)
    assert eager.act(state, legal) == Decision("move", model=0, destination=("toward_enemy", 1))
    state.round = 4  # the hold ends when round `until` starts
    assert not holding.holding(state)


def test_recipe_agent_plays_whole_games_deterministically() -> None:
    from riven_env.engines import play_game

    spec = "recipe:hold=6,until=3,cover=1,target=wounded"
    first = play_game("duel-1v1", spec, "oracle:beast", 5)
    again = play_game("duel-1v1", spec, "oracle:beast", 5)
    assert first == again and first[-1]["type"] == "game_end"


# -- settings ------------------------------------------------------------------------------------


def test_settings_file_is_checked(tmp_path: Path) -> None:
    settings = stress.load_settings()
    assert settings["responder"]["default"] == stress.default_responder()
    text = stress.settings_path().read_text(encoding="utf-8")
    bad = tmp_path / "stress.toml"
    bad.write_text(text.replace("min_lost_games = 8", "min_lost_games = 0"), encoding="utf-8")
    with pytest.raises(DataFileError, match="min_lost_games"):
        stress.load_settings(bad)
    bad.write_text(text.replace("[rules]", "[rules]\nmin_lost = 3"), encoding="utf-8")
    with pytest.raises(DataFileError, match="min_lost is not a key"):
        stress.load_settings(bad)
    bad.write_text(text.replace("[0, 1, 6, 12, 18, 24]", "[1, 6]"), encoding="utf-8")
    with pytest.raises(DataFileError, match="distance_bands"):
        stress.load_settings(bad)


def test_the_default_responder_is_data() -> None:
    from riven_agents.registry import parse_agent_spec

    parse_agent_spec(stress.default_responder())  # a spec the registry accepts


# -- seeded runs and the command line ------------------------------------------------------------


def _small(**kw) -> stress.StressConfig:
    base = {"scenario": "duel-1v1", "oracles": ["oracle:beast"], "responder": "greedy",
            "games": 6, "seed": 3}  # fmt: skip
    return stress.StressConfig(**(base | kw))


def test_a_seeded_run_is_reproducible_and_per_colour() -> None:
    report = stress.run(_small())
    assert report == stress.run(_small())
    (entry,) = report["oracles"]
    assert set(entry["colours"]) == {"blue", "red"}
    for side, colour in entry["colours"].items():
        assert colour["n"] == 3 and colour["oracle_side"] != side
        assert colour["oracle_profile"] == "beast"
        for arm in ("responder", "mirror", "baseline"):
            assert colour[arm]["games"] == 3
        d = colour["vs_mirror"]
        assert d["low"] <= d["value"] <= d["high"] and d["n"] == 3
        assert colour["exploitable"] == (d["low"] > 0)
        for recipe in colour["recipes"]:
            assert (
                recipe["replays"]
                and "riven play --scenario duel-1v1" in (recipe["replays"][0]["command"])
            )
            assert recipe["check"]["agent"].startswith("recipe:")
    json.dumps(report)  # JSON-ready


def test_recipe_games_replay_with_riven_play(tmp_path: Path) -> None:
    import shlex

    settings = stress.load_settings()
    settings["recipes"]["min_games"] = 1  # any win makes a recipe, at this toy size
    report = stress.run(_small(check=False, settings=settings))
    replays = [
        (side, r)
        for side, colour in report["oracles"][0]["colours"].items()
        for recipe in colour["recipes"]
        for r in recipe["replays"]
    ]
    assert replays, "greedy wins some duel-1v1 games against the beast"
    side, replay = replays[0]
    args = shlex.split(replay["command"])[1:]
    args[args.index("--replay") + 1] = str(tmp_path / "game.html")
    result = CliRunner().invoke(app, [*args, "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["winner"] == side  # the responder's win, replayed
    assert (tmp_path / "game.html").exists()


def test_ranking_puts_the_weakest_oracle_first() -> None:
    def colour(responder: float, baseline: float, exploitable: bool) -> dict:
        return {"responder": {"win_rate": responder}, "baseline": {"win_rate": baseline},
                "exploitable": exploitable}  # fmt: skip

    report = {"oracles": [
        {"oracle": "oracle:tactical", "colours": {"blue": colour(0.4, 0, False),
                                                  "red": colour(0.0, 0, False)}},
        {"oracle": "oracle:beast", "colours": {"blue": colour(0.9, 0.1, True),
                                               "red": colour(0.5, 0.25, False)}},
    ]}  # fmt: skip
    ranked = stress.ranking(report)
    assert [r["oracle"] for r in ranked] == ["oracle:beast", "oracle:tactical"]
    assert ranked[0]["mean_responder_win_rate"] == pytest.approx(0.7)
    assert ranked[0]["exploitable"] == ["blue"] and ranked[1]["exploitable"] == []


def test_the_mirror_arm_is_the_oracle_itself() -> None:
    report = stress.run(_small(responder="oracle:beast", check=False, games=4))
    for colour in report["oracles"][0]["colours"].values():
        assert colour["responder"] == colour["mirror"]
        assert colour["vs_mirror"]["value"] == 0 and not colour["exploitable"]


def test_cli_json_table_and_files(tmp_path: Path) -> None:
    out = tmp_path / "stress"
    args = ["stress-oracle", "--scenario", "duel-1v1", "--oracle", "oracle:beast",
            "--responder", "greedy", "--games", "4", "--replays", "1", "--workers", "1",
            "--min-lost-games", "2", "--out", str(out)]  # fmt: skip
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["responder"] == "greedy" and report["min_lost_games"] == 2
    assert report["games_per_colour"] == {"blue": 2, "red": 2}
    assert json.loads((out / "stress.json").read_text())["scenario"] == "duel-1v1"
    assert (out / "stress.md").read_text().startswith("# Oracle stress test on duel-1v1")
    assert all(Path(p).exists() for p in report["replay_files"])
    table = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    assert table.exit_code == 0, table.output
    assert "vs mirror" in table.stdout and "oracle:beast" in table.stdout


def test_cli_oracle_all_names_every_profile() -> None:
    from riven_agents.oracle.profiles import profile_names

    from riven_env.cli.stress import _oracle_specs

    assert _oracle_specs(["all"]) == [f"oracle:{p}" for p in profile_names()]
    assert len(_oracle_specs(["all", "oracle:beast"])) == len(profile_names())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--oracle", "random"], "oracle"),
        (["--responder", "gredy"], "greedy"),
        (["--oracle", "oracle:nosuch"], "nosuch"),
        (["--responder", "greedy", "--timesteps", "10"], "not both"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["stress-oracle", "--out", str(tmp_path / "o"), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_cli_fail_on_exploit_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = stress.run

    def exploited(config, log=lambda _m: None):
        report = real(config, log)
        report["oracles"][0]["colours"]["blue"]["exploitable"] = True
        return report

    monkeypatch.setattr(stress, "run", exploited)
    args = ["stress-oracle", "--scenario", "duel-1v1", "--oracle", "oracle:beast",
            "--responder", "random", "--games", "2", "--no-check", "--replays", "0",
            "--out", str(tmp_path / "o"), "--workers", "1"]  # fmt: skip
    assert CliRunner().invoke(app, args).exit_code == 0
    result = CliRunner().invoke(app, [*args, "--fail-on-exploit"])
    assert result.exit_code == 1 and "exploitable: oracle:beast (blue)" in result.output


@pytest.mark.slow
def test_cli_trains_a_best_response_with_timesteps(tmp_path: Path) -> None:
    out = tmp_path / "stress"
    args = ["stress-oracle", "--scenario", "duel-1v1", "--oracle", "oracle:beast",
            "--timesteps", "256", "--games", "4", "--replays", "0", "--no-check",
            "--workers", "1", "--out", str(out), "--json"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["responder"].startswith("ppo:") and Path(report["responder"][4:]).exists()
