// A soak of the rules core under the sanitizers: many random calls of every function on the
// seeded stream (random Mettle, dice counts, attributes, TNs, modifiers, weapons, Conditions and
// spend chains), checking the invariants each result must hold. The equivalence with the Python
// engine is tests/test_native_rules.py's; this run is for memory and undefined behaviour.
#include <string>
#include <vector>

#include "check.hpp"
#include "riven/rules/casualties.hpp"
#include "riven/rules/complications.hpp"
#include "riven/rules/conditions.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/melee.hpp"
#include "riven/rules/momentum.hpp"
#include "riven/rules/morale.hpp"
#include "riven/rules/resolution.hpp"
#include "riven/rules/shooting.hpp"
#include "riven/rules/strain.hpp"
#include "riven/rules/tests_2d6.hpp"
#include "rules_fixture.hpp"

namespace {

using namespace riven::rules;

int pick(Pcg64& draw, int low, int high) { return static_cast<int>(draw.integers(low, high + 1)); }

std::vector<std::string> some_conditions(Pcg64& draw, const RulesConfig& rules) {
  std::vector<std::string> held;
  const int count = pick(draw, 0, 3);
  for (int i = 0; i < count; ++i) {
    held.push_back(rules.conditions[static_cast<std::size_t>(pick(draw, 0, static_cast<int>(rules.conditions.size()) - 1))].name);
  }
  return held;
}

std::vector<Modifier> some_modifiers(Pcg64& draw) {
  std::vector<Modifier> mods;
  const int count = pick(draw, 0, 3);
  for (int i = 0; i < count; ++i) {
    // Appended, not "m" + to_string(i): GCC 12's -Wrestrict misfires on that inlined concatenation.
    std::string source = "m";
    source += std::to_string(i);
    mods.push_back(Modifier{source, pick(draw, -3, 3)});
  }
  return mods;
}

Weapon some_weapon(Pcg64& draw, const RulesConfig& rules, const std::string& kind) {
  Weapon weapon{"w", kind, kind == "ranged" ? 24.0 : 0.0, pick(draw, -2, 2), {}};
  for (const auto& trait : rules.weapon_traits) {
    if (pick(draw, 0, 3) == 0) weapon.traits.push_back(trait.name);
  }
  return weapon;
}

void soak(const RulesConfig& rules, Pcg64& rng, Pcg64& draw) {
  const int mettle = pick(draw, 1, 7);
  const int dice = pick(draw, 1, rules.activation.max_dice);
  const ActivationResult activation = roll_activation(mettle, dice, rng, rules);
  RIVEN_CHECK(static_cast<int>(activation.dice.size()) == dice && activation.actions <= dice);

  TestRoll roll = roll_test("rally", "resolve", pick(draw, 0, 5), pick(draw, 2, 16), some_modifiers(draw), rng, rules);
  for (int step = 0; step < 4; ++step) {
    const auto options = spend_options(roll, pick(draw, 0, 6), pick(draw, 0, 6), pick(draw, 2, 10), rules);
    if (options.empty()) break;
    const Spend option = options[static_cast<std::size_t>(pick(draw, 0, static_cast<int>(options.size()) - 1))];
    const TestRoll next = apply_spend(roll, option, rng, rules);
    RIVEN_CHECK(next.spends.size() == roll.spends.size() + 1);
    roll = next;
  }
  const TestResult result = finalise(roll);
  RIVEN_CHECK(result.total == roll.total() && band_tier(result.result) >= 0 && band_tier(result.result) <= 3);

  const Weapon sword = some_weapon(draw, rules, "melee");
  const auto attacker = melee_modifiers(&sword, pick(draw, 0, 1) == 1, pick(draw, 0, 4), some_conditions(draw, rules),
                                        false, rules);
  const auto defender = melee_modifiers(nullptr, false, pick(draw, 0, 4), some_conditions(draw, rules), true, rules);
  const MeleeResult melee = resolve_melee(pick(draw, 1, 5), pick(draw, 1, 5), attacker, defender, rng, rules);
  RIVEN_CHECK((melee.winner == Winner::None) == (melee.outcome == MeleeOutcome::Parry));

  const Weapon rifle = some_weapon(draw, rules, "ranged");
  const std::string& cover = effective_cover(rules.shooting.cover_order[static_cast<std::size_t>(pick(draw, 0, 2))],
                                             some_conditions(draw, rules), &rifle, rules);
  const auto shot_mods = shot_modifiers(&rifle, some_conditions(draw, rules), rules);
  const TestRoll shot = roll_test("shot", "agility", pick(draw, 1, 5), shot_tn(cover, rules), shot_mods, rng, rules);
  RIVEN_CHECK(shot_result(finalise(shot), cover, rules).cover == cover);

  RIVEN_CHECK(roll_out_check(mettle, rng, rules).mettle == mettle);
  const MoraleResult morale = roll_morale(mettle, rng, rules);
  RIVEN_CHECK(morale.passed == morale.flee_dice.empty());
  const int track = pick(draw, 2, 10);
  const StrainChange strain = gain_strain(pick(draw, 0, track), pick(draw, 0, 6), track, rng, rules);
  RIVEN_CHECK(strain.new_value <= track && strain.overflow == (strain.roll != 0));
  RIVEN_CHECK(roll_complication(rng, rules).roll >= 1);
  const ConditionLimits limits = condition_limits(some_conditions(draw, rules), rules);
  RIVEN_CHECK(limits.move_penalty >= 0.0);
  RIVEN_CHECK(add_momentum(pick(draw, 0, 6), pick(draw, -6, 6), rules) <= rules.momentum.cap);
}

}  // namespace

int main() {
  const RulesConfig rules = riven::testing::riven_v01();
  RulesConfig sbh = rules;
  sbh.activation.turnover = Turnover::Sbh;
  sbh.momentum.boost_ceiling = Band::Critical;
  sbh.momentum.max_rerolls_per_test = 2;
  Pcg64 rng(Pcg64State{12345, 67891, false, 0});
  Pcg64 draw(Pcg64State{999, 1001, false, 0});
  for (int i = 0; i < 10000; ++i) soak(i % 2 == 0 ? rules : sbh, rng, draw);
  return RIVEN_TEST_RESULT();
}
