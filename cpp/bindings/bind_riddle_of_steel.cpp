// Bindings of The Riddle of Steel's engine (riven::rules::riddle_of_steel): its rules data
// (RulesConfig::riddle_of_steel, filled by riven_env/native/rules.py) and RiddleOfSteelSystem.
//
// Records cross as plain tuples laid out as the fields of the Python dataclasses
// (riven_env/rules/systems/riddle_of_steel.py): a Fighter as (index, id, pool, brawn, presence,
// resistance, proficiency, (weapon name, atn, dtn, dr, shield), (shield name, dtn, passive_av,
// zones) | None, wounds); a MeleeSession as its fields in order without `new_events`, effects as
// (kind, index, amount, condition); the events a call records come back beside the session as
// (type, dict) pairs, the dicts' keys in the Python engine's order. riven_env/native/riddle_of_steel.py
// builds the Python records from them. Every rolling function is bound on Pcg64 and ScriptedDice.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "riven/rules/config.hpp"
#include "riven/rules/dice.hpp"
#include "riven/rules/pcg64.hpp"
#include "riven/rules/results.hpp"
#include "riven/rules/systems/riddle_of_steel.hpp"
#include "riddle_of_steel_tuples.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using namespace riven::rules;
namespace ros = riven::rules::riddle_of_steel;

using Mods = std::vector<std::pair<std::string, int>>;
using namespace riven::bindings::ros_tuples;
using ProfileTuple =
    std::tuple<int, int, int, int, int, std::optional<std::string>, std::vector<std::string>>;
using Faces = std::vector<std::vector<int>>;

std::vector<Modifier> mods_in(const Mods& mods) {
  std::vector<Modifier> out;
  out.reserve(mods.size());
  for (const auto& [source, value] : mods) out.push_back(Modifier{source, value});
  return out;
}
Mods mods_out(const std::vector<Modifier>& mods) {
  Mods out;
  out.reserve(mods.size());
  for (const Modifier& m : mods) out.emplace_back(m.source, m.value);
  return out;
}

WeaponTuple weapon_out(const RosWeapon& w) { return {w.name, w.atn, w.dtn, w.dr, w.shield}; }
RosWeapon weapon_in(const WeaponTuple& t) {
  RosWeapon w;
  std::tie(w.name, w.atn, w.dtn, w.dr, w.shield) = t;
  return w;
}

FighterTuple fighter_out(const ros::Fighter& f) {
  std::optional<ShieldTuple> shield;
  if (f.shield) shield = ShieldTuple{f.shield->name, f.shield->dtn, f.shield->passive_av, f.shield->zones};
  return {f.index, f.id, f.pool, f.brawn, f.presence, f.resistance, f.proficiency, weapon_out(f.weapon), shield,
          f.wounds};
}
ros::Fighter fighter_in(const FighterTuple& t) {
  ros::Fighter f;
  std::tie(f.index, f.id, f.pool, f.brawn, f.presence, f.resistance, f.proficiency, std::ignore, std::ignore,
           f.wounds) = t;
  f.weapon = weapon_in(std::get<7>(t));
  if (const auto& shield = std::get<8>(t)) {
    f.shield = RosShield{std::get<0>(*shield), std::get<1>(*shield), std::get<2>(*shield), std::get<3>(*shield)};
  }
  return f;
}

ros::Profile profile_in(const ProfileTuple& t) {
  ros::Profile p;
  std::tie(p.might, p.agility, p.wit, p.resolve, p.mettle, p.melee, p.melee_traits) = t;
  return p;
}

nb::dict by_fighter_out(const ros::ByFighter& values) {
  nb::dict out;
  for (const auto& [id, value] : values) out[nb::cast(id)] = value;
  return out;
}

nb::object text_or_none(const std::string& text) { return text.empty() ? nb::none() : nb::cast(text); }

nb::dict exchange_out(const ros::ExchangeEvent& e) {
  nb::dict d;
  d["exchange"] = e.exchange;
  d["attacker"] = e.attacker;
  d["defender"] = e.defender;
  d["manoeuvre"] = e.manoeuvre;
  d["zone"] = e.zone;
  d["zone_name"] = e.zone_name;
  d["feint"] = text_or_none(e.feint);
  d["attack_dice"] = nb::cast(e.attack_dice);
  d["attack_faces"] = nb::cast(e.attack_faces);
  d["attack_bonus_dice"] = e.attack_bonus_dice;
  d["atn"] = e.atn;
  d["attack_successes"] = e.attack_successes;
  d["attack_fumble"] = e.attack_fumble;
  d["defence"] = e.defence;
  d["defence_dice"] = nb::cast(e.defence_dice);
  d["dtn"] = e.dtn ? nb::cast(*e.dtn) : nb::none();
  d["defence_successes"] = e.defence_successes;
  d["defence_fumble"] = e.defence_fumble;
  d["counter_failed"] = e.counter_failed;
  d["margin"] = e.margin;
  d["outcome"] = std::string(ros::outcome_name(e.outcome));
  if (e.hit) {
    const ros::HitRecord& h = *e.hit;
    d["damage"] = h.damage;
    d["armour"] = h.armour;
    d["wound_level"] = h.wound_level;
    d["wound_text"] = h.wound_text;
    if (h.wounded) {
      d["shock"] = h.shock;
      d["pain"] = h.pain;
      d["bl"] = h.bl;
      d["effect"] = h.effect;
      d["riven_wounds"] = h.riven_wounds;
    }
    if (h.knockdown) {
      nb::dict k;
      k["resistance"] = h.knockdown->resistance;
      k["tn"] = h.knockdown->tn;
      k["dice"] = nb::cast(h.knockdown->dice);
      k["successes"] = h.knockdown->successes;
      k["prone"] = h.knockdown->prone;
      d["knockdown"] = k;
    }
  }
  if (!e.steal.empty()) d["steal"] = e.steal;
  if (e.attacker_pool_lost) d["attacker_pool_lost"] = *e.attacker_pool_lost;
  if (e.counter_bonus) d["counter_bonus"] = *e.counter_bonus;
  d["initiative"] = e.initiative;
  d["pools"] = by_fighter_out(e.pools);
  return d;
}

nb::dict event_fields(const ros::SessionEvent& event) {
  if (const auto* start = std::get_if<ros::RoundStartEvent>(&event)) {
    nb::dict d;
    d["attacker"] = start->attacker;
    d["defender"] = start->defender;
    d["pools"] = by_fighter_out(start->pools);
    nb::dict weapons;
    for (const auto& [id, w] : start->weapons) {
      nb::dict entry;
      entry["name"] = w.name;
      entry["atn"] = w.atn;
      entry["dtn"] = w.dtn;
      entry["dr"] = w.dr;
      entry["shield"] = text_or_none(w.shield);
      weapons[nb::cast(id)] = entry;
    }
    d["weapons"] = weapons;
    d["brawn"] = by_fighter_out(start->brawn);
    return d;
  }
  if (const auto* exchange = std::get_if<ros::ExchangeEvent>(&event)) return exchange_out(*exchange);
  if (const auto* steal = std::get_if<ros::StealEvent>(&event)) {
    nb::dict d;
    d["model"] = steal->model;
    d["stole"] = steal->stole;
    d["cost"] = steal->cost;
    return d;
  }
  const auto& end = std::get<ros::RoundEndEvent>(event);
  nb::dict d;
  d["reason"] = end.reason;
  d["exchanges"] = end.exchanges;
  d["pools"] = by_fighter_out(end.pools);
  return d;
}

/// (session, events): the session's fields and its new events as (type, dict) pairs.
nb::tuple session_and_events(const ros::MeleeSession& session) {
  nb::list events;
  for (const ros::SessionEvent& event : session.new_events) {
    events.append(nb::make_tuple(std::string(ros::event_type(event)), event_fields(event)));
  }
  return nb::make_tuple(session_out(session), events);
}

nb::tuple pool_out(const ros::PoolRoll& r) {
  return nb::make_tuple(r.tn, r.faces, r.totals, r.successes, r.ones, r.fumble);
}

nb::tuple test_out(const ros::RosTest& t) {
  return nb::make_tuple(t.kind, t.attribute, t.attribute_value, mods_out(t.modifiers), t.tn, t.dice,
                        std::string(band_name(t.rolled_result)), std::string(band_name(t.result)), t.pool,
                        t.successes, t.fumble, t.faces, t.ros_attribute);
}

template <class Rng>
void def_rolls(nb::class_<ros::RiddleOfSteelSystem>& cls) {
  using System = ros::RiddleOfSteelSystem;
  cls.def("roll_test", [](const System& self, const std::string& kind, const std::string& attribute, int value,
                          int tn, const Mods& mods, Rng& rng) {
    return test_out(self.roll_test(kind, attribute, value, tn, mods_in(mods), rng));
  });
  cls.def("roll_pool", [](const System& self, int dice, int tn, Rng& rng) {
    return pool_out(ros::roll_pool(dice, tn, rng, self.settings()));
  });
  cls.def("open_session", [](const System& self, const FighterTuple& attacker, const FighterTuple& defender, Rng& rng) {
    return session_and_events(self.open_session(fighter_in(attacker), fighter_in(defender), rng));
  });
  cls.def("apply_choice", [](const System& self, const SessionTuple& session, const std::string& option, Rng& rng) {
    return session_and_events(self.apply_choice(session_in(session), option, rng));
  });
}

void bind_system(nb::module_& m) {
  using System = ros::RiddleOfSteelSystem;
  nb::class_<System> cls(m, "RiddleOfSteelSystem",
                         "The Riddle of Steel's dice engine (riven::rules::riddle_of_steel::RiddleOfSteelSystem).");
  cls.def(
         "__init__",
         [](System* self, const RulesConfig& rules) { new (self) System(std::make_shared<const RulesConfig>(rules)); },
         nb::arg("rules"))
      .def("shot_tn", &System::shot_tn)
      .def(
          "option_vocabulary",
          [](const System& self, int most) { return ros::option_vocabulary(self.settings(), most); },
          nb::arg("most") = ros::kMostDice)
      .def("make_fighter",
           [](const System& self, int index, const std::string& id, const ProfileTuple& profile, int wounds, int pain,
              const Mods& mods) {
             return fighter_out(self.fighter(index, id, profile_in(profile), wounds, pain, mods_in(mods)));
           })
      .def("choice_options",
           [](const System& self, const SessionTuple& session) { return self.choice_options(session_in(session)); })
      .def("oracle_session_choice",
           [](const System& self, const SessionTuple& session, const std::vector<std::string>& legal,
              const std::optional<std::string>& profile) {
             const OracleChoice c = self.oracle_session_choice(session_in(session), legal, profile);
             return std::make_tuple(c.option, c.rule, c.text);
           })
      .def("oracle_choice",
           [](const System& self, const SessionTuple& session, const std::vector<std::string>& legal,
              const std::string& stance) {
             const OracleChoice c = ros::oracle_choice(session_in(session), legal, stance, self.settings());
             return std::make_tuple(c.option, c.rule, c.text);
           })
      .def("ros_test_tn", [](const System& self, const std::string& kind,
                             int tn) { return ros::ros_test_tn(kind, tn, self.settings()); })
      .def("band_for", [](const System& self, int successes, bool fumble) {
        return std::string(band_name(ros::band_for(successes, fumble, self.settings())));
      });
  def_rolls<Pcg64>(cls);
  def_rolls<ScriptedDice>(cls);
}

void bind_data(nb::module_& m) {
  nb::class_<RosAttributeSpec>(m, "RosAttributeSpec")
      .def(nb::init<>())
      .def_rw("name", &RosAttributeSpec::name)
      .def_rw("from_", &RosAttributeSpec::from)
      .def_rw("offset", &RosAttributeSpec::offset);
  nb::class_<RosWeapon>(m, "RosWeapon")
      .def(nb::init<>())
      .def_rw("name", &RosWeapon::name)
      .def_rw("atn", &RosWeapon::atn)
      .def_rw("dtn", &RosWeapon::dtn)
      .def_rw("dr", &RosWeapon::dr)
      .def_rw("shield", &RosWeapon::shield);
  nb::class_<RosShield>(m, "RosShield")
      .def(nb::init<>())
      .def_rw("name", &RosShield::name)
      .def_rw("dtn", &RosShield::dtn)
      .def_rw("passive_av", &RosShield::passive_av)
      .def_rw("zones", &RosShield::zones);
  nb::class_<RosWeaponTrait>(m, "RosWeaponTrait")
      .def(nb::init<>())
      .def_rw("name", &RosWeaponTrait::name)
      .def_rw("dr", &RosWeaponTrait::dr)
      .def_rw("sets_shield", &RosWeaponTrait::sets_shield)
      .def_rw("shield", &RosWeaponTrait::shield);
  nb::class_<RosAttack>(m, "RosAttack")
      .def(nb::init<>())
      .def_rw("name", &RosAttack::name)
      .def_rw("extra", &RosAttack::extra)
      .def_rw("bonus_dice", &RosAttack::bonus_dice)
      .def_rw("damage", &RosAttack::damage);
  nb::class_<RosDefence>(m, "RosDefence")
      .def(nb::init<>())
      .def_rw("name", &RosDefence::name)
      .def_prop_rw(
          "source",
          [](const RosDefence& self) {
            return std::string(self.source == RosDtnSource::Weapon   ? "weapon"
                               : self.source == RosDtnSource::Shield ? "shield"
                                                                     : "number");
          },
          [](RosDefence& self, const std::string& value) {
            if (value == "weapon") self.source = RosDtnSource::Weapon;
            else if (value == "shield") self.source = RosDtnSource::Shield;
            else if (value == "number") self.source = RosDtnSource::Number;
            else throw RulesDataError("riddle_of_steel.melee.defences.*.dtn: '" + value + "' is not weapon or shield");
          })
      .def_rw("dtn", &RosDefence::dtn)
      .def_rw("cost", &RosDefence::cost)
      .def_rw("needs_shield", &RosDefence::needs_shield);
  nb::class_<RosZone>(m, "RosZone")
      .def(nb::init<>())
      .def_rw("zone", &RosZone::zone)
      .def_rw("name", &RosZone::name)
      .def_rw("near", &RosZone::near);
  nb::class_<RosWound>(m, "RosWound")
      .def(nb::init<>())
      .def_rw("shock", &RosWound::shock)
      .def_rw("pain", &RosWound::pain)
      .def_rw("bl", &RosWound::bl)
      .def_rw("wounds", &RosWound::wounds)
      .def_rw("effect", &RosWound::effect)
      .def_rw("text", &RosWound::text);
  nb::class_<RosDamageRow>(m, "RosDamageRow")
      .def(nb::init<>())
      .def_rw("zone", &RosDamageRow::zone)
      .def_rw("levels", &RosDamageRow::levels);
  nb::class_<RosStance>(m, "RosStance")
      .def(nb::init<>())
      .def_rw("name", &RosStance::name)
      .def_rw("first_attack_share", &RosStance::first_attack_share)
      .def_rw("defence_share", &RosStance::defence_share);
  using R = RiddleOfSteelRules;
  nb::class_<R>(m, "RiddleOfSteelRules")
      .def(nb::init<>())
      .def_rw("faces", &R::faces)
      .def_rw("stack_on", &R::stack_on)
      .def_rw("max_stacks", &R::max_stacks)
      .def_rw("fumble_ones", &R::fumble_ones)
      .def_rw("min_tn", &R::min_tn)
      .def_rw("attributes", &R::attributes)
      .def_rw("proficiency_base", &R::proficiency_base)
      .def_rw("proficiency_min", &R::proficiency_min)
      .def_rw("feint_min", &R::feint_min)
      .def_rw("test_attribute_for", &R::test_attribute_for)
      .def_rw("test_modifier_dice", &R::test_modifier_dice)
      .def_rw("test_min_dice", &R::test_min_dice)
      .def_rw("tn_for_riven_tn", &R::tn_for_riven_tn)
      .def_rw("bands", &R::bands)
      .def_rw("shot_atn", &R::shot_atn)
      .def_rw("cover_tn", &R::cover_tn)
      .def_rw("exchanges", &R::exchanges)
      .def_rw("modifier_dice", &R::modifier_dice)
      .def_rw("ignore_modifier_sources", &R::ignore_modifier_sources)
      .def_rw("feint_cost", &R::feint_cost)
      .def_rw("feint_die_cost_near", &R::feint_die_cost_near)
      .def_rw("feint_die_cost_far", &R::feint_die_cost_far)
      .def_rw("counter_bonus", &R::counter_bonus)
      .def_rw("counter_fail_extra_successes", &R::counter_fail_extra_successes)
      .def_rw("stand_steal_cost", &R::stand_steal_cost)
      .def_rw("duck_weave_pool_loss", &R::duck_weave_pool_loss)
      .def_rw("fumble_pool_loss", &R::fumble_pool_loss)
      .def_rw("knockdown_tn_per_margin", &R::knockdown_tn_per_margin)
      .def_rw("knockdown_condition", &R::knockdown_condition)
      .def_rw("bleeding_condition", &R::bleeding_condition)
      .def_rw("max_wound_level", &R::max_wound_level)
      .def_rw("attacks", &R::attacks)
      .def_rw("defences", &R::defences)
      .def_rw("zones", &R::zones)
      .def_rw("weapons", &R::weapons)
      .def_rw("weapon_traits", &R::weapon_traits)
      .def_rw("shields", &R::shields)
      .def_rw("damage", &R::damage)
      .def_rw("default_stance", &R::default_stance)
      .def_rw("stances_by_profile", &R::stances_by_profile)
      .def_rw("stances", &R::stances);
}

}  // namespace

namespace ros_tuples {

SessionTuple session_out(const rules::riddle_of_steel::MeleeSession& s) {
  std::vector<EffectTuple> effects;
  effects.reserve(s.effects.size());
  for (const rules::riddle_of_steel::Effect& e : s.effects) {
    effects.emplace_back(std::string(rules::riddle_of_steel::effect_name(e.kind)), e.index, e.amount, e.condition);
  }
  return {{fighter_out(s.fighters[0]), fighter_out(s.fighters[1])},
          {s.pools[0], s.pools[1]},
          s.exchanges,
          s.exchange,
          s.attacker,
          std::string(rules::riddle_of_steel::step_name(s.step)),
          s.manoeuvre,
          s.zone,
          s.attack_dice,
          s.defence,
          s.defence_dice,
          s.feint,
          {s.bonus[0], s.bonus[1]},
          s.last_attacker,
          s.pending_steal,
          effects,
          s.end_reason};
}
rules::riddle_of_steel::MeleeSession session_in(const SessionTuple& t) {
  rules::riddle_of_steel::MeleeSession s;
  const auto& [fighters, pools, exchanges, exchange, attacker, step, manoeuvre, zone, attack_dice, defence,
               defence_dice, feint, bonus, last_attacker, pending_steal, effects, end_reason] = t;
  s.fighters = {fighter_in(fighters.first), fighter_in(fighters.second)};
  s.pools = {pools.first, pools.second};
  s.exchanges = exchanges;
  s.exchange = exchange;
  s.attacker = attacker;
  s.step = rules::riddle_of_steel::step_from_name(step);
  s.manoeuvre = manoeuvre;
  s.zone = zone;
  s.attack_dice = attack_dice;
  s.defence = defence;
  s.defence_dice = defence_dice;
  s.feint = feint;
  s.bonus = {bonus.first, bonus.second};
  s.last_attacker = last_attacker;
  s.pending_steal = pending_steal;
  for (const auto& [kind, index, amount, condition] : effects) {
    s.effects.push_back(
        rules::riddle_of_steel::Effect{rules::riddle_of_steel::effect_from_name(kind), index, amount, condition});
  }
  s.end_reason = end_reason;
  return s;
}

}  // namespace ros_tuples

void bind_riddle_of_steel(nb::module_& module) {
  bind_data(module);
  bind_system(module);
}

}  // namespace riven::bindings
