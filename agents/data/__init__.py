"""Data files of the search agents (``expert.toml``: the expert agent's tuning)."""
