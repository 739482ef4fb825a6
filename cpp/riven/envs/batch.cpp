#include "riven/envs/batch.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "riven/game/loop.hpp"
#include "riven/game/queries.hpp"
#include "riven/oracle/play.hpp"
#include "riven/rules/seeding.hpp"
#include "riven/require.hpp"

namespace riven::envs {

namespace {

// RivenSkirmishEnv's bounds: game seeds drawn below 2**62; a scenario that ends before the
// learner's first decision is restarted with the next seed at most this many times.
constexpr std::int64_t kSeedBound = std::int64_t{1} << 62;
constexpr int kMaxEmptyGames = 16;

}  // namespace

BatchEnv::BatchEnv(game::ForwardModel model, encoding::ObservationEncoder encoder, encoding::ActionCatalogue catalogue,
                   std::vector<game::GameState> templates, int first_side, RewardConfig rewards, int learner_side,
                   std::size_t games)
    : model_(std::move(model)),
      encoder_(std::move(encoder)),
      catalogue_(std::move(catalogue)),
      templates_(std::move(templates)),
      first_side_(first_side),
      rewards_(rewards),
      learner_setting_(learner_side) {
  require(games > 0, "batch: at least one game");
  require(learner_side >= -1 && learner_side <= 1, "batch: learner side must be 0 (blue), 1 (red) or -1 (random)");
  require(first_side >= -1 && first_side <= 1, "batch: first side must be 0 (blue), 1 (red) or -1 (rolled)");
  require(templates_.size() == 2, "batch: one template state per first side (blue, red) expected");
  for (std::size_t s = 0; s < 2; ++s) {
    require(templates_[s].statics != nullptr, "batch: a template state has no static part");
  }
  require(rewards_.max_learner_steps >= 1, "batch: episode.max_learner_steps must be >= 1");
  games_.resize(games);
  sight_.resize(templates_[0].model_count());
}

double BatchEnv::potential(const Game& g) const {
  // riven_env/envs/rewards.py potential, operation for operation.
  const RewardConfig& c = rewards_;
  if (c.shaping_points == 0.0 && c.shaping_wounds == 0.0 && c.shaping_casualties == 0.0) {
    return 0.0;
  }
  const game::GameState& s = g.state;
  const int side = g.learner;
  const int enemy = 1 - side;
  double value = c.shaping_points * static_cast<double>(s.points[static_cast<std::size_t>(side)] -
                                                        s.points[static_cast<std::size_t>(enemy)]);
  if (c.shaping_wounds != 0.0 || c.shaping_casualties != 0.0) {
    std::array<std::int64_t, 2> lost{0, 0};
    std::array<std::int64_t, 2> fallen{0, 0};
    for (std::size_t i = 0; i < s.models.size(); ++i) {
      const auto owner = static_cast<std::size_t>(s.model_side(i));
      const game::Model& m = s.models[i];
      lost[owner] += game::profile_of(s, i).wounds - std::max(0, m.wounds);
      const bool casualty =
          m.status == game::Status::Down || m.status == game::Status::Out || m.status == game::Status::Fled;
      fallen[owner] += casualty ? 1 : 0;
    }
    const auto me = static_cast<std::size_t>(side);
    const auto foe = static_cast<std::size_t>(enemy);
    value += c.shaping_wounds * static_cast<double>(lost[foe] - lost[me]);
    value += c.shaping_casualties * static_cast<double>(fallen[foe] - fallen[me]);
  }
  return value;
}

bool BatchEnv::ended_by_round_limit(const Game& g) const {
  return g.state.over && g.state.end_reason.view() == "round_limit";
}

void BatchEnv::refresh_legal(Game& g) {
  g.by_index.assign(catalogue_.size(), -1);
  g.legal.clear();
  if (g.state.over) {
    return;
  }
  game::legal_decisions_into(model_, g.state, g.legal);
  const int side = g.state.current_side();
  for (std::size_t k = 0; k < g.legal.size(); ++k) {
    std::string why;
    const int index = catalogue_.index_of(g.legal[k], side, &why);
    require(index >= 0, [&] { return "batch: a legal decision has no catalogue entry: " + why; });
    auto& slot = g.by_index[static_cast<std::size_t>(index)];
    require(slot < 0, [&] { return "batch: two legal decisions share catalogue index " + std::to_string(index); });
    slot = static_cast<std::int32_t>(k);
  }
}

void BatchEnv::check_oracle(const oracle::OracleGame& oracle) const {
  oracle.validate(*templates_[0].statics);
  (void)oracle::loop_routing(model_, templates_[0]);  // refuses a planner that is not the core's
}

void BatchEnv::set_opponent_oracle(std::shared_ptr<const oracle::OracleGame> oracle) {
  if (oracle) {
    check_oracle(*oracle);
  }
  for (Game& g : games_) {
    g.oracle = oracle;
    g.next_oracle = oracle;
  }
}

void BatchEnv::set_next_opponent(std::size_t k, std::shared_ptr<const oracle::OracleGame> oracle) {
  require(k < games_.size(), "batch: no game " + std::to_string(k));
  if (oracle) {
    check_oracle(*oracle);
  }
  games_[k].next_oracle = std::move(oracle);
}

void BatchEnv::play_opponent(Game& g) {
  // RivenSkirmishEnv._play_opponent; the events are not kept (the single env emits no
  // oracle_decision events either).
  Recycled<game::Decision> legal;  // each decision's menu, in one reused buffer
  if (g.oracle) {
    const oracle::OracleGame& oracle = *g.oracle;
    const oracle::Routing routing = oracle::loop_routing(model_, g.state);
    while (!g.state.over && g.state.current_side() != g.learner) {
      game::legal_decisions_into(model_, g.state, legal);
      const oracle::Choice c =
          oracle::decide(oracle, g.state, *model_.table, *model_.rules, legal, g.opponent_rng, routing);
      require(c.branch != oracle::Branch::Unsupported,
              [&] { return "batch: the Oracle opponent cannot decide here: " + c.reason; });
      game::apply(model_, g.state, oracle::chosen_decision(legal, c), log_, legal);
      (void)log_.drain();
    }
    refresh_legal(g);
    return;
  }
  while (!g.state.over && g.state.current_side() != g.learner) {
    game::legal_decisions_into(model_, g.state, legal);
    const auto pick = static_cast<std::size_t>(g.opponent_rng.integers(0, static_cast<std::int64_t>(legal.size())));
    game::apply(model_, g.state, legal[pick], log_, legal);
    (void)log_.drain();
  }
  refresh_legal(g);
}

void BatchEnv::start_game(Game& g, std::uint64_t game_seed, bool draw_first) {
  // RivenSkirmishEnv.reset: the game seed (given, or drawn), then _start_game, again with a
  // drawn seed while a game ends before the learner's first decision.
  if (draw_first) {
    game_seed = static_cast<std::uint64_t>(rules::integers64(g.env_rng, 0, kSeedBound));
  }
  // A new game takes the opponent set for it (RivenSkirmishEnv builds its opponent at reset).
  g.oracle = g.next_oracle;
  for (int attempt = 0; attempt < kMaxEmptyGames; ++attempt) {
    g.game_seed = game_seed;
    g.learner = learner_setting_ >= 0 ? learner_setting_ : static_cast<int>(g.env_rng.integers(0, 2));
    // new_game: default_rng(seed), the first side rolled from it when the scenario rolls.
    const std::array<std::uint64_t, 1> entropy{game_seed};
    rules::Pcg64 dice = rules::seeded_pcg64(entropy);
    // (The scenario's fixed side is its own, not a template's: each template is one side's.)
    const std::size_t first = first_side_ >= 0 ? static_cast<std::size_t>(first_side_)
                                               : static_cast<std::size_t>(dice.integers(0, 2));
    g.state = templates_[first];
    g.state.rng = dice;
    game::start(model_, g.state, log_);
    (void)log_.drain();
    const std::array<std::uint64_t, 2> agent{game_seed, static_cast<std::uint64_t>(1 + (1 - g.learner))};
    g.opponent_rng = rules::seeded_pcg64(agent);
    play_opponent(g);
    if (!g.state.over) {
      g.steps = 0;
      g.potential = potential(g);
      return;
    }
    game_seed = static_cast<std::uint64_t>(rules::integers64(g.env_rng, 0, kSeedBound));
  }
  throw std::invalid_argument("batch: " + std::to_string(kMaxEmptyGames) +
                              " games in a row ended before the learner's first decision");
}

void sight_codes(const game::ForwardModel& model, const encoding::ObservationEncoder& encoder,
                 const game::GameState& s, std::span<encoding::SightCode> out) {
  if (!encoder.spec().cover_vs_nearest_enemy) {
    require(out.size() == s.model_count(), "sight codes: one per model expected");
    std::fill(out.begin(), out.end(), encoding::SightCode::NotSeen);
    return;
  }
  sight_codes(model, encoder, s, encoder.nearest_enemies(s), out);
}

void sight_codes(const game::ForwardModel& model, const encoding::ObservationEncoder& encoder,
                 const game::GameState& s, std::span<const int> nearest, std::span<encoding::SightCode> out) {
  require(out.size() == s.model_count(), "sight codes: one per model expected");
  std::fill(out.begin(), out.end(), encoding::SightCode::NotSeen);
  if (!encoder.spec().cover_vs_nearest_enemy) {
    return;
  }
  require(nearest.size() == s.model_count(), "sight codes: one nearest enemy per model expected");
  for (std::size_t i = 0; i < nearest.size(); ++i) {
    const int j = nearest[i];
    if (j < 0) {
      continue;
    }
    const game::Model& target = s.models[i];
    const game::Model& shooter = s.models[static_cast<std::size_t>(j)];
    if (!target.on_table || !shooter.on_table) {  // table.sight: (False, "none") off the table
      continue;
    }
    const auto [visible, rank] =
        model.table->sight_between({shooter.x, shooter.y}, shooter.radius, {target.x, target.y}, target.radius);
    if (visible) {
      out[i] = static_cast<encoding::SightCode>(rank);
    }
  }
}

void BatchEnv::set_pair_encoder(encoding::PairEncoder pairs) {
  require(pairs.spec().models_per_side == encoder_.spec().models_per_side,
          "batch: the pair encoder's models_per_side (" + std::to_string(pairs.spec().models_per_side) +
              ") differs from the observation encoder's (" + std::to_string(encoder_.spec().models_per_side) + ")");
  pairs_.emplace(std::move(pairs));
}

void BatchEnv::encode(const Game& g, std::span<float> obs) {
  // The nearest enemies once, for the sight codes and the encoder both.
  g.lengths.refresh(g.state);
  const encoding::ObservationEncoder::Nearby nearby = encoder_.nearby(g.state, &g.lengths);
  sight_codes(model_, encoder_, g.state, nearby.enemy, sight_);
  const std::size_t flat = encoder_.flat_size();
  encoder_.encode(g.state, g.learner, sight_, nearby, obs.first(flat), &g.lengths);
  if (pairs_) {
    const std::size_t size = pairs_->size();
    pairs_->encode(model_, g.state, g.learner, obs.subspan(flat, size));
    std::span<float> mask = obs.subspan(flat + size);
    for (std::size_t a = 0; a < mask.size(); ++a) {
      mask[a] = g.by_index[a] >= 0 ? 1.0f : 0.0f;
    }
  }
}

void BatchEnv::write(std::size_t k, const Game& g, std::span<float> obs, std::span<std::uint8_t> mask) {
  const std::size_t width = row_size();
  encode(g, obs.subspan(k * width, width));
  const std::size_t actions = catalogue_.size();
  for (std::size_t a = 0; a < actions; ++a) {
    mask[k * actions + a] = g.by_index[a] >= 0 ? 1 : 0;
  }
}

namespace {
void check_outputs(const BatchOutputs& out, std::size_t n, std::size_t width, std::size_t actions) {
  // (Checked at every step: the messages are written only when a check fails.)
  require(out.obs.size() == n * width && out.final_obs.size() == n * width, [&] {
    return "batch: obs and final_obs must hold (" + std::to_string(n) + ", " + std::to_string(width) + ") floats";
  });
  require(out.mask.size() == n * actions,
          [&] { return "batch: mask must hold (" + std::to_string(n) + ", " + std::to_string(actions) + ") bytes"; });
  require(out.reward.size() == n && out.terminated.size() == n && out.truncated.size() == n &&
              out.illegal.size() == n && out.learner_side.size() == n && out.final_winner.size() == n,
          [&] {
            return "batch: reward, terminated, truncated, illegal, learner_side and final_winner must hold " +
                   std::to_string(n) + " values";
          });
}
}  // namespace

void BatchEnv::reset(std::span<const std::uint64_t> seeds, const BatchOutputs& out) {
  const std::size_t n = games_.size();
  require(seeds.size() == n, "batch: one seed per game expected (" + std::to_string(n) + ")");
  check_outputs(out, n, row_size(), catalogue_.size());
  for (std::size_t k = 0; k < n; ++k) {
    Game& g = games_[k];
    const std::array<std::uint64_t, 1> entropy{seeds[k]};
    g.env_rng = rules::seeded_pcg64(entropy);
    start_game(g, seeds[k], false);
    write_start(k, g, out);
  }
}

void BatchEnv::write_start(std::size_t k, const Game& g, const BatchOutputs& out) {
  write(k, g, out.obs, out.mask);
  out.reward[k] = 0.0;
  out.terminated[k] = out.truncated[k] = out.illegal[k] = 0;
  out.learner_side[k] = static_cast<std::int8_t>(g.learner);
  out.final_winner[k] = -1;
}

void BatchEnv::restart(std::size_t k, const BatchOutputs& out) {
  require(k < games_.size(), "batch: no game " + std::to_string(k));
  check_outputs(out, games_.size(), row_size(), catalogue_.size());
  Game& g = games_[k];
  start_game(g, 0, true);
  write_start(k, g, out);
}

const game::Decision& BatchEnv::legal_decision(std::size_t k, std::int64_t action) const {
  const Game& g = games_.at(k);
  if (action < 0 || static_cast<std::size_t>(action) >= g.by_index.size() ||
      g.by_index[static_cast<std::size_t>(action)] < 0) {
    throw std::out_of_range("batch: game " + std::to_string(k) + ": no legal decision at catalogue index " +
                            std::to_string(action));
  }
  return g.legal[static_cast<std::size_t>(g.by_index[static_cast<std::size_t>(action)])];
}

std::string BatchEnv::decision_label(std::size_t k, std::int64_t action) const {
  return game::decision_label(model_, games_.at(k).state, legal_decision(k, action));
}

void BatchEnv::step(std::span<const std::int64_t> actions, const BatchOutputs& out) {
  const std::size_t n = games_.size();
  const std::size_t size = catalogue_.size();
  require(actions.size() == n, [&] { return "batch: one action per game expected (" + std::to_string(n) + ")"; });
  check_outputs(out, n, row_size(), size);
  if (rewards_.raise_illegal) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::int64_t a = actions[k];
      const bool legal = a >= 0 && static_cast<std::size_t>(a) < size && games_[k].by_index[static_cast<std::size_t>(a)] >= 0;
      if (!legal) {
        const std::string label =
            a >= 0 && static_cast<std::size_t>(a) < size ? catalogue_.labels()[static_cast<std::size_t>(a)] : "out of range";
        throw std::invalid_argument("batch: game " + std::to_string(k) + ": action " + std::to_string(a) + " (" + label +
                                    ") is not legal now (illegal.policy = raise)");
      }
    }
  }
  const std::size_t width = row_size();
  for (std::size_t k = 0; k < n; ++k) {
    Game& g = games_[k];
    g.steps += 1;
    const std::int64_t a = actions[k];
    const bool legal = a >= 0 && static_cast<std::size_t>(a) < size && g.by_index[static_cast<std::size_t>(a)] >= 0;
    bool terminated = false;
    bool truncated = false;
    double reward = 0.0;
    out.illegal[k] = legal ? 0 : 1;
    if (!legal) {
      reward = rewards_.illegal_penalty;
      truncated = g.steps >= rewards_.max_learner_steps;
    } else {
      game::apply(model_, g.state, g.legal[static_cast<std::size_t>(g.by_index[static_cast<std::size_t>(a)])], log_,
                  g.legal);
      (void)log_.drain();
      play_opponent(g);
      const game::GameState& s = g.state;
      if (s.over) {
        reward = s.winner < 0 ? rewards_.draw : (s.winner == g.learner ? rewards_.win : rewards_.loss);
      }
      const double next = potential(g);
      reward += next - g.potential;
      g.potential = next;
      const bool round_limit = ended_by_round_limit(g);
      terminated = s.over && !round_limit;
      truncated = round_limit || (!s.over && g.steps >= rewards_.max_learner_steps);
    }
    out.reward[k] = reward;
    out.terminated[k] = terminated ? 1 : 0;
    out.truncated[k] = truncated ? 1 : 0;
    out.final_winner[k] = -1;
    if (terminated || truncated) {
      // The finished game's last observation, then the next game (RivenSkirmishEnv.reset()).
      encode(g, out.final_obs.subspan(k * width, width));
      out.final_winner[k] = g.state.over ? g.state.winner : std::int8_t{-1};
      if (autoreset_) {
        start_game(g, 0, true);
      }
    }
    write(k, g, out.obs, out.mask);
    out.learner_side[k] = static_cast<std::int8_t>(g.learner);
  }
}

}  // namespace riven::envs
