#include "riven/game/queries.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "riven/rules/shooting.hpp"
#include "riven/rules/strain.hpp"
#include "riven/rules/tests_2d6.hpp"
#include "riven/table/geometry.hpp"

namespace riven::game {
namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }
std::int16_t i16(int v) { return static_cast<std::int16_t>(v); }

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

Decision action_decision(const ForwardModel& fm, ActionKind kind, std::size_t model) {
  Decision d;
  d.kind = i16(kFirstActionKind + fm.id(kind));
  d.model = i16(static_cast<int>(model));
  return d;
}

const char* const kCoverNames[] = {"none", "soft", "hard"};

}  // namespace

BasesArrays bases_of(const GameState& state) {
  BasesArrays out;
  const std::size_t n = state.models.size();
  out.count = n;
  out.storage.resize(3 * n + (n + sizeof(double) - 1) / sizeof(double));
  double* const centers = out.storage.data();
  double* const radii = centers + 2 * n;
  auto* const on_table = reinterpret_cast<std::uint8_t*>(centers + 3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const Model& m = state.models[i];
    centers[2 * i] = m.x;
    centers[2 * i + 1] = m.y;
    radii[i] = m.radius;
    on_table[i] = m.on_table ? 1 : 0;
  }
  return out;
}

std::vector<std::string> condition_names(const GameState& state, std::size_t i) {
  const Model& m = state.models[i];
  std::vector<std::string> names;
  names.reserve(m.condition_count);
  for (std::size_t k = 0; k < m.condition_count; ++k) {
    names.push_back(state.statics->conditions[at(m.conditions[k].id)]);
  }
  return names;
}

rules::ConditionLimits limits(const ForwardModel& fm, const GameState& state, std::size_t i) {
  if (state.models[i].condition_count == 0) return fm.no_limits;
  return rules::condition_limits(condition_names(state, i), *fm.rules);
}

const Profile& profile_of(const GameState& state, std::size_t i) {
  return state.statics->profiles[at(state.statics->model_profile[i])];
}

int strain_max(const ForwardModel& fm, const GameState& state, std::size_t i) {
  return rules::strain_max(profile_of(state, i).wit, *fm.rules);
}

// (The model lists below are asked for many times a step: each is sized once, for every model,
// rather than grown by doubling.)
ModelList side_models(const GameState& state, int side) {
  ModelList out;
  out.reserve(state.models.size());
  for (std::size_t i = 0; i < state.models.size(); ++i) {
    if (state.model_side(i) == side) out.push_back(static_cast<int>(i));
  }
  return out;
}

ModelList active_models(const GameState& state, int side) {
  ModelList out;
  out.reserve(state.models.size());
  for (std::size_t i = 0; i < state.models.size(); ++i) {
    if (state.model_side(i) == side && state.models[i].is_active()) out.push_back(static_cast<int>(i));
  }
  return out;
}

bool is_enemy_of(const GameState& state, std::size_t i, std::size_t j) {
  return state.model_side(j) == 1 - state.model_side(i) && state.models[j].is_active();
}

bool is_friend_of(const GameState& state, std::size_t i, std::size_t j) {
  return j != i && state.model_side(j) == state.model_side(i) && state.models[j].is_on_table_status();
}

ModelList enemies_of(const GameState& state, std::size_t i) {
  ModelList out;
  out.reserve(state.models.size());
  for (std::size_t j = 0; j < state.models.size(); ++j) {
    if (is_enemy_of(state, i, j)) out.push_back(static_cast<int>(j));
  }
  return out;
}

ModelList friends_of(const GameState& state, std::size_t i) {
  ModelList out;
  out.reserve(state.models.size());
  for (std::size_t j = 0; j < state.models.size(); ++j) {
    if (is_friend_of(state, i, j)) out.push_back(static_cast<int>(j));
  }
  return out;
}

ModelList engaged_enemies(const ForwardModel& fm, const GameState& state, std::size_t i) {
  const BasesArrays bases = bases_of(state);
  ModelList out;
  const int side = state.model_side(i);
  for (const std::size_t j : table::contacts(bases.view(), i, fm.contact_tolerance)) {
    if (state.model_side(j) != side && state.models[j].is_active()) out.push_back(static_cast<int>(j));
  }
  return out;
}

bool is_engaged(const ForwardModel& fm, const GameState& state, std::size_t i) {
  return !engaged_enemies(fm, state, i).empty();
}

double distance(const GameState& state, std::size_t i, std::size_t j) {
  const Model& a = state.models[i];
  const Model& b = state.models[j];
  if (!a.on_table || !b.on_table) return std::numeric_limits<double>::infinity();
  return std::max(0.0, table::python_hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius);
}

double distance_to_point(const GameState& state, std::size_t i, table::Point p) {
  const Model& m = state.models[i];
  const double d = std::hypot(m.x - p.x, m.y - p.y);  // np.hypot
  return std::max(0.0, d - m.radius);
}

double move_allowance(const ForwardModel& fm, const GameState& state, std::size_t i) {
  const double penalty = limits(fm, state, i).move_penalty;
  return std::max(0.0, profile_of(state, i).move - penalty);
}

const std::vector<std::string>& engaged_forbids(const ForwardModel& fm) { return fm.engaged_forbids; }

std::string effective_cover(const ForwardModel& fm, const GameState& state, std::size_t shooter,
                            std::size_t target, const std::string& cover) {
  const auto& weapon = fm.ranged[at(state.statics->model_profile[shooter])];
  return rules::effective_cover(cover, condition_names(state, target), weapon ? &*weapon : nullptr, *fm.rules);
}

std::vector<std::pair<int, std::string>> shot_targets(const ForwardModel& fm, const GameState& state, std::size_t i) {
  std::vector<std::pair<int, std::string>> targets;
  const auto& weapon = fm.ranged[at(state.statics->model_profile[i])];
  if (!weapon) return targets;
  if (contains(fm.engaged_forbids, "shoot") && is_engaged(fm, state, i)) return targets;
  const BasesArrays bases = bases_of(state);
  const table::BasesView view = bases.view();
  const int side = state.model_side(i);
  bool have_own = false;
  std::vector<std::size_t> own_contacts;
  for (const int j : enemies_of(state, i)) {
    if (!rules::in_range(*weapon, distance(state, i, at(j)))) continue;
    // actions.py _shot_targets: a Down friend is in no melee unless shooting.down_models_in_melee.
    std::vector<std::size_t> engaged_with;
    for (const std::size_t k : table::contacts(view, at(j), fm.contact_tolerance)) {
      if (state.model_side(k) == side && (fm.rules->shooting.down_models_in_melee || state.models[k].is_active())) {
        engaged_with.push_back(k);
      }
    }
    if (!engaged_with.empty()) {
      if (!have_own) {
        own_contacts = table::contacts(view, i, fm.contact_tolerance);
        have_own = true;
      }
      bool adjacent = false;
      for (const std::size_t k : engaged_with) {
        adjacent = adjacent || std::find(own_contacts.begin(), own_contacts.end(), k) != own_contacts.end();
      }
      if (!rules::may_shoot_into_melee(adjacent, *fm.rules)) continue;
    }
    const Model& s = state.models[i];
    const Model& t = state.models[at(j)];
    if (!s.on_table || !t.on_table) continue;
    const auto [visible, rank] = fm.table->sight_between({s.x, s.y}, s.radius, {t.x, t.y}, t.radius);
    if (visible) targets.emplace_back(j, effective_cover(fm, state, i, at(j), kCoverNames[rank]));
  }
  return targets;
}

std::vector<std::pair<int, std::int64_t>> move_options(const ForwardModel& fm, const GameState& state, std::size_t i) {
  const BasesArrays bases = bases_of(state);
  // The menu is asked for at every decision of a rollout: the model lists (enemies_of and
  // friends_of, as the table's indices) and the objectives' points go in buffers kept per thread.
  struct Scratch {
    std::vector<std::int64_t> enemies;
    std::vector<std::int64_t> friends;
    std::vector<table::Point> objectives;
  };
  thread_local Scratch scratch;
  std::vector<std::int64_t>& enemies = scratch.enemies;
  std::vector<std::int64_t>& friends = scratch.friends;
  std::vector<table::Point>& objectives = scratch.objectives;
  enemies.clear();
  friends.clear();
  objectives.clear();
  for (std::size_t j = 0; j < state.models.size(); ++j) {
    if (is_enemy_of(state, i, j)) enemies.push_back(static_cast<std::int64_t>(j));
    if (is_friend_of(state, i, j)) friends.push_back(static_cast<std::int64_t>(j));
  }
  for (const Objective& o : state.statics->objectives) objectives.push_back({o.x, o.y});
  const std::vector<std::pair<table::DestinationKind, std::int64_t>> options =
      fm.table->destination_options(bases.view(), i, enemies, friends, objectives);
  std::vector<std::pair<int, std::int64_t>> out;
  out.reserve(options.size());
  for (const auto& [kind, ref] : options) {
    if (kind == table::DestinationKind::kTowardObjective && state.is_looted(static_cast<std::size_t>(ref))) continue;
    out.emplace_back(static_cast<int>(kind), ref);
  }
  return out;
}

std::vector<int> charge_targets(const ForwardModel& fm, const GameState& state, std::size_t i, double reach) {
  std::vector<int> out;
  if (!state.models[i].on_table) return out;
  const BasesArrays bases = bases_of(state);
  const ModelList foes = enemies_of(state, i);
  const std::vector<std::int64_t> enemies(foes.begin(), foes.end());
  for (const std::int64_t j : fm.planner->charge_targets(bases.view(), i, reach, enemies)) {
    out.push_back(static_cast<int>(j));
  }
  return out;
}

int chooser_of(const GameState& state) {
  // The roller chooses, but for a New World melee handed to its defender (chooser "target").
  if (!state.pending) throw std::invalid_argument("chooser_of: no pending roll");
  if (state.pending->new_world && state.pending->nw.target_chooses) return state.pending->context.target;
  return state.pending->model;
}

int max_dice(const ForwardModel& fm, const GameState& state, std::size_t i) {
  const auto cap = limits(fm, state, i).max_dice;
  const int most = fm.rules->activation.max_dice;
  return cap ? std::max(1, std::min(most, *cap)) : most;
}

ModelList eligible_models(const GameState& state) {
  ModelList out;
  out.reserve(state.models.size());
  for (std::size_t i = 0; i < state.models.size(); ++i) {
    const Model& m = state.models[i];
    if (state.model_side(i) == state.side && m.is_active() && !m.activated) out.push_back(static_cast<int>(i));
  }
  return out;
}

ModelList bonus_recipients(const ForwardModel& fm, const GameState& state) {
  if (state.momentum_of(state.side) < fm.rules->momentum.cost_bonus_action) return {};
  if (fm.rules->momentum.bonus_mode == rules::BonusMode::Replace) return eligible_models(state);
  ModelList out;
  for (std::size_t i = 0; i < state.models.size(); ++i) {
    if (state.model_side(i) == state.side && state.models[i].is_active() &&
        static_cast<int>(i) != state.last_activated) {
      out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

bool any_eligible(const ForwardModel& fm, const GameState& state) {
  if (!eligible_models(state).empty()) return true;
  return !bonus_recipients(fm, state).empty();
}

namespace {

// The fields every pending roll has (what is tested, its modifiers and TN), into either
// system's roll.
template <class Roll>
void copy_roll_head(const TestRoll& roll, Roll& out) {
  out.kind = std::string(roll.kind.view());
  out.attribute = std::string(roll.attribute.view());
  out.attribute_value = roll.attribute_value;
  for (std::size_t k = 0; k < roll.modifier_count; ++k) {
    out.modifiers.push_back({std::string(roll.modifiers[k].source.view()), roll.modifiers[k].value});
  }
  out.tn = roll.tn;
}

}  // namespace

rules::TestRoll to_rules_roll(const TestRoll& roll) {
  rules::TestRoll out;
  copy_roll_head(roll, out);
  out.dice = roll.dice;
  out.rolled_result = static_cast<rules::Band>(roll.rolled_result);
  out.result = static_cast<rules::Band>(roll.result);
  for (std::size_t k = 0; k < roll.spend_count; ++k) {
    const std::string_view name = roll.spends[k].view();
    bool found = false;
    for (int s = 0; s < 4; ++s) {
      if (rules::spend_name(static_cast<rules::Spend>(s)) == name) {
        out.spends.push_back(static_cast<rules::Spend>(s));
        found = true;
      }
    }
    if (!found) throw std::invalid_argument("pending roll: unknown spend '" + std::string(name) + "'");
  }
  out.momentum_spent = roll.momentum_spent;
  out.strain_taken = roll.strain_taken;
  out.critical_momentum = roll.critical_momentum;
  return out;
}

TestRoll from_rules_roll(const rules::TestRoll& roll) {
  TestRoll out;
  out.kind = InlineName(roll.kind);
  out.attribute = InlineName(roll.attribute);
  out.attribute_value = roll.attribute_value;
  if (roll.modifiers.size() > kMaxModifiers || roll.spends.size() > kMaxSpends) {
    throw std::invalid_argument("pending roll: more modifiers or spends than the native state holds");
  }
  out.modifier_count = static_cast<std::uint8_t>(roll.modifiers.size());
  for (std::size_t k = 0; k < roll.modifiers.size(); ++k) {
    out.modifiers[k] = Modifier{InlineName(roll.modifiers[k].source), roll.modifiers[k].value};
  }
  out.tn = roll.tn;
  out.dice = roll.dice;
  out.rolled_result = static_cast<Band>(roll.rolled_result);
  out.result = static_cast<Band>(roll.result);
  out.spend_count = static_cast<std::uint8_t>(roll.spends.size());
  for (std::size_t k = 0; k < roll.spends.size(); ++k) out.spends[k] = InlineName(rules::spend_name(roll.spends[k]));
  out.momentum_spent = roll.momentum_spent;
  out.strain_taken = roll.strain_taken;
  out.critical_momentum = roll.critical_momentum;
  return out;
}

std::vector<rules::Spend> spend_options(const ForwardModel& fm, const GameState& state) {
  const std::size_t c = at(chooser_of(state));
  const rules::TestRoll roll = to_rules_roll(state.pending->roll);
  return rules::spend_options(roll, state.momentum_of(state.model_side(c)), state.models[c].strain,
                              strain_max(fm, state, c), *fm.rules);
}

rules::invictus::InvictusRoll to_invictus_roll(const Pending& pending) {
  if (!pending.invictus) throw std::invalid_argument("to_invictus_roll: the pending roll is not an Invictus one");
  const TestRoll& roll = pending.roll;
  const InvictusPart& inv = pending.inv;
  rules::invictus::InvictusRoll out;
  copy_roll_head(roll, out);
  out.pool = inv.dice_count;
  out.dice.assign(inv.dice.begin(), inv.dice.begin() + inv.dice_count);
  out.rolled_dice.assign(inv.rolled_dice.begin(), inv.rolled_dice.begin() + inv.dice_count);
  out.danger.assign(inv.danger.begin(), inv.danger.begin() + inv.danger_count);
  for (std::size_t k = 0; k < inv.factor_count; ++k) {
    out.factors.emplace_back(rules::invictus::kDangerFactors.at(inv.factors[k]));
  }
  out.fray = inv.fray;
  out.favourable = inv.favourable;
  out.unfavourable = inv.unfavourable;
  out.score = inv.score;
  out.critical_health = inv.critical_health;
  out.luck_held = inv.luck_held;
  out.luck_spent = inv.luck_spent;
  for (std::size_t k = 0; k < inv.raise_count; ++k) {
    const std::uint8_t raise = inv.raises[k];
    const bool luck = (raise & InvictusPart::kLuckRaise) != 0;
    out.spends.push_back(std::string(luck ? rules::invictus::kLuck : rules::invictus::kFavour) +
                         std::to_string(raise & 0x7F));
  }
  out.rolled_band = static_cast<rules::invictus::IBand>(inv.rolled_band);
  out.is_melee = inv.is_melee;
  for (std::size_t k = 0; k < inv.melee_count; ++k) {
    out.melee.push_back({std::string(inv.melee[k].source.view()), inv.melee[k].value});
  }
  return out;
}

namespace {

/// A die index of a raise option ("favour:3" after its prefix), -1 when not one.
int raise_index(std::string_view option, std::string_view prefix) {
  if (!option.starts_with(prefix) || option.size() == prefix.size()) return -1;
  int value = 0;
  for (const char c : option.substr(prefix.size())) {
    if (c < '0' || c > '9' || value > 1000) return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

void set_modifiers(std::array<Modifier, kMaxModifiers>& out, std::uint8_t& count,
                   const std::vector<rules::Modifier>& modifiers) {
  if (modifiers.size() > kMaxModifiers) {
    throw std::invalid_argument("pending roll: more modifiers than the native state holds");
  }
  count = static_cast<std::uint8_t>(modifiers.size());
  for (std::size_t k = 0; k < modifiers.size(); ++k) {
    out[k] = Modifier{InlineName(modifiers[k].source), modifiers[k].value};
  }
}

// copy_roll_head's inverse: a ported system's roll's head into a fresh native pending roll.
template <class Roll>
void set_roll_head(const Roll& roll, TestRoll& out) {
  out = TestRoll{};
  out.kind = InlineName(roll.kind);
  out.attribute = InlineName(roll.attribute);
  out.attribute_value = roll.attribute_value;
  set_modifiers(out.modifiers, out.modifier_count, roll.modifiers);
  out.tn = roll.tn;
}

}  // namespace

InvictusPart invictus_part(const rules::invictus::InvictusRoll& roll) {
  if (roll.dice.size() > kMaxPoolDice || roll.rolled_dice.size() != roll.dice.size() ||
      roll.danger.size() > kMaxDangerDice || roll.factors.size() > kMaxDangerFactors ||
      roll.spends.size() > kMaxRaises || roll.pool != static_cast<int>(roll.dice.size()) ||
      static_cast<int>(roll.rolled_band) > 3) {
    throw std::invalid_argument("Invictus pending roll: more dice, Danger Dice, factors or raises than the native "
                                "state holds (or a pool that is not its dice)");
  }
  InvictusPart inv;
  inv.dice_count = static_cast<std::uint8_t>(roll.dice.size());
  for (std::size_t k = 0; k < roll.dice.size(); ++k) {
    inv.dice[k] = static_cast<std::int8_t>(roll.dice[k]);
    inv.rolled_dice[k] = static_cast<std::int8_t>(roll.rolled_dice[k]);
  }
  inv.danger_count = static_cast<std::uint8_t>(roll.danger.size());
  for (std::size_t k = 0; k < roll.danger.size(); ++k) inv.danger[k] = static_cast<std::int8_t>(roll.danger[k]);
  inv.factor_count = static_cast<std::uint8_t>(roll.factors.size());
  for (std::size_t k = 0; k < roll.factors.size(); ++k) {
    const auto* found =
        std::find(rules::invictus::kDangerFactors.begin(), rules::invictus::kDangerFactors.end(), roll.factors[k]);
    if (found == rules::invictus::kDangerFactors.end()) {
      throw std::invalid_argument("Invictus pending roll: unknown Danger factor '" + roll.factors[k] + "'");
    }
    inv.factors[k] = static_cast<std::uint8_t>(found - rules::invictus::kDangerFactors.begin());
  }
  inv.fray = roll.fray;
  inv.favourable = roll.favourable;
  inv.unfavourable = roll.unfavourable;
  inv.critical_health = roll.critical_health;
  inv.is_melee = roll.is_melee;
  inv.score = roll.score;
  inv.luck_held = roll.luck_held;
  inv.luck_spent = roll.luck_spent;
  inv.rolled_band = static_cast<std::uint8_t>(roll.rolled_band);
  inv.raise_count = static_cast<std::uint8_t>(roll.spends.size());
  for (std::size_t k = 0; k < roll.spends.size(); ++k) {
    const std::string& spend = roll.spends[k];
    const int favour = raise_index(spend, rules::invictus::kFavour);
    const int luck = raise_index(spend, rules::invictus::kLuck);
    const int index = favour >= 0 ? favour : luck;
    if (index < 0 || index >= static_cast<int>(kMaxPoolDice)) {
      throw std::invalid_argument("Invictus pending roll: spend '" + spend + "' is not favour:I or luck:I");
    }
    inv.raises[k] = static_cast<std::uint8_t>(index | (favour >= 0 ? 0 : InvictusPart::kLuckRaise));
  }
  set_modifiers(inv.melee, inv.melee_count, roll.melee);
  return inv;
}

void set_invictus_roll(Pending& pending, const rules::invictus::InvictusRoll& roll,
                       const rules::InvictusRules& settings) {
  InvictusPart inv = invictus_part(roll);
  TestRoll& out = pending.roll;
  set_roll_head(roll, out);
  out.rolled_result = static_cast<Band>(rules::invictus::riven_band(roll.rolled_band));
  out.result = static_cast<Band>(rules::invictus::riven_band(rules::invictus::read_band(roll.dice, settings)));
  pending.invictus = true;
  pending.inv = inv;
}

rules::new_world::NewWorldRoll to_new_world_roll(const Pending& pending) {
  if (!pending.new_world) throw std::invalid_argument("to_new_world_roll: the pending roll is not a New World one");
  const TestRoll& roll = pending.roll;
  const NewWorldPart& nw = pending.nw;
  rules::new_world::NewWorldRoll out;
  copy_roll_head(roll, out);
  out.bonus = nw.bonus;
  out.difficulty = nw.difficulty;
  if (nw.rolled) out.dice = {roll.dice[0], roll.dice[1]};
  out.helpers_available = nw.helpers_available;
  out.helpers = nw.helpers;
  out.helper_models.assign(nw.helper_models.begin(), nw.helper_models.begin() + nw.helper_count);
  out.luck_held = nw.luck_held;
  out.luck_spent = nw.luck_spent;
  for (std::size_t k = 0; k < roll.spend_count; ++k) out.spends.emplace_back(roll.spends[k].view());
  out.rolled = nw.rolled;
  out.chooser = nw.target_chooses ? rules::new_world::Chooser::Target : rules::new_world::Chooser::Actor;
  out.is_melee = nw.is_melee;
  if (nw.is_melee) {
    out.melee_dice = {nw.melee_dice[0], nw.melee_dice[1]};
    out.melee_bonus = nw.melee_bonus;
    for (std::size_t k = 0; k < nw.melee_count; ++k) {
      out.melee_modifiers.push_back({std::string(nw.melee[k].source.view()), nw.melee[k].value});
    }
  }
  out.defender_luck_held = nw.defender_luck_held;
  out.defender_luck_spent = nw.defender_luck_spent;
  out.rolled_total = nw.rolled_total;
  return out;
}

void set_new_world_roll(Pending& pending, const rules::new_world::NewWorldRoll& roll,
                        const rules::NewWorldRules& settings) {
  const bool two = roll.dice.size() == 2 && (!roll.is_melee || roll.melee_dice.size() == 2);
  if ((roll.rolled && !two) || (!roll.rolled && !roll.dice.empty()) || roll.helper_models.size() > kMaxHelpers ||
      roll.spends.size() > kMaxSpends || roll.helpers_available > static_cast<int>(kMaxHelpers)) {
    throw std::invalid_argument("New World pending roll: not 2d6 (or dice before the roll), or more helpers or "
                                "spends than the native state holds");
  }
  TestRoll& out = pending.roll;
  set_roll_head(roll, out);
  if (roll.rolled) out.dice = {roll.dice[0], roll.dice[1]};
  rules::new_world::NewWorldRoll unlucky = roll;
  unlucky.luck_spent = 0;
  out.rolled_result = static_cast<Band>(rules::new_world::result(unlucky, settings));
  out.result = static_cast<Band>(rules::new_world::result(roll, settings));
  out.spend_count = static_cast<std::uint8_t>(roll.spends.size());
  for (std::size_t k = 0; k < roll.spends.size(); ++k) out.spends[k] = InlineName(roll.spends[k]);
  NewWorldPart nw;
  nw.bonus = roll.bonus;
  nw.difficulty = roll.difficulty;
  nw.rolled = roll.rolled;
  nw.target_chooses = roll.chooser == rules::new_world::Chooser::Target;
  nw.is_melee = roll.is_melee;
  nw.helpers_available = static_cast<std::int8_t>(roll.helpers_available);
  nw.helpers = static_cast<std::int8_t>(roll.helpers);
  nw.helper_count = static_cast<std::uint8_t>(roll.helper_models.size());
  for (std::size_t k = 0; k < roll.helper_models.size(); ++k) {
    nw.helper_models[k] = static_cast<std::int16_t>(roll.helper_models[k]);
  }
  nw.luck_held = roll.luck_held;
  nw.luck_spent = roll.luck_spent;
  if (roll.is_melee) {
    nw.melee_dice = {static_cast<std::int8_t>(roll.melee_dice[0]), static_cast<std::int8_t>(roll.melee_dice[1])};
    nw.melee_bonus = roll.melee_bonus;
    set_modifiers(nw.melee, nw.melee_count, roll.melee_modifiers);
  }
  nw.defender_luck_held = roll.defender_luck_held;
  nw.defender_luck_spent = roll.defender_luck_spent;
  nw.rolled_total = roll.rolled_total;
  nw.margin = rules::new_world::margin(roll, settings);
  pending.invictus = false;
  pending.new_world = true;
  pending.nw = nw;
}

std::optional<int> luck_of(const GameState& state, std::size_t i) {
  const int r = find_name(state.statics->resources, rules::invictus::kLuckResource);
  const Model& m = state.models[i];
  if (r < 0 || ((m.resource_mask >> static_cast<unsigned>(r)) & 1U) == 0) return std::nullopt;
  return m.resources[static_cast<std::size_t>(r)];
}

std::vector<int> spend_option_ids(const ForwardModel& fm, const GameState& state) {
  std::vector<int> out;
  if (fm.invictus && state.pending && state.pending->invictus) {
    const std::size_t c = at(chooser_of(state));
    for (const std::string& option : fm.invictus->spend_options(to_invictus_roll(*state.pending), luck_of(state, c))) {
      const int favour = raise_index(option, rules::invictus::kFavour);
      const int luck = raise_index(option, rules::invictus::kLuck);
      const int slot = favour >= 0 ? favour : (luck >= 0 ? static_cast<int>(kMaxPoolDice) + luck : -1);
      const int id = slot >= 0 && slot < static_cast<int>(fm.raise_option.size()) ? fm.raise_option[at(slot)] : -1;
      if (id < 0) throw std::invalid_argument("spend option '" + option + "' is not in the game's vocabulary");
      out.push_back(id);
    }
    return out;
  }
  if (fm.new_world && state.pending && state.pending->new_world) {
    for (const std::string& option : fm.new_world->spend_options(to_new_world_roll(*state.pending))) {
      int id = -1;
      if (option == rules::new_world::kLuck) {
        id = fm.luck_option;
      } else {
        for (std::size_t k = 0; k < fm.help_option.size(); ++k) {
          if (option == std::string(rules::new_world::kHelp) + std::to_string(k)) id = fm.help_option[k];
        }
      }
      if (id < 0) throw std::invalid_argument("spend option '" + option + "' is not in the game's vocabulary");
      out.push_back(id);
    }
    return out;
  }
  for (const rules::Spend s : spend_options(fm, state)) out.push_back(fm.spend_option[static_cast<std::size_t>(s)]);
  return out;
}

std::vector<Decision> spend_decisions(const ForwardModel& fm, const GameState& state) {
  std::vector<Decision> out;
  // actions.py spend_decisions: before the dice are rolled the options are allocations, with
  // no accept.
  const bool allocating = state.pending && state.pending->new_world && !state.pending->nw.rolled;
  for (const int option : spend_option_ids(fm, state)) {
    Decision d;
    d.kind = allocating ? kAllocate : kSpend;
    d.option = i16(option);
    out.push_back(d);
  }
  if (allocating) return out;
  Decision accept;
  accept.kind = kSpend;
  accept.option = i16(fm.accept_option);
  out.push_back(accept);
  return out;
}

namespace {

/// actions.py _allowed_actions: by action id. (The names are viewed, not copied, in recycled
/// lists: a menu is built at every decision.)
Recycled<std::uint8_t> allowed_actions(const ForwardModel& fm, const GameState& state, std::size_t i,
                                       const std::vector<std::string>& forbids) {
  const auto& statics = *state.statics;
  const auto contains = [](const std::vector<std::string_view>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  Recycled<std::string_view> taken;
  for (std::size_t k = 0; k < state.taken_count; ++k) taken.emplace_back(statics.actions[at(state.taken_actions[k])]);
  // rules/actions.py excluded_by.
  Recycled<std::string_view> blocked;
  blocked.assign(forbids.begin(), forbids.end());
  for (const ActionSpec& spec : fm.actions) {
    if (contains(taken, spec.name)) {
      blocked.insert(blocked.end(), spec.excludes.begin(), spec.excludes.end());
      if (spec.once_per_activation) blocked.emplace_back(spec.name);
    } else {
      for (const std::string& e : spec.excludes) {
        if (contains(taken, e)) {
          blocked.emplace_back(spec.name);
          break;
        }
      }
    }
  }
  // Rest's bans of the side-turn (a bonus action belongs to the model's activation of the turn):
  // having Rested, none of actions.rest.excludes; having taken one of them, no Rest.
  const Model& model = state.models[i];
  if (model.rested) {
    const auto& excludes = fm.spec(ActionKind::Rest).excludes;
    blocked.insert(blocked.end(), excludes.begin(), excludes.end());
  }
  if (model.moved_or_attacked) blocked.emplace_back(fm.spec(ActionKind::Rest).name);
  Recycled<std::uint8_t> allowed(fm.actions.size(), 0);
  for (std::size_t a = 0; a < fm.actions.size(); ++a) {
    const ActionSpec& spec = fm.actions[a];
    allowed[a] = !contains(blocked, spec.name) && spec.cost <= state.actions_left &&
                 !(spec.once_per_activation && contains(taken, spec.name));
  }
  return allowed;
}

}  // namespace

std::vector<Decision> action_decisions(const ForwardModel& fm, const GameState& state, std::size_t i) {
  std::vector<Decision> out;
  out.reserve(16);  // a model's menu rarely holds more (grown by doubling, it cost four allocations)
  append_action_decisions(fm, state, i, out);
  return out;
}

void append_action_decisions(const ForwardModel& fm, const GameState& state, std::size_t i, std::vector<Decision>& out) {
  const Model& model = state.models[i];
  const auto& rules = *fm.rules;
  const rules::ConditionLimits lim = limits(fm, state, i);
  Recycled<std::uint8_t> allowed = allowed_actions(fm, state, i, lim.forbids);
  const ModelList engaged_with = engaged_enemies(fm, state, i);
  const bool engaged = !engaged_with.empty();
  if (engaged) {
    for (std::size_t a = 0; a < fm.actions.size(); ++a) {
      if (contains(fm.engaged_forbids, fm.actions[a].name)) allowed[a] = false;
    }
  }
  auto ok = [&](ActionKind kind) {
    const int a = fm.id(kind);
    return a >= 0 && allowed[at(a)];
  };
  const Profile& profile = profile_of(state, i);
  const auto& ranged = fm.ranged[at(state.statics->model_profile[i])];
  const double allowance = std::max(0.0, profile.move - lim.move_penalty);
  const std::vector<std::string> held = condition_names(state, i);
  std::vector<std::pair<int, std::int64_t>> options;
  bool have_options = false;
  auto move_decisions = [&](ActionKind kind) {
    if (!have_options) {
      options = move_options(fm, state, i);
      have_options = true;
    }
    for (const auto& [dkind, ref] : options) {
      if (kind == ActionKind::Disengage) {
        const auto k = static_cast<table::DestinationKind>(dkind);
        if (k == table::DestinationKind::kTowardEnemy) continue;  // DISENGAGE_KINDS: every kind but that
      }
      Decision d = action_decision(fm, kind, i);
      d.destination_kind = i16(dkind);
      d.destination_ref = static_cast<std::int32_t>(ref);
      out.push_back(d);
    }
  };
  if (ok(ActionKind::Move) && allowance > 0) move_decisions(ActionKind::Move);
  if (ok(ActionKind::Charge)) {
    const double reach = allowance * rules.distance("charge_reach_factor");
    if (reach > 0) {
      for (const int j : charge_targets(fm, state, i, reach)) {
        if (std::find(engaged_with.begin(), engaged_with.end(), j) != engaged_with.end()) continue;
        Decision d = action_decision(fm, ActionKind::Charge, i);
        d.target = i16(j);
        out.push_back(d);
      }
    }
  }
  if (ok(ActionKind::Melee) && engaged) {
    for (const int j : engaged_with) {
      Decision d = action_decision(fm, ActionKind::Melee, i);
      d.target = i16(j);
      out.push_back(d);
    }
  }
  if (ok(ActionKind::Shoot) && ranged) {
    for (const auto& [j, cover] : shot_targets(fm, state, i)) {
      Decision d = action_decision(fm, ActionKind::Shoot, i);
      d.target = i16(j);
      out.push_back(d);
    }
  }
  if (ok(ActionKind::Aim) && ranged && !contains(held, fm.spec(ActionKind::Aim).applies)) {
    out.push_back(action_decision(fm, ActionKind::Aim, i));
  }
  if (ok(ActionKind::Disengage) && engaged && allowance * rules.distance("disengage_move_factor") > 0) {
    move_decisions(ActionKind::Disengage);
  }
  if (ok(ActionKind::Focus)) out.push_back(action_decision(fm, ActionKind::Focus, i));
  if (ok(ActionKind::Rest) && (model.strain > 0 || !rules::conditions_removed_by("rest", held, rules).empty())) {
    out.push_back(action_decision(fm, ActionKind::Rest, i));
  }
  const int side = state.model_side(i);
  if (ok(ActionKind::Stabilise)) {
    const double range = rules.distance("stabilise_range");
    for (const int j : side_models(state, side)) {
      const Model& other = state.models[at(j)];
      if (other.is_down() && at(j) != i && !other.stable && distance(state, i, at(j)) <= range) {
        Decision d = action_decision(fm, ActionKind::Stabilise, i);
        d.target = i16(j);
        out.push_back(d);
      }
    }
  }
  if (ok(ActionKind::Rally)) {
    const double range = rules.distance("rally_range");
    const auto& removes = fm.spec(ActionKind::Rally).removes;
    std::vector<int> order{static_cast<int>(i)};
    for (const int k : side_models(state, side)) {
      if (at(k) != i) order.push_back(k);
    }
    for (const int j : order) {
      const Model& other = state.models[at(j)];
      if (other.condition_count == 0 || !other.is_active()) continue;
      bool removable = false;
      for (const std::string& name : condition_names(state, at(j))) removable = removable || contains(removes, name);
      if (removable && (at(j) == i || distance(state, i, at(j)) <= range)) {
        Decision d = action_decision(fm, ActionKind::Rally, i);
        d.target = i16(j);
        out.push_back(d);
      }
    }
  }
  if (ok(ActionKind::Interact)) {
    const auto& objectives = state.statics->objectives;
    for (std::size_t k = 0; k < objectives.size(); ++k) {
      const Objective& obj = objectives[k];
      if ((obj.kind == "loot" || obj.kind == "extract") && !state.is_looted(k) &&
          distance_to_point(state, i, {obj.x, obj.y}) <= obj.radius) {
        Decision d = action_decision(fm, ActionKind::Interact, i);
        d.destination_kind = i16(fm.objective_kind);
        d.destination_ref = static_cast<std::int32_t>(k);
        out.push_back(d);
      }
    }
  }
  if (ok(ActionKind::TakeCover) && !contains(held, fm.spec(ActionKind::TakeCover).applies)) {
    out.push_back(action_decision(fm, ActionKind::TakeCover, i));
  }
  Decision end;
  end.kind = i16(kFirstActionKind + fm.id(ActionKind::End));
  out.push_back(end);
}

std::vector<Decision> choice_decisions(const ForwardModel& fm, const GameState& state) {
  if (!fm.riddle_of_steel || !state.choice) {
    throw rules::NotPorted("the choice phase: no Combat Round of a system the core has (The Riddle of Steel)");
  }
  std::vector<Decision> out;
  for (const std::string& option : fm.riddle_of_steel->choice_options(state.choice->session)) {
    Decision d;
    d.kind = kChoose;
    d.option = i16(find_name(state.statics->options, option));
    if (d.option < 0) {
      throw std::invalid_argument("choice option '" + option + "': not in the game's option vocabulary");
    }
    out.push_back(d);
  }
  return out;
}

std::vector<Decision> legal_decisions(const ForwardModel& fm, const GameState& state) {
  std::vector<Decision> out;
  // Sized once for a side's usual menu (grown by doubling, it cost five allocations).
  out.reserve(state.phase == Phase::Action ? 16 : 64);
  legal_decisions_into(fm, state, out);
  return out;
}

void legal_decisions_into(const ForwardModel& fm, const GameState& state, std::vector<Decision>& out) {
  out.clear();
  if (state.over) return;
  if (state.phase == Phase::Spend) {
    out = spend_decisions(fm, state);
    return;
  }
  if (state.phase == Phase::Choice) {
    out = choice_decisions(fm, state);
    return;
  }
  if (state.phase == Phase::Action) {
    append_action_decisions(fm, state, at(state.active_model), out);
    return;
  }
  const ModelList bonus_to = bonus_recipients(fm, state);
  for (std::size_t i = 0; i < state.models.size(); ++i) {
    const Model& m = state.models[i];
    if (state.model_side(i) != state.side || !m.is_active()) continue;
    const int dice = m.activated ? 0 : max_dice(fm, state, i);
    const bool bonus = std::find(bonus_to.begin(), bonus_to.end(), static_cast<int>(i)) != bonus_to.end();
    if (dice == 0 && !bonus) continue;
    for (int k = 1; k <= dice; ++k) {
      Decision d;
      d.kind = kActivate;
      d.model = i16(static_cast<int>(i));
      d.dice = i16(k);
      out.push_back(d);
    }
    if (bonus) {
      Decision d;
      d.kind = kBonus;
      d.model = i16(static_cast<int>(i));
      out.push_back(d);
    }
  }
  out.push_back(Decision{});
}

std::string decision_label(const ForwardModel& fm, const GameState& state, const Decision& d) {
  (void)fm;
  const auto& statics = *state.statics;
  std::string out = d.kind < kFirstActionKind ? std::string(kDecisionPointKinds[at(d.kind)])
                                               : statics.actions[at(d.kind - kFirstActionKind)];
  // append, not operator+: gcc 12's -Wrestrict misreads `" m" + std::to_string(...)`.
  if (d.model >= 0) out.append(" m").append(std::to_string(d.model));
  if (d.dice >= 0) out.append(" ").append(std::to_string(d.dice)).append("d");
  if (d.target >= 0) out.append(" ->m").append(std::to_string(d.target));
  if (d.destination_kind >= 0) {
    out.append(" @").append(statics.destination_kinds[at(d.destination_kind)]);
    if (d.destination_ref >= 0) out.append(":").append(std::to_string(d.destination_ref));
  }
  if (d.option >= 0) out.append(" ").append(statics.options[at(d.option)]);
  return out;
}

// -- forms without a ForwardModel (the native Oracle) ------------------------------------

std::vector<std::size_t> engaged_enemies(const GameState& state, const table::BasesView& bases, std::size_t i,
                                         double contact_tolerance) {
  std::vector<std::size_t> out;
  const int side = state.model_side(i);
  for (const std::size_t j : table::contacts(bases, i, contact_tolerance)) {
    if (state.model_side(j) != side && state.models[j].is_active()) out.push_back(j);
  }
  return out;
}

rules::ConditionLimits limits(const GameState& state, std::size_t i, const rules::RulesConfig& rules) {
  return rules::condition_limits(condition_names(state, i), rules);
}

double move_allowance(const GameState& state, std::size_t i, const rules::RulesConfig& rules) {
  const double move = state.statics->profiles[static_cast<std::size_t>(state.statics->model_profile[i])].move;
  const double penalty = state.models[i].condition_count == 0 ? 0.0 : limits(state, i, rules).move_penalty;
  return std::max(0.0, move - penalty);
}

const std::vector<std::string>& engaged_forbids(const rules::RulesConfig& rules) { return rules.engagement.forbids; }

std::vector<ShotTarget> shot_targets(const GameState& state, const table::BasesView& bases,
                                     const table::TableGeometry& table, const rules::RulesConfig& rules,
                                     std::size_t i, const rules::Weapon* ranged, double contact_tolerance) {
  std::vector<ShotTarget> targets;
  if (ranged == nullptr) return targets;
  if (contains(engaged_forbids(rules), "shoot") && !engaged_enemies(state, bases, i, contact_tolerance).empty()) {
    return targets;
  }
  const int side = state.model_side(i);
  bool own_read = false;
  std::vector<std::size_t> own_contacts;
  for (const int enemy : enemies_of(state, i)) {
    const std::size_t j = at(enemy);
    if (!rules::in_range(*ranged, table::edge_distance(bases, i, j))) continue;
    std::vector<std::size_t> engaged_with;
    for (const std::size_t k : table::contacts(bases, j, contact_tolerance)) {
      if (state.model_side(k) == side && (rules.shooting.down_models_in_melee || state.models[k].is_active())) {
        engaged_with.push_back(k);
      }
    }
    if (!engaged_with.empty()) {
      if (!own_read) {
        own_contacts = table::contacts(bases, i, contact_tolerance);
        own_read = true;
      }
      bool adjacent = false;
      for (const std::size_t k : engaged_with) {
        if (std::find(own_contacts.begin(), own_contacts.end(), k) != own_contacts.end()) adjacent = true;
      }
      if (!rules::may_shoot_into_melee(adjacent, rules)) continue;
    }
    // sight(): (False, "none") when either model is off the table (enemies are active: on it).
    if (!bases.on(i) || !bases.on(j)) continue;
    const auto [visible, rank] = table.sight_between(bases.center(i), bases.radii[i], bases.center(j), bases.radii[j]);
    if (!visible) continue;
    static const std::string kCoverNames[3] = {"none", "soft", "hard"};
    const std::string& cover = kCoverNames[std::clamp(rank, 0, 2)];
    targets.push_back({j, rules::effective_cover(cover, condition_names(state, j), ranged, rules)});
  }
  return targets;
}

int controller(const GameState& state, std::size_t k) {
  const Objective& obj = state.statics->objectives[k];
  bool present[kSides] = {false, false};
  for (std::size_t j = 0; j < state.models.size(); ++j) {
    if (state.models[j].is_active() && distance_to_point(state, j, {obj.x, obj.y}) <= obj.radius) {
      present[state.model_side(j)] = true;
    }
  }
  if (present[0] == present[1]) return -1;
  return present[0] ? 0 : 1;
}

}  // namespace riven::game
