"""Bundled environment settings (``env.toml``)."""
