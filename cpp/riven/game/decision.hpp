// A decision at a decision point (riven_env/game/decisions.py Decision), as ids into the
// game's static vocabularies: trivially copyable, so legal-decision lists are flat vectors.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace riven::game {

/// Decision kinds that are not actions of the rules data, in this order; an action's kind is
/// kDecisionPointKinds.size() + its index in GameStatic::actions.
inline constexpr std::array<std::string_view, 6> kDecisionPointKinds{"pass",  "activate", "bonus",
                                                                     "spend", "allocate", "choose"};
inline constexpr std::int16_t kPass = 0;
inline constexpr std::int16_t kActivate = 1;
inline constexpr std::int16_t kBonus = 2;
inline constexpr std::int16_t kSpend = 3;
inline constexpr std::int16_t kAllocate = 4;
inline constexpr std::int16_t kChoose = 5;
inline constexpr std::int16_t kFirstActionKind = static_cast<std::int16_t>(kDecisionPointKinds.size());

/// One decision; absent fields are -1 (Python None).
struct Decision {
  std::int16_t kind = kPass;
  std::int16_t model = -1;
  std::int16_t dice = -1;
  std::int16_t target = -1;
  std::int16_t destination_kind = -1;  // GameStatic::destination_kinds; -1: no destination
  std::int32_t destination_ref = -1;   // -1: None
  std::int16_t option = -1;            // GameStatic::options
  friend bool operator==(const Decision&, const Decision&) = default;
};

}  // namespace riven::game
