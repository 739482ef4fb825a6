// The batched environment: many games of one scenario stepped in one call, as the Python
// single-learner environment (riven_env/envs/gym_env.py RivenSkirmishEnv) steps one, writing
// observations, masks, rewards and done flags into caller-owned arrays (PufferLib / EnvPool
// style). Each game keeps the Python environment's streams exactly: the environment's own stream
// (numpy default_rng(seed): the next game seed, the learner's side when drawn), the game's dice
// stream (default_rng(game seed)) and the random opponent's (default_rng([game seed, 1 + side]),
// riven_agents RandomAgent: legal[integers(0, len(legal))]), so the same seeds give the same
// episodes on both. Finished games (terminated or truncated) start the next game at once; the
// last observation of the finished one is kept for the caller (final_obs).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "riven/encoding/catalogue.hpp"
#include "riven/encoding/entity.hpp"
#include "riven/encoding/observation.hpp"
#include "riven/game/decision.hpp"
#include "riven/game/events.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/state.hpp"
#include "riven/oracle/oracle.hpp"
#include "riven/rules/pcg64.hpp"

namespace riven::envs {

/// riven_env/envs/data/env.toml, the keys the step reads (EnvConfig).
struct RewardConfig {
  double win = 1.0;
  double loss = -1.0;
  double draw = 0.0;
  double shaping_points = 0.0;
  double shaping_wounds = 0.0;
  double shaping_casualties = 0.0;
  bool raise_illegal = true;  // illegal.policy: raise, else penalise
  double illegal_penalty = 0.0;
  int max_learner_steps = 1;
};

/// The encoder's sight codes of `state` (what each model's nearest active enemy sees of it:
/// riven_env/native/encoding.py NativeEncoder.sight_codes) from the native table's sight query.
void sight_codes(const game::ForwardModel& model, const encoding::ObservationEncoder& encoder,
                 const game::GameState& state, std::span<encoding::SightCode> out);
/// The same for the nearest enemies already found (encoder.nearby(state).enemy).
void sight_codes(const game::ForwardModel& model, const encoding::ObservationEncoder& encoder,
                 const game::GameState& state, std::span<const int> nearest, std::span<encoding::SightCode> out);

/// Caller-owned outputs of one call, N rows each.
struct BatchOutputs {
  std::span<float> obs;              // (N, row_size): flat, then the pair block in entity mode
  std::span<std::uint8_t> mask;      // (N, catalogue size)
  std::span<double> reward;          // (N)
  std::span<std::uint8_t> terminated;
  std::span<std::uint8_t> truncated;
  std::span<std::uint8_t> illegal;
  std::span<float> final_obs;        // (N, row_size): the last observation of a finished game
  std::span<std::int8_t> learner_side;  // (N) the side of the game now running
  std::span<std::int8_t> final_winner;  // (N) winner of the finished game (-1 draw / none)
};

class BatchEnv {
 public:
  /// `templates`: the state of a new game before GameState.start for each first side (0 blue,
  /// 1 red). `first_side`: the scenario's own first side (0, 1), or -1 when it rolls one per game.
  /// `learner_side`: 0, 1, or -1 (drawn per game from the environment's stream).
  BatchEnv(game::ForwardModel model, encoding::ObservationEncoder encoder, encoding::ActionCatalogue catalogue,
           std::vector<game::GameState> templates, int first_side, RewardConfig rewards, int learner_side,
           std::size_t games);

  /// The opponent of every game: the Enemy Oracle of `oracle` (riven_agents OracleAgent, its
  /// fallback table rolled on the opponent's stream, default_rng([game seed, 1 + side])) instead
  /// of the random agent; null: random again. Takes effect from the next decision (the batch's
  /// opponent as built); needs the core's planner.
  void set_opponent_oracle(std::shared_ptr<const oracle::OracleGame> oracle);
  /// Game k's opponent from its next game on (RivenSkirmishEnv.set_opponent: the game now
  /// running keeps the opponent it started with); null: the random agent.
  void set_next_opponent(std::size_t k, std::shared_ptr<const oracle::OracleGame> oracle);
  /// Whether game k's running game is played by the Oracle (false: the random agent).
  [[nodiscard]] bool oracle_opponent(std::size_t k) const { return games_.at(k).oracle != nullptr; }

  [[nodiscard]] std::size_t size() const { return games_.size(); }
  [[nodiscard]] std::size_t flat_size() const { return encoder_.flat_size(); }
  /// Entity observations (riven_env/encoding/entity.py): each obs row is the flat vector, then
  /// `pairs`'s block for the learner's side, then the game's action mask as 0/1 floats (the mask
  /// of the state encoded: a finished game's final_obs row carries its own, as the Python env's
  /// last observation does). The static terrain rows are the caller's. Set before reset().
  void set_pair_encoder(encoding::PairEncoder pairs);
  [[nodiscard]] std::size_t pair_size() const { return pairs_ ? pairs_->size() : 0; }
  /// Floats of one obs row: flat_size(), plus pair_size() and actions() in entity mode.
  [[nodiscard]] std::size_t row_size() const { return flat_size() + (pairs_ ? pairs_->size() + actions() : 0); }
  [[nodiscard]] std::size_t actions() const { return catalogue_.size(); }

  /// Seed each game's environment stream and start its first game with the seed itself as the
  /// game seed (RivenSkirmishEnv.reset(seed=s)); rewards and flags are zeroed.
  void reset(std::span<const std::uint64_t> seeds, const BatchOutputs& out);
  /// One learner action (a catalogue index) per game. Throws std::invalid_argument naming the
  /// game and the action when one is not legal under illegal.policy = raise (before any game
  /// moves).
  void step(std::span<const std::int64_t> actions, const BatchOutputs& out);

  // --- One game at a time (the single environment on the native engine, gym_env.py) ---------
  /// Whether step() starts the next game of a finished one at once (the vector env's SAME_STEP,
  /// the default) or leaves it finished for restart() (the single env's reset()): then a finished
  /// game's observation and mask stay in obs and mask, as RivenSkirmishEnv.step returns them.
  void set_autoreset(bool on) { autoreset_ = on; }
  /// Game k's next game with a seed drawn from its environment stream (RivenSkirmishEnv.reset()
  /// without a seed); row k of `out` gets its observation and mask, its flags are zeroed.
  void restart(std::size_t k, const BatchOutputs& out);
  /// Game k's environment stream (numpy's np_random of the single env, carried across the seam).
  [[nodiscard]] const rules::Pcg64& env_rng(std::size_t k) const { return games_.at(k).env_rng; }
  void set_env_rng(std::size_t k, const rules::Pcg64& rng) { games_.at(k).env_rng = rng; }
  /// The legal decision of game k at catalogue index `action` (std::out_of_range when none).
  [[nodiscard]] const game::Decision& legal_decision(std::size_t k, std::int64_t action) const;
  /// str() of the Python Decision of that legal decision (the single env's info["decision"]),
  /// without turning the decision into a Python object first.
  [[nodiscard]] std::string decision_label(std::size_t k, std::int64_t action) const;

  [[nodiscard]] const game::GameState& state(std::size_t k) const { return games_.at(k).state; }
  [[nodiscard]] std::uint64_t game_seed(std::size_t k) const { return games_.at(k).game_seed; }
  [[nodiscard]] std::int64_t episode_steps(std::size_t k) const { return games_.at(k).steps; }

 private:
  struct Game {
    game::GameState state;
    rules::Pcg64 env_rng;
    rules::Pcg64 opponent_rng;
    std::uint64_t game_seed = 0;
    int learner = 0;
    std::int64_t steps = 0;
    double potential = 0.0;
    std::vector<game::Decision> legal;
    std::vector<std::int32_t> by_index;  // catalogue index -> legal position, -1
    std::shared_ptr<const oracle::OracleGame> oracle;       // this game's opponent; null: random
    std::shared_ptr<const oracle::OracleGame> next_oracle;  // the opponent of its next game
    // The lengths its observations read, kept between steps (only a moved model's are computed
    // again); mutable: an observation of a game does not change the game.
    mutable encoding::LengthMemo lengths;
  };

  void check_oracle(const oracle::OracleGame& oracle) const;

  void start_game(Game& g, std::uint64_t game_seed, bool draw_more);
  void play_opponent(Game& g);
  void refresh_legal(Game& g);
  [[nodiscard]] double potential(const Game& g) const;
  [[nodiscard]] bool ended_by_round_limit(const Game& g) const;
  void write(std::size_t k, const Game& g, std::span<float> obs, std::span<std::uint8_t> mask);
  void encode(const Game& g, std::span<float> obs);
  void write_start(std::size_t k, const Game& g, const BatchOutputs& out);

  game::ForwardModel model_;
  encoding::ObservationEncoder encoder_;
  std::optional<encoding::PairEncoder> pairs_;
  encoding::ActionCatalogue catalogue_;
  std::vector<game::GameState> templates_;
  int first_side_ = -1;  // -1: rolled per game
  RewardConfig rewards_;
  int learner_setting_ = 0;
  bool autoreset_ = true;
  std::vector<Game> games_;
  // The batch reads no event (the single env's info carries none): none is built.
  game::EventLog log_ = game::EventLog::discarding();
  std::vector<encoding::SightCode> sight_;
};

}  // namespace riven::envs
