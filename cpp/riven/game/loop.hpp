// The native game loop: riven_env/game/state.py GameState.apply and its turn sequence, the
// action handlers and resolvers of riven_env/game/actions.py, the shared state changes of
// riven_env/game/effects.py and the victory conditions of riven_env/game/victory.py, with the
// same random draws in the same order and the same events (EventLog, byte-identical JSON).
#pragma once

#include <cstddef>
#include <cstdint>

#include "riven/game/decision.hpp"
#include "riven/game/events.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/queries.hpp"
#include "riven/game/state.hpp"
#include <span>

#include "riven/rules/errors.hpp"
#include "riven/rules/pcg64.hpp"

namespace riven::game {

/// GameState.apply: carry out `decision` (which must be legal: rules::IllegalAction otherwise,
/// naming it, the phase and the side) and advance to the next decision point; the events are
/// appended to `log`.
void apply(const ForwardModel& fm, GameState& state, const Decision& decision, EventLog& log);

/// apply when the caller has just listed this very state's legal decisions (legal_decisions,
/// the state unchanged since): the same check against that list, without listing them again
/// (every native player lists them to choose, and listing was a fifth of a step).
void apply(const ForwardModel& fm, GameState& state, const Decision& decision, EventLog& log,
           std::span<const Decision> legal);

/// GameState.start: open round 1 (round_start, the first turn) and advance.
void start(const ForwardModel& fm, GameState& state, EventLog& log);

/// What play_random played: the decisions, and the events they recorded (0 on a discarding log).
struct RandomPlay {
  std::int64_t steps = 0;
  std::size_t events = 0;
};

/// Uniformly random legal decisions, `legal[chooser.integers(0, len(legal))]` as a Python loop
/// draws them, until the game ends or `max_steps` were played (a soak; with a discarding log, a
/// search's rollout). The events are counted and dropped.
RandomPlay play_random(const ForwardModel& fm, GameState& state, rules::Pcg64& chooser, std::int64_t max_steps,
                       EventLog& log);

}  // namespace riven::game
