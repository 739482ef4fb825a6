// Bindings of riven::rules: the numpy-exact stream, the RulesConfig struct that
// riven_env/native/rules.py fills, and the resolution functions.
//
// Results cross as plain tuples laid out as the fields of the Python dataclasses in
// riven_env/rules/results.py (bands, spends and outcomes by name), so the Python wrapper builds
// the very records the Python engine returns. Every rolling function is bound twice: on Pcg64 (the
// game's stream) and on ScriptedDice (the rule tests' scripted faces).
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "riven/rules/activation.hpp"
#include "riven/rules/casualties.hpp"
#include "riven/rules/complications.hpp"
#include "riven/rules/conditions.hpp"
#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/errors.hpp"
#include "riven/rules/melee.hpp"
#include "riven/rules/momentum.hpp"
#include "riven/rules/morale.hpp"
#include "riven/rules/pcg64.hpp"
#include "riven/rules/resolution.hpp"
#include "riven/rules/results.hpp"
#include "riven/rules/shooting.hpp"
#include "riven/rules/strain.hpp"
#include "riven/rules/systems/invictus.hpp"
#include "riven/rules/systems/new_world.hpp"
#include "riven/rules/tests_2d6.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using namespace riven::rules;

// 128-bit words cross the boundary as (high, low) pairs of 64-bit ints; riven_env/native/random.py
// joins and splits them against numpy's state dictionary.
uint128 join(std::uint64_t high, std::uint64_t low) { return (static_cast<uint128>(high) << 64) | low; }

using StateWords = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, bool, std::uint32_t>;

StateWords state_words(const Pcg64& rng) {
  const Pcg64State& s = rng.state();
  return {static_cast<std::uint64_t>(s.state >> 64), static_cast<std::uint64_t>(s.state),
          static_cast<std::uint64_t>(s.inc >> 64),   static_cast<std::uint64_t>(s.inc),
          s.has_uint32,                               s.uinteger};
}

// ------------------------------------------------------------------ names <-> enums

template <class Enum, std::size_t N>
Enum enum_from(const std::string& value, const char* const (&names)[N], const char* key) {
  for (std::size_t i = 0; i < N; ++i) {
    if (value == names[i]) return static_cast<Enum>(i);
  }
  throw RulesDataError(std::string(key) + " = '" + value + "': not a value the native core knows");
}

const char* const kTurnovers[] = {"raw", "sbh"};
const char* const kRoutes[] = {"straight", "around"};
const char* const kBonusModes[] = {"extra", "replace"};
const char* const kCoverEffects[] = {"", "none", "+1"};
const char* const kSystems[] = {"riven", "invictus", "new-world", "riddle-of-steel"};

Spend spend_from(const std::string& name) {
  if (name == "reroll:0") return Spend::Reroll0;
  if (name == "reroll:1") return Spend::Reroll1;
  if (name == "boost") return Spend::Boost;
  if (name == "strain") return Spend::Strain;
  throw IllegalAction(name + " (not a spend)");
}

// ------------------------------------------------------------------ results as tuples

using Mods = std::vector<std::pair<std::string, int>>;

Mods mods_out(const std::vector<Modifier>& modifiers) {
  Mods out;
  out.reserve(modifiers.size());
  for (const auto& m : modifiers) out.emplace_back(m.source, m.value);
  return out;
}

std::vector<Modifier> mods_in(const Mods& modifiers) {
  std::vector<Modifier> out;
  out.reserve(modifiers.size());
  for (const auto& [source, value] : modifiers) out.push_back(Modifier{source, value});
  return out;
}

std::vector<std::string> spends_out(const std::vector<Spend>& spends) {
  std::vector<std::string> out;
  out.reserve(spends.size());
  for (const Spend s : spends) out.emplace_back(spend_name(s));
  return out;
}

nb::tuple activation_out(const ActivationResult& r) {
  return nb::make_tuple(r.mettle, nb::tuple(nb::cast(r.dice)), r.successes, r.actions, r.turn_passes, r.rule);
}

using RollTuple = std::tuple<std::string, std::string, int, Mods, int, std::array<int, 2>, std::string, std::string,
                             std::vector<std::string>, int, int, int>;

nb::tuple roll_out(const TestRoll& r) {
  return nb::make_tuple(r.kind, r.attribute, r.attribute_value, mods_out(r.modifiers), r.tn,
                        nb::make_tuple(r.dice[0], r.dice[1]), std::string(band_name(r.rolled_result)),
                        std::string(band_name(r.result)), spends_out(r.spends), r.momentum_spent, r.strain_taken,
                        r.critical_momentum);
}

TestRoll roll_in(const RollTuple& t) {
  TestRoll r;
  r.kind = std::get<0>(t);
  r.attribute = std::get<1>(t);
  r.attribute_value = std::get<2>(t);
  r.modifiers = mods_in(std::get<3>(t));
  r.tn = std::get<4>(t);
  r.dice = std::get<5>(t);
  r.rolled_result = band_from_name(std::get<6>(t));
  r.result = band_from_name(std::get<7>(t));
  for (const auto& s : std::get<8>(t)) r.spends.push_back(spend_from(s));
  r.momentum_spent = std::get<9>(t);
  r.strain_taken = std::get<10>(t);
  r.critical_momentum = std::get<11>(t);
  return r;
}

nb::tuple result_out(const TestResult& r) {
  return nb::make_tuple(r.kind, r.attribute, r.attribute_value, mods_out(r.modifiers), r.tn,
                        nb::make_tuple(r.dice[0], r.dice[1]), r.total, std::string(band_name(r.result)),
                        std::string(band_name(r.rolled_result)), spends_out(r.spends), r.momentum_spent,
                        r.strain_taken, r.momentum_gained);
}

nb::object winner_out(Winner winner) {
  return winner == Winner::None ? nb::none() : nb::cast(std::string(winner_name(winner)));
}

nb::tuple melee_out(const MeleeResult& r) {
  nb::object winner = winner_out(r.winner);
  return nb::make_tuple(nb::make_tuple(r.attacker_dice[0], r.attacker_dice[1]),
                        nb::make_tuple(r.defender_dice[0], r.defender_dice[1]), mods_out(r.attacker_modifiers),
                        mods_out(r.defender_modifiers), r.attacker_total, r.defender_total,
                        std::string(melee_outcome_name(r.outcome)), winner, r.wounds, r.dazed, r.recoil_distance,
                        r.condition);
}

// Another system's closed roll (SystemResult): its aftermath, and a test's fields (kind, attribute,
// attribute_value, modifiers, tn, dice, total, result, rolled_result, spends, then the system's).
nb::list aftermath_out(const std::vector<Aftermath>& aftermath) {
  nb::list out;
  for (const auto& a : aftermath) out.append(nb::make_tuple(a.who, a.effect, a.amount, a.name, a.reason));
  return out;
}

template <class... Extra>
nb::tuple system_test_out(const SystemResult& r, const Extra&... extra) {
  return nb::make_tuple(r.kind, r.attribute, r.attribute_value, mods_out(r.modifiers), r.tn, r.dice, r.total,
                        std::string(band_name(r.result)), std::string(band_name(r.rolled_result)), r.spends, extra...);
}

nb::tuple effect_out(const ShotEffect& e) {
  return nb::make_tuple(e.wounds, e.push_distance, e.shooter_exposed, e.complication);
}

nb::tuple morale_out(const MoraleResult& r) {
  return nb::make_tuple(r.mettle, r.die, r.passed, r.flee_distance, nb::tuple(nb::cast(r.flee_dice)));
}

nb::tuple out_check_out(const OutCheckResult& r) { return nb::make_tuple(r.mettle, r.die, r.out); }

nb::tuple strain_out(const StrainChange& c) {
  return nb::make_tuple(c.old_value, c.new_value, c.overflow, c.roll, c.condition_gained);
}

nb::tuple complication_out(const Complication& c) {
  nb::dict flavour;
  for (const auto& [setting, text] : c.flavour) flavour[nb::cast(setting)] = nb::cast(text);
  return nb::make_tuple(c.roll, c.name, c.text, c.effect, c.amount, c.condition, flavour);
}

nb::tuple limits_out(const ConditionLimits& l) {
  return nb::make_tuple(l.max_actions, l.max_dice, l.move_penalty, l.forbids, l.cover_steps, l.ignores_cover,
                        l.end_of_turn_wound_check);
}

const Weapon* weapon_ptr(const std::optional<Weapon>& weapon) { return weapon ? &*weapon : nullptr; }

// ------------------------------------------------------------------ rolling functions, per stream

template <class Rng>
void def_rolls(nb::module_& m) {
  m.def(
      "roll_dice", [](Rng& rng, int count, int faces) { return roll_dice(rng, count, faces); }, nb::arg("rng"),
      nb::arg("count"), nb::arg("faces") = kDefaultFaces);
  m.def("roll_activation", [](int mettle, int dice, Rng& rng, const RulesConfig& rules) {
    return activation_out(roll_activation(mettle, dice, rng, rules));
  });
  m.def("roll_test", [](const std::string& kind, const std::string& attribute, int value, int tn, const Mods& mods,
                        Rng& rng, const RulesConfig& rules) {
    return roll_out(roll_test(kind, attribute, value, tn, mods_in(mods), rng, rules));
  });
  m.def("apply_spend", [](const RollTuple& roll, const std::string& option, Rng& rng, const RulesConfig& rules) {
    return roll_out(apply_spend(roll_in(roll), spend_from(option), rng, rules));
  });
  m.def("resolve_melee", [](int attacker_might, int defender_might, const Mods& attacker_mods,
                            const Mods& defender_mods, Rng& rng, const RulesConfig& rules) {
    return melee_out(
        resolve_melee(attacker_might, defender_might, mods_in(attacker_mods), mods_in(defender_mods), rng, rules));
  });
  m.def("roll_morale",
        [](int mettle, Rng& rng, const RulesConfig& rules) { return morale_out(roll_morale(mettle, rng, rules)); });
  m.def("roll_out_check", [](int mettle, Rng& rng, const RulesConfig& rules) {
    return out_check_out(roll_out_check(mettle, rng, rules));
  });
  m.def("roll_wound_check",
        [](int mettle, Rng& rng, const RulesConfig& rules) { return roll_wound_check(mettle, rng, rules); });
  m.def("gain_strain", [](int current, int amount, int track_max, Rng& rng, const RulesConfig& rules) {
    return strain_out(gain_strain(current, amount, track_max, rng, rules));
  });
  m.def("roll_complication",
        [](Rng& rng, const RulesConfig& rules) { return complication_out(roll_complication(rng, rules)); });
  // The benchmark's "native per call" figures: the roll alone, no tuple built for Python.
  m.def("bench_activation", [](int mettle, int dice, Rng& rng, const RulesConfig& rules, int calls) {
    int actions = 0;
    for (int i = 0; i < calls; ++i) actions += roll_activation(mettle, dice, rng, rules).actions;
    return actions;
  });
  m.def("bench_test", [](int value, int tn, const Mods& mods, Rng& rng, const RulesConfig& rules, int calls) {
    const std::vector<Modifier> modifiers = mods_in(mods);
    int total = 0;
    for (int i = 0; i < calls; ++i) {
      total += band_tier(finalise(roll_test("rally", "resolve", value, tn, modifiers, rng, rules)).result);
    }
    return total;
  });
  m.def("bench_melee", [](int attacker_might, int defender_might, const Mods& attacker_mods, const Mods& defender_mods,
                          Rng& rng, const RulesConfig& rules, int calls) {
    const std::vector<Modifier> a = mods_in(attacker_mods);
    const std::vector<Modifier> d = mods_in(defender_mods);
    int wounds = 0;
    for (int i = 0; i < calls; ++i) wounds += resolve_melee(attacker_might, defender_might, a, d, rng, rules).wounds;
    return wounds;
  });
  m.def("bench_shot", [](int agility, const std::string& cover, const std::vector<std::string>& target_conditions,
                         const std::vector<std::string>& shooter_conditions, const std::optional<Weapon>& weapon,
                         Rng& rng, const RulesConfig& rules, int calls) {
    int wounds = 0;
    for (int i = 0; i < calls; ++i) {
      const std::string& resolved = effective_cover(cover, target_conditions, weapon_ptr(weapon), rules);
      const auto modifiers = shot_modifiers(weapon_ptr(weapon), shooter_conditions, rules);
      const TestRoll roll = roll_test("shot", "agility", agility, shot_tn(resolved, rules), modifiers, rng, rules);
      wounds += shot_result(finalise(roll), resolved, rules).effect.wounds;
    }
    return wounds;
  });
}

// ------------------------------------------------------------------ Invictus
// An InvictusRoll crosses as the fields of invictus.py's InvictusRoll, in order, up to `melee`
// (None unless a melee); RollFacts as (engaged, conditions, wounds_left, wounds_max,
// final_round, luck); a Side as (might, modifiers, facts).
using FactsTuple = std::tuple<bool, std::vector<std::string>, int, int, bool, int>;
using SideTuple = std::tuple<int, Mods, FactsTuple>;
using InvictusRollTuple =
    std::tuple<std::string, std::string, int, Mods, int, int, std::vector<int>, std::vector<int>, std::vector<int>,
               std::vector<std::string>, bool, bool, bool, int, bool, int, int, std::vector<std::string>, std::string,
               std::optional<Mods>>;

invictus::RollFacts facts_in(const FactsTuple& t) {
  return invictus::RollFacts{std::get<0>(t), std::get<1>(t), std::get<2>(t),
                             std::get<3>(t), std::get<4>(t), std::get<5>(t)};
}
invictus::Side side_in(const SideTuple& t) {
  return invictus::Side{std::get<0>(t), mods_in(std::get<1>(t)), facts_in(std::get<2>(t))};
}

InvictusRollTuple invictus_roll_out(const invictus::InvictusRoll& r) {
  return {r.kind,
          r.attribute,
          r.attribute_value,
          mods_out(r.modifiers),
          r.tn,
          r.pool,
          r.dice,
          r.rolled_dice,
          r.danger,
          r.factors,
          r.fray,
          r.favourable,
          r.unfavourable,
          r.score,
          r.critical_health,
          r.luck_held,
          r.luck_spent,
          r.spends,
          std::string(invictus::band_name(r.rolled_band)),
          r.is_melee ? std::optional<Mods>(mods_out(r.melee)) : std::nullopt};
}
invictus::InvictusRoll invictus_roll_in(const InvictusRollTuple& t) {
  invictus::InvictusRoll r;
  std::tie(r.kind, r.attribute, r.attribute_value, std::ignore, r.tn, r.pool, r.dice, r.rolled_dice, r.danger,
           r.factors, r.fray, r.favourable, r.unfavourable, r.score, r.critical_health, r.luck_held, r.luck_spent,
           r.spends, std::ignore, std::ignore) = t;
  r.modifiers = mods_in(std::get<3>(t));
  r.rolled_band = invictus::band_from_name(std::get<18>(t));
  r.is_melee = std::get<19>(t).has_value();
  if (r.is_melee) r.melee = mods_in(*std::get<19>(t));
  return r;
}

// A closed roll: (aftermath, detail, fields) with fields the TestResult's (kind, attribute,
// attribute_value, modifiers, tn, dice, total, result, rolled_result, spends) or the
// MeleeResult's (attacker_dice, attacker_modifiers, defender_modifiers, attacker_total, outcome,
// winner, wounds, dazed, recoil_distance, condition, spends); detail as its dict's values in order.
nb::tuple invictus_result_out(const invictus::Result& r) {
  nb::list aftermath = aftermath_out(r.aftermath);
  const invictus::Detail& d = r.detail;
  nb::object move = d.move.empty() ? nb::none() : nb::cast(d.move);
  nb::object move_die = d.move_die == 0 ? nb::none() : nb::cast(d.move_die);
  nb::tuple detail = nb::make_tuple(std::string(invictus::band_name(d.band)),
                                    std::string(invictus::band_name(d.rolled_band)), d.pool, d.rolled_dice,
                                    d.favourable, d.favour_used, d.unfavourable, d.danger_dice, d.danger_factors,
                                    move, move_die, d.luck_spent, d.critical_health);
  nb::tuple fields;
  if (r.is_melee) {
    nb::object winner = winner_out(r.winner);
    fields = nb::make_tuple(r.dice, mods_out(r.modifiers), mods_out(r.defender_modifiers), r.total,
                            std::string(melee_outcome_name(r.outcome)), winner, r.wounds, r.dazed, r.recoil_distance,
                            r.condition, r.spends);
  } else {
    fields = system_test_out(r);
  }
  return nb::make_tuple(aftermath, detail, fields);
}

template <class Rng>
void def_invictus_rolls(nb::class_<invictus::InvictusSystem>& cls) {
  cls.def("roll_test", [](const invictus::InvictusSystem& self, const std::string& kind, const std::string& attribute,
                          int value, int tn, const Mods& mods, std::optional<int> opponent, const FactsTuple& facts,
                          Rng& rng) {
    return invictus_roll_out(self.roll_test(kind, attribute, value, tn, mods_in(mods), opponent, facts_in(facts), rng));
  });
  cls.def("start_melee", [](const invictus::InvictusSystem& self, const SideTuple& attacker, const SideTuple& defender,
                            Rng& rng) {
    return invictus_roll_out(self.start_melee(side_in(attacker), side_in(defender), rng));
  });
}

void bind_invictus(nb::module_& m) {
  nb::class_<invictus::InvictusSystem> cls(m, "InvictusSystem",
                                           "Invictus's dice engine (riven::rules::invictus::InvictusSystem).");
  cls.def(
         "__init__",
         [](invictus::InvictusSystem* self, const RulesConfig& rules) {
           new (self) invictus::InvictusSystem(std::make_shared<const RulesConfig>(rules));
         },
         nb::arg("rules"))
      .def("starting_wounds", &invictus::InvictusSystem::starting_wounds)
      .def("starting_luck", &invictus::InvictusSystem::starting_luck)
      .def("shot_tn", &invictus::InvictusSystem::shot_tn)
      .def("choice_vocabulary", &invictus::InvictusSystem::choice_vocabulary)
      .def("spend_options",
           [](const invictus::InvictusSystem& self, const InvictusRollTuple& roll, std::optional<int> luck) {
             return self.spend_options(invictus_roll_in(roll), luck);
           })
      .def("apply_spend",
           [](const invictus::InvictusSystem& self, const InvictusRollTuple& roll, const std::string& option) {
             return invictus_roll_out(self.apply_spend(invictus_roll_in(roll), option));
           })
      .def("finalise",
           [](const invictus::InvictusSystem& self, const InvictusRollTuple& roll) {
             return invictus_result_out(self.finalise(invictus_roll_in(roll)));
           })
      .def("oracle_choice", [](const invictus::InvictusSystem& self, const InvictusRollTuple& roll,
                               const std::vector<std::string>& options, const std::string& model, int luck) {
        const invictus::OracleChoice c = self.oracle_choice(invictus_roll_in(roll), options, model, luck);
        return std::make_tuple(c.option, c.rule, c.text);
      });
  def_invictus_rolls<Pcg64>(cls);
  def_invictus_rolls<ScriptedDice>(cls);
  m.def("invictus_read_band", [](const std::vector<int>& dice, const RulesConfig& rules) {
    return std::string(invictus::band_name(invictus::read_band(dice, rules.invictus)));
  });
  m.def("invictus_circumstance", [](const Mods& mods, int tn, const RulesConfig& rules) {
    return invictus::circumstance(mods_in(mods), tn, rules.invictus);
  });
}

// ------------------------------------------------------------------ New World
// A NewWorldRoll crosses as the fields of new_world.py's NewWorldRoll, in order, up to
// `rolled_total` (`melee` None unless a melee, else (dice, bonus, modifiers)); a profile as
// (might, agility, wit, resolve, mettle, keywords); RollFacts as (profile | None, opponent |
// None, cover | None, helpers, helper_models, luck); a Side as (profile, modifiers, luck).
using FighterTuple = std::tuple<int, int, int, int, int, std::vector<std::string>>;
using NwFactsTuple = std::tuple<std::optional<FighterTuple>, std::optional<FighterTuple>, std::optional<std::string>,
                                int, std::vector<int>, int>;
using NwSideTuple = std::tuple<FighterTuple, Mods, int>;
using NwMeleeTuple = std::tuple<std::vector<int>, int, Mods>;
using NewWorldRollTuple =
    std::tuple<std::string, std::string, int, Mods, int, int, int, std::vector<int>, int, int, std::vector<int>, int,
               int, std::vector<std::string>, bool, std::string, std::optional<NwMeleeTuple>, int, int, int>;

new_world::Fighter fighter_in(const FighterTuple& t) {
  new_world::Fighter f;
  std::tie(f.might, f.agility, f.wit, f.resolve, f.mettle, f.keywords) = t;
  return f;
}
new_world::RollFacts nw_facts_in(const NwFactsTuple& t) {
  new_world::RollFacts facts;
  if (std::get<0>(t)) facts.profile = fighter_in(*std::get<0>(t));
  if (std::get<1>(t)) facts.opponent = fighter_in(*std::get<1>(t));
  facts.cover = std::get<2>(t);
  facts.helpers = std::get<3>(t);
  facts.helper_models = std::get<4>(t);
  facts.luck = std::get<5>(t);
  return facts;
}
new_world::Side nw_side_in(const NwSideTuple& t) {
  return new_world::Side{fighter_in(std::get<0>(t)), mods_in(std::get<1>(t)), std::get<2>(t)};
}

NewWorldRollTuple nw_roll_out(const new_world::NewWorldRoll& r) {
  std::optional<NwMeleeTuple> melee;
  if (r.is_melee) melee = NwMeleeTuple{r.melee_dice, r.melee_bonus, mods_out(r.melee_modifiers)};
  return {r.kind,
          r.attribute,
          r.attribute_value,
          mods_out(r.modifiers),
          r.tn,
          r.bonus,
          r.difficulty,
          r.dice,
          r.helpers_available,
          r.helpers,
          r.helper_models,
          r.luck_held,
          r.luck_spent,
          r.spends,
          r.rolled,
          std::string(new_world::chooser_name(r.chooser)),
          melee,
          r.defender_luck_held,
          r.defender_luck_spent,
          r.rolled_total};
}
new_world::NewWorldRoll nw_roll_in(const NewWorldRollTuple& t) {
  new_world::NewWorldRoll r;
  std::tie(r.kind, r.attribute, r.attribute_value, std::ignore, r.tn, r.bonus, r.difficulty, r.dice,
           r.helpers_available, r.helpers, r.helper_models, r.luck_held, r.luck_spent, r.spends, r.rolled, std::ignore,
           std::ignore, r.defender_luck_held, r.defender_luck_spent, r.rolled_total) = t;
  r.modifiers = mods_in(std::get<3>(t));
  r.chooser = new_world::chooser_from_name(std::get<15>(t));
  const auto& melee = std::get<16>(t);
  r.is_melee = melee.has_value();
  if (melee) {
    r.melee_dice = std::get<0>(*melee);
    r.melee_bonus = std::get<1>(*melee);
    r.melee_modifiers = mods_in(std::get<2>(*melee));
  }
  return r;
}

// A closed roll: (aftermath, detail, fields) with detail its dict's values in order (after
// "system") and fields the TestResult's (kind, attribute, attribute_value, modifiers, tn, dice,
// total, result, rolled_result, spends, momentum_gained) or the MeleeResult's (attacker_dice,
// defender_dice, attacker_modifiers, defender_modifiers, attacker_total, defender_total,
// outcome, winner, wounds, dazed, recoil_distance, condition, spends).
nb::tuple nw_result_out(const new_world::Result& r) {
  nb::list aftermath = aftermath_out(r.aftermath);
  const new_world::Detail& d = r.detail;
  nb::tuple detail = d.is_melee ? nb::make_tuple(d.bonus, d.helpers, d.helper_bonus, d.luck_spent, d.rolled_total,
                                                 d.snake_eyes, d.defender_bonus, d.defender_luck_spent,
                                                 d.defender_snake_eyes, d.margin)
                                : nb::make_tuple(d.bonus, d.helpers, d.helper_bonus, d.luck_spent, d.rolled_total,
                                                 d.snake_eyes, d.difficulty, d.success, d.margin);
  nb::tuple fields;
  if (r.is_melee) {
    nb::object winner = winner_out(r.winner);
    fields = nb::make_tuple(r.dice, r.defender_dice, mods_out(r.modifiers), mods_out(r.defender_modifiers), r.total,
                            r.defender_total, std::string(melee_outcome_name(r.outcome)), winner, r.wounds, r.dazed,
                            r.recoil_distance, r.condition, r.spends);
  } else {
    fields = system_test_out(r, r.momentum_gained);
  }
  return nb::make_tuple(aftermath, detail, fields);
}

template <class Rng>
void def_new_world_rolls(nb::class_<new_world::NewWorldSystem>& cls) {
  cls.def("roll_test", [](const new_world::NewWorldSystem& self, const std::string& kind, const std::string& attribute,
                          int value, int tn, const Mods& mods, const NwFactsTuple& facts, Rng& rng) {
    return nw_roll_out(self.roll_test(kind, attribute, value, tn, mods_in(mods), nw_facts_in(facts), rng));
  });
  cls.def("start_melee", [](const new_world::NewWorldSystem& self, const NwSideTuple& attacker,
                            const NwSideTuple& defender, Rng& rng) {
    return nw_roll_out(self.start_melee(nw_side_in(attacker), nw_side_in(defender), rng));
  });
  cls.def("apply_spend", [](const new_world::NewWorldSystem& self, const NewWorldRollTuple& roll,
                            const std::string& option, Rng& rng) {
    return nw_roll_out(self.apply_spend(nw_roll_in(roll), option, rng));
  });
}

void bind_new_world(nb::module_& m) {
  nb::class_<new_world::NewWorldSystem> cls(m, "NewWorldSystem",
                                            "New World's dice engine (riven::rules::new_world::NewWorldSystem).");
  cls.def(
         "__init__",
         [](new_world::NewWorldSystem* self, const RulesConfig& rules) {
           new (self) new_world::NewWorldSystem(std::make_shared<const RulesConfig>(rules));
         },
         nb::arg("rules"))
      .def("starting_luck",
           [](const new_world::NewWorldSystem& self, const FighterTuple& profile) {
             return self.starting_luck(fighter_in(profile));
           })
      .def("choice_vocabulary", &new_world::NewWorldSystem::choice_vocabulary)
      .def("spend_options",
           [](const new_world::NewWorldSystem& self, const NewWorldRollTuple& roll) {
             return self.spend_options(nw_roll_in(roll));
           })
      .def("accept",
           [](const new_world::NewWorldSystem& self, const NewWorldRollTuple& roll) -> std::optional<NewWorldRollTuple> {
             const auto handed = self.accept(nw_roll_in(roll));
             if (!handed) return std::nullopt;
             return nw_roll_out(*handed);
           })
      .def("finalise",
           [](const new_world::NewWorldSystem& self, const NewWorldRollTuple& roll) {
             return nw_result_out(self.finalise(nw_roll_in(roll)));
           })
      .def("result",
           [](const new_world::NewWorldSystem& self, const NewWorldRollTuple& roll) {
             return std::string(band_name(new_world::result(nw_roll_in(roll), self.settings())));
           })
      .def("oracle_choice", [](const new_world::NewWorldSystem& self, const NewWorldRollTuple& roll,
                               const std::vector<std::string>& options, const std::string& model) {
        const OracleChoice c = self.oracle_choice(nw_roll_in(roll), options, model);
        return std::make_tuple(c.option, c.rule, c.text);
      });
  def_new_world_rolls<Pcg64>(cls);
  def_new_world_rolls<ScriptedDice>(cls);
  m.def("new_world_melee_outcome", [](const std::vector<int>& a_dice, int a_total, const std::vector<int>& d_dice,
                                      int d_total, const RulesConfig& rules) {
    const new_world::MeleeReading r = new_world::melee_outcome(a_dice, a_total, d_dice, d_total, rules.new_world);
    nb::object winner = winner_out(r.winner);
    return nb::make_tuple(std::string(melee_outcome_name(r.outcome)), winner, r.margin);
  });
  m.def("new_world_band_of", [](const std::vector<int>& dice, int total, int difficulty, const RulesConfig& rules) {
    return std::string(band_name(new_world::band_of(dice, total, difficulty, rules.new_world)));
  });
}

// A string property over an enum field, for RulesConfig's variant keys.
#define RIVEN_ENUM_PROP(cls, field, names, key)                                               \
  def_prop_rw(                                                                               \
      #field, [](const cls& self) { return std::string(names[static_cast<int>(self.field)]); }, \
      [](cls& self, const std::string& value) { self.field = enum_from<decltype(self.field)>(value, names, key); })

void bind_config(nb::module_& m) {
  nb::class_<ActivationRules>(m, "ActivationRules")
      .def(nb::init<>())
      .def_rw("max_dice", &ActivationRules::max_dice)
      .RIVEN_ENUM_PROP(ActivationRules, turnover, kTurnovers, "activation.turnover")
      .def_rw("sbh_failures_to_pass", &ActivationRules::sbh_failures_to_pass)
      .def_rw("sbh_no_success_passes", &ActivationRules::sbh_no_success_passes);
  nb::class_<TestRules>(m, "TestRules")
      .def(nb::init<>())
      .def_rw("dice", &TestRules::dice)
      .def_rw("default_difficulty", &TestRules::default_difficulty)
      .def_rw("partial_strain", &TestRules::partial_strain)
      .def_rw("miss_max", &TestRules::miss_max)
      .def_rw("partial_max", &TestRules::partial_max)
      .def_rw("hit_max", &TestRules::hit_max)
      .def_rw("difficulty", &TestRules::difficulty);
  nb::class_<MeleeRules>(m, "MeleeRules")
      .def(nb::init<>())
      .def_rw("charge_bonus", &MeleeRules::charge_bonus)
      .def_rw("outnumbered_penalty", &MeleeRules::outnumbered_penalty)
      .def_rw("wound_margin", &MeleeRules::wound_margin)
      .def_rw("recoil_distance", &MeleeRules::recoil_distance)
      .def_rw("critical_ratio", &MeleeRules::critical_ratio)
      .def_rw("wound_wounds", &MeleeRules::wound_wounds)
      .def_rw("critical_wounds", &MeleeRules::critical_wounds)
      .def_rw("critical_condition", &MeleeRules::critical_condition)
      .def_rw("critical_loser_floor", &MeleeRules::critical_loser_floor);
  nb::class_<ShotEffect>(m, "ShotEffect")
      .def(nb::init<>())
      .def_rw("wounds", &ShotEffect::wounds)
      .def_rw("push_distance", &ShotEffect::push_distance)
      .def_rw("shooter_exposed", &ShotEffect::shooter_exposed)
      .def_rw("complication", &ShotEffect::complication);
  nb::class_<ShootingRules>(m, "ShootingRules")
      .def(nb::init<>())
      .def_rw("attribute", &ShootingRules::attribute)
      .def_rw("cover_order", &ShootingRules::cover_order)
      .def_rw("cover_tn", &ShootingRules::cover_tn)
      .def_rw("into_melee_needs_adjacent_friend", &ShootingRules::into_melee_needs_adjacent_friend)
      .def_rw("down_models_in_melee", &ShootingRules::down_models_in_melee)
      .def_rw("exposed_condition", &ShootingRules::exposed_condition)
      .def(
          "set_effect",
          [](ShootingRules& self, const std::string& band, int wounds, double push, bool exposed, bool complication) {
            self.effects[static_cast<std::size_t>(band_from_name(band))] = ShotEffect{wounds, push, exposed, complication};
          },
          "shooting.effects.BAND");
  nb::class_<CasualtyRules>(m, "CasualtyRules")
      .def(nb::init<>())
      .def_rw("out_check_dice", &CasualtyRules::out_check_dice)
      .def_rw("stabilise_cost", &CasualtyRules::stabilise_cost);
  nb::class_<MoraleTrigger>(m, "MoraleTrigger")
      .def(nb::init<>())
      .def_rw("name", &MoraleTrigger::name)
      .def_rw("enabled", &MoraleTrigger::enabled)
      .def_rw("description", &MoraleTrigger::description)
      .def_rw("radius", &MoraleTrigger::radius)
      .def_rw("fraction", &MoraleTrigger::fraction)
      .def_rw("keyword", &MoraleTrigger::keyword);
  nb::class_<MoraleRules>(m, "MoraleRules")
      .def(nb::init<>())
      .def_rw("test_dice", &MoraleRules::test_dice)
      .def_rw("flee_dice", &MoraleRules::flee_dice)
      .def_rw("flee_base", &MoraleRules::flee_base)
      .RIVEN_ENUM_PROP(MoraleRules, flight_route, kRoutes, "morale.flight_route")
      .def_rw("triggers", &MoraleRules::triggers);
  nb::class_<EngagementRules>(m, "EngagementRules")
      .def(nb::init<>())
      .def_rw("forbids", &EngagementRules::forbids);
  nb::class_<MomentumRules>(m, "MomentumRules")
      .def(nb::init<>())
      .def_rw("pool", &MomentumRules::pool)
      .def_rw("solo_hero_pool", &MomentumRules::solo_hero_pool)
      .def_rw("start", &MomentumRules::start)
      .def_rw("cap", &MomentumRules::cap)
      .def_rw("max_rerolls_per_test", &MomentumRules::max_rerolls_per_test)
      .def_rw("max_boosts_per_test", &MomentumRules::max_boosts_per_test)
      .def_prop_rw(
          "boost_ceiling", [](const MomentumRules& self) { return std::string(band_name(self.boost_ceiling)); },
          [](MomentumRules& self, const std::string& value) { self.boost_ceiling = band_from_name(value); })
      .RIVEN_ENUM_PROP(MomentumRules, bonus_mode, kBonusModes, "momentum.bonus_mode")
      .def_rw("gain", &MomentumRules::gain)
      .def_rw("cost", &MomentumRules::cost);
  nb::class_<StrainRules>(m, "StrainRules")
      .def(nb::init<>())
      .def_rw("track_per_wit", &StrainRules::track_per_wit)
      .def_rw("spend_cost", &StrainRules::spend_cost)
      .def_rw("spend_may_overflow", &StrainRules::spend_may_overflow)
      .def_rw("rest_removes", &StrainRules::rest_removes)
      .def_rw("gain", &StrainRules::gain)
      .def_rw("overflow_table", &StrainRules::overflow_table);
  nb::class_<ConditionSpec>(m, "ConditionSpec")
      .def(nb::init<>())
      .def_rw("name", &ConditionSpec::name)
      .def_rw("description", &ConditionSpec::description)
      .def_rw("test_modifier", &ConditionSpec::test_modifier)
      .def_rw("melee_modifier", &ConditionSpec::melee_modifier)
      .def_rw("shot_modifier", &ConditionSpec::shot_modifier)
      .def_rw("move_penalty", &ConditionSpec::move_penalty)
      .def_rw("max_actions", &ConditionSpec::max_actions)
      .def_rw("max_dice", &ConditionSpec::max_dice)
      .def_rw("forbids", &ConditionSpec::forbids)
      .RIVEN_ENUM_PROP(ConditionSpec, cover_against_shots, kCoverEffects, "conditions.*.cover_against_shots")
      .def_rw("end_of_turn_wound_check", &ConditionSpec::end_of_turn_wound_check)
      .def_rw("expires", &ConditionSpec::expires)
      .def_rw("removed_by", &ConditionSpec::removed_by);
  nb::class_<Complication>(m, "Complication")
      .def(nb::init<>())
      .def_rw("roll", &Complication::roll)
      .def_rw("name", &Complication::name)
      .def_rw("text", &Complication::text)
      .def_rw("effect", &Complication::effect)
      .def_rw("amount", &Complication::amount)
      .def_rw("condition", &Complication::condition)
      .def_rw("flavour", &Complication::flavour);
  nb::class_<WeaponTrait>(m, "WeaponTrait")
      .def(nb::init<>())
      .def_rw("name", &WeaponTrait::name)
      .def_rw("description", &WeaponTrait::description)
      .def_rw("melee_modifier", &WeaponTrait::melee_modifier)
      .def_rw("charge_modifier", &WeaponTrait::charge_modifier)
      .def_rw("defend_modifier", &WeaponTrait::defend_modifier)
      .def_rw("shot_modifier", &WeaponTrait::shot_modifier)
      .def_rw("cover_steps", &WeaponTrait::cover_steps);
  nb::class_<Weapon>(m, "Weapon")
      .def(nb::init<>())
      .def_rw("name", &Weapon::name)
      .def_rw("kind", &Weapon::kind)
      .def_rw("range", &Weapon::range)
      .def_rw("modifier", &Weapon::modifier)
      .def_rw("traits", &Weapon::traits);
  nb::class_<InvictusMove>(m, "InvictusMove")
      .def(nb::init<>())
      .def_rw("effect", &InvictusMove::effect)
      .def_rw("amount", &InvictusMove::amount);
  nb::class_<InvictusRules>(m, "InvictusRules")
      .def(nb::init<>())
      .def_rw("attribute_offset", &InvictusRules::attribute_offset)
      .def_rw("min_dice", &InvictusRules::min_dice)
      .def_rw("max_dice", &InvictusRules::max_dice)
      .def_rw("standard_tn", &InvictusRules::standard_tn)
      .def_rw("tn_step", &InvictusRules::tn_step)
      .def_rw("steps_per_die", &InvictusRules::steps_per_die)
      .def_rw("miss_max", &InvictusRules::miss_max)
      .def_rw("swing_max", &InvictusRules::swing_max)
      .def_rw("crit_sixes", &InvictusRules::crit_sixes)
      .def_rw("danger_max", &InvictusRules::danger_max)
      .def_rw("soft_max", &InvictusRules::soft_max)
      .def_rw("bite_face", &InvictusRules::bite_face)
      .def_rw("bite_on", &InvictusRules::bite_on)
      .def_rw("factors", &InvictusRules::factors)
      .def_rw("exposed_conditions", &InvictusRules::exposed_conditions)
      .def_rw("soft", &InvictusRules::soft)
      .def_rw("hard", &InvictusRules::hard)
      .def_rw("luck_start", &InvictusRules::luck_start)
      .def_rw("luck_crit_gain", &InvictusRules::luck_crit_gain)
      .def_rw("luck_cap", &InvictusRules::luck_cap)
      .def_rw("luck_raise", &InvictusRules::luck_raise)
      .def_rw("deaths_door_overflow", &InvictusRules::deaths_door_overflow)
      .def_rw("critical_health_dice", &InvictusRules::critical_health_dice)
      .def_rw("cover_score", &InvictusRules::cover_score)
      .def_rw("melee", &InvictusRules::melee)
      .def_rw("melee_wounds", &InvictusRules::melee_wounds)
      .def_rw("melee_crit_wounds", &InvictusRules::melee_crit_wounds)
      .def_rw("oracle_lifts_to", &InvictusRules::oracle_lifts_to)
      .def_rw("oracle_reserve", &InvictusRules::oracle_reserve);
  nb::class_<NewWorldRules>(m, "NewWorldRules")
      .def(nb::init<>())
      .def_rw("dice", &NewWorldRules::dice)
      .def_rw("snake_eyes_fails", &NewWorldRules::snake_eyes_fails)
      .def_rw("roll_limit", &NewWorldRules::roll_limit)
      .def_rw("modifier_limit", &NewWorldRules::modifier_limit)
      .def_rw("characteristic_offset", &NewWorldRules::characteristic_offset)
      .def_rw("rank_default", &NewWorldRules::rank_default)
      .def_rw("rank_by_keyword", &NewWorldRules::rank_by_keyword)
      .def_rw("difficulty_offset", &NewWorldRules::difficulty_offset)
      .def_rw("critical_margin", &NewWorldRules::critical_margin)
      .def_rw("partial_within", &NewWorldRules::partial_within)
      .def_rw("passive_base", &NewWorldRules::passive_base)
      .def_rw("shot_characteristic", &NewWorldRules::shot_characteristic)
      .def_rw("cover_modifier", &NewWorldRules::cover_modifier)
      .def_rw("melee_characteristic", &NewWorldRules::melee_characteristic)
      .def_rw("wound_margin", &NewWorldRules::wound_margin)
      .def_rw("melee_critical_margin", &NewWorldRules::melee_critical_margin)
      .def_rw("defender_strikes_back", &NewWorldRules::defender_strikes_back)
      .def_rw("helpers_max", &NewWorldRules::helpers_max)
      .def_rw("helper_bonus", &NewWorldRules::helper_bonus)
      .def_rw("helper_kinds", &NewWorldRules::helper_kinds)
      .def_rw("shared_risk_margin", &NewWorldRules::shared_risk_margin)
      .def_rw("shared_risk_strain", &NewWorldRules::shared_risk_strain)
      .def_rw("luck_default", &NewWorldRules::luck_default)
      .def_rw("luck_by_keyword", &NewWorldRules::luck_by_keyword)
      .def_rw("luck_per_point", &NewWorldRules::luck_per_point)
      .def_rw("oracle_sure", &NewWorldRules::oracle_sure)
      .def_rw("oracle_luck_max", &NewWorldRules::oracle_luck_max);
  nb::class_<RulesConfig>(m, "RulesConfig", "The rules data the core reads (filled by riven_env/native/rules.py).")
      .def(nb::init<>())
      .def_rw("source", &RulesConfig::source)
      .def_rw("fingerprint", &RulesConfig::fingerprint)
      .def_prop_rw(
          "system", [](const RulesConfig& self) { return self.system_name; },
          [](RulesConfig& self, const std::string& value) {
            self.system = enum_from<System>(value, kSystems, "meta.resolution");
            self.system_name = value;
          })
      .def_rw("dice_faces", &RulesConfig::dice_faces)
      .def_rw("activation", &RulesConfig::activation)
      .def_rw("test", &RulesConfig::test)
      .def_rw("melee", &RulesConfig::melee)
      .def_rw("shooting", &RulesConfig::shooting)
      .def_rw("casualties", &RulesConfig::casualties)
      .def_rw("morale", &RulesConfig::morale)
      .def_rw("engagement", &RulesConfig::engagement)
      .def_rw("momentum", &RulesConfig::momentum)
      .def_rw("strain", &RulesConfig::strain)
      .def_rw("conditions", &RulesConfig::conditions)
      .def_rw("complications", &RulesConfig::complications)
      .def_rw("weapon_traits", &RulesConfig::weapon_traits)
      .def_rw("distances", &RulesConfig::distances)
      .def_rw("has_invictus", &RulesConfig::has_invictus)
      .def_rw("invictus", &RulesConfig::invictus)
      .def_rw("has_new_world", &RulesConfig::has_new_world)
      .def_rw("new_world", &RulesConfig::new_world)
      .def_rw("has_riddle_of_steel", &RulesConfig::has_riddle_of_steel)
      .def_rw("riddle_of_steel", &RulesConfig::riddle_of_steel)
      .def_ro("prepared", &RulesConfig::prepared)
      .def("prepare", &RulesConfig::prepare);
}

}  // namespace

void bind_rules(nb::module_& module) {
  nb::exception<IllegalAction>(module, "IllegalAction", PyExc_ValueError);
  nb::exception<RulesDataError>(module, "RulesDataError", PyExc_ValueError);
  nb::exception<ProfileError>(module, "ProfileError", PyExc_ValueError);

  nb::class_<Pcg64>(module, "Pcg64", "numpy's PCG64 and Generator.integers, bit for bit.")
      .def(
          "__init__",
          [](Pcg64* self, std::uint64_t state_high, std::uint64_t state_low, std::uint64_t inc_high,
             std::uint64_t inc_low, bool has_uint32, std::uint32_t uinteger) {
            new (self) Pcg64(Pcg64State{join(state_high, state_low), join(inc_high, inc_low), has_uint32, uinteger});
          },
          nb::arg("state_high"), nb::arg("state_low"), nb::arg("inc_high"), nb::arg("inc_low"),
          nb::arg("has_uint32"), nb::arg("uinteger"))
      .def("state_words", &state_words,
           "(state_high, state_low, inc_high, inc_low, has_uint32, uinteger)")
      .def("next_uint64", &Pcg64::next_uint64)
      .def("next_uint32", &Pcg64::next_uint32)
      .def("integers", &Pcg64::integers, nb::arg("low"), nb::arg("high"),
           "Generator.integers(low, high) for ranges up to 2**32.")
      .def("__copy__", [](const Pcg64& rng) { return Pcg64(rng); });

  nb::class_<ScriptedDice>(module, "ScriptedDice", "Scripted die faces handed out in order (rule tests).")
      .def(nb::init<std::vector<int>>(), nb::arg("faces"))
      .def("integers", &ScriptedDice::integers, nb::arg("low"), nb::arg("high"))
      .def_prop_ro("used", &ScriptedDice::used);

  bind_riddle_of_steel(module);  // its data types first: RulesConfig holds them
  bind_config(module);
  def_rolls<Pcg64>(module);
  def_rolls<ScriptedDice>(module);
  bind_invictus(module);
  bind_new_world(module);

  // ---------------------------------------------------------------- pure functions
  module.def("classify_activation", [](const std::vector<int>& dice, int mettle, const RulesConfig& rules) {
    return activation_out(classify_activation(dice, mettle, rules));
  });
  module.def("band_for_margin", [](int margin, const RulesConfig& rules) {
    return std::string(band_name(band_for_margin(margin, rules)));
  });
  module.def("difficulty_tn", &difficulty_tn);
  module.def("make_test_roll", [](const std::string& kind, const std::string& attribute, int value, int tn,
                                  const Mods& mods, std::array<int, 2> dice, const RulesConfig& rules) {
    return roll_out(make_test_roll(kind, attribute, value, tn, mods_in(mods), dice, rules));
  });
  module.def("structural_options", [](const RollTuple& roll, const RulesConfig& rules) {
    return spends_out(structural_options(roll_in(roll), rules));
  });
  module.def("spend_options", [](const RollTuple& roll, int momentum, int strain, int strain_max,
                                 const RulesConfig& rules) {
    return spends_out(spend_options(roll_in(roll), momentum, strain, strain_max, rules));
  });
  module.def("finalise", [](const RollTuple& roll) { return result_out(finalise(roll_in(roll))); });
  module.def("melee_modifiers", [](const std::optional<Weapon>& weapon, bool charge_strike, int enemies_in_contact,
                                   const std::vector<std::string>& conditions, bool defending,
                                   const RulesConfig& rules) {
    return mods_out(melee_modifiers(weapon_ptr(weapon), charge_strike, enemies_in_contact, conditions, defending, rules));
  });
  module.def("classify_melee", [](int attacker_total, int defender_total, const RulesConfig& rules) {
    const auto [outcome, winner] = classify_melee(attacker_total, defender_total, rules);
    nb::object who = winner == Winner::None ? nb::none() : nb::cast(std::string(winner_name(winner)));
    return nb::make_tuple(std::string(melee_outcome_name(outcome)), who);
  });
  module.def("melee_from_dice", [](std::array<int, 2> attacker_dice, std::array<int, 2> defender_dice,
                                   int attacker_might, int defender_might, const Mods& attacker_mods,
                                   const Mods& defender_mods, const RulesConfig& rules) {
    return melee_out(melee_from_dice(attacker_dice, defender_dice, attacker_might, defender_might,
                                     mods_in(attacker_mods), mods_in(defender_mods), rules));
  });
  module.def("shot_tn", [](const std::string& cover, const RulesConfig& rules) { return shot_tn(cover, rules); });
  module.def("effective_cover", [](const std::string& cover, const std::vector<std::string>& conditions,
                                   const std::optional<Weapon>& weapon, const RulesConfig& rules) {
    return effective_cover(cover, conditions, weapon_ptr(weapon), rules);
  });
  module.def("shot_modifiers", [](const std::optional<Weapon>& weapon, const std::vector<std::string>& conditions,
                                  const RulesConfig& rules) {
    return mods_out(shot_modifiers(weapon_ptr(weapon), conditions, rules));
  });
  module.def("in_range", &in_range);
  module.def("may_shoot_into_melee", &may_shoot_into_melee);
  module.def("shot_effect", [](const std::string& band, const RulesConfig& rules) {
    return effect_out(shot_effect(band_from_name(band), rules));
  });
  module.def("out_check_from_die",
             [](int mettle, int die) { return out_check_out(out_check_from_die(mettle, die)); });
  module.def("stabilise_range", &stabilise_range);
  module.def("flee_distance", &flee_distance);
  module.def("enabled_morale_trigger_names", [](const RulesConfig& rules) {
    std::vector<std::string> names;
    for (const auto& trigger : enabled_morale_triggers(rules)) names.push_back(trigger.name);
    return names;
  });
  module.def("momentum_gain", &momentum_gain);
  module.def("momentum_cost", &momentum_cost);
  module.def("add_momentum", &add_momentum);
  module.def("can_afford", &can_afford);
  module.def("momentum_pool_owner", &momentum_pool_owner);
  module.def("starting_momentum", &starting_momentum);
  module.def("strain_max", &strain_max);
  module.def("strain_gain_amount", &strain_gain_amount);
  module.def("overflow_condition", &overflow_condition);
  module.def("rest_strain", [](int current, const RulesConfig& rules) { return strain_out(rest_strain(current, rules)); });
  module.def("can_take_strain", &can_take_strain);
  module.def("condition_modifiers", [](const std::vector<std::string>& conditions, const std::string& kind,
                                       const RulesConfig& rules) {
    return mods_out(condition_modifiers(conditions, modifier_kind_from_name(kind), rules));
  });
  module.def("condition_limits", [](const std::vector<std::string>& conditions, const RulesConfig& rules) {
    return limits_out(condition_limits(conditions, rules));
  });
  module.def("conditions_removed_by", &conditions_removed_by);
  module.def("conditions_expiring", &conditions_expiring);
  module.def("ported_systems", &ported_systems, "The meta.resolution names the core's seam has.");
  module.def("complication_entry",
             [](int face, const RulesConfig& rules) { return complication_out(complication_entry(face, rules)); });
}

}  // namespace riven::bindings
