#include "riven/rules/systems/new_world.hpp"

#include <algorithm>
#include <numeric>

#include "riven/rules/errors.hpp"

namespace riven::rules::new_world {
namespace {

constexpr std::array<std::string_view, 2> kChooserNames{"actor", "target"};

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The highest value among the keywords the table names, else `fallback` (new_world.py rank_of
/// and luck_of read the same way).
int keyword_value(const Fighter& profile, const std::vector<NamedInt>& table, int fallback) {
  std::optional<int> best;
  for (const auto& [keyword, value] : table) {
    if (contains(profile.keywords, keyword) && (!best || value > *best)) best = value;
  }
  return best.value_or(fallback);
}

int sum(const std::vector<int>& dice) { return std::accumulate(dice.begin(), dice.end(), 0); }

MeleeOutcome tier(int margin, const NewWorldRules& s) {
  if (margin >= s.melee_critical_margin) return MeleeOutcome::Critical;
  if (margin >= s.wound_margin) return MeleeOutcome::Wound;
  return MeleeOutcome::Recoil;
}

/// The attacker's outcome: parry unless the attacker wins (new_world.py _outcome_for_attacker).
MeleeOutcome outcome_for_attacker(const NewWorldRoll& roll, const NewWorldRules& s) {
  const MeleeReading r = melee_outcome(roll.dice, total(roll, s), roll.melee_dice, defender_total(roll, s), s);
  return r.winner != Winner::Attacker ? MeleeOutcome::Parry : r.outcome;
}

int index(MeleeOutcome outcome) { return static_cast<int>(outcome); }

/// K of `help:K`, or -1 when the option is not that form.
int help_count(std::string_view option) {
  if (!option.starts_with(kHelp)) return -1;
  const std::string_view digits = option.substr(kHelp.size());
  if (digits.empty() || digits.size() > 2) return -1;
  int value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace

int Fighter::attribute(std::string_view name) const {
  if (name == "might") return might;
  if (name == "agility") return agility;
  if (name == "wit") return wit;
  if (name == "resolve") return resolve;
  if (name == "mettle") return mettle;
  throw RulesDataError("New World characteristic '" + std::string(name) +
                       "': expected might, agility, wit, resolve or mettle");
}

std::string_view chooser_name(Chooser chooser) { return kChooserNames[static_cast<std::size_t>(chooser)]; }

Chooser chooser_from_name(std::string_view name) {
  if (name == "actor") return Chooser::Actor;
  if (name == "target") return Chooser::Target;
  throw RulesDataError("New World chooser '" + std::string(name) + "': expected actor or target");
}

int rank_of(const Fighter& profile, const NewWorldRules& s) {
  return keyword_value(profile, s.rank_by_keyword, s.rank_default);
}

int bonus_of(const Fighter& profile, std::string_view attribute, const NewWorldRules& s) {
  return std::min(profile.attribute(attribute) + s.characteristic_offset + rank_of(profile, s), s.roll_limit);
}

int luck_of(const Fighter& profile, const NewWorldRules& s) {
  return keyword_value(profile, s.luck_by_keyword, s.luck_default);
}

bool snake_eyes(const std::vector<int>& dice) { return dice.size() == 2 && dice[0] == 1 && dice[1] == 1; }

bool succeeds(const std::vector<int>& dice, int total, int difficulty, const NewWorldRules& s) {
  if (s.snake_eyes_fails && snake_eyes(dice)) return false;
  return total >= difficulty;
}

Band band_of(const std::vector<int>& dice, int total, int difficulty, const NewWorldRules& s) {
  const int margin = total - difficulty;
  if (succeeds(dice, total, difficulty, s)) return margin >= s.critical_margin ? Band::Critical : Band::Hit;
  if (s.partial_within != 0 && margin >= -s.partial_within && !snake_eyes(dice)) return Band::Partial;
  return Band::Miss;
}

MeleeReading melee_outcome(const std::vector<int>& a_dice, int a_total, const std::vector<int>& d_dice, int d_total,
                           const NewWorldRules& s) {
  const bool a_fails = s.snake_eyes_fails && snake_eyes(a_dice);
  const bool d_fails = s.snake_eyes_fails && snake_eyes(d_dice);
  const int margin = a_total - d_total;
  if (a_fails || (margin <= 0 && !d_fails)) {
    if (s.defender_strikes_back && !a_fails && margin < 0) return {tier(-margin, s), Winner::Defender, -margin};
    if (s.defender_strikes_back && a_fails && !d_fails) {
      const int m = std::max(1, -margin);
      return {tier(m, s), Winner::Defender, m};
    }
    return {MeleeOutcome::Parry, Winner::None, margin};
  }
  const int m = std::max(1, margin);
  return {tier(m, s), Winner::Attacker, m};
}

int total(const NewWorldRoll& roll, const NewWorldRules& s) {
  return sum(roll.dice) + roll.bonus + modifiers_total(roll.modifiers) + help_bonus(roll.helpers, s) +
         roll.luck_spent * s.luck_per_point;
}

int defender_total(const NewWorldRoll& roll, const NewWorldRules& s) {
  if (!roll.is_melee) return 0;
  return sum(roll.melee_dice) + roll.melee_bonus + modifiers_total(roll.melee_modifiers) +
         roll.defender_luck_spent * s.luck_per_point;
}

int margin(const NewWorldRoll& roll, const NewWorldRules& s) {
  return roll.is_melee ? total(roll, s) - defender_total(roll, s) : total(roll, s) - roll.difficulty;
}

Band result(const NewWorldRoll& roll, const NewWorldRules& s) {
  if (!roll.rolled) return Band::Miss;
  if (roll.is_melee) {
    // The outcome's tier whoever wins (new_world.py NewWorldRoll.result): parry a Miss, recoil
    // a Partial, wound a Hit, critical a Critical.
    const MeleeReading r = melee_outcome(roll.dice, total(roll, s), roll.melee_dice, defender_total(roll, s), s);
    return static_cast<Band>(r.outcome);
  }
  return band_of(roll.dice, total(roll, s), roll.difficulty, s);
}

// ====================================================================== the system
NewWorldSystem::NewWorldSystem(std::shared_ptr<const RulesConfig> rules) : RivenRolls(std::move(rules)) {
  if (!rules_ || !rules_->has_new_world) {
    throw RulesDataError((rules_ ? rules_->source : std::string("rules")) +
                         ": no [new_world] table (meta.resolution = 'new-world'?)");
  }
}

int situational(int value, const NewWorldRules& s) {
  return std::max(-s.modifier_limit, std::min(s.modifier_limit, value));
}

std::vector<Modifier> clamped(const std::vector<Modifier>& modifiers, const NewWorldRules& s) {
  std::vector<Modifier> out;
  out.reserve(modifiers.size());
  for (const Modifier& m : modifiers) out.push_back(Modifier{m.source, situational(m.value, s)});
  return out;
}

int help_bonus(int helpers, const NewWorldRules& s) { return situational(helpers * s.helper_bonus, s); }

NewWorldRoll NewWorldSystem::make_roll(const std::string& kind, const std::string& attribute, int attribute_value,
                                       int tn, const std::vector<Modifier>& modifiers, const RollFacts& facts) const {
  const NewWorldRules& s = settings();
  NewWorldRoll roll;
  roll.kind = kind;
  roll.attribute = attribute;
  roll.attribute_value = attribute_value;
  roll.modifiers = clamped(modifiers, s);
  roll.tn = tn;
  // Characteristic + rank; a bare roll (no profile in the context) has no rank.
  roll.bonus = facts.profile ? bonus_of(*facts.profile, attribute, s)
                             : std::min(attribute_value + s.characteristic_offset, s.roll_limit);
  roll.difficulty = tn + s.difficulty_offset;
  if (kind == "shot" && facts.opponent) {
    roll.difficulty = s.passive_base + bonus_of(*facts.opponent, s.shot_characteristic, s);
    const std::string& cover = facts.cover ? *facts.cover : "none";
    int value = 0;
    for (const auto& [name, v] : s.cover_modifier) {
      if (name == cover) value = v;
    }
    // The source names the context's cover as Python formats it (None when the context has none).
    value = situational(value, s);
    if (value != 0) roll.modifiers.push_back(Modifier{"cover:" + facts.cover.value_or("None"), value});
  }
  roll.luck_held = facts.luck;
  const int available = contains(s.helper_kinds, kind) ? std::min(facts.helpers, s.helpers_max) : 0;
  if (available != 0 && s.helper_bonus != 0) {
    roll.rolled = false;
    roll.helpers_available = available;
    const auto n = std::min(static_cast<std::size_t>(available), facts.helper_models.size());
    roll.helper_models.assign(facts.helper_models.begin(), facts.helper_models.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return roll;
}

NewWorldRoll NewWorldSystem::make_melee(const Side& attacker, const Side& defender, std::vector<int> a_dice,
                                        std::vector<int> d_dice) const {
  const NewWorldRules& s = settings();
  NewWorldRoll roll;
  roll.kind = "melee";
  roll.attribute = s.melee_characteristic;
  roll.attribute_value = attacker.profile.attribute(s.melee_characteristic);
  roll.modifiers = clamped(attacker.modifiers, s);
  roll.bonus = bonus_of(attacker.profile, s.melee_characteristic, s);
  roll.dice = std::move(a_dice);
  roll.luck_held = attacker.luck;
  roll.is_melee = true;
  roll.melee_dice = std::move(d_dice);
  roll.melee_bonus = bonus_of(defender.profile, s.melee_characteristic, s);
  roll.melee_modifiers = clamped(defender.modifiers, s);
  roll.defender_luck_held = defender.luck;
  roll.rolled_total = total(roll, s);
  if (spend_options(roll).empty()) roll.chooser = Chooser::Target;
  return roll;
}

bool NewWorldSystem::luck_helps(const NewWorldRoll& roll, Chooser who) const {
  const NewWorldRules& s = settings();
  const int left = roll.luck_left(who);
  if (left < 1) return false;
  if (!roll.is_melee) {
    if (s.snake_eyes_fails && snake_eyes(roll.dice)) return false;  // RAW: no Luck turns snake eyes
    const Band band = result(roll, s);
    if (band == Band::Critical) return false;
    NewWorldRoll bump = roll;
    bump.luck_spent += left;
    return result(bump, s) != band;
  }
  const int now = index(outcome_for_attacker(roll, s));
  NewWorldRoll bump = roll;
  if (who == Chooser::Actor) {
    bump.luck_spent += left;
    return index(outcome_for_attacker(bump, s)) > now;
  }
  bump.defender_luck_spent += left;
  return index(outcome_for_attacker(bump, s)) < now;
}

std::vector<std::string> NewWorldSystem::spend_options(const NewWorldRoll& roll) const {
  std::vector<std::string> options;
  if (!roll.rolled) {
    for (int k = 0; k <= roll.helpers_available; ++k) options.push_back(std::string(kHelp) + std::to_string(k));
    return options;
  }
  if (luck_helps(roll, roll.chooser)) options.emplace_back(kLuck);
  return options;
}

NewWorldRoll NewWorldSystem::spent(const NewWorldRoll& roll, const std::string& option) const {
  const std::vector<std::string> allowed = spend_options(roll);
  if (std::find(allowed.begin(), allowed.end(), option) == allowed.end()) {
    throw IllegalAction(option + " (New World " + roll.kind + " roll)");
  }
  NewWorldRoll next = roll;
  const int helpers = help_count(option);
  if (helpers >= 0) {
    next.helpers = helpers;
    next.helper_models.resize(std::min(next.helper_models.size(), static_cast<std::size_t>(helpers)));
    next.spends.push_back(option);
    return next;  // still unrolled: apply_spend rolls the dice
  }
  if (roll.chooser == Chooser::Target) {
    next.defender_luck_spent += 1;
    next.spends.emplace_back(kDefenderLuck);
  } else {
    next.luck_spent += 1;
    next.spends.push_back(option);
  }
  return next;
}

std::optional<NewWorldRoll> NewWorldSystem::accept(const NewWorldRoll& roll) const {
  if (roll.is_melee && roll.chooser == Chooser::Actor) {
    NewWorldRoll handed = roll;
    handed.chooser = Chooser::Target;
    if (!spend_options(handed).empty()) return handed;
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> NewWorldSystem::choice_vocabulary() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (int k = 0; k <= settings().helpers_max; ++k) out.emplace_back("allocate", std::string(kHelp) + std::to_string(k));
  out.emplace_back("spend", std::string(kLuck));
  return out;
}

Result NewWorldSystem::finalise(const NewWorldRoll& roll) const {
  const NewWorldRules& s = settings();
  const int roll_total = total(roll, s);
  Result out;
  Detail& d = out.detail;
  d.bonus = roll.bonus;
  d.helpers = roll.helpers;
  d.helper_bonus = help_bonus(roll.helpers, s);
  d.luck_spent = roll.luck_spent;
  d.rolled_total = roll.rolled_total;
  d.snake_eyes = snake_eyes(roll.dice);
  d.is_melee = roll.is_melee;
  d.margin = margin(roll, s);
  if (roll.is_melee) {
    d.defender_bonus = roll.melee_bonus;
    d.defender_luck_spent = roll.defender_luck_spent;
    d.defender_snake_eyes = snake_eyes(roll.melee_dice);
  } else {
    d.difficulty = roll.difficulty;
    d.success = succeeds(roll.dice, roll_total, roll.difficulty, s);
  }
  // The aftermath: the Luck each side spent, the helpers' share of a bad failure.
  const std::string luck(kLuckResource);
  if (roll.luck_spent != 0) out.aftermath.push_back(Aftermath{"actor", "resource", -roll.luck_spent, luck, "luck spent"});
  if (roll.defender_luck_spent != 0) {
    out.aftermath.push_back(Aftermath{"target", "resource", -roll.defender_luck_spent, luck, "luck spent"});
  }
  if (!roll.is_melee && roll.helpers != 0 && s.shared_risk_strain != 0 && !d.success &&
      roll_total - roll.difficulty <= -s.shared_risk_margin) {
    for (const int k : roll.helper_models) {
      out.aftermath.push_back(Aftermath{"model:" + std::to_string(k), "strain", s.shared_risk_strain, "", "shared risk"});
    }
  }
  out.kind = roll.kind;
  out.attribute = roll.attribute;
  out.attribute_value = roll.attribute_value;
  out.modifiers = roll.modifiers;
  out.dice = roll.dice;
  out.total = roll_total;
  out.spends = roll.spends;
  if (roll.is_melee) {
    const MeleeReading r = melee_outcome(roll.dice, roll_total, roll.melee_dice, defender_total(roll, s), s);
    out.is_melee = true;
    out.defender_dice = roll.melee_dice;
    out.defender_modifiers = roll.melee_modifiers;
    out.defender_total = defender_total(roll, s);
    out.outcome = r.outcome;
    out.winner = r.winner;
    out.wounds = r.outcome == MeleeOutcome::Wound      ? rules_->melee.wound_wounds
                 : r.outcome == MeleeOutcome::Critical ? rules_->melee.critical_wounds
                                                       : 0;
    out.condition = r.outcome == MeleeOutcome::Critical ? rules_->melee.critical_condition : "";
    out.recoil_distance = r.outcome == MeleeOutcome::Recoil ? rules_->melee.recoil_distance : 0.0;
    out.dazed = out.condition == "dazed";
    return out;
  }
  out.tn = roll.difficulty;
  out.result = result(roll, s);
  NewWorldRoll unlucky = roll;
  unlucky.luck_spent = 0;
  out.rolled_result = result(unlucky, s);
  // RIVEN's Momentum for a Critical band (House: a success by the critical margin).
  out.momentum_gained = out.result == Band::Critical ? rules_->momentum.gain_critical : 0;
  return out;
}

namespace {

/// Fewest Luck points that change the result the chooser's way (nullopt: none do).
std::optional<int> points_needed(const NewWorldRoll& roll, Chooser who, const NewWorldRules& s) {
  const int now = roll.is_melee ? index(outcome_for_attacker(roll, s)) : 0;
  const Band band = result(roll, s);
  for (int points = 1; points <= roll.luck_left(who); ++points) {
    NewWorldRoll bump = roll;
    if (who == Chooser::Target) {
      bump.defender_luck_spent += points;
      if (index(outcome_for_attacker(bump, s)) < now) return points;
    } else {
      bump.luck_spent += points;
      if (roll.is_melee) {
        if (index(outcome_for_attacker(bump, s)) > now) return points;
      } else if (result(bump, s) != band) {
        return points;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

OracleChoice NewWorldSystem::oracle_choice(const NewWorldRoll& roll, const std::vector<std::string>& options,
                                           const std::string& model) const {
  return new_world::oracle_choice(roll, options, model, settings());
}

OracleChoice oracle_choice(const NewWorldRoll& roll, const std::vector<std::string>& options, const std::string& model,
                           const NewWorldRules& s) {
  if (!roll.rolled) {
    const int base = roll.bonus + modifiers_total(roll.modifiers);
    int sure = 0;
    for (int a = 1; a <= 6; ++a) {
      for (int b = 1; b <= 6; ++b) {
        if (succeeds({a, b}, a + b + base, roll.difficulty, s)) ++sure;
      }
    }
    const int k = sure < s.oracle_sure ? roll.helpers_available : 0;
    std::string text = model + " succeeds on " + std::to_string(sure) + " of 36 rolls alone: ";
    text += k != 0 ? "it calls " + std::to_string(k) + " helper(s) (+" + std::to_string(help_bonus(k, s)) + ")."
                   : std::string("it needs no help.");
    return OracleChoice{std::string(kHelp) + std::to_string(k), "new-world:helpers", text};
  }
  if (contains(options, kLuck)) {
    const Chooser who = roll.chooser;
    const std::optional<int> needed = points_needed(roll, who, s);
    if (needed && *needed <= std::min(s.oracle_luck_max, roll.luck_left(who))) {
      return OracleChoice{std::string(kLuck), "new-world:luck_turns_it",
                          model + " spends Luck: " + std::to_string(*needed) + " point(s) change the result (" +
                              std::to_string(roll.luck_left(who)) + " held)."};
    }
  }
  return OracleChoice{"accept", "new-world:accept",
                      model + " lets the roll stand: no Luck within " + std::to_string(s.oracle_luck_max) +
                          " point(s) changes it."};
}

}  // namespace riven::rules::new_world
