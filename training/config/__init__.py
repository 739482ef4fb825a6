"""Bundled training configuration files (``default.toml``); read by :mod:`training.hyperparams`."""
