"""Training and evaluating MaskablePPO policies for RIVEN (``riven train``, ``riven eval``).

* :mod:`training.hyperparams`: hyperparameters (``training/config/default.toml``);
* :mod:`training.train`: MaskablePPO with parallel envs, checkpoints, periodic evaluation,
  resuming;
* :mod:`training.selfplay`: the pool of earlier snapshots a self-playing learner faces;
* :mod:`training.evaluate`: matches between agents with win/draw/loss confidence intervals.

See ``docs/training.md``. Needs the ``rl`` extra (stable-baselines3, sb3-contrib, torch).
"""
