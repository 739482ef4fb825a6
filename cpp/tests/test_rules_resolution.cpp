// The resolution seam: the variant the rules select, RIVEN's engine behind it, and Invictus's
// (RIVEN's activation, Out checks and shot table; its own rolls refused by the 2d6 functions).
#include <memory>

#include "check.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/resolution.hpp"
#include "rules_fixture.hpp"

namespace {

using namespace riven::rules;

}  // namespace

int main() {
  auto rules = std::make_shared<RulesConfig>(riven::testing::riven_v01());
  const ResolutionSystem system = make_resolution(rules);
  RIVEN_CHECK(std::holds_alternative<RivenSystem>(system));
  ScriptedDice dice({4, 1, 6, 3, 3, 6, 6, 1, 1, 4, 6});
  RIVEN_CHECK(roll_activation(system, 4, 3, dice).actions == 2);
  const TestRoll roll = roll_test(system, "rally", "resolve", 2, 8, {}, dice);
  RIVEN_CHECK(roll.result == Band::Partial && finalise(system, roll).total == 8);
  RIVEN_CHECK((spend_options(system, roll, 2, 0, 6) == std::vector<Spend>{Spend::Reroll0, Spend::Boost}));
  RIVEN_CHECK(resolve_melee(system, 3, 2, {}, {}, dice).outcome == MeleeOutcome::Critical);  // 15 vs 4
  RIVEN_CHECK(roll_out_check(system, 5, dice).out);                                          // 4 < 5
  RIVEN_CHECK(roll_complication(system, dice).roll == 6 && dice.left() == 0);
  RIVEN_CHECK(shot_tn(system, "soft") == 10 && shot_effect(system, Band::Critical).push_distance == 3.0);

  {
    // Invictus: the system is ported; without its [invictus] table the rules are refused.
    auto copy = std::make_shared<RulesConfig>(*rules);
    copy->system = System::Invictus;
    copy->system_name = "invictus";
    bool refused = false;
    try {
      (void)make_resolution(copy);
    } catch (const RulesDataError&) {
      refused = true;
    }
    RIVEN_CHECK(refused);
    copy->has_invictus = true;
    copy->invictus.max_dice = 6;
    copy->invictus.tn_step = 2;
    copy->invictus.steps_per_die = 2;
    copy->invictus.standard_tn = 8;
    copy->invictus.cover_score = {{"none", 0}, {"soft", -1}, {"hard", -3}};
    const ResolutionSystem inv = make_resolution(copy);
    RIVEN_CHECK(std::holds_alternative<invictus::InvictusSystem>(inv));
    ScriptedDice same({4, 1, 6, 4});
    RIVEN_CHECK(roll_activation(inv, 4, 3, same).actions == 2);  // RIVEN's activation, as above
    RIVEN_CHECK(roll_out_check(inv, 5, same).out);
    // House invictus.cover.score: the shot's TN is standard_tn - tn_step * score (soft 10, hard 14).
    RIVEN_CHECK(shot_tn(inv, "soft") == 10 && shot_tn(inv, "hard") == 14 &&
                shot_effect(inv, Band::Critical).push_distance == 3.0);
    bool two_dice_refused = false;
    try {
      (void)roll_test(inv, "rally", "resolve", 2, 8, {}, same);
    } catch (const NotPorted&) {
      two_dice_refused = true;
    }
    RIVEN_CHECK(two_dice_refused && same.left() == 0);
  }
  {
    // New World: ported as Invictus is; its own rolls refuse the 2d6 functions.
    const ResolutionSystem nw =
        make_resolution(std::make_shared<const RulesConfig>(riven::testing::new_world_v01()));
    RIVEN_CHECK(std::holds_alternative<new_world::NewWorldSystem>(nw));
    ScriptedDice same({4, 1, 6, 4});
    RIVEN_CHECK(roll_activation(nw, 4, 3, same).actions == 2);  // RIVEN's activation, as above
    RIVEN_CHECK(roll_out_check(nw, 5, same).out);
    RIVEN_CHECK(shot_tn(nw, "soft") == 10);
    bool two_dice_refused = false;
    try {
      (void)finalise(nw, TestRoll{});
    } catch (const NotPorted&) {
      two_dice_refused = true;
    }
    RIVEN_CHECK(two_dice_refused && same.left() == 0);
  }
  {
    // The Riddle of Steel: ported too (its d10 pools, tests and Combat Round are its engine's
    // methods); without its [riddle_of_steel] table the rules are refused.
    auto copy = std::make_shared<RulesConfig>(*rules);
    copy->system = System::RiddleOfSteel;
    bool refused = false;
    try {
      (void)make_resolution(copy);
    } catch (const RulesDataError&) {
      refused = true;
    }
    RIVEN_CHECK(refused);
    const ResolutionSystem ros =
        make_resolution(std::make_shared<const RulesConfig>(riven::testing::riddle_of_steel_v01()));
    RIVEN_CHECK(std::holds_alternative<riddle_of_steel::RiddleOfSteelSystem>(ros));
    ScriptedDice same({4, 1, 6, 4});
    RIVEN_CHECK(roll_activation(ros, 4, 3, same).actions == 2);  // RIVEN's activation, as above
    RIVEN_CHECK(roll_out_check(ros, 5, same).out);
    RIVEN_CHECK(shot_tn(ros, "soft") == 7 && shot_effect(ros, Band::Critical).push_distance == 3.0);  // RoS's ATN
    bool two_dice_refused = false;
    try {
      (void)roll_test(ros, "rally", "resolve", 2, 8, {}, same);
    } catch (const NotPorted&) {
      two_dice_refused = true;
    }
    RIVEN_CHECK(two_dice_refused && same.left() == 0);
  }
  RIVEN_CHECK((ported_systems() == std::vector<std::string>{"riven", "invictus", "new-world", "riddle-of-steel"}));
  return RIVEN_TEST_RESULT();
}
