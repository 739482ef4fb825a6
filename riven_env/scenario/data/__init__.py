"""Data files of the scenario loader (defaults.toml)."""
