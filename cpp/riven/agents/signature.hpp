// The information-set key of the search agents (agents/expert.py signature) on the native
// loop's state: the bytes of exactly the fields the Python key reads, so that two states share
// a key in the core exactly when their Python views share one (the same tree, node for node).
#pragma once

#include <string>

#include "riven/game/state.hpp"

namespace riven::agents {

/// agents/expert.py signature(): phase, side, active model, actions left, turn_passes_after, the
/// actions taken, every base's centre and on-table flag, every model's status, wounds, Strain,
/// stable, activated and Conditions (in gain order), Momentum by owner and the points; nothing
/// else (not the dice stream, the round, the seq, the pending roll).
std::string signature(const game::GameState& state);

}  // namespace riven::agents
