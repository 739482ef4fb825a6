"""Bundled playtest execution settings (``playtest.toml``)."""
