"""Data of the Enemy Oracle (``profiles.toml``); a package so that setuptools ships it."""
