// Invictus's dice engine (riven/rules/systems/invictus): bands, circumstance, Danger Dice and the
// Narrator's moves, Favourable / Unfavourable, Luck, Critical Health, melee and the Oracle's
// choices, on scripted dice. The [invictus] numbers copy riven_env/rules/data/invictus.toml;
// tests/test_native_invictus.py checks the engine against the Python one on the real data.
#include <memory>
#include <string>
#include <vector>

#include "check.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/systems/invictus.hpp"
#include "rules_fixture.hpp"

namespace {

using namespace riven::rules;
using namespace riven::rules::invictus;

RulesConfig invictus_rules() { return riven::testing::invictus_v01(); }

void reading(const InvictusRules& s) {
  RIVEN_CHECK(read_band({}, s) == IBand::Miss);
  RIVEN_CHECK(read_band({2, 2, 1}, s) == IBand::Miss);
  RIVEN_CHECK(read_band({3, 2, 1}, s) == IBand::Swing);  // RAW: 3-5 Swing (half the time on one die)
  RIVEN_CHECK(read_band({5, 3}, s) == IBand::Swing);
  RIVEN_CHECK(read_band({6, 5, 5}, s) == IBand::Hit);
  RIVEN_CHECK(read_band({6, 1, 6, 2}, s) == IBand::Crit);
  RIVEN_CHECK(riven_band(IBand::Swing) == Band::Partial);
  RIVEN_CHECK((circumstance({}, 8, s) == std::pair{0, 0}));
  RIVEN_CHECK((circumstance({{"a", 1}}, 8, s) == std::pair{1, 0}));
  RIVEN_CHECK((circumstance({{"a", 3}}, 8, s) == std::pair{3, 1}));
  RIVEN_CHECK((circumstance({}, 12, s) == std::pair{-2, 0}));
  RIVEN_CHECK((circumstance({}, 9, s) == std::pair{-1, 0}));  // floor division, as Python's //
  RIVEN_CHECK((circumstance({{"a", -3}}, 12, s) == std::pair{-5, -2}));
  RIVEN_CHECK((raise_choices({6, 4, 4, 2}) == std::vector<int>{1, 3}));
  RIVEN_CHECK((raised({5, 4, 4}, 1, 2) == std::vector<int>{6, 5, 4}));
  RIVEN_CHECK((unfavourable({1, 4}) == std::vector<int>{3, 1}));
  RIVEN_CHECK((unfavourable({1}) == std::vector<int>{1}));
  RIVEN_CHECK((consequence(IBand::Swing, {2, 3}, false, s) == std::pair<std::string, int>{"soft", 3}));
  RIVEN_CHECK((consequence(IBand::Miss, {4}, false, s) == std::pair<std::string, int>{"hard", 4}));
  RIVEN_CHECK((consequence(IBand::Hit, {6}, true, s) == std::pair<std::string, int>{"hard", 6}));
  RIVEN_CHECK((consequence(IBand::Hit, {6}, false, s) == std::pair<std::string, int>{"", 0}));
  RIVEN_CHECK((consequence(IBand::Crit, {6}, true, s) == std::pair<std::string, int>{"", 0}));
}

void rolls(const InvictusSystem& system) {
  RollFacts facts;
  facts.engaged = true;
  facts.conditions = {"prone"};
  facts.wounds_left = 1;
  facts.wounds_max = 3;
  facts.luck = 2;
  // Critical Health: one die fewer (3 - 1), then fray, superior opposition (4 > 3), exposed and
  // critical health add Danger Dice, at most three.
  ScriptedDice dice({5, 2, 1, 3, 2});
  const InvictusRoll roll = system.roll_test("shot", "agility", 3, 8, {}, 4, facts, dice);
  RIVEN_CHECK(dice.left() == 0 && roll.pool == 2);
  RIVEN_CHECK((roll.dice == std::vector<int>{5, 2}) && (roll.danger == std::vector<int>{1, 3, 2}));
  RIVEN_CHECK((roll.factors == std::vector<std::string>{"fray", "superior_opposition", "exposed", "critical_health"}));
  RIVEN_CHECK(roll.critical_health && roll.fray && !roll.favourable && roll.rolled_band == IBand::Swing);
  // Every roll is an Action: no kind keeps its dice at Critical Health.
  ScriptedDice more({1, 1, 1, 1, 1, 1});
  RIVEN_CHECK(system.roll_test("resist", "resolve", 3, 8, {}, std::nullopt, facts, more).pool == 2);
  // House invictus.cover.score: soft cover one Unfavourable step, hard cover two.
  RIVEN_CHECK(system.shot_tn("none") == 8 && system.shot_tn("soft") == 10 && system.shot_tn("hard") == 14);

  const auto options = system.spend_options(roll, std::nullopt);
  RIVEN_CHECK((options == std::vector<std::string>{"luck:0", "luck:1"}));
  RIVEN_CHECK(system.spend_options(roll, 0).empty());
  const InvictusRoll lucky = system.apply_spend(roll, "luck:0");
  RIVEN_CHECK((lucky.dice == std::vector<int>{6, 2}) && lucky.luck_spent == 1);
  bool refused = false;
  try {
    (void)system.apply_spend(roll, "favour:0");
  } catch (const IllegalAction&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
  const Result result = system.finalise(lucky);
  RIVEN_CHECK(result.result == Band::Hit && result.rolled_result == Band::Partial && result.total == 6);
  RIVEN_CHECK((result.aftermath == std::vector<Aftermath>{{"actor", "resource", -1, "luck", "luck spent"}}));
  RIVEN_CHECK(result.detail.move.empty() && result.detail.luck_spent == 1);
  const Result swing = system.finalise(roll);
  RIVEN_CHECK((swing.aftermath == std::vector<Aftermath>{{"actor", "strain", 1, "", "soft move (danger 3)"}}));

  // Favourable: the Oracle takes the raise that gives the best band; a Crit earns Luck.
  ScriptedDice fav({6, 5});
  const InvictusRoll favoured = system.roll_test("rally", "resolve", 2, 4, {}, std::nullopt, RollFacts{}, fav);
  RIVEN_CHECK(favoured.favourable && favoured.danger.empty());
  const OracleChoice choice = system.oracle_choice(favoured, system.spend_options(favoured, 0), "m1", 0);
  RIVEN_CHECK(choice.option == "favour:1" && choice.rule == "invictus:favour_best");
  RIVEN_CHECK(choice.text == "m1's roll is Favourable: it raises the die that gives the best band (Hit -> Crit).");
  const Result crit = system.finalise(system.apply_spend(favoured, "favour:1"));
  RIVEN_CHECK(crit.result == Band::Critical && crit.detail.favour_used);
  RIVEN_CHECK((crit.aftermath == std::vector<Aftermath>{{"actor", "resource", 1, "luck", "crit"}}));
}

void melee(const InvictusSystem& system) {
  Side attacker{3, {{"charge", 2}}, RollFacts{}};
  Side defender{4, {{"weapon:shield", 1}, {"none", 0}}, RollFacts{}};
  ScriptedDice dice({6, 6, 1, 4, 2});
  const InvictusRoll roll = system.start_melee(attacker, defender, dice);
  RIVEN_CHECK(roll.is_melee && roll.pool == 3 && roll.score == 1);  // 2 - 1: Favourable, no extra die
  RIVEN_CHECK((roll.danger == std::vector<int>{4, 2}));  // fray, superior opposition
  RIVEN_CHECK((roll.melee == std::vector<Modifier>{{"weapon:shield", 1}, {"none", 0}}));
  const Result result = system.finalise(roll);
  RIVEN_CHECK(result.is_melee && result.outcome == MeleeOutcome::Critical && result.winner == Winner::Attacker);
  RIVEN_CHECK(result.wounds == 1 && result.dazed && result.condition == "dazed");
}

}  // namespace

int main() {
  auto rules = std::make_shared<const RulesConfig>(invictus_rules());
  const InvictusSystem system(rules);
  reading(rules->invictus);
  rolls(system);
  melee(system);
  bool refused = false;
  try {
    const InvictusSystem none(std::make_shared<const RulesConfig>(riven::testing::riven_v01()));
  } catch (const RulesDataError&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
  return RIVEN_TEST_RESULT();
}
