"""Bundled encoding data (``encoding.toml``)."""
