// The activation roll and the 2d6 tests with their spends, on scripted dice and on the seeded
// stream (the reference values are the Python engine's for numpy.random.default_rng(42)).
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "riven/rules/activation.hpp"
#include "riven/rules/tests_2d6.hpp"
#include "rules_fixture.hpp"

namespace {

using namespace riven::rules;

uint128 join(unsigned long long high, unsigned long long low) { return (static_cast<uint128>(high) << 64) | low; }

Pcg64 seed_42() {
  return Pcg64(Pcg64State{join(0xcea44f6798798f2aULL, 0xacbc7c9d68860ac8ULL),
                          join(0xfa505436c9a8416eULL, 0x66caf2e28d25abffULL), false, 0});
}

void activation_table(const RulesConfig& rules) {
  RIVEN_CHECK(classify_activation({3}, 4, rules).rule == "no_successes");
  RIVEN_CHECK(classify_activation({4}, 4, rules).rule == "one_success_clean");
  const ActivationResult one = classify_activation({1, 1, 6}, 4, rules);
  RIVEN_CHECK(one.actions == 1 && one.turn_passes && one.rule == "one_success_with_failures");
  const ActivationResult many = classify_activation({6, 4, 1}, 4, rules);
  RIVEN_CHECK(many.actions == 2 && !many.turn_passes && many.successes == 2);
  bool refused = false;
  try {
    (void)classify_activation({}, 4, rules);
  } catch (const IllegalAction&) {
    refused = true;
  }
  RIVEN_CHECK(refused);

  RulesConfig sbh = rules;
  sbh.activation.turnover = Turnover::Sbh;
  RIVEN_CHECK(classify_activation({1}, 4, sbh).turn_passes);
  RIVEN_CHECK(!classify_activation({4, 1}, 4, sbh).turn_passes);
  RIVEN_CHECK(classify_activation({4, 1, 1}, 4, sbh).turn_passes);
  sbh.activation.sbh_no_success_passes = false;
  RIVEN_CHECK(!classify_activation({1}, 4, sbh).turn_passes);
}

void refused_rolls_draw_nothing(const RulesConfig& rules) {
  ScriptedDice dice({4, 1, 6});
  bool refused = false;
  try {
    (void)roll_activation(4, 4, dice, rules);
  } catch (const IllegalAction&) {
    refused = true;
  }
  RIVEN_CHECK(refused && dice.used() == 0);
  const ActivationResult result = roll_activation(4, 3, dice, rules);
  RIVEN_CHECK((result.dice == std::vector<int>{4, 1, 6}) && result.actions == 2 && dice.left() == 0);
  bool exhausted = false;
  try {
    (void)roll_activation(4, 1, dice, rules);
  } catch (const std::out_of_range&) {
    exhausted = true;
  }
  RIVEN_CHECK(exhausted);
}

void spends(const RulesConfig& rules) {
  const TestRoll miss = make_test_roll("interact", "wit", 1, 8, {}, {1, 2}, rules);
  RIVEN_CHECK(miss.result == Band::Miss);
  RIVEN_CHECK((spend_options(miss, 5, 0, 6, rules) ==
               std::vector<Spend>{Spend::Reroll0, Spend::Reroll1, Spend::Boost, Spend::Strain}));
  RIVEN_CHECK((spend_options(miss, 0, 0, 6, rules) == std::vector<Spend>{Spend::Strain}));
  const TestRoll equal = make_test_roll("interact", "wit", 0, 8, {}, {2, 2}, rules);
  RIVEN_CHECK((structural_options(equal, rules).front() == Spend::Reroll0));
  const TestRoll critical = make_test_roll("shot", "agility", 4, 8, {}, {6, 6}, rules);
  RIVEN_CHECK(structural_options(critical, rules).empty());
  RIVEN_CHECK(finalise(critical).momentum_gained == 1);

  ScriptedDice six({6});
  const TestRoll rerolled = apply_spend(miss, Spend::Reroll0, six, rules);
  RIVEN_CHECK((rerolled.dice == std::array<int, 2>{6, 2}) && rerolled.result == Band::Hit);
  RIVEN_CHECK(rerolled.momentum_spent == 1);
  ScriptedDice none;
  const TestRoll strained = apply_spend(miss, Spend::Strain, none, rules);
  RIVEN_CHECK(strained.result == Band::Partial && strained.strain_taken == 2);
  bool refused = false;
  try {
    (void)apply_spend(strained, Spend::Strain, none, rules);
  } catch (const IllegalAction&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
  const TestRoll climbed = apply_spend(strained, Spend::Boost, none, rules);
  const TestResult closed = finalise(climbed);
  RIVEN_CHECK(closed.result == Band::Hit && closed.rolled_result == Band::Miss);
  RIVEN_CHECK((closed.spends == std::vector<Spend>{Spend::Strain, Spend::Boost}) && closed.momentum_spent == 2);
}

void seeded_stream(const RulesConfig& rules) {
  Pcg64 rng = seed_42();
  const ActivationResult activation = roll_activation(4, 3, rng, rules);
  RIVEN_CHECK((activation.dice == std::vector<int>{1, 5, 4}) && activation.actions == 2);
  const TestRoll roll = roll_test("shot", "agility", 3, 10, {Modifier{"x", 1}}, rng, rules);
  RIVEN_CHECK((roll.dice == std::array<int, 2>{3, 3}) && roll.result == Band::Partial && roll.total() == 10);
}

}  // namespace

int main() {
  const RulesConfig rules = riven::testing::riven_v01();
  activation_table(rules);
  refused_rolls_draw_nothing(rules);
  spends(rules);
  seeded_stream(rules);
  return RIVEN_TEST_RESULT();
}
