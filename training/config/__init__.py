"""Bundled training configuration files (``default.toml``); read by :mod:`riven_training.hyperparams`."""
