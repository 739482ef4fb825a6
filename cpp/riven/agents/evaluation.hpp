// The heuristic leaf value of the search agents (agents/evaluation.py weighted_total and its
// features) on the native loop's state, so that the expert's leaves cost no Python state.
//
// Every feature is computed with the float operations of its Python twin, in the same order,
// and the weighted differences are summed in the order Python's dict of features lists them
// (wounds, models, on_table, points, momentum, tempo, objectives, proximity, holding, threat),
// so the total is the Python one bit for bit (tests/test_native_evaluation.py). The exact shot
// odds (riven_env.rules.odds.shoot_odds) are not in the core: Python hands over the chance that
// a shot wounds per profile and cover once per game (EvaluationGame).
#pragma once

#include <string>
#include <vector>

#include "riven/game/forward_model.hpp"
#include "riven/game/state.hpp"

namespace riven::agents {

/// agents/evaluation.py EvaluationWeights (scale is applied by the caller, as there).
struct EvaluationWeights {
  double wounds = 1.0;
  double models = 1.0;
  double on_table = 0.4;
  double points = 0.25;
  double objectives = 0.2;
  double holding = 0.0;
  double proximity = 0.1;
  double momentum = 0.03;
  double tempo = 0.02;
  double threat = 0.0;
};

/// What the evaluation needs of one game that the core's state does not hold.
struct EvaluationGame {
  /// math.hypot(table width, table height), as Python computes it.
  double diagonal = 0.0;
  /// The cover names of shooting.cover_tn (the covers shot_targets answers with).
  std::vector<std::string> covers;
  /// 1 - shoot_odds(agility, cover, 0)["miss"] as a float: by profile index (GameStatic::profiles)
  /// times covers.size() plus the cover's index.
  std::vector<double> wound_chance;

  /// Throws std::invalid_argument when the table does not fit the game's profiles and covers.
  void validate(const game::GameStatic& statics) const;
};

/// The features of one side (agents/evaluation.py _side_features); holding and threat are
/// computed only when their weight is not 0 (0 otherwise).
struct SideFeatures {
  double wounds = 0.0;
  double models = 0.0;
  double on_table = 0.0;
  double points = 0.0;
  double momentum = 0.0;
  double tempo = 0.0;
  double objectives = 0.0;
  double proximity = 0.0;
  double holding = 0.0;
  double threat = 0.0;
};

/// agents/evaluation.py threat: the wounds side's active shooters would expect to deal, each at
/// its best target now, as a share of the enemy's starting wounds.
double threat(const game::ForwardModel& fm, const game::GameState& state, int side, const EvaluationGame& game);

/// agents/evaluation.py _holding: the points the hold objectives `side` controls now would score
/// if held to the round limit.
double holding(const game::ForwardModel& fm, const game::GameState& state, int side);

SideFeatures side_features(const game::ForwardModel& fm, const game::GameState& state, int side,
                           const EvaluationWeights& weights, const EvaluationGame& game);

/// agents/evaluation.py weighted_total: the weighted sum of the feature differences (side's
/// minus the enemy's), before any squashing.
double weighted_total(const game::ForwardModel& fm, const game::GameState& state, int side,
                      const EvaluationWeights& weights, const EvaluationGame& game);

}  // namespace riven::agents
