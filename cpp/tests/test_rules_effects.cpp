// Down/Out, morale, Momentum, Strain, Conditions and the Complication Oracle.
#include <string>
#include <vector>

#include "check.hpp"
#include "riven/rules/casualties.hpp"
#include "riven/rules/complications.hpp"
#include "riven/rules/conditions.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/momentum.hpp"
#include "riven/rules/morale.hpp"
#include "riven/rules/strain.hpp"
#include "rules_fixture.hpp"

namespace {

using namespace riven::rules;

template <class Error, class Function>
bool throws(Function&& function) {
  try {
    function();
  } catch (const Error&) {
    return true;
  }
  return false;
}

void casualties_and_morale(const RulesConfig& rules) {
  RIVEN_CHECK(out_check_from_die(4, 3).out && !out_check_from_die(4, 4).out);
  ScriptedDice dice({4, 5, 4, 3, 5, 1, 1, 2});
  RIVEN_CHECK(roll_out_check(5, dice, rules).out);
  RIVEN_CHECK(!roll_out_check(5, dice, rules).out);
  const MoraleResult passed = roll_morale(4, dice, rules);
  RIVEN_CHECK(passed.passed && passed.flee_dice.empty() && passed.flee_distance == 0.0);
  const MoraleResult failed = roll_morale(4, dice, rules);
  RIVEN_CHECK(!failed.passed && (failed.flee_dice == std::vector<int>{5}) && failed.flee_distance == 8.0);
  RIVEN_CHECK(roll_morale(6, dice, rules).flee_distance == 4.0);
  RIVEN_CHECK((roll_wound_check(4, dice, rules) == std::pair{2, true}));
  RIVEN_CHECK(dice.left() == 0);
  RIVEN_CHECK(stabilise_range(rules) == 3.0);
  RIVEN_CHECK(enabled_morale_triggers(rules).size() == 5);
}

void momentum_and_strain(const RulesConfig& rules) {
  RIVEN_CHECK(momentum_gain("focus", rules) == 1 && momentum_cost("boost", rules) == 2);
  RIVEN_CHECK(throws<RulesDataError>([&] { (void)momentum_cost("luck", rules); }));
  RIVEN_CHECK(add_momentum(5, 4, rules) == 6 && add_momentum(1, -3, rules) == 0);
  RIVEN_CHECK(can_afford(2, "bonus_action", rules) && !can_afford(1, "boost", rules));
  RIVEN_CHECK(momentum_pool_owner(true, rules) == "model" && momentum_pool_owner(false, rules) == "side");
  RIVEN_CHECK(strain_max(3, rules) == 6 && strain_gain_amount("wound", rules) == 1);
  ScriptedDice none;
  const StrainChange kept = gain_strain(2, 3, 6, none, rules);
  RIVEN_CHECK(kept.new_value == 5 && !kept.overflow);
  for (int face = 1; face <= 6; ++face) {
    ScriptedDice one({face});
    const StrainChange over = gain_strain(5, 2, 6, one, rules);
    RIVEN_CHECK(over.overflow && over.new_value == 6 && over.roll == face &&
                over.condition_gained == rules.strain.overflow_table[static_cast<std::size_t>(face - 1)]);
  }
  RIVEN_CHECK(throws<RulesDataError>([&] { (void)gain_strain(1, -1, 6, none, rules); }));
  RIVEN_CHECK(rest_strain(6, rules).new_value == 2 && rest_strain(3, rules).new_value == 0);
  RIVEN_CHECK(can_take_strain(6, 2, 6, rules));
  RulesConfig strict = rules;
  strict.strain.spend_may_overflow = false;
  RIVEN_CHECK(!can_take_strain(5, 2, 6, strict) && can_take_strain(4, 2, 6, strict));
}

void conditions(const RulesConfig& rules) {
  const auto mods = condition_modifiers({"shaken", "dazed", "shaken"}, ModifierKind::Melee, rules);
  RIVEN_CHECK((mods == std::vector<Modifier>{{"condition:dazed", -1}, {"condition:shaken", -1}}));
  const ConditionLimits limits = condition_limits({"dazed", "exhausted", "prone", "pinned"}, rules);
  RIVEN_CHECK(limits.max_actions == 1 && limits.max_dice == 2 && limits.move_penalty == 3.0);
  RIVEN_CHECK((limits.forbids == std::vector<std::string>{"charge", "move"}) && limits.cover_steps == 1);
  RIVEN_CHECK(!limits.ignores_cover && !limits.end_of_turn_wound_check);
  const ConditionLimits none = condition_limits({}, rules);
  RIVEN_CHECK(!none.max_actions && !none.max_dice && none.move_penalty == 0.0);
  RIVEN_CHECK(throws<RulesDataError>([&] { (void)condition_limits({"nonesuch"}, rules); }));
  RIVEN_CHECK(throws<RulesDataError>([&] { (void)modifier_kind_from_name("morale"); }));
  RIVEN_CHECK((conditions_removed_by("rally", {"shaken", "prone", "dazed"}, rules) ==
               std::vector<std::string>{"dazed", "shaken"}));
  RIVEN_CHECK((conditions_expiring("never", {"shaken", "dazed", "prone"}, rules) ==
               std::vector<std::string>{"prone", "shaken"}));
  RIVEN_CHECK(throws<RulesDataError>([&] { (void)conditions_expiring("at_dawn", {}, rules); }));
}

void complications(const RulesConfig& rules) {
  for (int face = 1; face <= 6; ++face) {
    ScriptedDice one({face});
    RIVEN_CHECK(roll_complication(one, rules).roll == face);
  }
  RIVEN_CHECK(throws<std::out_of_range>([&] { (void)complication_entry(7, rules); }));
}

void prepare_checks_the_struct() {
  RulesConfig broken = riven::testing::riven_v01();
  broken.strain.overflow_table.pop_back();
  RIVEN_CHECK(throws<std::invalid_argument>([&] { broken.prepare(); }));
  RulesConfig unsorted = riven::testing::riven_v01();
  std::swap(unsorted.conditions[0], unsorted.conditions[1]);
  RIVEN_CHECK(throws<std::invalid_argument>([&] { unsorted.prepare(); }));
  RulesConfig costless = riven::testing::riven_v01();
  costless.momentum.cost.pop_back();
  RIVEN_CHECK(throws<std::invalid_argument>([&] { costless.prepare(); }));
}

}  // namespace

int main() {
  const RulesConfig rules = riven::testing::riven_v01();
  casualties_and_morale(rules);
  momentum_and_strain(rules);
  conditions(rules);
  complications(rules);
  prepare_checks_the_struct();
  return RIVEN_TEST_RESULT();
}
