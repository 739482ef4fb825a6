"""Tune a mission to its declared balance and check it (``riven balance``, docs/balance.md).

* :mod:`.mirror`: the Oracle mirror with seat swap, the measurement;
* :mod:`.objective`: settings, the distance to the target, met / clearly off;
* :mod:`.knobs`: knob values applied to the mission file (comments kept);
* :mod:`.search`: the Optuna search with common random numbers and sequential stopping;
* :mod:`.check`: ``--check``;
* :mod:`.report`: the HTML report of a search.
"""
