#include "riven/agents/signature.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace riven::agents {

namespace {

template <typename T>
void put(std::string& out, T value) {
  static_assert(std::is_trivially_copyable_v<T>);
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

}  // namespace

std::string signature(const game::GameState& state) {
  std::string out;
  out.reserve(32 + state.models.size() * 48 + state.momentum.size() * 4);
  put(out, static_cast<std::uint8_t>(state.phase));
  put(out, state.side);
  put(out, state.active_model);
  put(out, state.actions_left);
  put(out, static_cast<std::uint8_t>(state.turn_passes_after));
  put(out, state.taken_count);
  for (std::size_t k = 0; k < state.taken_count; ++k) put(out, state.taken_actions[k]);
  for (const game::Model& m : state.models) {
    // The centres as the bytes of their doubles (Python keys bases.centers.tobytes()).
    put(out, m.x);
    put(out, m.y);
    put(out, static_cast<std::uint8_t>(m.on_table));
    put(out, static_cast<std::uint8_t>(m.status));
    put(out, m.wounds);
    put(out, m.strain);
    put(out, static_cast<std::uint8_t>(m.stable));
    put(out, static_cast<std::uint8_t>(m.activated));
    put(out, static_cast<std::uint8_t>(m.rested));  // Rest's bans of the side-turn
    put(out, static_cast<std::uint8_t>(m.moved_or_attacked));
    put(out, m.condition_count);
    for (std::size_t k = 0; k < m.condition_count; ++k) put(out, m.conditions[k].id);
  }
  for (const std::int32_t tokens : state.momentum) put(out, tokens);
  for (const std::int64_t points : state.points) put(out, points);
  return out;
}

}  // namespace riven::agents
