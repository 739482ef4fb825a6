// The Riddle of Steel's dice engine (riven/rules/systems/riddle_of_steel): d10 pools against a
// TN, Stacking where it can matter and bounded, Fumbles, RIVEN tests as Attribute Tests, a
// profile in RoS terms, and the Combat Round (declarations, the Damage Table, the manoeuvres,
// Feint, the defences, knockdown, Down and Out, the Oracle's rules) on scripted dice: the cases
// of tests/test_rules_riddle_of_steel.py. The [riddle_of_steel] numbers copy
// riven_env/rules/data/riddle-of-steel.toml; tests/test_native_riddle_of_steel.py checks the
// engine against the Python one on the real data.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/systems/riddle_of_steel.hpp"
#include "rules_fixture.hpp"

namespace {

using namespace riven::rules;
using namespace riven::rules::riddle_of_steel;

const RosWeapon kSword{"sword", 6, 6, 2, ""};

Fighter fighter(int index, int pool = 10, int wounds = 2, int proficiency = 4) {
  Fighter f;
  f.index = index;
  f.id = "m" + std::to_string(index);
  f.pool = pool;
  f.brawn = 4;
  f.presence = 4;
  f.resistance = 4;
  f.proficiency = proficiency;
  f.weapon = kSword;
  f.wounds = wounds;
  return f;
}

bool has(const std::vector<std::string>& options, const std::string& option) {
  return std::find(options.begin(), options.end(), option) != options.end();
}

MeleeSession play(const RiddleOfSteelSystem& system, MeleeSession session, const std::vector<std::string>& options,
                  ScriptedDice& dice) {
  for (const std::string& option : options) session = system.apply_choice(session, option, dice);
  return session;
}

std::vector<ExchangeEvent> exchanges(const MeleeSession& session) {
  std::vector<ExchangeEvent> out;
  for (const SessionEvent& event : session.new_events) {
    if (const auto* e = std::get_if<ExchangeEvent>(&event)) out.push_back(*e);
  }
  return out;
}

bool has_effect(const MeleeSession& session, const Effect& effect) {
  return std::find(session.effects.begin(), session.effects.end(), effect) != session.effects.end();
}

void dice(const RiddleOfSteelRules& s) {
  ScriptedDice plain({7, 6, 10, 1, 9});
  const PoolRoll roll = roll_pool(5, 7, plain, s);
  RIVEN_CHECK(roll.successes == 3 && (roll.totals == std::vector<int>{7, 6, 10, 1, 9}) && !roll.fumble);
  // TN 13: a 10 is rerolled and added; 10 + 5 succeeds, 10 + 2 does not.
  ScriptedDice stacked({10, 5, 10, 2, 9});
  const PoolRoll stack = roll_pool(3, 13, stacked, s);
  RIVEN_CHECK((stack.faces == std::vector<std::vector<int>>{{10, 5}, {10, 2}, {9}}) && stack.successes == 1);
  // TN 10: a 10 already succeeds, no stack is rolled.
  ScriptedDice ten({10});
  RIVEN_CHECK((roll_pool(1, 10, ten, s).faces == std::vector<std::vector<int>>{{10}}) && ten.left() == 0);
  // At most max_stacks stacks.
  ScriptedDice tens({10, 10, 10, 10, 10});
  const PoolRoll bounded = roll_pool(1, 41, tens, s);
  RIVEN_CHECK(bounded.faces[0].size() == static_cast<std::size_t>(1 + s.max_stacks) && bounded.totals[0] == 40);
  RIVEN_CHECK(bounded.successes == 0 && tens.left() == 1);
  // A Fumble: no success and two 1s; a 1 on a stack is no fumbling 1.
  ScriptedDice f1({1, 1, 5}), f2({1, 1, 6}), f3({1, 2, 5}), f4({10, 1, 1});
  RIVEN_CHECK(roll_pool(3, 6, f1, s).fumble && !roll_pool(3, 6, f2, s).fumble && !roll_pool(3, 6, f3, s).fumble);
  RIVEN_CHECK(!roll_pool(2, 13, f4, s).fumble);
  RIVEN_CHECK(band_for(3, true, s) == Band::Miss && band_for(1, false, s) == Band::Partial);
  RIVEN_CHECK(band_for(2, false, s) == Band::Hit && band_for(4, false, s) == Band::Critical);
}

void tests(const RiddleOfSteelSystem& system) {
  // Agility 2 -> RoS Agility 4: four dice; RIVEN TN 8 (standard) -> RoS TN 6.
  const std::vector<std::pair<std::vector<int>, Band>> cases{
      {{1, 2, 3, 4}, Band::Miss},
      {{6, 2, 3, 4}, Band::Partial},
      {{6, 7, 3, 4}, Band::Hit},
      {{6, 7, 8, 9}, Band::Critical}};
  for (const auto& [faces, band] : cases) {
    ScriptedDice d(faces);
    const RosTest test = system.roll_test("disengage", "agility", 2, 8, {}, d);
    RIVEN_CHECK(test.pool == 4 && test.tn == 6 && test.result == band && test.ros_attribute == "agility");
  }
  ScriptedDice fumbling({1, 1, 5});
  const RosTest rally = system.roll_test("rally", "resolve", 2, 10, {{"shaken", -1}}, fumbling);
  RIVEN_CHECK(rally.pool == 3 && rally.tn == 8 && rally.fumble && rally.result == Band::Miss);
  RIVEN_CHECK(rally.ros_attribute == "presence");
  // A shot's TN is RoS already; other TNs map by the nearest RIVEN TN, the lower on a tie.
  RIVEN_CHECK(ros_test_tn("shot", 9, system.settings()) == 9 && ros_test_tn("rally", 7, system.settings()) == 5);
  RIVEN_CHECK(ros_test_tn("rally", 11, system.settings()) == 8 && ros_test_tn("rally", 30, system.settings()) == 10);
  RIVEN_CHECK(system.shot_tn("none") == 6 && system.shot_tn("soft") == 7 && system.shot_tn("hard") == 9);
  bool refused = false;
  try {
    (void)system.shot_tn("smoke");
  } catch (const RulesDataError&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
}

void profiles(const RiddleOfSteelSystem& system) {
  const RiddleOfSteelRules& s = system.settings();
  Profile p{2, 3, 1, 2, 4, std::nullopt, {}};
  const Attributes attrs = ros_attributes(p, s);
  RIVEN_CHECK(attrs.brawn == 4 && attrs.agility == 5 && attrs.wits == 3 && attrs.presence == 4);
  RIVEN_CHECK(attrs.coordination == 4 && attrs.resistance == 4);
  RIVEN_CHECK(proficiency(p, s) == 4 && combat_pool(p, s) == 8);
  const Fighter made = system.fighter(0, "p", p, 1, 3, {{"charge", 2}, {"weapon:dagger", -1}, {"outnumbered", -1}});
  RIVEN_CHECK(made.pool == 8 - 3 + 2 - 1 && made.weapon.name == "unarmed" && !made.shield);
  // A listed weapon by name; an unlisted one is the default plus its traits (sorted).
  p.melee = "sword_and_shield";
  const Fighter shielded = system.fighter(0, "p", p, 1, 0, {});
  RIVEN_CHECK(shielded.weapon.dr == 1 && shielded.shield && shielded.shield->name == "heater");
  p.melee = "halberd";
  p.melee_traits = {"shield", "heavy"};
  const RosWeapon halberd = ros_weapon(p, s);
  RIVEN_CHECK(halberd.name == "halberd" && halberd.atn == 6 && halberd.dr == 1 && halberd.shield == "heater");
}

void declarations(const RiddleOfSteelSystem& system) {
  const RiddleOfSteelRules& s = system.settings();
  ScriptedDice none;
  MeleeSession session = system.open_session(fighter(0), fighter(1), none);
  RIVEN_CHECK(session.step == Step::Attack && session.decider() == 0);
  RIVEN_CHECK(std::holds_alternative<RoundStartEvent>(session.new_events.front()));
  session = play(system, session, {"swing:VII", "5"}, none);
  RIVEN_CHECK(session.step == Step::Defence && session.decider() == 1 && (session.pools == std::array<int, 2>{5, 10}));
  RIVEN_CHECK(!has(choice_options(session, s), "block"));  // no shield
  session = play(system, session, {"parry", "4"}, none);
  RIVEN_CHECK(session.step == Step::Feint && session.decider() == 0 && (session.pools == std::array<int, 2>{5, 6}));
  bool refused = false;
  try {
    (void)system.apply_choice(system.open_session(fighter(0), fighter(1), none), "swing:IX", none);
  } catch (const RulesDataError& error) {
    refused = std::string(error.what()).find("not legal") != std::string::npos;
  }
  RIVEN_CHECK(refused);
}

void damage(const RiddleOfSteelSystem& system) {
  const RiddleOfSteelRules& s = system.settings();
  // 5 dice vs ATN 6: 3 successes; 4 dice vs DTN 6: 2 -> margin 1; level 3 at VII: a broken arm.
  ScriptedDice d({6, 7, 8, 2, 3, 6, 9, 2, 3});
  MeleeSession session = play(system, system.open_session(fighter(0), fighter(1), d),
                              {"swing:VII", "5", "parry", "4", "none"}, d);
  const ExchangeEvent hit = exchanges(session).front();
  RIVEN_CHECK(hit.margin == 1 && hit.outcome == ExchangeOutcome::Hit && hit.hit);
  RIVEN_CHECK(hit.hit->damage == 3 && hit.hit->wound_level == 3 && hit.hit->wound_text == "a broken arm");
  RIVEN_CHECK(hit.hit->pain == 7 - 4 && (session.pools == std::array<int, 2>{5, 6 - 4}));
  RIVEN_CHECK((session.effects == std::vector<Effect>{{EffectKind::Pain, 1, 3, ""},
                                                      {EffectKind::Condition, 1, 0, "bleeding"},
                                                      {EffectKind::Wound, 1, 1, ""}}));
  RIVEN_CHECK(session.exchange == 2 && session.attacker == 0 && session.step == Step::Attack);
  RIVEN_CHECK(session.fighters[1].wounds == 1);
  // A tie: no damage, the attacker keeps the initiative.
  ScriptedDice tie({6, 2, 2, 2, 2, 6, 2});
  session = play(system, system.open_session(fighter(0), fighter(1), tie), {"swing:V", "5", "parry", "2", "none"}, tie);
  RIVEN_CHECK(exchanges(session).front().outcome == ExchangeOutcome::Tie && session.effects.empty());
  RIVEN_CHECK(session.exchange == 2 && session.attacker == 0);
  // The winning defender attacks next; no Dodge and Break right after its own attack.
  ScriptedDice won({2, 2, 6, 6, 2, 2, 2});
  session = play(system, system.open_session(fighter(0), fighter(1), won), {"swing:V", "2", "parry", "2", "none"}, won);
  RIVEN_CHECK(session.exchange == 2 && session.attacker == 1 && session.decider() == 1);
  MeleeSession asked = session;
  asked.step = Step::Defence;
  RIVEN_CHECK(!has(choice_options(asked, s), "dodge_break"));
  session = play(system, session, {"swing:V", "3", "none", "none"}, won);
  RIVEN_CHECK(session.done() && session.end_reason == "the round's exchanges are over");
  RIVEN_CHECK(std::holds_alternative<RoundEndEvent>(session.new_events.back()));
}

void manoeuvres(const RiddleOfSteelSystem& system) {
  const RiddleOfSteelRules& s = system.settings();
  ScriptedDice d({6, 6, 6, 6, 6, 6, 6, 2});
  MeleeSession thrust =
      play(system, system.open_session(fighter(0), fighter(1, 10, 5), d), {"thrust:VII", "2", "none", "none"}, d);
  RIVEN_CHECK(exchanges(thrust).front().attack_dice.size() == 3 && exchanges(thrust).front().attack_bonus_dice == 1);
  RIVEN_CHECK(exchanges(thrust).front().hit->damage == 4 + 2 + 3 - 1 - 4);
  MeleeSession full =
      play(system, system.open_session(fighter(0), fighter(1, 10, 5), d), {"thrust_full:VII", "2", "none", "none"}, d);
  RIVEN_CHECK(full.pools[0] == 10 - 3 && exchanges(full).front().hit->damage == 4 + 2 + 3 - 4);
  MeleeSession heavy =
      play(system, system.open_session(fighter(0), fighter(1, 10, 5), d), {"swing_heavy:VII", "2", "none", "none"}, d);
  RIVEN_CHECK(heavy.pools[0] == 10 - 3 && exchanges(heavy).front().hit->damage == 4 + 2 + 1 + 1 - 4);
  // Feint near (IV -> V): 1 to call, 1 a die; far (I -> V): 2 a die.
  ScriptedDice twos(std::vector<int>(18, 2));
  MeleeSession feint =
      play(system, system.open_session(fighter(0), fighter(1), twos), {"swing:IV", "4", "parry", "3", "V:2"}, twos);
  RIVEN_CHECK(exchanges(feint).front().zone == "V" && exchanges(feint).front().feint == "IV>V:2");
  RIVEN_CHECK(exchanges(feint).front().attack_dice.size() == 6 && feint.pools[0] == 10 - 4 - 1 - 2);
  MeleeSession far =
      play(system, system.open_session(fighter(0), fighter(1), twos), {"swing:I", "4", "parry", "3"}, twos);
  const std::vector<std::string> options = choice_options(far, s);
  RIVEN_CHECK(has(options, "V:2") && !has(options, "V:3") && has(options, "II:5"));
  RIVEN_CHECK(play(system, far, {"V:2"}, twos).pools[0] == 10 - 4 - 1 - 2 * 2);
  // No Feint below Proficiency 4: the exchange rolls at once.
  ScriptedDice low({2, 2, 2, 2});
  MeleeSession unskilled = play(system, system.open_session(fighter(0, 10, 2, 3), fighter(1), low),
                                {"swing:IV", "2", "parry", "2"}, low);
  RIVEN_CHECK(exchanges(unskilled).size() == 1);
}

void defences(const RiddleOfSteelSystem& system) {
  const RiddleOfSteelRules& s = system.settings();
  ScriptedDice brk({2, 2, 4});
  MeleeSession session =
      play(system, system.open_session(fighter(0), fighter(1), brk), {"swing:IV", "2", "dodge_break", "1", "none"},
           brk);
  RIVEN_CHECK(session.done() && session.end_reason.find("broke off") != std::string::npos);
  RIVEN_CHECK(exchanges(session).front().dtn == 4);
  // Dodge and Stand: the steal costs 2 dice, or is free after a total failure.
  ScriptedDice stand({6, 2, 7, 7});
  session = play(system, system.open_session(fighter(0), fighter(1), stand),
                 {"swing:IV", "2", "dodge_stand", "2", "none"}, stand);
  RIVEN_CHECK(session.step == Step::Steal && session.decider() == 1 && exchanges(session).front().steal == "may pay");
  ScriptedDice none;
  const MeleeSession stolen = system.apply_choice(session, "steal", none);
  RIVEN_CHECK(stolen.attacker == 1 && stolen.pools[1] == 10 - 2 - 2);
  RIVEN_CHECK(std::holds_alternative<StealEvent>(stolen.new_events[stolen.new_events.size() - 1]));
  const MeleeSession kept = system.apply_choice(session, "keep", none);
  RIVEN_CHECK(kept.attacker == 0 && kept.pools[1] == 10 - 2);
  ScriptedDice free({2, 2, 7});
  session = play(system, system.open_session(fighter(0), fighter(1), free),
                 {"swing:IV", "2", "dodge_stand", "1", "none"}, free);
  RIVEN_CHECK(session.step == Step::Attack && session.attacker == 1 && session.pools[1] == 9);
  // Duck and Weave costs the attacker half its dice.
  ScriptedDice duck({2, 2, 2, 2, 2, 9, 9});
  session = play(system, system.open_session(fighter(0), fighter(1), duck),
                 {"swing:IV", "5", "duck_weave", "2", "none"}, duck);
  RIVEN_CHECK(exchanges(session).front().dtn == 9 && session.attacker == 1 && session.pools[0] == 10 - 5 - 2);
  RIVEN_CHECK(exchanges(session).front().attacker_pool_lost == 2);
  // Counter: 2 dice at once, the attacker's successes as bonus dice; a failed one gives a success.
  ScriptedDice counter({6, 2, 6, 6, 2, 2, 2, 2});
  session = play(system, system.open_session(fighter(0), fighter(1), counter),
                 {"swing:IV", "2", "counter", "2", "none"}, counter);
  RIVEN_CHECK(session.pools[1] == 10 - 2 - 2 && session.attacker == 1 && (session.bonus == std::array<int, 2>{0, 1}));
  session = play(system, session, {"swing:IV", "3", "none", "none"}, counter);
  RIVEN_CHECK(exchanges(session).back().attack_dice.size() == 4);
  ScriptedDice failed({6, 2, 6, 2});
  session = play(system, system.open_session(fighter(0), fighter(1, 10, 5), failed),
                 {"swing:VII", "2", "counter", "2", "none"}, failed);
  RIVEN_CHECK(exchanges(session).front().counter_failed && exchanges(session).front().margin == 1);
  RIVEN_CHECK(exchanges(session).front().outcome == ExchangeOutcome::Hit);
  // A fumbled attack loses half the dice spent.
  ScriptedDice fumble({1, 1, 2, 3});
  session =
      play(system, system.open_session(fighter(0), fighter(1), fumble), {"swing:IV", "4", "none", "none"}, fumble);
  RIVEN_CHECK(exchanges(session).front().attack_fumble && session.pools[0] == 10 - 4 - 2);
  // Block needs a shield, which armours its zones.
  Fighter shielded = fighter(1, 10, 5);
  shielded.shield = s.shields.front();
  ScriptedDice block({6, 6, 6, 6, 2});
  session = system.open_session(fighter(0), shielded, block);
  MeleeSession asked = session;
  asked.step = Step::Defence;
  RIVEN_CHECK(has(choice_options(asked, s), "block"));
  session = play(system, session, {"swing:IV", "4", "block", "1", "none"}, block);
  const ExchangeEvent blocked = exchanges(session).front();
  RIVEN_CHECK(blocked.dtn == 5 && blocked.hit->armour == 4 && blocked.hit->damage == 4 + 2 + 4 - 4 - 4);
  RIVEN_CHECK(zone_armour(shielded, "V") == 0);
}

void wounds(const RiddleOfSteelSystem& system) {
  // Margin 1 at VII level 3 (shock 4) leaves 0 dice: Resistance 4 vs TN 2, no success: Prone.
  ScriptedDice knock({6, 6, 2, 2, 6, 1, 1, 1, 1});
  MeleeSession session = play(system, system.open_session(fighter(0), fighter(1, 5), knock),
                              {"swing:VII", "4", "parry", "1", "none"}, knock);
  const ExchangeEvent e = exchanges(session).front();
  RIVEN_CHECK(e.hit->knockdown && e.hit->knockdown->tn == 2 && e.hit->knockdown->prone);
  RIVEN_CHECK(has_effect(session, Effect{EffectKind::Condition, 1, 0, "prone"}));
  ScriptedDice mortal({6, 6, 6, 6, 6});
  session = play(system, system.open_session(fighter(0), fighter(1), mortal), {"swing:V", "5", "none", "none"}, mortal);
  RIVEN_CHECK(session.done() && has_effect(session, Effect{EffectKind::Out, 1, 0, ""}));
  RIVEN_CHECK(session.end_reason.find("slain") != std::string::npos);
  ScriptedDice down({6, 6, 2});
  session = play(system, system.open_session(fighter(0), fighter(1), down), {"swing:IV", "3", "none", "none"}, down);
  RIVEN_CHECK(session.done() && has_effect(session, Effect{EffectKind::Down, 1, 0, ""}));
}

void oracle(const RiddleOfSteelSystem& system) {
  const RiddleOfSteelRules& s = system.settings();
  ScriptedDice fives(std::vector<int>(30, 5));
  MeleeSession session = system.open_session(fighter(0), fighter(1), fives);
  std::vector<std::string> seen;
  while (!session.done()) {
    const std::vector<std::string> legal = choice_options(session, s);
    const OracleChoice choice = oracle_choice(session, legal, "bold", s);
    RIVEN_CHECK(has(legal, choice.option) && choice.rule.starts_with("ros:") && !choice.text.empty());
    seen.push_back(choice.rule);
    session = system.apply_choice(session, choice.option, fives);
  }
  RIVEN_CHECK(seen.front().starts_with("ros:attack:") && has(seen, "ros:attack_dice:bold"));
  // The first attack: a margin-1 swing to V does most (level 3: down) but a thrust there still
  // wounds (level 2), so the Oracle thrusts at V with the bold share of its 10 dice.
  const MeleeSession fresh = system.open_session(fighter(0), fighter(1), fives);
  const OracleChoice attack = oracle_choice(fresh, choice_options(fresh, s), "bold", s);
  RIVEN_CHECK(attack.option == "thrust:V" && attack.rule == "ros:attack:thrust");
  RIVEN_CHECK(attack.text ==
              "m0 aims at zone V (head and neck), where a margin-1 swing deals wound level 3; a margin-1 thrust "
              "still wounds there: one die more.");
  const MeleeSession dice_step = system.apply_choice(fresh, "thrust:V", fives);
  const OracleChoice share = oracle_choice(dice_step, choice_options(dice_step, s), "bold", s);
  RIVEN_CHECK(share.option == "7" &&
              share.text == "m0 (bold stance) commits 7 of its 10 dice (67%) to the first attack.");
  // Python's round: 0.5 x 5 = 2.5 rounds to 2 (ties to even).
  MeleeSession odd = fresh;
  odd.pools = {5, 10};
  odd = system.apply_choice(odd, "swing:V", fives);
  RIVEN_CHECK(oracle_choice(odd, choice_options(odd, s), "balanced", s).option == "2");
  // An unknown profile plays the default stance.
  RIVEN_CHECK(system.stance_for(std::nullopt) == "balanced" && system.stance_for("rampage") == "bold");
}

}  // namespace

int main() {
  const auto rules = std::make_shared<const RulesConfig>(riven::testing::riddle_of_steel_v01());
  const RiddleOfSteelSystem system(rules);
  dice(system.settings());
  tests(system);
  profiles(system);
  declarations(system);
  damage(system);
  manoeuvres(system);
  defences(system);
  wounds(system);
  oracle(system);
  bool refused = false;
  try {
    const RiddleOfSteelSystem none(std::make_shared<const RulesConfig>(riven::testing::riven_v01()));
  } catch (const RulesDataError&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
  return RIVEN_TEST_RESULT();
}
