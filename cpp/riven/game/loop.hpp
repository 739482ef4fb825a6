// The native game loop: riven_env/game/state.py GameState.apply and its turn sequence, the
// action handlers and resolvers of riven_env/game/actions.py, the shared state changes of
// riven_env/game/effects.py and the victory conditions of riven_env/game/victory.py, with the
// same random draws in the same order and the same events (EventLog, byte-identical JSON).
#pragma once

#include "riven/game/decision.hpp"
#include "riven/game/events.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/queries.hpp"
#include "riven/game/state.hpp"
#include "riven/rules/errors.hpp"

namespace riven::game {

/// GameState.apply: carry out `decision` (which must be legal: rules::IllegalAction otherwise,
/// naming it, the phase and the side) and advance to the next decision point; the events are
/// appended to `log`.
void apply(const ForwardModel& fm, GameState& state, const Decision& decision, EventLog& log);

/// GameState.start: open round 1 (round_start, the first turn) and advance.
void start(const ForwardModel& fm, GameState& state, EventLog& log);

}  // namespace riven::game
