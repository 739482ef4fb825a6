#include "riven/rules/systems/invictus.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <stdexcept>

#include "riven/rules/errors.hpp"

namespace riven::rules::invictus {
namespace {

constexpr std::array<std::string_view, kBandCount> kBandNames{"miss", "swing", "hit", "crit"};
constexpr std::array<std::string_view, kBandCount> kBandTitles{"Miss", "Swing", "Hit", "Crit"};

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Python's floor division (`//`) for a positive divisor.
int floor_div(int a, int b) {
  const int q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

std::vector<int> sorted_high_to_low(std::vector<int> dice) {
  std::sort(dice.begin(), dice.end(), std::greater<>());
  return dice;
}

std::string_view title(IBand band) { return kBandTitles[static_cast<std::size_t>(band)]; }

/// The index of `option` after `prefix` ("favour:3" -> 3), or -1 when it is not digits.
int option_index(std::string_view option, std::string_view prefix) {
  const std::string_view digits = option.substr(prefix.size());
  if (digits.empty() || digits.size() > 6) return -1;
  int value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

MeleeOutcome outcome_from(const std::string& name) {
  if (name == "parry") return MeleeOutcome::Parry;
  if (name == "recoil") return MeleeOutcome::Recoil;
  if (name == "wound") return MeleeOutcome::Wound;
  if (name == "critical") return MeleeOutcome::Critical;
  throw RulesDataError("invictus.melee: '" + name + "' is not parry, recoil, wound or critical");
}

}  // namespace

std::string_view band_name(IBand band) { return kBandNames[static_cast<std::size_t>(band)]; }

IBand band_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kBandNames.size(); ++i) {
    if (kBandNames[i] == name) return static_cast<IBand>(i);
  }
  throw RulesDataError("Invictus band '" + std::string(name) + "': expected miss, swing, hit or crit");
}

IBand read_band(const std::vector<int>& dice, const InvictusRules& s) {
  if (dice.empty()) return IBand::Miss;
  const auto sixes = std::count_if(dice.begin(), dice.end(), [](int d) { return d >= kFaces; });
  if (sixes >= s.crit_sixes) return IBand::Crit;
  const int high = *std::max_element(dice.begin(), dice.end());
  if (high <= s.miss_max) return IBand::Miss;
  if (high <= s.swing_max) return IBand::Swing;
  return IBand::Hit;
}

std::pair<int, int> circumstance(const std::vector<Modifier>& modifiers, int tn, const InvictusRules& s) {
  const int score = modifiers_total(modifiers) + floor_div(s.standard_tn - tn, s.tn_step);
  if (std::abs(score) <= 1) return {score, 0};
  const int extra = (std::abs(score) - 1) / s.steps_per_die;
  return {score, score > 0 ? extra : -extra};
}

bool at_critical_health(const RollFacts& facts, const InvictusRules& s) {
  // wounds_max 0: the context carries no wound track (a bare roll, the odds).
  return s.deaths_door_overflow > 0 && facts.wounds_max > 0 && facts.wounds_left <= s.deaths_door_overflow;
}

std::vector<std::string> danger_factors(const std::string& kind, int attribute_value,
                                        std::optional<int> opponent_value, const RollFacts& facts,
                                        const InvictusRules& s) {
  std::vector<std::string> out;
  for (const std::string& factor : s.factors) {
    bool holds = false;
    if (factor == "fray") {
      holds = kind == "melee" || facts.engaged;
    } else if (factor == "superior_opposition") {
      holds = opponent_value.has_value() && *opponent_value > attribute_value;
    } else if (factor == "exposed") {
      holds = std::any_of(facts.conditions.begin(), facts.conditions.end(),
                          [&](const std::string& c) { return contains(s.exposed_conditions, c); });
    } else if (factor == "critical_health") {
      holds = at_critical_health(facts, s);
    } else if (factor == "time_pressure") {
      holds = facts.final_round;
    } else {
      throw RulesDataError("invictus.danger.factors: unknown factor '" + factor + "'");
    }
    if (holds) out.push_back(factor);
  }
  return out;
}

std::vector<int> raise_choices(const std::vector<int>& dice) {
  std::vector<int> seen;
  std::vector<int> found;
  for (std::size_t index = 0; index < dice.size(); ++index) {
    const int value = dice[index];
    if (value < kFaces && std::find(seen.begin(), seen.end(), value) == seen.end()) {
      seen.push_back(value);
      found.push_back(static_cast<int>(index));
    }
  }
  return found;
}

std::vector<int> raised(const std::vector<int>& dice, int index, int by) {
  std::vector<int> out = dice;
  int& die = out.at(static_cast<std::size_t>(index));
  die = std::min(kFaces, die + by);
  return sorted_high_to_low(std::move(out));
}

std::vector<int> unfavourable(const std::vector<int>& dice) {
  if (dice.empty()) return {};
  std::vector<int> out = sorted_high_to_low(dice);
  out[0] = std::max(1, out[0] - 1);
  return sorted_high_to_low(std::move(out));
}

std::pair<std::string, int> consequence(IBand band, const std::vector<int>& danger, bool fray,
                                        const InvictusRules& s) {
  if (danger.empty()) return {"", 0};
  if (band == IBand::Miss || band == IBand::Swing) {
    const int high = *std::max_element(danger.begin(), danger.end());
    return {high <= s.soft_max ? "soft" : "hard", high};
  }
  if (fray && contains(s.bite_on, band_name(band)) &&
      std::find(danger.begin(), danger.end(), s.bite_face) != danger.end()) {
    return {s.bite_face <= s.soft_max ? "soft" : "hard", s.bite_face};
  }
  return {"", 0};
}

// ====================================================================== the system
InvictusSystem::InvictusSystem(std::shared_ptr<const RulesConfig> rules) : RivenRolls(std::move(rules)) {
  if (!rules_ || !rules_->has_invictus) {
    throw RulesDataError((rules_ ? rules_->source : std::string("rules")) +
                         ": no [invictus] table (meta.resolution = 'invictus'?)");
  }
}

int InvictusSystem::shot_tn(const std::string& cover) const {
  const InvictusRules& s = settings();
  for (const auto& [name, score] : s.cover_score) {
    if (name == cover) return s.standard_tn - s.tn_step * score;
  }
  std::string allowed;
  for (const auto& [name, _] : s.cover_score) allowed += (allowed.empty() ? "" : ", ") + name;
  throw RulesDataError("invictus.cover.score has no '" + cover + "'; allowed: " + allowed);
}

std::pair<int, int> InvictusSystem::draws(const std::string& kind, int attribute_value, int tn,
                                          const std::vector<Modifier>& score_modifiers,
                                          std::optional<int> opponent_value, const RollFacts& facts) const {
  const InvictusRules& s = settings();
  const int extra = circumstance(score_modifiers, tn, s).second;
  const bool critical = at_critical_health(facts, s);
  const int penalty = critical ? s.critical_health_dice : 0;
  const int pool = std::max(s.min_dice, std::min(s.max_dice, attribute_value + s.attribute_offset + extra - penalty));
  const auto factors = static_cast<int>(danger_factors(kind, attribute_value, opponent_value, facts, s).size());
  return {pool, std::min(factors, s.danger_max)};
}

InvictusRoll InvictusSystem::make_roll(const std::string& kind, const std::string& attribute, int attribute_value,
                                       int tn, const std::vector<Modifier>& modifiers,
                                       const std::vector<Modifier>& score_modifiers, std::optional<int> opponent_value,
                                       const RollFacts& facts, const std::vector<int>& pool_faces,
                                       const std::vector<int>& danger_faces) const {
  const InvictusRules& s = settings();
  const int score = circumstance(score_modifiers, tn, s).first;
  InvictusRoll roll;
  roll.kind = kind;
  roll.attribute = attribute;
  roll.attribute_value = attribute_value;
  roll.modifiers = modifiers;
  roll.tn = tn;
  roll.pool = static_cast<int>(pool_faces.size());
  roll.rolled_dice = sorted_high_to_low(pool_faces);
  roll.danger = danger_faces;
  roll.factors = danger_factors(kind, attribute_value, opponent_value, facts, s);
  roll.dice = score < 0 ? unfavourable(roll.rolled_dice) : roll.rolled_dice;
  roll.fray = kind == "melee" || facts.engaged;
  roll.favourable = score > 0;
  roll.unfavourable = score < 0;
  roll.score = score;
  roll.critical_health = at_critical_health(facts, s);
  roll.luck_held = facts.luck;
  roll.rolled_band = read_band(roll.dice, s);
  return roll;
}

std::vector<std::string> InvictusSystem::spend_options(const InvictusRoll& roll, std::optional<int> luck) const {
  const std::vector<int> choices = raise_choices(roll.dice);
  std::vector<std::string> options;
  if (choices.empty()) return options;
  if (roll.favourable) {
    for (const int i : choices) options.push_back(std::string(kFavour) + std::to_string(i));
  }
  if (luck.value_or(roll.luck_held) - roll.luck_spent >= 1) {
    for (const int i : choices) options.push_back(std::string(kLuck) + std::to_string(i));
  }
  return options;
}

InvictusRoll InvictusSystem::apply_spend(const InvictusRoll& roll, const std::string& option) const {
  // Allowed: the Favourable raises while unused, and a Luck raise of any choice (the caller
  // offers Luck only while it lasts, as spend_options does).
  const std::vector<std::string> allowed = spend_options(roll, roll.luck_spent + 1);
  if (std::find(allowed.begin(), allowed.end(), option) == allowed.end()) {
    throw IllegalAction(option + " (Invictus " + roll.kind + " roll)");
  }
  InvictusRoll next = roll;
  next.spends.push_back(option);
  if (option.starts_with(kFavour)) {
    next.dice = raised(roll.dice, option_index(option, kFavour));
    next.favourable = false;
  } else {
    next.dice = raised(roll.dice, option_index(option, kLuck), settings().luck_raise);
    next.luck_spent = roll.luck_spent + 1;
  }
  return next;
}

std::vector<std::string> InvictusSystem::choice_vocabulary() const {
  std::vector<std::string> out;
  for (const std::string_view prefix : {kFavour, kLuck}) {
    for (int i = 0; i < settings().max_dice; ++i) out.push_back(std::string(prefix) + std::to_string(i));
  }
  return out;
}

Result InvictusSystem::finalise(const InvictusRoll& roll) const {
  const InvictusRules& s = settings();
  const IBand band = read_band(roll.dice, s);
  Result out;
  // The aftermath: Luck spent, Luck earned on a Crit, the Narrator's move.
  if (roll.luck_spent != 0) {
    out.aftermath.push_back(Aftermath{"actor", "resource", -roll.luck_spent, std::string(kLuckResource), "luck spent"});
  }
  if (band == IBand::Crit && s.luck_crit_gain != 0) {
    const int held = roll.luck_held - roll.luck_spent;
    const int gain = s.luck_cap == 0 ? s.luck_crit_gain : std::max(0, std::min(s.luck_crit_gain, s.luck_cap - held));
    if (gain != 0) out.aftermath.push_back(Aftermath{"actor", "resource", gain, std::string(kLuckResource), "crit"});
  }
  const auto [move, die] = consequence(band, roll.danger, roll.fray, s);
  if (!move.empty()) {
    const InvictusMove& effect = move == "soft" ? s.soft : s.hard;
    if (effect.effect != "none") {
      out.aftermath.push_back(
          Aftermath{"actor", effect.effect, effect.amount, "", move + " move (danger " + std::to_string(die) + ")"});
    }
  }
  Detail& d = out.detail;
  d.band = band;
  d.rolled_band = roll.rolled_band;
  d.pool = roll.pool;
  d.rolled_dice = roll.rolled_dice;
  d.favourable = roll.score > 0;
  d.favour_used = roll.score > 0 && !roll.favourable;
  d.unfavourable = roll.unfavourable;
  d.danger_dice = roll.danger;
  d.danger_factors = roll.factors;
  d.move = move;
  d.move_die = die;
  d.luck_spent = roll.luck_spent;
  d.critical_health = roll.critical_health;

  out.kind = roll.kind;
  out.attribute = roll.attribute;
  out.attribute_value = roll.attribute_value;
  out.modifiers = roll.modifiers;
  out.tn = roll.tn;
  out.dice = roll.dice;
  out.total = roll.dice.empty() ? 0 : *std::max_element(roll.dice.begin(), roll.dice.end());
  out.result = riven_band(band);
  out.rolled_result = riven_band(roll.rolled_band);
  out.spends = roll.spends;
  if (roll.is_melee) {
    out.is_melee = true;
    out.defender_modifiers = roll.melee;
    const std::string& name = s.melee[static_cast<std::size_t>(band)];
    out.outcome = outcome_from(name);
    out.wounds = out.outcome == MeleeOutcome::Wound      ? s.melee_wounds
                 : out.outcome == MeleeOutcome::Critical ? s.melee_crit_wounds
                                                         : 0;
    out.condition = out.outcome == MeleeOutcome::Critical ? rules_->melee.critical_condition : "";
    out.recoil_distance = out.outcome == MeleeOutcome::Recoil ? rules_->melee.recoil_distance : 0.0;
    out.winner = out.outcome == MeleeOutcome::Parry ? Winner::None : Winner::Attacker;
    out.dazed = out.condition == "dazed";
  }
  return out;
}

OracleChoice InvictusSystem::oracle_choice(const InvictusRoll& roll, const std::vector<std::string>& options,
                                           const std::string& model, int luck_now) const {
  return invictus::oracle_choice(roll, options, model, luck_now, settings());
}

OracleChoice oracle_choice(const InvictusRoll& roll, const std::vector<std::string>& options, const std::string& model,
                           int luck_now, const InvictusRules& s) {
  const IBand now = read_band(roll.dice, s);
  // The best raise among the options of one prefix: the best band, the lowest index on ties.
  const auto best_of = [&](std::string_view prefix) -> std::optional<std::pair<std::string, IBand>> {
    std::optional<std::pair<std::string, IBand>> best;
    int best_index = 0;
    for (const std::string& option : options) {
      if (!option.starts_with(prefix)) continue;
      const int index = option_index(option, prefix);
      const IBand after = read_band(raised(roll.dice, index), s);
      if (!best || tier(after) > tier(best->second) || (after == best->second && index < best_index)) {
        best = std::make_pair(option, after);
        best_index = index;
      }
    }
    return best;
  };
  if (const auto favour = best_of(kFavour)) {
    return OracleChoice{favour->first, "invictus:favour_best",
                        model + "'s roll is Favourable: it raises the die that gives the best band (" +
                            std::string(title(now)) + " -> " + std::string(title(favour->second)) + ")."};
  }
  const int luck_left = luck_now - roll.luck_spent;
  const auto luck = best_of(kLuck);
  if (luck && luck_left - 1 >= s.oracle_reserve) {
    const int after = tier(luck->second);
    if (after > tier(now) && after >= tier(band_from_name(s.oracle_lifts_to))) {
      return OracleChoice{luck->first, "invictus:luck_lifts_band",
                          model + " spends 1 Luck (" + std::to_string(luck_left) + " held): one raise lifts its " +
                              std::string(title(now)) + " to a " + std::string(title(luck->second)) + "."};
    }
  }
  const IBand lifts_to = band_from_name(s.oracle_lifts_to);
  return OracleChoice{"accept", "invictus:accept",
                      model + "'s " + std::string(title(now)) + " stands: no raise it may make lifts it to a " +
                          std::string(title(lifts_to)) + " or better."};
}

}  // namespace riven::rules::invictus
