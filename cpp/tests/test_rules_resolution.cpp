// The resolution seam: the variant the rules select, and RIVEN's engine behind it.
#include <memory>

#include "check.hpp"
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

  for (const System other : {System::Invictus, System::NewWorld, System::RiddleOfSteel}) {
    auto copy = std::make_shared<RulesConfig>(*rules);
    copy->system = other;
    bool refused = false;
    try {
      (void)make_resolution(copy);
    } catch (const NotPorted&) {
      refused = true;
    }
    RIVEN_CHECK(refused);
  }
  RIVEN_CHECK((ported_systems() == std::vector<std::string>{"riven"}));
  return RIVEN_TEST_RESULT();
}
