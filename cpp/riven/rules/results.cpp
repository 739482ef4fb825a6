#include "riven/rules/results.hpp"

#include "riven/rules/errors.hpp"

namespace riven::rules {

int modifiers_total(const std::vector<Modifier>& modifiers) {
  int total = 0;
  for (const auto& modifier : modifiers) total += modifier.value;
  return total;
}

std::string_view band_name(Band band) {
  switch (band) {
    case Band::Miss:
      return "miss";
    case Band::Partial:
      return "partial";
    case Band::Hit:
      return "hit";
    case Band::Critical:
      return "critical";
  }
  return "miss";
}

Band band_from_name(std::string_view name) {
  if (name == "miss") return Band::Miss;
  if (name == "partial") return Band::Partial;
  if (name == "hit") return Band::Hit;
  if (name == "critical") return Band::Critical;
  throw RulesDataError("band '" + std::string(name) + "': expected one of miss, partial, hit, critical");
}

std::string_view spend_name(Spend spend) {
  switch (spend) {
    case Spend::Reroll0:
      return "reroll:0";
    case Spend::Reroll1:
      return "reroll:1";
    case Spend::Boost:
      return "boost";
    case Spend::Strain:
      return "strain";
  }
  return "boost";
}

std::string_view melee_outcome_name(MeleeOutcome outcome) {
  switch (outcome) {
    case MeleeOutcome::Parry:
      return "parry";
    case MeleeOutcome::Recoil:
      return "recoil";
    case MeleeOutcome::Wound:
      return "wound";
    case MeleeOutcome::Critical:
      return "critical";
  }
  return "parry";
}

std::string_view winner_name(Winner winner) {
  switch (winner) {
    case Winner::None:
      return "";
    case Winner::Attacker:
      return "attacker";
    case Winner::Defender:
      return "defender";
  }
  return "";
}

}  // namespace riven::rules
