"""Make agents from the names used on the command line and in configs.

Names: ``oracle`` (each model's scenario Oracle profile), ``oracle:PROFILE`` (one profile
for the whole side), ``random``, ``greedy``, ``mcts`` or ``mcts:N`` (N simulations per
decision), ``ppo:PATH`` (a trained MaskablePPO policy: safetensors weights and a JSON sidecar,
which cannot run code), ``ppo+pickle:PATH`` (a pickle-based stable-baselines3 ``.zip``: loading
it can run arbitrary code, so it takes this explicit spec and prints a warning).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from agents.base import Agent
from riven_env.errors import AgentSpecError, did_you_mean

# kind -> (module, class name, what the argument after ":" is)
AGENT_KINDS: dict[str, tuple[str, str, str]] = {
    "random": ("agents.random_agent", "RandomAgent", ""),
    "oracle": ("agents.oracle", "OracleAgent", "profile"),
    "greedy": ("agents.greedy", "GreedyAgent", ""),
    "mcts": ("agents.mcts", "MCTSAgent", "simulations"),
    "ppo": ("agents.ppo", "PPOAgent", "path"),
    "ppo+pickle": ("agents.ppo", "PPOAgent", "path"),
}
# Kinds whose agents are trained policies loaded from a file.
POLICY_KINDS = ("ppo", "ppo+pickle")
ALLOWED_TEXT = "oracle, oracle:PROFILE, random, greedy, mcts[:N], ppo:PATH, ppo+pickle:PATH"


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
        if exc.name and exc.name.startswith("agents"):
            raise AgentSpecError(f"agent {spec!r} is not available in this build") from exc
        raise
    cls = getattr(module, class_name)
    if arg is not None and not arg_name:
        raise AgentSpecError(f"agent {kind!r} takes no argument (got {spec!r})")
    kwargs: dict[str, object] = {arg_name: arg} if arg is not None else {}
    if kind == "ppo+pickle":
        kwargs["trust_pickle"] = True
    return cls(spec, side, seed, **kwargs)
