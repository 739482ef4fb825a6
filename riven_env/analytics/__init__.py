"""Designer analytics over stored playtests.

Game metrics with intervals (:mod:`.metrics`), seat-swapped runs (:mod:`.seats`), skill
traces (:mod:`.skill`), the roster meta-game (:mod:`.meta`) and the Oracle audit
(:mod:`.oracle_audit`). Everything is computed from what the playtest layer already stores
(game summaries) plus one extra table of score and model-count trajectories
(:mod:`.trajectory`); the tables are documented in ``docs/metrics.md``. The Oracle stress
test (:mod:`.stress`, with its exploit recipes in :mod:`.recipes`) plays its own games and
reads their event logs (``docs/stress-oracle.md``).
"""
