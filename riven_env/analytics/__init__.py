"""Designer analytics over stored playtests.

Game metrics with intervals (:mod:`.metrics`), seat-swapped runs (:mod:`.seats`), skill
traces (:mod:`.skill`), the roster meta-game (:mod:`.meta`) and the Oracle audit
(:mod:`.oracle_audit`). Everything is computed from what the playtest layer already stores
(game summaries) plus one extra table of score and model-count trajectories
(:mod:`.trajectory`); the tables are documented in ``docs/metrics.md``.
"""
