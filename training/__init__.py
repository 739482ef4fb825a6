"""Training and evaluating MaskablePPO policies for RIVEN (``riven train``, ``riven eval``).

* :mod:`riven_training.hyperparams`: hyperparameters (``training/config/default.toml``);
* :mod:`riven_training.train`: MaskablePPO with parallel envs, checkpoints, periodic evaluation,
  resuming;
* :mod:`riven_training.selfplay`: the pool of earlier snapshots a self-playing learner faces;
* :mod:`riven_training.evaluate`: matches between agents with win/draw/loss confidence intervals.

See ``docs/training.md``. Needs the ``rl`` extra (stable-baselines3, sb3-contrib, torch).
"""
