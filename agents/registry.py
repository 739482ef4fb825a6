"""Make agents from the names used on the command line and in configs.

Names: ``oracle`` (each model's scenario Oracle profile), ``oracle:PROFILE`` (one profile
for the whole side), ``native-oracle[:PROFILE]`` (the same Oracle decided in the native core),
``random``, ``greedy``, ``mcts`` or ``mcts:N`` (N simulations per
decision), ``expert`` or ``expert:BUDGET`` (closed-loop activation search with Oracle
rollouts, BUDGET simulations per searched decision), ``recipe:KEY=VALUE,...`` (a scripted agent
following an exploit recipe of ``riven stress-oracle``: :mod:`riven_agents.recipe`), ``ppo:PATH`` (a trained MaskablePPO policy: safetensors weights and a JSON sidecar,
which cannot run code), ``ppo+pickle:PATH`` (a pickle-based stable-baselines3 ``.zip``: loading
it can run arbitrary code, so it takes this explicit spec and prints a warning).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path

from riven_agents.base import Agent

from riven_env.errors import AgentSpecError, RivenError, did_you_mean

#: File endings of saved policies, listed when ``ppo:`` is given a directory.
MODEL_SUFFIXES: frozenset[str] = frozenset({".zip", ".safetensors"})

# kind -> (module, class name, what the argument after ":" is)
AGENT_KINDS: dict[str, tuple[str, str, str]] = {
    "random": ("riven_agents.random_agent", "RandomAgent", ""),
    "oracle": ("riven_agents.oracle", "OracleAgent", "profile"),
    "native-oracle": ("riven_agents.oracle.native", "NativeOracleAgent", "profile"),
    "greedy": ("riven_agents.greedy", "GreedyAgent", ""),
    "mcts": ("riven_agents.mcts", "MCTSAgent", "simulations"),
    "recipe": ("riven_agents.recipe", "RecipeAgent", "params"),
    "expert": ("riven_agents.expert", "ExpertAgent", "budget"),
    "ppo": ("riven_agents.ppo", "PPOAgent", "path"),
    "ppo+pickle": ("riven_agents.ppo", "PPOAgent", "path"),
}
# kind -> (spec form, one line on what it is), as `riven agents` lists them (docs/agents.md).
AGENT_DESCRIPTIONS: dict[str, tuple[str, str]] = {
    "random": ("random", "uniform random legal decisions (the floor every agent must clear)"),
    "oracle": (
        "oracle[:PROFILE]",
        "the scripted Enemy Oracle: each model's scenario profile, or PROFILE for the side",
    ),
    "native-oracle": (
        "native-oracle[:PROFILE]",
        "the Enemy Oracle decided in the native core: the same choices and explanations",
    ),
    "greedy": ("greedy", "one-step lookahead on the heuristic evaluation, dice sampled"),
    "mcts": ("mcts[:N]", "open-loop MCTS, N simulations per decision with random rollouts"),
    "expert": (
        "expert[:BUDGET]",
        "closed-loop search over whole activations with Oracle rollouts, BUDGET simulations "
        "per searched decision (tuning: agents/data/expert.toml)",
    ),
    "recipe": (
        "recipe[:KEY=VALUE,...]",
        "a scripted agent following an exploit recipe of `riven stress-oracle` "
        "(docs/stress-oracle.md)",
    ),
    "ppo": ("ppo:PATH", "a trained MaskablePPO policy (safetensors weights + JSON sidecar)"),
    "ppo+pickle": ("ppo+pickle:PATH", "an old pickle-based stable-baselines3 .zip (trusted only)"),
}
# Kinds whose agents are trained policies loaded from a file.
POLICY_KINDS = ("ppo", "ppo+pickle")
ALLOWED_TEXT = (
    "oracle, oracle:PROFILE, native-oracle[:PROFILE], random, greedy, mcts[:N], expert[:BUDGET], recipe[:KEY=VALUE,...], "
    "ppo:PATH, ppo+pickle:PATH"
)


def parse_agent_spec(spec: str) -> tuple[str, str | None]:
    """Split ``"mcts:200"`` into ``("mcts", "200")``; refuse unknown kinds."""
    kind, _, arg = spec.strip().partition(":")
    if kind not in AGENT_KINDS:
        raise AgentSpecError(
            f"unknown agent {spec!r}{did_you_mean(kind, AGENT_KINDS)} (allowed: {ALLOWED_TEXT})"
        )
    return kind, (arg or None)


def make_agent(spec: str, side: str, seed: int | Sequence[int] | None = None) -> Agent:
    """Build the agent named by ``spec`` to play ``side``.

    Raises:
        AgentSpecError: The name is unknown or its argument is invalid.
    """
    kind, arg = parse_agent_spec(spec)
    module_name, class_name, arg_name = AGENT_KINDS[kind]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("riven_agents"):
            raise AgentSpecError(f"agent {spec!r} is not available in this build") from exc
        raise
    cls = getattr(module, class_name)
    if arg is not None and not arg_name:
        raise AgentSpecError(f"agent {kind!r} takes no argument (got {spec!r})")
    if kind in POLICY_KINDS and arg is not None:
        check_model_path(arg, spec)
    kwargs: dict[str, object] = {arg_name: arg} if arg is not None else {}
    if kind == "ppo+pickle":
        kwargs["trust_pickle"] = True
    agent = cls(spec, side, seed, **kwargs)
    if kind in POLICY_KINDS:
        _load_model(agent, spec)
    return agent


def check_model_path(path: str, spec: str) -> None:
    """Refuse a ``ppo:PATH`` that cannot be a policy, before any loader touches it.

    A training output folder stands for its final policy; a path without its suffix is
    resolved by the loader (:func:`riven_agents.ppo.resolve_policy_file`).

    Raises:
        AgentSpecError: The path is a directory without a final policy (the message lists
            the model files in it), is not a regular file, or is empty.
    """
    from riven_agents.ppo import FINAL_NAME

    file = Path(path)
    if file.is_dir():
        if (file / FINAL_NAME).is_file():
            return
        found = sorted(
            str(p) for p in file.iterdir() if p.suffix in MODEL_SUFFIXES and p.is_file()
        )[:5]
        hint = f"; model files in it: {', '.join(found)}" if found else "; it holds no model file"
        raise AgentSpecError(
            f"agent {spec!r}: {path} is a directory without {FINAL_NAME}, not a model file "
            f"(give the file training wrote, as in ppo:runs/duel/{FINAL_NAME}){hint}"
        )
    if file.exists() and not file.is_file():
        raise AgentSpecError(f"agent {spec!r}: {path} is not a regular file")
    if file.is_file() and file.stat().st_size == 0:
        raise AgentSpecError(f"agent {spec!r}: model file {file} is empty")


def _load_model(agent: Agent, spec: str) -> None:
    """Load a policy's model now, so that a damaged file is one clean error at the spec.

    The loader may raise anything on a malformed file (a bad zip, a missing member, a
    truncated tensor); every such error becomes an :class:`AgentSpecError` naming the file.
    """
    try:
        getattr(agent, "model", None)
    except RivenError:
        raise
    except Exception as exc:  # the loader's own failures on a damaged file
        path = getattr(agent, "path", None) or spec.partition(":")[2]
        first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise AgentSpecError(
            f"agent {spec!r}: cannot load model file {path}: {type(exc).__name__}: {first_line}"
        ) from exc
