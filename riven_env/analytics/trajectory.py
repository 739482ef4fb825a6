"""Score and model-count trajectories of a game, read from its event log: defined in
:mod:`riven_env.playtest.trajectory` (the playtest workers record one with every game) and
re-exported here for the analytics (:mod:`riven_env.analytics.metrics`).
"""

from riven_env.playtest.trajectory import (
    CHECKPOINT_EVENTS,
    SIDES,
    Checkpoint,
    checkpoints,
    trajectory_from_events,
)

__all__ = ["CHECKPOINT_EVENTS", "SIDES", "Checkpoint", "checkpoints", "trajectory_from_events"]
