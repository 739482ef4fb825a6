// Melee and shooting: outcomes, modifiers, cover steps and effects.
#include <string>
#include <vector>

#include "check.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/melee.hpp"
#include "riven/rules/shooting.hpp"
#include "rules_fixture.hpp"

namespace {

using namespace riven::rules;

void melee_outcomes(const RulesConfig& rules) {
  RIVEN_CHECK((classify_melee(9, 9, rules) == std::pair{MeleeOutcome::Parry, Winner::None}));
  RIVEN_CHECK((classify_melee(13, 9, rules) == std::pair{MeleeOutcome::Recoil, Winner::Attacker}));
  RIVEN_CHECK((classify_melee(14, 9, rules) == std::pair{MeleeOutcome::Wound, Winner::Attacker}));
  RIVEN_CHECK((classify_melee(18, 9, rules) == std::pair{MeleeOutcome::Critical, Winner::Attacker}));
  RIVEN_CHECK((classify_melee(8, 4, rules) == std::pair{MeleeOutcome::Critical, Winner::Attacker}));
  RIVEN_CHECK((classify_melee(5, 10, rules) == std::pair{MeleeOutcome::Critical, Winner::Defender}));
  RIVEN_CHECK((classify_melee(1, 0, rules) == std::pair{MeleeOutcome::Recoil, Winner::Attacker}));  // loser floor
  const MeleeResult critical = melee_from_dice({6, 6}, {1, 1}, 3, 2, {}, {}, rules);
  RIVEN_CHECK(critical.outcome == MeleeOutcome::Critical && critical.dazed && critical.condition == "dazed");
  RIVEN_CHECK(critical.loser() == Winner::Defender && critical.wounds == 1);
  const MeleeResult recoil = melee_from_dice({3, 3}, {2, 2}, 3, 3, {}, {}, rules);
  RIVEN_CHECK(recoil.outcome == MeleeOutcome::Recoil && recoil.recoil_distance == 2.0);
  ScriptedDice dice({6, 1, 5, 2});
  const MeleeResult rolled = resolve_melee(3, 2, {Modifier{"charge", 2}}, {}, dice, rules);
  RIVEN_CHECK(rolled.attacker_total == 12 && rolled.defender_total == 9 && rolled.outcome == MeleeOutcome::Recoil);
}

void melee_mods(const RulesConfig& rules) {
  Weapon spear{"spear", "melee", 0.0, 1, {"impact", "shield"}};
  const auto charging = melee_modifiers(&spear, true, 1, {"shaken"}, false, rules);
  RIVEN_CHECK((charging == std::vector<Modifier>{{"charge", 2}, {"weapon:spear", 1}, {"trait:impact", 1},
                                                 {"condition:shaken", -1}}));
  const auto defending = melee_modifiers(&spear, false, 1, {}, true, rules);
  RIVEN_CHECK((defending == std::vector<Modifier>{{"weapon:spear", 1}, {"trait:shield", 1}}));
  const auto outnumbered = melee_modifiers(nullptr, false, 3, {"prone", "prone"}, false, rules);
  RIVEN_CHECK((outnumbered == std::vector<Modifier>{{"outnumbered", -2}, {"condition:prone", -2}}));
  Weapon odd{"odd", "melee", 0.0, 0, {"glowing"}};
  bool refused = false;
  try {
    (void)melee_modifiers(&odd, false, 1, {}, false, rules);
  } catch (const ProfileError&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
}

void shooting(const RulesConfig& rules) {
  RIVEN_CHECK(shot_tn("none", rules) == 8 && shot_tn("hard", rules) == 12);
  bool refused = false;
  try {
    (void)shot_tn("bunker", rules);
  } catch (const RulesDataError&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
  Weapon rifle{"rifle", "ranged", 24.0, 0, {"piercing"}};
  RIVEN_CHECK(effective_cover("hard", {"exposed"}, nullptr, rules) == "none");
  RIVEN_CHECK(effective_cover("hard", {"exposed", "hunkered"}, nullptr, rules) == "none");
  RIVEN_CHECK(effective_cover("none", {"hunkered"}, nullptr, rules) == "soft");
  RIVEN_CHECK(effective_cover("hard", {"hunkered", "prone"}, nullptr, rules) == "hard");
  RIVEN_CHECK(effective_cover("soft", {}, &rifle, rules) == "none");
  RIVEN_CHECK(effective_cover("soft", {"hunkered"}, &rifle, rules) == "soft");
  Weapon bow{"bow", "ranged", 18.0, 0, {"accurate"}};
  const auto mods = shot_modifiers(&bow, {"pinned", "aiming"}, rules);
  RIVEN_CHECK((mods == std::vector<Modifier>{{"trait:accurate", 1}, {"condition:aiming", 1}, {"condition:pinned", -1}}));
  RIVEN_CHECK(in_range(bow, 18.0) && !in_range(bow, 18.5));
  RIVEN_CHECK(!may_shoot_into_melee(false, rules) && may_shoot_into_melee(true, rules));
  RIVEN_CHECK(shot_effect(Band::Miss, rules).complication && shot_effect(Band::Partial, rules).shooter_exposed);
  RIVEN_CHECK(shot_effect(Band::Critical, rules).push_distance == 3.0);
}

}  // namespace

int main() {
  const RulesConfig rules = riven::testing::riven_v01();
  melee_outcomes(rules);
  melee_mods(rules);
  shooting(rules);
  return RIVEN_TEST_RESULT();
}
