// New World's dice engine (riven/rules/systems/new_world): rank, bonus and Luck from keywords,
// success and snake eyes, RIVEN's bands, the passive difficulty of a shot, helpers before the
// roll and their shared risk, Luck after it, the opposed melee with the hand-over to the
// defender, and the Oracle's choices, on scripted dice. The [new_world] numbers copy
// riven_env/rules/data/new-world.toml; tests/test_native_new_world.py checks the engine against
// the Python one on the real data.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/systems/new_world.hpp"
#include "rules_fixture.hpp"

namespace {

using namespace riven::rules;
using namespace riven::rules::new_world;

Fighter fighter(int might, int agility, int wit, int resolve, std::vector<std::string> keywords = {}) {
  return Fighter{might, agility, wit, resolve, 4, std::move(keywords)};
}

void reading(const NewWorldRules& s) {
  const Fighter hero = fighter(3, 2, 1, 4, {"hero"});
  RIVEN_CHECK(rank_of(hero, s) == 2 && rank_of(fighter(3, 2, 1, 4, {"minion"}), s) == 0);
  RIVEN_CHECK(rank_of(fighter(3, 2, 1, 4, {"beast"}), s) == 1);  // no ranked keyword: the default
  RIVEN_CHECK(bonus_of(hero, "might", s) == 6);
  RIVEN_CHECK(bonus_of(fighter(9, 2, 1, 4, {"hero"}), "might", s) == 9);  // the roll limit (RAW)
  RIVEN_CHECK(luck_of(hero, s) == 3 && luck_of(fighter(1, 1, 1, 1, {"hero", "leader"}), s) == 3);
  RIVEN_CHECK(luck_of(fighter(1, 1, 1, 1), s) == 1);
  RIVEN_CHECK(!succeeds({1, 1}, 20, 5, s));  // snake eyes always fails
  RIVEN_CHECK(succeeds({3, 4}, 11, 11, s) && !succeeds({3, 4}, 10, 11, s));
  RIVEN_CHECK(band_of({3, 4}, 16, 11, s) == Band::Critical && band_of({3, 4}, 15, 11, s) == Band::Hit);
  RIVEN_CHECK(band_of({3, 4}, 10, 11, s) == Band::Miss);
  RIVEN_CHECK((melee_outcome({3, 3}, 10, {2, 2}, 10, s) == MeleeReading{MeleeOutcome::Parry, Winner::None, 0}));
  RIVEN_CHECK((melee_outcome({4, 4}, 11, {2, 2}, 10, s) == MeleeReading{MeleeOutcome::Recoil, Winner::Attacker, 1}));
  RIVEN_CHECK((melee_outcome({3, 3}, 13, {2, 2}, 10, s) == MeleeReading{MeleeOutcome::Wound, Winner::Attacker, 3}));
  RIVEN_CHECK(
      (melee_outcome({3, 3}, 17, {2, 2}, 10, s) == MeleeReading{MeleeOutcome::Critical, Winner::Attacker, 7}));
  RIVEN_CHECK((melee_outcome({1, 1}, 20, {3, 3}, 5, s) == MeleeReading{MeleeOutcome::Parry, Winner::None, 15}));
  // The defender's snake eyes fails its defence: the attacker wins by at least 1.
  RIVEN_CHECK((melee_outcome({3, 3}, 8, {1, 1}, 10, s) == MeleeReading{MeleeOutcome::Recoil, Winner::Attacker, 1}));
  NewWorldRules strikes = s;
  strikes.defender_strikes_back = true;
  RIVEN_CHECK(
      (melee_outcome({3, 3}, 10, {4, 4}, 14, strikes) == MeleeReading{MeleeOutcome::Wound, Winner::Defender, 4}));
}

void shots_and_luck(const NewWorldSystem& system) {
  RollFacts facts;
  facts.profile = fighter(3, 2, 1, 4);   // Agility 2 + 1 + rank 1: bonus 4
  facts.opponent = fighter(3, 3, 1, 4);  // passive difficulty 7 + 3 + 1 + 1 = 12
  facts.cover = "soft";
  facts.helpers = 2;  // shots take no help
  facts.luck = 2;
  ScriptedDice dice({4, 3});
  NewWorldRoll roll = system.roll_test("shot", "agility", 2, 8, {}, facts, dice);
  RIVEN_CHECK(dice.left() == 0 && roll.rolled && roll.bonus == 4 && roll.difficulty == 12);
  RIVEN_CHECK((roll.modifiers == std::vector<Modifier>{{"cover:soft", -1}}));
  RIVEN_CHECK(total(roll, system.settings()) == 10 && result(roll, system.settings()) == Band::Miss);
  // RAW: each situational modifier within -2..+2 on its own; the sum is not clamped.
  ScriptedDice more({4, 3});
  const NewWorldRoll clamped_roll =
      system.roll_test("shot", "agility", 2, 8, {{"charge", 5}, {"aim", 2}}, facts, more);
  RIVEN_CHECK((clamped_roll.modifiers == std::vector<Modifier>{{"charge", 2}, {"aim", 2}, {"cover:soft", -1}}));
  RIVEN_CHECK(total(clamped_roll, system.settings()) == 14);  // 7 + 4 + 2 + 2 - 1
  // Two points turn the Miss into a Hit: Luck is offered, and the Oracle spends it.
  RIVEN_CHECK((system.spend_options(roll) == std::vector<std::string>{"luck"}));
  const OracleChoice choice = system.oracle_choice(roll, {"luck"}, "m");
  RIVEN_CHECK(choice.option == "luck" && choice.rule == "new-world:luck_turns_it");
  RIVEN_CHECK(choice.text == "m spends Luck: 2 point(s) change the result (2 held).");
  ScriptedDice none;
  roll = system.apply_spend(roll, "luck", none);
  roll = system.apply_spend(roll, "luck", none);
  RIVEN_CHECK(none.used() == 0 && roll.luck_spent == 2 && system.spend_options(roll).empty());
  const Result closed = system.finalise(roll);
  RIVEN_CHECK(closed.result == Band::Hit && closed.rolled_result == Band::Miss && closed.tn == 12);
  RIVEN_CHECK((closed.aftermath == std::vector<Aftermath>{{"actor", "resource", -2, "luck", "luck spent"}}));
  RIVEN_CHECK(closed.detail.success && closed.detail.margin == 0 && closed.detail.rolled_total == 10);
  // A Hit that one more point cannot lift to a Critical is left alone.
  ScriptedDice high({5, 6});
  const NewWorldRoll hit = system.roll_test("shot", "agility", 2, 8, {}, facts, high);
  RIVEN_CHECK(result(hit, system.settings()) == Band::Hit && system.spend_options(hit).empty());
  // No Luck turns snake eyes (RAW).
  ScriptedDice snake({1, 1});
  const NewWorldRoll lost = system.roll_test("shot", "agility", 2, 0, {{"m", 9}}, facts, snake);
  RIVEN_CHECK(result(lost, system.settings()) == Band::Miss && system.spend_options(lost).empty());
}

void helpers(const NewWorldSystem& system) {
  RollFacts facts;
  facts.profile = fighter(3, 2, 1, 4);  // Resolve 4 + 1 + 1: bonus 6
  facts.helpers = 3;
  facts.helper_models = {5, 2, 7};
  ScriptedDice dice({1, 2});
  NewWorldRoll roll = system.roll_test("rally", "resolve", 4, 12, {}, facts, dice);
  RIVEN_CHECK(!roll.rolled && dice.used() == 0 && roll.helpers_available == 2 && roll.difficulty == 15);
  RIVEN_CHECK((roll.helper_models == std::vector<int>{5, 2}));
  RIVEN_CHECK((system.spend_options(roll) == std::vector<std::string>{"help:0", "help:1", "help:2"}));
  // 10 of 36 rolls reach 15 alone (2d6 >= 9): the Oracle calls both helpers.
  const OracleChoice choice = system.oracle_choice(roll, system.spend_options(roll), "m");
  RIVEN_CHECK(choice.option == "help:2" && choice.rule == "new-world:helpers");
  RIVEN_CHECK(choice.text == "m succeeds on 10 of 36 rolls alone: it calls 2 helper(s) (+2).");
  bool refused = false;
  try {
    (void)system.apply_spend(roll, "help:3", dice);
  } catch (const IllegalAction&) {
    refused = true;
  }
  RIVEN_CHECK(refused && dice.used() == 0);
  roll = system.apply_spend(roll, "help:1", dice);
  RIVEN_CHECK(roll.rolled && dice.left() == 0 && roll.helpers == 1 && (roll.helper_models == std::vector<int>{5}));
  RIVEN_CHECK(total(roll, system.settings()) == 10 && roll.rolled_total == 10);
  // A failure by 5 or more: the helper shares it (RAW), as 1 Strain (House).
  const Result closed = system.finalise(roll);
  RIVEN_CHECK(closed.result == Band::Miss && closed.detail.helpers == 1 && closed.detail.helper_bonus == 1);
  RIVEN_CHECK((closed.aftermath == std::vector<Aftermath>{{"model:5", "strain", 1, "", "shared risk"}}));
  RIVEN_CHECK((closed.spends == std::vector<std::string>{"help:1"}));
  // Resist rolls take no help.
  ScriptedDice resist({3, 3});
  RIVEN_CHECK(system.roll_test("resist", "resolve", 4, 8, {}, facts, resist).rolled);
}

void melee(const NewWorldSystem& system) {
  const NewWorldRules& s = system.settings();
  // 8 + 5 + 2 against 7 + 4: a margin of 4, a wound. One attacker point cannot make it a
  // Critical, so the choice is the defender's at once; its two points bring it to a recoil.
  const Side attacker{fighter(3, 2, 1, 4), {{"charge", 2}}, 1};
  const Side defender{fighter(3, 2, 1, 4, {"minion"}), {}, 2};
  ScriptedDice dice({4, 4, 4, 3});
  NewWorldRoll roll = system.start_melee(attacker, defender, dice);
  RIVEN_CHECK(roll.is_melee && roll.chooser == Chooser::Target && margin(roll, s) == 4);
  RIVEN_CHECK(roll.bonus == 5 && roll.melee_bonus == 4 && result(roll, s) == Band::Hit);
  RIVEN_CHECK((system.spend_options(roll) == std::vector<std::string>{"luck"}));
  RIVEN_CHECK(system.oracle_choice(roll, {"luck"}, "d").option == "luck");
  ScriptedDice none;
  roll = system.apply_spend(roll, "luck", none);
  roll = system.apply_spend(roll, "luck", none);
  RIVEN_CHECK((roll.spends == std::vector<std::string>{"defender:luck", "defender:luck"}));
  RIVEN_CHECK(system.spend_options(roll).empty() && !system.accept(roll));
  const Result closed = system.finalise(roll);
  RIVEN_CHECK(closed.is_melee && closed.outcome == MeleeOutcome::Recoil && closed.winner == Winner::Attacker);
  RIVEN_CHECK(closed.recoil_distance == 2.0 && closed.wounds == 0 && closed.detail.defender_luck_spent == 2);
  RIVEN_CHECK((closed.aftermath == std::vector<Aftermath>{{"target", "resource", -2, "luck", "luck spent"}}));
  // The attacker first: a point lifts a margin of 6 to a Critical. Accepting hands the roll to
  // the defender only if its Luck can change the outcome (two points leave a wound: no).
  // The charge's +3 counts +2 (each situational modifier within -2..+2).
  const Side charger{fighter(3, 2, 1, 4), {{"charge", 3}}, 1};
  ScriptedDice more({6, 5, 4, 4});
  const NewWorldRoll strike = system.start_melee(charger, defender, more);
  RIVEN_CHECK(strike.chooser == Chooser::Actor && margin(strike, s) == 6);
  RIVEN_CHECK((system.spend_options(strike) == std::vector<std::string>{"luck"}));
  RIVEN_CHECK(!system.accept(strike));
}

}  // namespace

int main() {
  auto rules = std::make_shared<const RulesConfig>(riven::testing::new_world_v01());
  const NewWorldSystem system(rules);
  reading(rules->new_world);
  shots_and_luck(system);
  helpers(system);
  melee(system);
  RIVEN_CHECK((system.choice_vocabulary() == std::vector<std::pair<std::string, std::string>>{
                                                 {"allocate", "help:0"},
                                                 {"allocate", "help:1"},
                                                 {"allocate", "help:2"},
                                                 {"spend", "luck"}}));
  bool refused = false;
  try {
    const NewWorldSystem none(std::make_shared<const RulesConfig>(riven::testing::riven_v01()));
  } catch (const RulesDataError&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
  return RIVEN_TEST_RESULT();
}
