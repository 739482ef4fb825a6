"""The expert search agent: legality, budget, determinism, its settings file and strength."""

from __future__ import annotations

from pathlib import Path

import pytest
from riven_agents.expert import ExpertAgent, parse_budget, signature
from riven_agents.expert_settings import ExpertDataError, load_settings
from riven_agents.random_agent import RandomAgent
from riven_agents.registry import make_agent

from riven_env.engines import new_game, play_game
from riven_env.errors import AgentSpecError
from riven_env.files import read_toml
from riven_env.game.runner import play

MIRROR = "skirmish-5v5-mirror"
# The mirror as it was when docs/agents.md's strength table was measured (red's half turned,
# not reflected): the strength claim below is pinned to the table it was measured on.
MEASURED_MIRROR = str(Path(__file__).parent / "data" / "skirmish-5v5-mirror-turned.toml")


def _winner(events: list[dict]) -> str | None:
    return next(e for e in events if e["type"] == "game_end")["winner"]


def _decisions(events: list[dict], side: str) -> list[str]:
    return [e["decision"] for e in events if e["type"] == "decision" and e["side"] == side]


def test_spec_and_budget() -> None:
    default = load_settings().simulations
    assert parse_budget(None, default) == default
    assert make_agent("expert", "blue", 0).budget == default
    assert make_agent("expert:5", "red", 0).budget == 5
    for bad in ("0", "-1", "many", "2.5", ""):
        with pytest.raises(AgentSpecError, match="whole number >= 1"):
            parse_budget(bad, default)
    with pytest.raises(AgentSpecError, match="whole number"):
        make_agent("expert:lots", "blue", 0)


def test_plays_legal_decisions_within_its_budget() -> None:
    # The runner refuses any illegal decision; the budget caps simulations per search.
    state = new_game(MIRROR, 4)
    expert = ExpertAgent("expert:3", "blue", 1, budget=3)
    events = play(state, {"blue": expert, "red": RandomAgent("random", "red", 2)}, max_decisions=40)
    assert _decisions(events, "blue")
    stats = expert.stats
    assert stats.searched >= 1
    assert stats.simulations == 3 * stats.searched
    assert stats.decisions == len(_decisions(events, "blue"))
    assert "decisions/s" in stats.summary()


def test_the_runner_reports_each_sides_cost_per_decision() -> None:
    costs: dict[str, dict] = {}
    play_game(MIRROR, "expert:2", "random", 5, max_decisions=20, costs=costs)
    assert set(costs) == {"blue", "red"}
    assert costs["blue"]["decisions"] > 0 and costs["blue"]["cpu_seconds"] > 0
    assert "simulations each" in costs["blue"]["search"] and "search" not in costs["red"]


def test_deterministic_for_a_seed_and_never_touches_the_state() -> None:
    def run(seed: int) -> list[str]:
        state = new_game(MIRROR, 6)
        agents = {"blue": ExpertAgent("expert:3", "blue", seed, budget=3)}
        agents["red"] = ExpertAgent("expert:3", "red", seed + 1, budget=3)
        return _decisions(play(state, agents, max_decisions=30), "blue")

    assert run(7) == run(7)
    state = new_game(MIRROR, 2)
    before = (state.seq, state.rng.bit_generator.state, signature(state))
    ExpertAgent("expert:4", state.current_side, 0, budget=4).act(state, state.legal_decisions())
    assert before == (state.seq, state.rng.bit_generator.state, signature(state))


def test_dice_and_spends_are_rules_not_search() -> None:
    # An activate root offers one dice count per model: the search chooses models only.
    state = new_game(MIRROR, 3)
    expert = ExpertAgent("expert:2", state.current_side, 0, budget=2)
    legal = state.legal_decisions()
    chosen = expert._activation_choices(state, legal)
    models = [d.model for d in chosen if d.kind == "activate"]
    assert len(models) == len(set(models)) == len({d.model for d in legal if d.kind == "activate"})
    # A spend is made by the rule: no simulation is spent on it.
    while state.phase != "spend":
        state.apply(expert._rule.act(state, state.legal_decisions()))
    before = expert.stats.simulations
    decision = expert.act(state, state.legal_decisions())
    assert decision in state.legal_decisions() and expert.stats.simulations == before


def test_settings_file_is_checked_key_by_key(tmp_path: Path) -> None:
    from riven_agents.expert_settings import DATA_FILE, parse_settings

    doc = read_toml(DATA_FILE)
    doc["search"]["simulations"] = 0
    with pytest.raises(ExpertDataError, match=r"search\.simulations = 0: must be >= 1"):
        parse_settings(doc, "x.toml")
    doc = read_toml(DATA_FILE)
    doc["rollout"]["enemy_profile"] = "berserk"
    with pytest.raises(ExpertDataError, match=r"rollout\.enemy_profile = 'berserk': allowed"):
        parse_settings(doc, "x.toml")
    doc = read_toml(DATA_FILE)
    doc["evaluation"]["luck"] = 1.0
    with pytest.raises(ExpertDataError, match=r"evaluation\.luck is not a weight"):
        parse_settings(doc, "x.toml")
    doc = read_toml(DATA_FILE)
    doc["search"]["reuse_tree"] = "yes"
    with pytest.raises(
        ExpertDataError, match=r"search\.reuse_tree = 'yes': expected true or false"
    ):
        parse_settings(doc, "x.toml")
    doc = read_toml(DATA_FILE)
    doc["rollout"]["enemy_mixture"] = ["tactical", "scenario"]
    with pytest.raises(ExpertDataError, match=r"rollout\.enemy_mixture must name Oracle profiles"):
        parse_settings(doc, "x.toml")
    doc = read_toml(DATA_FILE)
    doc["rollout"]["enemy_mixture"] = []
    with pytest.raises(ExpertDataError, match=r"rollout\.enemy_mixture = \[\]: expected"):
        parse_settings(doc, "x.toml")
    doc = read_toml(DATA_FILE)
    doc["value"]["baseline"] = "leaf"
    with pytest.raises(ExpertDataError, match=r"value\.baseline = 'leaf': allowed none, root"):
        parse_settings(doc, "x.toml")
    doc = read_toml(DATA_FILE)
    doc["value"]["normalise"] = 1
    with pytest.raises(ExpertDataError, match=r"value\.normalise = 1: expected true or false"):
        parse_settings(doc, "x.toml")
    doc = read_toml(DATA_FILE)
    del doc["prior"]
    with pytest.raises(ExpertDataError, match=r"\[prior\] is missing"):
        parse_settings(doc, "x.toml")


def test_a_root_baseline_keeps_the_values_apart_when_far_behind() -> None:
    # Far behind on points, tanh(scale * total) of every leaf lies near -1 and the root
    # decisions look alike; valued against the root's own total (value.baseline = "root")
    # the same search sees what each decision changes.
    from dataclasses import replace

    def root_means(baseline: str) -> list[float]:
        state = new_game(MIRROR, 5)
        state.points[state.enemy_side(state.current_side)] = 14
        settings = replace(load_settings(), value_baseline=baseline)
        expert = ExpertAgent("expert:16", state.current_side, 3, budget=16, settings=settings)
        expert.act(state, state.legal_decisions())
        assert expert.last_root is not None
        return [e.mean() for e in expert.last_root.edges.values() if e.visits]

    flat, relative = root_means("none"), root_means("root")
    assert max(flat) < -0.95, flat
    assert max(relative) - min(relative) > 10 * (max(flat) - min(flat)), (flat, relative)
    assert all(-1.0 < v < 1.0 for v in relative)


def test_the_tree_is_kept_between_the_decisions_of_an_activation() -> None:
    # With search.reuse_tree the next decision of an activation starts from the subtree the
    # dice led to, so simulations of the earlier search count again; without it none do.
    from dataclasses import replace

    def reused(keep: bool) -> int:
        settings = replace(load_settings(), reuse_tree=keep)
        state = new_game(MIRROR, 4)
        expert = ExpertAgent("expert:12", "blue", 1, budget=12, settings=settings)
        play(state, {"blue": expert, "red": RandomAgent("random", "red", 2)}, max_decisions=60)
        assert expert.stats.simulations == 12 * expert.stats.searched
        return expert.stats.reused

    assert reused(True) > 0
    assert reused(False) == 0


def test_a_mixture_of_enemy_profiles_is_drawn_per_simulation() -> None:
    from dataclasses import replace

    settings = replace(
        load_settings(), enemy_profile="mixture", enemy_mixture=("defensive", "beast")
    )
    state = new_game(MIRROR, 3)
    expert = ExpertAgent("expert:6", state.current_side, 0, budget=6, settings=settings)
    decision = expert.act(state, state.legal_decisions())
    assert decision in state.legal_decisions()
    assert expert._rollout[expert._enemy].forced in ("defensive", "beast")


def test_beats_random_in_a_small_match() -> None:
    results = [_winner(play_game(MIRROR, "expert:2", "random", seed)) for seed in (1, 2)]
    results += [_winner(play_game(MIRROR, "random", "expert:2", seed)) for seed in (3, 4)]
    assert results == ["blue", "blue", "red", "red"], results


@pytest.mark.slow
def test_beats_the_tactical_oracle_more_often_than_not() -> None:
    seeds = range(4)
    results = [_winner(play_game(MEASURED_MIRROR, "expert:8", "oracle:tactical", s)) for s in seeds]
    results += [
        _winner(play_game(MEASURED_MIRROR, "oracle:tactical", "expert:8", s)) for s in seeds
    ]
    wins = results[:4].count("blue") + results[4:].count("red")
    assert wins >= 5, results


# ---------------------------------------------------------------- the native engine
def _native_available() -> bool:
    from riven_env.native import available

    return available()


native_only = pytest.mark.skipif(not _native_available(), reason="native core not built")


def _log(events: list[dict]) -> list[str]:
    from riven_env.game.events import dumps_event

    return [dumps_event(e) for e in events]


@native_only
@pytest.mark.parametrize("seed", [1, 2])
def test_the_same_games_on_both_engines(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # On the native engine the rollouts are played in the core (rollout_in_core), the leaves
    # valued in the core and the information sets keyed there: the same search, the same game.
    from riven_env.native import play as native_play

    in_core = []
    original = native_play.rollout_in_core

    def counted(*args: object, **kwargs: object) -> object:
        found = original(*args, **kwargs)
        in_core.append(found is not None)
        return found

    monkeypatch.setattr(native_play, "rollout_in_core", counted)
    for blue, red in (("expert:4", "oracle:defensive"), ("oracle:defensive", "expert:4")):
        python = _log(play_game(MIRROR, blue, red, seed, engine="python"))
        assert not in_core
        native = _log(play_game(MIRROR, blue, red, seed, engine="native"))
        assert native == python, (blue, red, seed)
        assert in_core and all(in_core), "a rollout was not played in the core"
        in_core.clear()


@native_only
def test_every_rollout_profile_setting_is_honoured_in_the_core() -> None:
    # The scenario's own profiles for both sides, then a mixture drawn per simulation (the
    # enemy seat's forced profile changes between rollouts): the same decisions on both engines.
    from dataclasses import replace

    from riven_env.game.runner import agent_seeds

    for changes in (
        {"self_profile": "scenario", "enemy_profile": "scenario"},
        {"enemy_profile": "mixture", "enemy_mixture": ("defensive", "beast", "rampage")},
    ):
        settings = replace(load_settings(), **changes)
        logs = []
        for engine in ("python", "native"):
            state = new_game(MIRROR, 8, engine=engine)
            seeds = agent_seeds(8)
            agents = {
                "blue": ExpertAgent("expert:4", "blue", seeds["blue"], budget=4, settings=settings),
                "red": make_agent("oracle:tactical", "red", seeds["red"]),
            }
            logs.append(_log(state.drain_events() + play(state, agents, max_decisions=120)))
        assert logs[0] == logs[1], changes
