// Binds riven::agents: the search agents' leaf evaluation (agents/evaluation.py's weighted_total)
// and information-set key (agents/expert.py signature) on the native loop's state. Conversion only; the features live in cpp/riven/agents.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <vector>

#include "bindings.hpp"
#include "riven/agents/evaluation.hpp"
#include "riven/agents/mcts.hpp"
#include "riven/agents/signature.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/native_planner.hpp"
#include "riven/game/state.hpp"
#include "riven/rules/pcg64.hpp"

namespace nb = nanobind;

namespace riven::bindings {

void bind_agents(nb::module_& module) {
  using agents::EvaluationGame;
  using agents::EvaluationWeights;
  nb::class_<EvaluationWeights>(module, "EvaluationWeights",
                                "agents/evaluation.py EvaluationWeights without scale (applied by the caller).")
      .def(nb::init<>())
      .def_rw("wounds", &EvaluationWeights::wounds)
      .def_rw("models", &EvaluationWeights::models)
      .def_rw("on_table", &EvaluationWeights::on_table)
      .def_rw("points", &EvaluationWeights::points)
      .def_rw("objectives", &EvaluationWeights::objectives)
      .def_rw("holding", &EvaluationWeights::holding)
      .def_rw("proximity", &EvaluationWeights::proximity)
      .def_rw("momentum", &EvaluationWeights::momentum)
      .def_rw("tempo", &EvaluationWeights::tempo)
      .def_rw("threat", &EvaluationWeights::threat);
  nb::class_<EvaluationGame>(module, "EvaluationGame",
                             "What the evaluation needs of one game beyond the state: the table's diagonal and "
                             "the wound chance of a shot by profile and cover.")
      .def(nb::init<>())
      .def_rw("diagonal", &EvaluationGame::diagonal)
      .def_rw("covers", &EvaluationGame::covers)
      .def_rw("wound_chance", &EvaluationGame::wound_chance)
      .def("validate", &EvaluationGame::validate, nb::arg("statics"));
  module.def(
      "evaluation_total",
      [](const game::ForwardModel& fm, const game::GameState& state, int side, const EvaluationWeights& weights,
         const EvaluationGame& g) {
        game::check_same_game(fm, state, "evaluation_total");
        return agents::weighted_total(fm, state, side, weights, g);
      },
      nb::arg("model"), nb::arg("state"), nb::arg("side"),
             nb::arg("weights"), nb::arg("game"),
             "agents/evaluation.py weighted_total on the loop's state (side 0 blue, 1 red).");
  module.def(
      "evaluation_threat",
      [](const game::ForwardModel& fm, const game::GameState& state, int side, const EvaluationGame& g) {
        game::check_same_game(fm, state, "evaluation_threat");
        return agents::threat(fm, state, side, g);
      },
      nb::arg("model"), nb::arg("state"), nb::arg("side"), nb::arg("game"),
      "agents/evaluation.py threat on the loop's state.");
  module.def(
      "mcts_choose",
      [](const game::ForwardModel& fm, const game::GameState& state, const std::vector<game::Decision>& legal,
         rules::Pcg64& rng, std::int64_t simulations, std::int64_t rollout_depth, double exploration, double scale,
         const EvaluationWeights& weights, const EvaluationGame& g) {
        game::check_same_game(fm, state, "mcts_choose");
        const agents::MctsSettings settings{simulations, rollout_depth, exploration, scale};
        // With the core's planner a search calls no Python: the GIL is let go meanwhile.
        if (dynamic_cast<const game::NativePlanner*>(fm.planner.get()) == nullptr) {
          return agents::mcts_choose(fm, state, legal, rng, settings, weights, g);
        }
        nb::gil_scoped_release release;
        return agents::mcts_choose(fm, state, legal, rng, settings, weights, g);
      },
      nb::arg("model"), nb::arg("state"), nb::arg("legal"), nb::arg("rng"), nb::arg("simulations"),
      nb::arg("rollout_depth"), nb::arg("exploration"), nb::arg("scale"), nb::arg("weights"), nb::arg("game"),
      "agents/mcts.py MCTSAgent.act on the loop's state: the index in `legal` (the state's own list) of the "
      "decision chosen; `rng`, the agent's stream, moves on as act's draws move it.");
  module.def(
      "search_signature",
      [](const game::GameState& state) {
        const std::string key = agents::signature(state);
        return nb::bytes(key.data(), key.size());
      },
      nb::arg("state"), "agents/expert.py signature(): the information-set key of the state, as bytes.");
}

}  // namespace riven::bindings
