#include "riven/rules/systems/riddle_of_steel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace riven::rules::riddle_of_steel {
namespace {

constexpr std::array<std::string_view, 7> kStepNames{"attack", "attack_dice", "defence", "defence_dice",
                                                     "feint",  "steal",       "done"};
constexpr std::array<std::string_view, 5> kEffectNames{"pain", "wound", "down", "out", "condition"};
constexpr std::array<std::string_view, 3> kOutcomeNames{"hit", "tie", "defended"};
// The order a Damage Table effect ranks in, for the Oracle's choice of zone (riddle_of_steel.py
// _EFFECT_RANK).
constexpr std::array<std::string_view, 4> kEffectRank{"", "knockdown", "down", "out"};

template <class Item>
const Item* find_named(const std::vector<Item>& items, std::string_view name) {
  const auto it = std::find_if(items.begin(), items.end(), [&](const Item& item) { return item.name == name; });
  return it == items.end() ? nullptr : &*it;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Python's round(x) for a float: to the nearest integer, ties to even.
int round_half_even(double x) {
  const double floor = std::floor(x);
  const double rest = x - floor;
  if (rest > 0.5) return static_cast<int>(floor) + 1;
  if (rest < 0.5) return static_cast<int>(floor);
  return std::fmod(floor, 2.0) == 0.0 ? static_cast<int>(floor) : static_cast<int>(floor) + 1;
}

/// f"{share:.0%}": the share times 100, no decimals, then a percent sign.
std::string percent(double share) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.0f%%", share * 100.0);
  return text.data();
}

int effect_rank(std::string_view effect) {
  const auto it = std::find(kEffectRank.begin(), kEffectRank.end(), effect);
  return static_cast<int>(it - kEffectRank.begin());
}

int zone_index(const RiddleOfSteelRules& s, std::string_view zone) {
  const auto it = std::find_if(s.zones.begin(), s.zones.end(), [&](const RosZone& z) { return z.zone == zone; });
  return static_cast<int>(it - s.zones.begin());
}

const RosStance& stance_named(const RiddleOfSteelRules& s, const std::string& name) {
  const RosStance* found = find_named(s.stances, name);
  if (found == nullptr) found = find_named(s.stances, s.default_stance);
  if (found == nullptr) throw RulesDataError("riddle_of_steel.oracle.default_stance: no such stance");
  return *found;
}

}  // namespace

std::string_view step_name(Step step) { return kStepNames[static_cast<std::size_t>(step)]; }

Step step_from_name(std::string_view name) {
  const auto it = std::find(kStepNames.begin(), kStepNames.end(), name);
  if (it == kStepNames.end()) throw RulesDataError("riddle-of-steel melee: no step '" + std::string(name) + "'");
  return static_cast<Step>(it - kStepNames.begin());
}

std::string_view effect_name(EffectKind kind) { return kEffectNames[static_cast<std::size_t>(kind)]; }

EffectKind effect_from_name(std::string_view name) {
  const auto it = std::find(kEffectNames.begin(), kEffectNames.end(), name);
  if (it == kEffectNames.end()) {
    throw RulesDataError("riddle-of-steel effect '" + std::string(name) +
                         "': expected pain, wound, down, out or condition");
  }
  return static_cast<EffectKind>(it - kEffectNames.begin());
}

std::string_view outcome_name(ExchangeOutcome outcome) { return kOutcomeNames[static_cast<std::size_t>(outcome)]; }

std::string_view event_type(const SessionEvent& event) {
  constexpr std::array<std::string_view, 4> kTypes{"ros_round", "ros_exchange", "ros_steal", "ros_round_end"};
  return kTypes[event.index()];
}

// ------------------------------------------------------------------ dice
PoolRoll pool_from_faces(std::vector<std::vector<int>> faces, int tn, const RiddleOfSteelRules& s) {
  PoolRoll roll;
  roll.tn = tn;
  roll.totals.reserve(faces.size());
  for (const std::vector<int>& die : faces) {
    const int total = std::accumulate(die.begin(), die.end(), 0);
    roll.totals.push_back(total);
    if (total >= tn) ++roll.successes;
    if (!die.empty() && die.front() == 1) ++roll.ones;
  }
  roll.faces = std::move(faces);
  roll.fumble = roll.successes == 0 && roll.ones >= s.fumble_ones;
  return roll;
}

Band band_for(int successes, bool fumble, const RiddleOfSteelRules& s) {
  Band band = Band::Miss;
  if (fumble) return band;
  for (const auto& [name, least] : s.bands) {
    if (successes >= least) band = band_from_name(name);
  }
  return band;
}

// ------------------------------------------------------------------ a RIVEN profile in RoS terms
int Profile::attribute(std::string_view name) const {
  if (name == "might") return might;
  if (name == "agility") return agility;
  if (name == "wit") return wit;
  if (name == "resolve") return resolve;
  throw RulesDataError("riddle_of_steel.attributes: '" + std::string(name) +
                       "' is not a RIVEN attribute (might, agility, wit, resolve)");
}

Attributes ros_attributes(const Profile& profile, const RiddleOfSteelRules& s) {
  Attributes out;
  for (const RosAttributeSpec& spec : s.attributes) {
    const int value = profile.attribute(spec.from) + spec.offset;
    if (spec.name == "brawn") out.brawn = value;
    else if (spec.name == "agility") out.agility = value;
    else if (spec.name == "wits") out.wits = value;
    else if (spec.name == "presence") out.presence = value;
    else throw RulesDataError("riddle_of_steel.attributes." + spec.name + ": not an RoS attribute");
  }
  out.coordination = detail::floor_div(out.agility + out.wits, 2);
  out.resistance = detail::floor_div(out.brawn + out.presence, 2);
  return out;
}

int proficiency(const Profile& profile, const RiddleOfSteelRules& s) {
  return std::max(s.proficiency_min, s.proficiency_base - profile.mettle);
}

RosWeapon ros_weapon(const Profile& profile, const RiddleOfSteelRules& s) {
  const std::string name = profile.melee.value_or("unarmed");
  if (const RosWeapon* found = find_named(s.weapons, name)) return *found;
  const RosWeapon* base = find_named(s.weapons, "default");
  if (base == nullptr) throw RulesDataError("riddle_of_steel.weapons.default is missing (unlisted weapons use it)");
  RosWeapon out{name, base->atn, base->dtn, base->dr, base->shield};
  if (profile.melee) {
    std::vector<std::string> traits = profile.melee_traits;
    std::sort(traits.begin(), traits.end());
    for (const std::string& trait : traits) {
      const RosWeaponTrait* adjust = find_named(s.weapon_traits, trait);
      if (adjust == nullptr) continue;
      out.dr += adjust->dr;
      if (adjust->sets_shield) out.shield = adjust->shield;
    }
  }
  return out;
}

int combat_pool(const Profile& profile, const RiddleOfSteelRules& s) {
  return ros_attributes(profile, s).coordination + proficiency(profile, s);
}

int modifier_dice(const std::vector<Modifier>& modifiers, const RiddleOfSteelRules& s) {
  int total = 0;
  for (const Modifier& m : modifiers) {
    const bool ignored = std::any_of(s.ignore_modifier_sources.begin(), s.ignore_modifier_sources.end(),
                                     [&](const std::string& prefix) { return m.source.starts_with(prefix); });
    if (!ignored) total += m.value;
  }
  return total * s.modifier_dice;
}

Fighter make_fighter(int index, std::string id, const Profile& profile, int wounds, int pain,
                     const std::vector<Modifier>& modifiers, const RiddleOfSteelRules& s) {
  const Attributes attrs = ros_attributes(profile, s);
  Fighter f;
  f.index = index;
  f.id = std::move(id);
  f.pool = std::max(0, combat_pool(profile, s) - pain + modifier_dice(modifiers, s));
  f.brawn = attrs.brawn;
  f.presence = attrs.presence;
  f.resistance = attrs.resistance;
  f.proficiency = proficiency(profile, s);
  f.weapon = ros_weapon(profile, s);
  if (!f.weapon.shield.empty()) {
    if (const RosShield* shield = find_named(s.shields, f.weapon.shield)) f.shield = *shield;
  }
  f.wounds = wounds;
  return f;
}

int zone_armour(const Fighter& fighter, std::string_view zone) {
  return fighter.shield && contains(fighter.shield->zones, zone) ? fighter.shield->passive_av : 0;
}

int wound_level(const Fighter& attacker, const Fighter& defender, std::string_view zone, int margin, int extra) {
  return attacker.brawn + attacker.weapon.dr + margin + extra - defender.brawn - zone_armour(defender, zone);
}

// ------------------------------------------------------------------ the session's pure steps
namespace detail {

const RosAttack& attack_named(const RiddleOfSteelRules& s, std::string_view name) {
  const RosAttack* found = find_named(s.attacks, name);
  if (found == nullptr) throw RulesDataError("riddle_of_steel.melee.attacks has no '" + std::string(name) + "'");
  return *found;
}

const RosDefence& defence_named(const RiddleOfSteelRules& s, std::string_view name) {
  const RosDefence* found = find_named(s.defences, name);
  if (found == nullptr) throw RulesDataError("riddle_of_steel.melee.defences has no '" + std::string(name) + "'");
  return *found;
}

const RosZone& zone_named(const RiddleOfSteelRules& s, std::string_view zone) {
  const auto it = std::find_if(s.zones.begin(), s.zones.end(), [&](const RosZone& z) { return z.zone == zone; });
  if (it == s.zones.end()) throw RulesDataError("riddle_of_steel.zones has no '" + std::string(zone) + "'");
  return *it;
}

const RosWound& wound(const RiddleOfSteelRules& s, std::string_view zone, int level) {
  const auto row_of = [&](std::string_view name) -> const RosDamageRow* {
    const auto it =
        std::find_if(s.damage.begin(), s.damage.end(), [&](const RosDamageRow& r) { return r.zone == name; });
    return it == s.damage.end() || it->levels.empty() ? nullptr : &*it;
  };
  const RosDamageRow* row = row_of(zone);
  if (row == nullptr) row = row_of("default");
  if (row == nullptr || level < 1 || level > static_cast<int>(row->levels.size())) {
    throw RulesDataError("riddle_of_steel.damage: no level " + std::to_string(level) + " for zone " +
                         std::string(zone));
  }
  return row->levels[static_cast<std::size_t>(level - 1)];
}

int share_of(int dice, double share) { return static_cast<int>(std::floor(static_cast<double>(dice) * share)); }

ByFighter by_fighter(const MeleeSession& session, const std::array<int, 2>& values) {
  return {{session.fighters[0].id, values[0]}, {session.fighters[1].id, values[1]}};
}

int floor_div(int a, int b) {
  const int q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

MeleeSession begin_exchange(MeleeSession session) {
  if (session.pools[static_cast<std::size_t>(session.attacker)] < 1) {
    return finish(std::move(session), "no dice left to attack");
  }
  session.step = Step::Attack;
  session.manoeuvre.clear();
  session.zone.clear();
  session.attack_dice = 0;
  session.defence.clear();
  session.defence_dice = 0;
  session.feint.clear();
  session.pending_steal = false;
  return session;
}

MeleeSession finish(MeleeSession session, std::string reason) {
  session.new_events.emplace_back(RoundEndEvent{reason, session.exchange, by_fighter(session, session.pools)});
  session.step = Step::Done;
  session.end_reason = std::move(reason);
  return session;
}

MeleeSession next_exchange(MeleeSession session, int next_attacker) {
  if (session.exchange >= session.exchanges) return finish(std::move(session), "the round's exchanges are over");
  session.exchange += 1;
  session.attacker = next_attacker;
  return begin_exchange(std::move(session));
}

bool feint_open(const MeleeSession& session, const RiddleOfSteelRules& s) {
  const auto a = static_cast<std::size_t>(session.attacker);
  return session.fighters[a].proficiency >= s.feint_min && session.pools[a] >= s.feint_cost;
}

bool defence_open(const MeleeSession& session, const RiddleOfSteelRules& s) {
  MeleeSession asked = session;
  asked.step = Step::Defence;
  return choice_options(asked, s).size() > 1;
}

HitSteps hit_before_knockdown(const MeleeSession& session, int margin, int extra, const RiddleOfSteelRules& s) {
  const Fighter& fa = session.fighters[static_cast<std::size_t>(session.attacker)];
  const Fighter& fd = session.fighters[static_cast<std::size_t>(session.defender())];
  const int raw = wound_level(fa, fd, session.zone, margin, extra);
  const int level = std::min(s.max_wound_level, raw);
  HitSteps out;
  out.record.damage = raw;
  out.record.armour = zone_armour(fd, session.zone);
  out.record.wound_level = std::max(0, level);
  if (level <= 0) {
    out.record.wound_text = "a scratch: no wound";
    return out;
  }
  const RosWound& cell = wound(s, session.zone, level);
  const int pain = std::max(0, cell.pain - fd.presence);
  out.record.wound_text = cell.text;
  out.record.wounded = true;
  out.record.shock = cell.shock;
  out.record.pain = pain;
  out.record.bl = cell.bl;
  out.record.effect = cell.effect;
  out.record.riven_wounds = cell.wounds;
  if (cell.effect != "out") {  // a slain model keeps neither Pain nor a bleeding wound
    if (pain != 0) out.effects.push_back(Effect{EffectKind::Pain, fd.index, pain, ""});
    if (cell.bl != 0) out.effects.push_back(Effect{EffectKind::Condition, fd.index, 0, s.bleeding_condition});
  }
  out.shock = cell.shock;
  const int pool_after = session.pools[static_cast<std::size_t>(session.defender())] - cell.shock;
  if (cell.effect == "out") {
    out.effects.push_back(Effect{EffectKind::Out, fd.index, 0, ""});
    out.ends = fd.id + " is slain (" + cell.text + ")";
  } else if (cell.effect == "down" || cell.wounds >= fd.wounds) {
    if (cell.wounds != 0) out.effects.push_back(Effect{EffectKind::Wound, fd.index, cell.wounds, ""});
    out.effects.push_back(Effect{EffectKind::Down, fd.index, 0, ""});
    out.ends = fd.id + " is down (" + cell.text + ")";
  } else {
    if (cell.wounds != 0) {
      out.effects.push_back(Effect{EffectKind::Wound, fd.index, cell.wounds, ""});
      out.wounds = cell.wounds;
    }
    if (cell.effect == "knockdown" || pool_after <= 0) {
      out.knockdown_test = true;
      out.knockdown_tn = std::max(s.min_tn, s.knockdown_tn_per_margin * margin);
    }
  }
  return out;
}

std::pair<std::string, std::string> split_option(const std::string& option) {
  const std::size_t colon = option.find(':');
  if (colon == std::string::npos) {
    throw RulesDataError("riddle-of-steel melee: option '" + option + "' has no ':'");
  }
  return {option.substr(0, colon), option.substr(colon + 1)};
}

int option_count(std::string_view text) {
  const auto refuse = [&] { return RulesDataError("riddle-of-steel melee: '" + std::string(text) + "' is no count"); };
  if (text.empty() || text.size() > 4) throw refuse();
  int value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') throw refuse();
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace detail

int defence_tn(const MeleeSession& session, std::string_view defence, const RiddleOfSteelRules& s) {
  const Fighter& fd = session.fighters[static_cast<std::size_t>(session.defender())];
  const RosDefence& spec = detail::defence_named(s, defence);
  switch (spec.source) {
    case RosDtnSource::Weapon:
      return fd.weapon.dtn;
    case RosDtnSource::Shield:
      return fd.shield ? fd.shield->dtn : fd.weapon.dtn;
    case RosDtnSource::Number:
      break;
  }
  return spec.dtn;
}

std::vector<std::string> choice_options(const MeleeSession& session, const RiddleOfSteelRules& s) {
  const int a = session.attacker;
  const int d = session.defender();
  const int a_pool = session.pools[static_cast<std::size_t>(a)];
  const int d_pool = session.pools[static_cast<std::size_t>(d)];
  const Fighter& fd = session.fighters[static_cast<std::size_t>(d)];
  std::vector<std::string> out;
  switch (session.step) {
    case Step::Attack:
      for (const RosAttack& m : s.attacks) {
        if (a_pool - m.extra < 1) continue;
        for (const RosZone& z : s.zones) out.push_back(m.name + ":" + z.zone);
      }
      break;
    case Step::AttackDice: {
      const int extra = detail::attack_named(s, session.manoeuvre).extra;
      for (int k = 1; k <= a_pool - extra; ++k) out.push_back(std::to_string(k));
      break;
    }
    case Step::Defence:
      out.emplace_back(kNoDefence);
      for (const RosDefence& spec : s.defences) {
        if (spec.needs_shield && !fd.shield) continue;
        if (spec.name == kDodgeBreak && session.last_attacker == d) continue;  // RAW: not right after your attack
        if (d_pool >= spec.cost + 1) out.push_back(spec.name);
      }
      break;
    case Step::DefenceDice:
      for (int k = 1; k <= d_pool; ++k) out.push_back(std::to_string(k));
      break;
    case Step::Feint: {
      const int spare = a_pool - s.feint_cost;
      const auto& near = detail::zone_named(s, session.zone).near;
      out.emplace_back(kNoFeint);
      for (const RosZone& z : s.zones) {
        if (z.zone == session.zone) continue;
        const int cost = contains(near, z.zone) ? s.feint_die_cost_near : s.feint_die_cost_far;
        for (int e = 0; e <= detail::floor_div(spare, cost); ++e) out.push_back(z.zone + ":" + std::to_string(e));
      }
      break;
    }
    case Step::Steal:
      out.emplace_back(kSteal);
      out.emplace_back(kKeep);
      break;
    case Step::Done:
      break;
  }
  return out;
}

std::vector<std::string> option_vocabulary(const RiddleOfSteelRules& s, int most) {
  std::vector<std::string> out;
  const auto add = [&](std::string option) {
    if (std::find(out.begin(), out.end(), option) == out.end()) out.push_back(std::move(option));
  };
  for (const RosAttack& a : s.attacks) {
    for (const RosZone& z : s.zones) add(a.name + ":" + z.zone);
  }
  for (int k = 0; k <= most; ++k) add(std::to_string(k));
  add(std::string(kNoDefence));
  for (const RosDefence& d : s.defences) add(d.name);
  for (const RosZone& z : s.zones) {
    for (int e = 0; e <= most; ++e) add(z.zone + ":" + std::to_string(e));
  }
  add(std::string(kSteal));
  add(std::string(kKeep));
  return out;
}

// ------------------------------------------------------------------ the Oracle's rules
namespace {

/// How much a margin-1 Swing to `zone` would do: effect, RIVEN wounds, shock (riddle_of_steel.py
/// _zone_key).
std::array<int, 4> zone_key(const MeleeSession& session, std::string_view zone, const RiddleOfSteelRules& s) {
  const Fighter& fa = session.fighters[static_cast<std::size_t>(session.attacker)];
  const Fighter& fd = session.fighters[static_cast<std::size_t>(session.defender())];
  const int level = std::min(s.max_wound_level, wound_level(fa, fd, zone, 1, 0));
  if (level <= 0) return {level, 0, 0, 0};
  const RosWound& cell = detail::wound(s, zone, level);
  return {1, effect_rank(cell.effect), cell.wounds, cell.shock};
}

int largest_count(const std::vector<std::string>& legal) {
  int most = 0;
  for (const std::string& o : legal) most = std::max(most, detail::option_count(o));
  return most;
}

}  // namespace

OracleChoice oracle_choice(const MeleeSession& session, const std::vector<std::string>& legal,
                           const std::string& stance_name, const RiddleOfSteelRules& s) {
  const RosStance& stance = stance_named(s, stance_name);
  const auto ai = static_cast<std::size_t>(session.attacker);
  const auto di = static_cast<std::size_t>(session.defender());
  const Fighter& fa = session.fighters[ai];
  const Fighter& fd = session.fighters[di];
  const bool last = session.exchange >= session.exchanges;
  const auto is_legal = [&](const std::string& option) { return contains(legal, option); };
  switch (session.step) {
    case Step::Attack: {
      // The zone where a margin-1 Swing does most, the first in data order on a tie.
      const std::string* best = nullptr;
      std::array<int, 4> best_key{};
      for (const RosZone& z : s.zones) {
        const std::string tail = ":" + z.zone;
        const bool offered =
            std::any_of(legal.begin(), legal.end(), [&](const std::string& o) { return o.ends_with(tail); });
        if (!offered) continue;
        const std::array<int, 4> key = zone_key(session, z.zone, s);
        if (best == nullptr || key > best_key) {
          best = &z.zone;
          best_key = key;
        }
      }
      if (best != nullptr) {
        const int thrust_level = std::min(s.max_wound_level, wound_level(fa, fd, *best, 1, -1));
        constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kTried{{
            {"thrust", "a margin-1 thrust still wounds there: one die more"},
            {"swing_heavy", "it pays a die for a heavier swing"},
            {"swing", "a plain swing"},
        }};
        for (const auto& [manoeuvre, why] : kTried) {
          const std::string option = std::string(manoeuvre) + ":" + *best;
          if (!is_legal(option) || (manoeuvre == "thrust" && thrust_level < 1)) continue;
          const int level = std::max(0, std::min(s.max_wound_level, wound_level(fa, fd, *best, 1, 0)));
          std::string text = fa.id + " aims at zone " + *best + " (" + detail::zone_named(s, *best).name +
                             "), where a margin-1 swing deals wound level " + std::to_string(level) + "; " +
                             std::string(why) + ".";
          return {option, "ros:attack:" + std::string(manoeuvre), std::move(text)};
        }
      }
      return {legal.front(), "ros:attack:first", fa.id + " attacks with the first listed manoeuvre."};
    }
    case Step::AttackDice: {
      const int most = largest_count(legal);
      if (last) {
        return {std::to_string(most), "ros:attack_dice:all",
                fa.id + " puts all " + std::to_string(most) + " dice into its last attack."};
      }
      const int pool = session.pools[ai];
      const int k = std::min(most, std::max(1, round_half_even(stance.first_attack_share * pool)));
      return {std::to_string(k), "ros:attack_dice:" + stance.name,
              fa.id + " (" + stance.name + " stance) commits " + std::to_string(k) + " of its " + std::to_string(pool) +
                  " dice (" + percent(stance.first_attack_share) + ") to the first attack."};
    }
    case Step::Defence: {
      const int rolled =
          session.attack_dice + detail::attack_named(s, session.manoeuvre).bonus_dice + session.bonus[ai];
      const int pool = session.pools[di];
      if (is_legal(std::string(kDodgeBreak)) && rolled >= 2 * pool) {
        return {std::string(kDodgeBreak), "ros:defence:break",
                fd.id + " faces " + std::to_string(rolled) + " dice with only " + std::to_string(pool) +
                    ": it breaks off (Dodge and Break)."};
      }
      std::optional<std::pair<int, std::string>> best;  // (DTN, name): the lowest
      for (const std::string_view tool : {kBlock, kParry}) {
        const std::string name(tool);
        if (!is_legal(name)) continue;
        const std::pair<int, std::string> key{defence_tn(session, name, s), name};
        if (!best || key < *best) best = key;
      }
      if (best) {
        return {best->second, "ros:defence:" + best->second,
                fd.id + " defends with " + best->second + " (DTN " + std::to_string(best->first) +
                    ", the lowest it has)."};
      }
      return {std::string(kNoDefence), "ros:defence:none", fd.id + " has no defence to make."};
    }
    case Step::DefenceDice: {
      const int most = largest_count(legal);
      if (last) {
        return {std::to_string(most), "ros:defence_dice:all",
                fd.id + " defends with all " + std::to_string(most) + " dice left."};
      }
      const int k = std::min(most, std::max(1, round_half_even(stance.defence_share * most)));
      return {std::to_string(k), "ros:defence_dice:" + stance.name,
              fd.id + " (" + stance.name + " stance) defends with " + std::to_string(k) + " of its " +
                  std::to_string(most) + " dice (" + percent(stance.defence_share) +
                  "), keeping the rest for the next exchange."};
    }
    case Step::Feint: {
      const bool covered = fd.shield && contains(fd.shield->zones, session.zone);
      if (session.defence == kBlock && covered) {
        std::vector<std::string> near = detail::zone_named(s, session.zone).near;
        std::stable_sort(near.begin(), near.end(), [&](const std::string& x, const std::string& y) {
          return zone_index(s, x) < zone_index(s, y);
        });
        for (const std::string& z : near) {
          const std::string option = z + ":0";
          if (is_legal(option) && zone_armour(fd, z) == 0) {
            return {option, "ros:feint:around_shield",
                    fd.id + " blocks and its shield covers zone " + session.zone + ": " + fa.id + " feints to zone " +
                        z + " (" + detail::zone_named(s, z).name + ")."};
          }
        }
      }
      return {std::string(kNoFeint), "ros:feint:none", fa.id + " does not feint."};
    }
    case Step::Steal:
      if (session.pools[di] - s.stand_steal_cost >= 1) {
        return {std::string(kSteal), "ros:steal:pay",
                fd.id + " pays " + std::to_string(s.stand_steal_cost) + " dice to take the initiative."};
      }
      return {std::string(kKeep), "ros:steal:keep", fd.id + " keeps its last dice for defence."};
    case Step::Done:
      break;
  }
  if (legal.empty()) throw RulesDataError("riddle-of-steel melee: no option to choose (the round is over)");
  return {legal.front(), "ros:first", "The only option."};
}

// ------------------------------------------------------------------ tests
int ros_test_tn(std::string_view kind, int tn, const RiddleOfSteelRules& s) {
  if (kind == "shot") return tn;
  // The nearest RIVEN TN, the lower on a tie (the table is sorted by RIVEN TN).
  const auto nearest = std::min_element(s.tn_for_riven_tn.begin(), s.tn_for_riven_tn.end(),
                                        [&](const std::pair<int, int>& x, const std::pair<int, int>& y) {
                                          return std::pair(std::abs(x.first - tn), x.first) <
                                                 std::pair(std::abs(y.first - tn), y.first);
                                        });
  if (nearest == s.tn_for_riven_tn.end()) throw RulesDataError("riddle_of_steel.tests.tn_for_riven_tn is empty");
  return nearest->second;
}

std::pair<int, std::string> test_pool(const std::string& attribute, int attribute_value,
                                      const std::vector<Modifier>& modifiers, const RiddleOfSteelRules& s) {
  std::string ros_name = attribute;
  for (const auto& [riven, ros] : s.test_attribute_for) {
    if (riven == attribute) {
      ros_name = ros;
      break;
    }
  }
  const RosAttributeSpec* spec = find_named(s.attributes, ros_name);
  const int offset = spec == nullptr ? 0 : spec->offset;
  const int bonus = modifiers_total(modifiers) * s.test_modifier_dice;
  return {std::max(s.test_min_dice, attribute_value + offset + bonus), ros_name};
}

// ------------------------------------------------------------------ the system
RiddleOfSteelSystem::RiddleOfSteelSystem(std::shared_ptr<const RulesConfig> rules) : RivenRolls(std::move(rules)) {
  if (!rules_ || !rules_->has_riddle_of_steel) {
    throw RulesDataError("riddle-of-steel: the native rules carry no [riddle_of_steel] table");
  }
}

RosTest RiddleOfSteelSystem::make_test(const std::string& kind, const std::string& attribute, int attribute_value,
                                       const std::vector<Modifier>& modifiers, PoolRoll roll,
                                       const std::string& ros_name) const {
  RosTest test;
  test.kind = kind;
  test.attribute = attribute;
  test.attribute_value = attribute_value;
  test.modifiers = modifiers;
  test.tn = roll.tn;
  test.rolled_result = band_for(roll.successes, roll.fumble, settings());
  test.result = test.rolled_result;
  test.pool = roll.dice();
  test.successes = roll.successes;
  test.fumble = roll.fumble;
  test.dice = std::move(roll.totals);
  test.faces = std::move(roll.faces);
  test.ros_attribute = ros_name;
  return test;
}

int RiddleOfSteelSystem::shot_tn(const std::string& cover) const {
  for (const auto& [name, step] : settings().cover_tn) {
    if (name == cover) return settings().shot_atn + step;
  }
  std::string allowed;
  for (const auto& [name, _] : settings().cover_tn) allowed += (allowed.empty() ? "" : ", ") + name;
  throw RulesDataError(rules_->source + ": riddle_of_steel.shooting.cover_tn has no '" + cover + "'; allowed: " +
                       allowed);
}

const std::string& stance_for(const std::optional<std::string>& oracle_profile, const RiddleOfSteelRules& s) {
  const std::string profile = oracle_profile.value_or("");
  for (const auto& [name, stance] : s.stances_by_profile) {
    if (name == profile) return stance;
  }
  return s.default_stance;
}

const std::string& RiddleOfSteelSystem::stance_for(const std::optional<std::string>& oracle_profile) const {
  return riddle_of_steel::stance_for(oracle_profile, settings());
}

OracleChoice RiddleOfSteelSystem::oracle_session_choice(const MeleeSession& session,
                                                        const std::vector<std::string>& legal,
                                                        const std::optional<std::string>& oracle_profile) const {
  return oracle_choice(session, legal, stance_for(oracle_profile), settings());
}

}  // namespace riven::rules::riddle_of_steel
