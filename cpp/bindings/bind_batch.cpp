// riven::envs in Python: the batched environment (cpp/riven/envs/batch.hpp), stepped with the GIL
// released and writing into numpy arrays the caller owns (riven_env/envs/vector.py).
//
// The routing seam may still be the Python planner (a callback): the batch's copy of the forward
// model wraps it so that each route call takes the GIL back for its Python code, and releases it
// again, while the rest of the step runs without it.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "riven/oracle/oracle.hpp"
#include "riven/envs/batch.hpp"
#include "riven/game/planner.hpp"
#include "riven/rules/seeding.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using envs::BatchEnv;
using envs::BatchOutputs;

/// A planner that holds the GIL while the planner it wraps (the Python callback) runs.
class GilPlanner final : public game::Planner {
 public:
  explicit GilPlanner(std::shared_ptr<const game::Planner> inner) : inner_(std::move(inner)) {}

  [[nodiscard]] std::optional<game::Destination> plan_destination(const table::BasesView& bases, std::size_t i,
                                                                  double allowance, const std::string& kind,
                                                                  std::int64_t ref,
                                                                  std::span<const table::Point> objectives,
                                                                  std::optional<double> enemy_gap) const override {
    nb::gil_scoped_acquire gil;
    return inner_->plan_destination(bases, i, allowance, kind, ref, objectives, enemy_gap);
  }
  [[nodiscard]] std::optional<game::MovePlan> plan_charge(const table::BasesView& bases, std::size_t i,
                                                          std::size_t target, double reach) const override {
    nb::gil_scoped_acquire gil;
    return inner_->plan_charge(bases, i, target, reach);
  }
  [[nodiscard]] std::vector<std::int64_t> charge_targets(const table::BasesView& bases, std::size_t i, double reach,
                                                         std::span<const std::int64_t> enemies) const override {
    nb::gil_scoped_acquire gil;
    return inner_->charge_targets(bases, i, reach, enemies);
  }
  [[nodiscard]] game::MovePlan plan_push(const table::BasesView& bases, std::size_t i, table::Point away_from,
                                         double distance) const override {
    nb::gil_scoped_acquire gil;
    return inner_->plan_push(bases, i, away_from, distance);
  }
  [[nodiscard]] std::pair<game::MovePlan, bool> plan_flight(const table::BasesView& bases, std::size_t i,
                                                            double distance, bool around) const override {
    nb::gil_scoped_acquire gil;
    return inner_->plan_flight(bases, i, distance, around);
  }

 private:
  std::shared_ptr<const game::Planner> inner_;
};

using Floats2 = nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Bytes2 = nb::ndarray<std::uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Doubles1 = nb::ndarray<double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Bytes1 = nb::ndarray<std::uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Int8s1 = nb::ndarray<std::int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Int64s1 = nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using UInt64s1 = nb::ndarray<const std::uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

template <class A>
auto span_of(A& array) {
  return std::span(array.data(), array.size());
}

BatchOutputs outputs(Floats2& obs, Bytes2& mask, Doubles1& reward, Bytes1& terminated, Bytes1& truncated,
                     Bytes1& illegal, Floats2& final_obs, Int8s1& learner_side, Int8s1& final_winner) {
  return BatchOutputs{span_of(obs),      span_of(mask),      span_of(reward),
                      span_of(terminated), span_of(truncated), span_of(illegal),
                      span_of(final_obs),  span_of(learner_side), span_of(final_winner)};
}

// The arrays a batch steps into, converted and checked once and held (as EnvPool registers its
// buffers): a step then crosses the seam with its actions only, not ten numpy arrays each
// converted again (a single environment pays that at every step). The ndarrays keep their
// numpy arrays alive.
struct BatchBuffers {
  BatchBuffers(Int64s1 actions_, Floats2 obs_, Bytes2 mask_, Doubles1 reward_, Bytes1 terminated_, Bytes1 truncated_,
               Bytes1 illegal_, Floats2 final_obs_, Int8s1 learner_side_, Int8s1 final_winner_)
      : actions(std::move(actions_)),
        obs(std::move(obs_)),
        mask(std::move(mask_)),
        reward(std::move(reward_)),
        terminated(std::move(terminated_)),
        truncated(std::move(truncated_)),
        illegal(std::move(illegal_)),
        final_obs(std::move(final_obs_)),
        learner_side(std::move(learner_side_)),
        final_winner(std::move(final_winner_)),
        out(outputs(obs, mask, reward, terminated, truncated, illegal, final_obs, learner_side, final_winner)) {}

  Int64s1 actions;
  Floats2 obs;
  Bytes2 mask;
  Doubles1 reward;
  Bytes1 terminated;
  Bytes1 truncated;
  Bytes1 illegal;
  Floats2 final_obs;
  Int8s1 learner_side;
  Int8s1 final_winner;
  BatchOutputs out;
};

}  // namespace

void bind_batch(nb::module_& module) {
  nb::class_<BatchBuffers>(module, "BatchBuffers",
                           "A batch's actions and output arrays, converted once (step_into steps with them).")
      .def(nb::init<Int64s1, Floats2, Bytes2, Doubles1, Bytes1, Bytes1, Bytes1, Floats2, Int8s1, Int8s1>(),
           nb::arg("actions"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"), nb::arg("terminated"),
           nb::arg("truncated"), nb::arg("illegal"), nb::arg("final_obs"), nb::arg("learner_side"),
           nb::arg("final_winner"));
  nb::class_<envs::RewardConfig>(module, "RewardConfig", "env.toml's rewards, illegal actions and episode length.")
      .def(nb::init<>())
      .def_rw("win", &envs::RewardConfig::win)
      .def_rw("loss", &envs::RewardConfig::loss)
      .def_rw("draw", &envs::RewardConfig::draw)
      .def_rw("shaping_points", &envs::RewardConfig::shaping_points)
      .def_rw("shaping_wounds", &envs::RewardConfig::shaping_wounds)
      .def_rw("shaping_casualties", &envs::RewardConfig::shaping_casualties)
      .def_rw("raise_illegal", &envs::RewardConfig::raise_illegal)
      .def_rw("illegal_penalty", &envs::RewardConfig::illegal_penalty)
      .def_rw("max_learner_steps", &envs::RewardConfig::max_learner_steps);

  nb::class_<BatchEnv>(module, "BatchEnv", "N games of one scenario against the random opponent, stepped natively.")
      .def(
          "__init__",
          [](BatchEnv* self, const game::ForwardModel& model, const encoding::ObservationEncoder& encoder,
             const encoding::ActionCatalogue& catalogue, const std::vector<game::GameState>& templates,
             int first_side, const envs::RewardConfig& rewards, int learner_side, std::size_t games,
             bool python_planner) {
            for (const game::GameState& t : templates) game::check_same_game(model, t, "BatchEnv");
            game::ForwardModel copy = model;
            if (python_planner) {
              copy.planner = std::make_shared<GilPlanner>(model.planner);
            }
            new (self) BatchEnv(std::move(copy), encoder, catalogue, templates, first_side, rewards, learner_side, games);
          },
          nb::arg("model"), nb::arg("encoder"), nb::arg("catalogue"), nb::arg("templates"), nb::arg("first_side"),
          nb::arg("rewards"), nb::arg("learner_side"), nb::arg("games"), nb::arg("python_planner") = true)
      .def(
          "set_oracle",
          [](BatchEnv& env, nb::object oracle) {
            env.set_opponent_oracle(oracle.is_none() ? nullptr
                                                     : std::make_shared<const oracle::OracleGame>(
                                                           nb::cast<const oracle::OracleGame&>(oracle)));
          },
          nb::arg("oracle").none(), "The Oracle opponent (an OracleGame) of every game now, or None for the random one.")
      .def(
          "set_next_opponent",
          [](BatchEnv& env, const std::vector<std::size_t>& games, nb::object oracle) {
            // One shared copy for every game named (the profiles are not copied per game).
            const auto shared = oracle.is_none() ? nullptr
                                                 : std::make_shared<const oracle::OracleGame>(
                                                       nb::cast<const oracle::OracleGame&>(oracle));
            for (const std::size_t k : games) {
              env.set_next_opponent(k, shared);
            }
          },
          nb::arg("games"), nb::arg("oracle").none(),
          "The opponent of the games named from each one's next game on: an OracleGame, or None "
          "for the random agent.")
      .def("oracle_opponent", &BatchEnv::oracle_opponent, nb::arg("k"),
           "Whether game k's running game is played by the Oracle (False: the random agent).")
      .def_prop_ro("size", &BatchEnv::size)
      .def_prop_ro("flat_size", &BatchEnv::flat_size)
      .def_prop_ro("pair_size", &BatchEnv::pair_size)
      .def_prop_ro("row_size", &BatchEnv::row_size)
      .def("set_pair_encoder", &BatchEnv::set_pair_encoder, nb::arg("pairs"),
           "Entity observations: each obs row gets the pair block after the flat vector (before reset).")
      .def_prop_ro("actions", &BatchEnv::actions)
      .def(
          "reset",
          [](BatchEnv& env, UInt64s1 seeds, Floats2 obs, Bytes2 mask, Doubles1 reward, Bytes1 terminated,
             Bytes1 truncated, Bytes1 illegal, Floats2 final_obs, Int8s1 learner_side, Int8s1 final_winner) {
            const BatchOutputs out =
                outputs(obs, mask, reward, terminated, truncated, illegal, final_obs, learner_side, final_winner);
            const std::span<const std::uint64_t> s(seeds.data(), seeds.size());
            nb::gil_scoped_release release;
            env.reset(s, out);
          },
          nb::arg("seeds"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"), nb::arg("terminated"),
          nb::arg("truncated"), nb::arg("illegal"), nb::arg("final_obs"), nb::arg("learner_side"),
          nb::arg("final_winner"), "Seed every game and start it (the GIL released).")
      .def(
          "step",
          [](BatchEnv& env, Int64s1 actions, Floats2 obs, Bytes2 mask, Doubles1 reward, Bytes1 terminated,
             Bytes1 truncated, Bytes1 illegal, Floats2 final_obs, Int8s1 learner_side, Int8s1 final_winner) {
            const BatchOutputs out =
                outputs(obs, mask, reward, terminated, truncated, illegal, final_obs, learner_side, final_winner);
            const std::span<const std::int64_t> a(actions.data(), actions.size());
            nb::gil_scoped_release release;
            env.step(a, out);
          },
          nb::arg("actions"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"), nb::arg("terminated"),
          nb::arg("truncated"), nb::arg("illegal"), nb::arg("final_obs"), nb::arg("learner_side"),
          nb::arg("final_winner"), "One learner action per game; the opponent plays; done games restart.")
      .def(
          "step_into",
          [](BatchEnv& env, const BatchBuffers& buffers) {
            const std::span<const std::int64_t> a(buffers.actions.data(), buffers.actions.size());
            nb::gil_scoped_release release;
            env.step(a, buffers.out);
          },
          nb::arg("buffers"), "step() with the actions and outputs of `buffers` (read and written in place).")
      .def("set_autoreset", &BatchEnv::set_autoreset, nb::arg("on"),
           "Start the next game of a finished one within step() (default) or leave it for restart().")
      .def(
          "restart",
          [](BatchEnv& env, std::size_t k, Floats2 obs, Bytes2 mask, Doubles1 reward, Bytes1 terminated,
             Bytes1 truncated, Bytes1 illegal, Floats2 final_obs, Int8s1 learner_side, Int8s1 final_winner) {
            const BatchOutputs out =
                outputs(obs, mask, reward, terminated, truncated, illegal, final_obs, learner_side, final_winner);
            nb::gil_scoped_release release;
            env.restart(k, out);
          },
          nb::arg("k"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"), nb::arg("terminated"),
          nb::arg("truncated"), nb::arg("illegal"), nb::arg("final_obs"), nb::arg("learner_side"),
          nb::arg("final_winner"), "Game k's next game, its seed drawn from its environment stream.")
      .def("env_rng", &BatchEnv::env_rng, nb::arg("k"), nb::rv_policy::copy, "A copy of game k's environment stream.")
      .def("set_env_rng", &BatchEnv::set_env_rng, nb::arg("k"), nb::arg("rng"))
      .def("legal_decision", &BatchEnv::legal_decision, nb::arg("k"), nb::arg("action"),
           nb::rv_policy::copy, "Game k's legal decision at a catalogue index (IndexError when none).")
      .def("decision_label", &BatchEnv::decision_label, nb::arg("k"), nb::arg("action"),
           "str() of the Python Decision of game k's legal decision at a catalogue index.")
      .def("state", [](const BatchEnv& env, std::size_t k) { return game::GameState(env.state(k)); }, nb::arg("k"),
           "A copy of game k's state now.")
      .def("game_seed", &BatchEnv::game_seed, nb::arg("k"))
      .def("episode_steps", &BatchEnv::episode_steps, nb::arg("k"));

  module.def(
      "encode_native",
      [](const game::ForwardModel& model, const encoding::ObservationEncoder& encoder, const game::GameState& state,
         int side, nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu> out) {
        game::check_same_game(model, state, "encode_native");
        std::vector<encoding::SightCode> codes(state.model_count());
        envs::sight_codes(model, encoder, state, codes);
        encoder.encode(state, side, codes, std::span(out.data(), out.size()));
      },
      nb::arg("model"), nb::arg("encoder"), nb::arg("state"), nb::arg("side"), nb::arg("out"),
      "The flat observation of a native state, with sight codes from the native table.");
  module.def(
      "seeded_pcg64",
      [](const std::vector<std::uint64_t>& entropy) { return rules::seeded_pcg64(entropy); }, nb::arg("entropy"),
      "numpy.random.default_rng(entropy)'s PCG64, natively (entropy: non-negative ints).");
  module.def(
      "integers64", [](rules::Pcg64& rng, std::int64_t low, std::int64_t high) { return rules::integers64(rng, low, high); },
      nb::arg("rng"), nb::arg("low"), nb::arg("high"), "Generator.integers(low, high) for any int64 range.");
}

}  // namespace riven::bindings
