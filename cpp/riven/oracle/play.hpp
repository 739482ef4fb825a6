// The Enemy Oracle inside the native game loop: decide() on the loop's own state with the
// core's routing, the `oracle_decision` explanation worded in the core, and whole games
// (oracle or random on each side) played in one call.
//
// The words come from Python once per game (agents/oracle/native.py fills OracleGame::words
// from the compiled card lines, agents/oracle/compiled.py and words.py, and dice_words from
// agents/oracle/dice.py), so the explanation text is the Python Oracle's byte for byte; the
// core only assembles them the way OracleAgent.act (agents/oracle/engine.py) does.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "riven/game/decision.hpp"
#include "riven/game/events.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/state.hpp"
#include "riven/oracle/oracle.hpp"
#include "riven/rules/pcg64.hpp"

namespace riven::oracle {

/// The routing seam of decide() answered by the loop's planner: charge_targets through
/// Planner::charge_targets, destinations by table::candidate_destinations (state.destinations:
/// looted objectives dropped). Needs the core's planner (NativePlanner, for its enemy_gap):
/// std::invalid_argument otherwise. The returned callbacks read `state` and `fm` by reference.
Routing loop_routing(const game::ForwardModel& fm, const game::GameState& state);

/// What OracleAgent.act returns and records: the decision and its `oracle_decision` fields.
struct Explained {
  game::Decision decision;
  int index = -1;            // position in the legal decisions; -1: not listed (pass, end, a spend)
  std::optional<std::string> model;  // the model named (None: a side-level pass)
  std::string profile;
  std::string rule;
  std::string label;         // str(decision)
  std::string text;          // the explanation
};

/// The decision a (supported) choice stands for: the listed one, else PASS for a side's pass,
/// else the decision the core built (END after a roll, a spend).
game::Decision chosen_decision(std::span<const game::Decision> legal, const Choice& choice);

/// native.py explain(): the words of `choice` (which must not be Branch::Unsupported).
/// Throws std::invalid_argument when the OracleGame carries no words for the profile.
Explained explain(const OracleGame& oracle, const game::ForwardModel& fm, const game::GameState& state,
                  std::span<const game::Decision> legal, const Choice& choice);

/// One side of a game played in the core: the Oracle (its OracleGame and its own stream, the
/// agent's self.rng) or, without an OracleGame, the random agent (legal[integers(0, n)] on its
/// stream, riven_agents RandomAgent).
struct Seat {
  const OracleGame* oracle = nullptr;
  rules::Pcg64* rng = nullptr;
  // Filled by play() when timed: decisions made and seconds spent deciding (wall, CPU).
  std::int64_t decisions = 0;
  double seconds = 0.0;
  double cpu_seconds = 0.0;
};

/// How play() stopped.
struct Played {
  std::int64_t decisions = 0;
  /// Empty when the game is over or max_decisions was reached; otherwise why the core stopped
  /// before the decision it could not take (an Oracle point decide() leaves to Python), with
  /// the state at that decision point.
  std::string stopped;
};

/// riven_env/game/runner.py play(): each side's seat decides, the Oracle's explanation is
/// emitted as an `oracle_decision` event before the decision is applied, until the game ends
/// or `max_decisions` (< 0: no limit) decisions were made. Events go to `log`.
Played play(const game::ForwardModel& fm, game::GameState& state, std::array<Seat, game::kSides>& seats,
            game::EventLog& log, std::int64_t max_decisions, bool timed);

/// The rollout of a search (riven_agents/expert.py ExpertAgent._rollout_value): play() in quiet
/// mode for at most `max_decisions` decisions (the game's end stops it sooner). No explanation
/// is worded and no `oracle_decision` event emitted (the Python rollout asks OracleAgent.act,
/// which records none, so the state's seq moves as it does there); the game's own events are
/// dropped as they come. A decision point with a single legal decision takes it without asking
/// the seat (its stream does not move), as the Python rollout does (`legal[0] if len(legal) ==
/// 1`). Returns the decisions made and, when `stopped` is not empty, the point the core leaves
/// to Python (the caller's Python loop goes on from there). No Python is called: the binding
/// releases the GIL.
Played rollout(const game::ForwardModel& fm, game::GameState& state, std::array<Seat, game::kSides>& seats,
               std::int64_t max_decisions);

}  // namespace riven::oracle
