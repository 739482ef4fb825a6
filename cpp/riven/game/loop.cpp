#include "riven/game/loop.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "riven/rules/conditions.hpp"
#include "riven/rules/melee.hpp"
#include "riven/rules/shooting.hpp"
#include "riven/rules/strain.hpp"
#include "riven/rules/tests_2d6.hpp"

namespace riven::game {
namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

JsonValue S(std::string_view text) { return JsonValue::string(text); }
JsonValue I(std::int64_t value) { return JsonValue::integer(value); }
JsonValue F(double value) { return JsonValue::number(value); }
JsonValue B(bool value) { return JsonValue::boolean(value); }
JsonValue P(table::Point p) {
  JsonValue out = JsonValue::list();
  out.reserve_members(2);
  out.push(F(p.x));
  out.push(F(p.y));
  return out;
}
JsonValue mods_json(const std::vector<rules::Modifier>& modifiers) {
  JsonValue out = JsonValue::list();
  for (const rules::Modifier& m : modifiers) {
    JsonValue entry = JsonValue::object();
    entry.set("source", S(m.source));
    entry.set("value", I(m.value));
    out.push(std::move(entry));
  }
  return out;
}
JsonValue dice_json(const std::array<int, 2>& dice) {
  JsonValue out = JsonValue::list();
  out.reserve_members(dice.size());
  for (const int d : dice) out.push(I(d));
  return out;
}
JsonValue ints_json(const std::vector<int>& values) {
  JsonValue out = JsonValue::list();
  out.reserve_members(values.size());
  for (const int v : values) out.push(I(v));
  return out;
}
JsonValue names_json(const std::vector<std::string>& names) {
  JsonValue out = JsonValue::list();
  out.reserve_members(names.size());
  for (const std::string& name : names) out.push(S(name));
  return out;
}

/// An Invictus roll's `detail` (InvictusResolution._detail), with a melee's `spends` after it.
JsonValue detail_json(const rules::invictus::Result& result) {
  namespace inv = rules::invictus;
  const inv::Detail& d = result.detail;
  JsonValue out = JsonValue::object();
  out.set("system", S(inv::kName))
      .set("band", S(inv::band_name(d.band)))
      .set("rolled_band", S(inv::band_name(d.rolled_band)))
      .set("pool", I(d.pool))
      .set("rolled_dice", ints_json(d.rolled_dice))
      .set("favourable", B(d.favourable))
      .set("favour_used", B(d.favour_used))
      .set("unfavourable", B(d.unfavourable))
      .set("danger_dice", ints_json(d.danger_dice))
      .set("danger_factors", names_json(d.danger_factors))
      .set("move", d.move.empty() ? JsonValue::null() : S(d.move))
      .set("move_die", d.move.empty() ? JsonValue::null() : I(d.move_die))
      .set("luck_spent", I(d.luck_spent))
      .set("critical_health", B(d.critical_health));
  if (result.is_melee) out.set("spends", names_json(result.spends));
  return out;
}

/// A New World roll's `detail` (NewWorldResolution._detail), with a melee's `spends` after it.
JsonValue detail_json(const rules::new_world::Result& result) {
  const rules::new_world::Detail& d = result.detail;
  JsonValue out = JsonValue::object();
  out.set("system", S(rules::new_world::kName))
      .set("bonus", I(d.bonus))
      .set("helpers", I(d.helpers))
      .set("helper_bonus", I(d.helper_bonus))
      .set("luck_spent", I(d.luck_spent))
      .set("rolled_total", I(d.rolled_total))
      .set("snake_eyes", B(d.snake_eyes));
  if (result.is_melee) {
    out.set("defender_bonus", I(d.defender_bonus))
        .set("defender_luck_spent", I(d.defender_luck_spent))
        .set("defender_snake_eyes", B(d.defender_snake_eyes))
        .set("margin", I(d.margin))
        .set("spends", names_json(result.spends));
  } else {
    out.set("difficulty", I(d.difficulty)).set("success", B(d.success)).set("margin", I(d.margin));
  }
  return out;
}

// ---------------------------------------------------------------- The Riddle of Steel's events
namespace ros = rules::riddle_of_steel;

JsonValue by_fighter_json(const ros::ByFighter& values) {
  JsonValue out = JsonValue::object();
  for (const auto& [who, value] : values) out.set(JsonKey(who), I(value));
  return out;
}

JsonValue text_or_null(const std::string& text) { return text.empty() ? JsonValue::null() : S(text); }

JsonValue faces_json(const std::vector<std::vector<int>>& faces) {
  JsonValue out = JsonValue::list();
  for (const std::vector<int>& die : faces) out.push(ints_json(die));
  return out;
}

/// A session event's fields, in riddle_of_steel.py's order (bind_riddle_of_steel.cpp writes the
/// same to Python dicts).
void write_session_event(const ros::SessionEvent& event, JsonValue& e) {
  if (const auto* start = std::get_if<ros::RoundStartEvent>(&event)) {
    JsonValue weapons = JsonValue::object();
    for (const auto& [who, w] : start->weapons) {
      JsonValue entry = JsonValue::object();
      entry.set("name", S(w.name)).set("atn", I(w.atn)).set("dtn", I(w.dtn)).set("dr", I(w.dr));
      entry.set("shield", text_or_null(w.shield));
      weapons.set(JsonKey(who), std::move(entry));
    }
    e.set("attacker", S(start->attacker))
        .set("defender", S(start->defender))
        .set("pools", by_fighter_json(start->pools))
        .set("weapons", std::move(weapons))
        .set("brawn", by_fighter_json(start->brawn));
    return;
  }
  if (const auto* x = std::get_if<ros::ExchangeEvent>(&event)) {
    e.set("exchange", I(x->exchange))
        .set("attacker", S(x->attacker))
        .set("defender", S(x->defender))
        .set("manoeuvre", S(x->manoeuvre))
        .set("zone", S(x->zone))
        .set("zone_name", S(x->zone_name))
        .set("feint", text_or_null(x->feint))
        .set("attack_dice", ints_json(x->attack_dice))
        .set("attack_faces", faces_json(x->attack_faces))
        .set("attack_bonus_dice", I(x->attack_bonus_dice))
        .set("atn", I(x->atn))
        .set("attack_successes", I(x->attack_successes))
        .set("attack_fumble", B(x->attack_fumble))
        .set("defence", S(x->defence))
        .set("defence_dice", ints_json(x->defence_dice))
        .set("dtn", x->dtn ? I(*x->dtn) : JsonValue::null())
        .set("defence_successes", I(x->defence_successes))
        .set("defence_fumble", B(x->defence_fumble))
        .set("counter_failed", B(x->counter_failed))
        .set("margin", I(x->margin))
        .set("outcome", S(ros::outcome_name(x->outcome)));
    if (x->hit) {
      const ros::HitRecord& h = *x->hit;
      e.set("damage", I(h.damage)).set("armour", I(h.armour)).set("wound_level", I(h.wound_level));
      e.set("wound_text", S(h.wound_text));
      if (h.wounded) {
        e.set("shock", I(h.shock))
            .set("pain", I(h.pain))
            .set("bl", I(h.bl))
            .set("effect", S(h.effect))
            .set("riven_wounds", I(h.riven_wounds));
      }
      if (h.knockdown) {
        JsonValue k = JsonValue::object();
        k.set("resistance", I(h.knockdown->resistance))
            .set("tn", I(h.knockdown->tn))
            .set("dice", ints_json(h.knockdown->dice))
            .set("successes", I(h.knockdown->successes))
            .set("prone", B(h.knockdown->prone));
        e.set("knockdown", std::move(k));
      }
    }
    if (!x->steal.empty()) e.set("steal", S(x->steal));
    if (x->attacker_pool_lost) e.set("attacker_pool_lost", I(*x->attacker_pool_lost));
    if (x->counter_bonus) e.set("counter_bonus", I(*x->counter_bonus));
    e.set("initiative", S(x->initiative)).set("pools", by_fighter_json(x->pools));
    return;
  }
  if (const auto* steal = std::get_if<ros::StealEvent>(&event)) {
    e.set("model", S(steal->model)).set("stole", B(steal->stole)).set("cost", I(steal->cost));
    return;
  }
  const auto& end = std::get<ros::RoundEndEvent>(event);
  e.set("reason", S(end.reason)).set("exchanges", I(end.exchanges)).set("pools", by_fighter_json(end.pools));
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const rules::MoraleTrigger* trigger(const rules::RulesConfig& rules, std::string_view name) {
  for (const rules::MoraleTrigger& t : rules.morale.triggers) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

/// One step of the game: the forward model, the state it changes and the log it writes.
class Loop {
 public:
  Loop(const ForwardModel& fm, GameState& state, EventLog& log)
      : fm_(fm), rules_(*fm.rules), system_(rules::make_resolution(fm.rules)), s_(state), log_(log) {}

  void apply(const Decision& decision, std::span<const Decision> legal);
  void start() {
    log_.emit(s_, "round_start").set("round", I(s_.round));
    start_turn();
    advance();
  }

 private:
  // ---------------------------------------------------------------- names and small queries
  const std::string& id(std::size_t i) const { return s_.statics->model_ids[i]; }
  std::string_view side_name(int side) const { return kSideNames[at(side)]; }
  int side_of(std::size_t i) const { return s_.model_side(i); }
  Model& m(std::size_t i) { return s_.models[i]; }
  table::Point position(std::size_t i) const { return {s_.models[i].x, s_.models[i].y}; }
  JsonValue& emit(std::string_view type) { return log_.emit(s_, type); }
  // Whether events are kept: a discarding log (a batched env's, a search's) hands back a sink,
  // so an event's fields are not even computed (emit itself still runs: it advances the seq).
  [[nodiscard]] bool recording() const { return !log_.discards(); }
  int condition_id(const std::string& name) const {
    const int c = find_name(s_.statics->conditions, name);
    if (c < 0) throw std::invalid_argument("Condition '" + name + "' is not in the game's vocabulary");
    return c;
  }
  bool trigger_enabled(std::string_view name) const {
    const rules::MoraleTrigger* t = trigger(rules_, name);
    return t != nullptr && t->enabled;
  }
  const rules::Weapon& melee_weapon(std::size_t i) const {
    const auto& w = fm_.melee[at(s_.statics->model_profile[i])];
    return w ? *w : fm_.unarmed;
  }
  const rules::Weapon* ranged_weapon(std::size_t i) const {
    const auto& w = fm_.ranged[at(s_.statics->model_profile[i])];
    return w ? &*w : nullptr;
  }

  // ---------------------------------------------------------------- effects.py
  int change_momentum(int side, int delta, std::string_view reason);
  void change_resource(std::size_t i, const std::string& name, int delta, const std::string& reason);
  void apply_aftermath(std::size_t i, int j, const std::vector<rules::Aftermath>& aftermath);
  void change_strain(std::size_t i, int delta, const std::string& reason);
  bool gain_condition(std::size_t i, const std::string& name, const std::string& reason);
  void lose_condition(std::size_t i, const std::string& name, const std::string& reason);
  void expire_conditions(std::size_t i, std::string_view when_name);
  void roll_complication(std::size_t i);
  void wound(std::size_t i, int amount, int source, const std::string& cause);
  void out_check(std::size_t i);
  void remove(std::size_t i, Status reason);
  void push(std::size_t i, table::Point away_from, double distance, std::string_view kind);
  bool flee(std::size_t i, double distance);
  void morale_test(std::size_t i, std::string_view trigger);
  void morale_after_loss(std::size_t i);
  void apply_move(std::size_t i, const MovePlan& plan, std::string_view kind);

  // ---------------------------------------------------------------- victory.py
  void score(int side, std::int64_t points, const std::string& reason);
  void objective_gained(int side, std::size_t objective, std::string_view event);
  int controller(std::size_t objective) const;
  void check_immediate();
  void on_casualty(std::size_t i);
  void after_move(std::size_t i);
  void extract(std::size_t i, const VictoryCondition* condition);
  void end_of_round();
  void end_at_round_limit(std::string_view reason);
  void end_game(int winner, std::string_view reason);
  int model_index(const std::string& model_id) const { return find_name(s_.statics->model_ids, model_id); }

  // ---------------------------------------------------------------- state.py turn sequence
  void start_turn();
  void begin_activation(std::size_t i, int dice);
  void end_activation();
  void end_turn(std::string_view reason);
  void advance();
  void reset_activation_flags(std::size_t i) {
    Model& model = m(i);
    // moved_or_attacked and rested last the side-turn (start_turn): model_state.py.
    model.aim_bonus = 0;
    model.focused = false;
    model.charged = false;
  }

  // ---------------------------------------------------------------- actions.py
  void perform(const Decision& decision);
  void bleeding_check(std::size_t i);
  void fight(std::size_t i, std::size_t j);
  void apply_melee(std::size_t i, std::size_t j, const rules::MeleeResult& result);
  void melee_outcome(std::size_t i, std::size_t j, rules::Winner winner, rules::MeleeOutcome outcome, int wounds,
                     double recoil_distance, const std::string& condition);
  // A ported system's closed melee (its dice as the system writes them; the defender's dice and
  // total, who won and who lost as the system reads them); apply_melee's event and outcome.
  template <class Result>
  void apply_system_melee(std::size_t i, std::size_t j, const Result& result, JsonValue defender_dice,
                          int defender_total, JsonValue winner, JsonValue loser);
  void apply_melee(std::size_t i, std::size_t j, const rules::invictus::Result& result);
  void apply_melee(std::size_t i, std::size_t j, const rules::new_world::Result& result);
  // The id of the attacker i or the defender j that `side` names (null for none).
  JsonValue side_id(std::size_t i, std::size_t j, rules::Winner side) const;
  const rules::invictus::InvictusSystem* invictus() const { return fm_.invictus ? &*fm_.invictus : nullptr; }
  rules::invictus::RollFacts roll_facts(std::size_t i) const;
  const rules::new_world::NewWorldSystem* new_world() const { return fm_.new_world ? &*fm_.new_world : nullptr; }
  rules::new_world::Fighter fighter(std::size_t i) const;
  rules::new_world::RollFacts new_world_facts(std::size_t i, int other, const PendingContext& context) const;
  // The Riddle of Steel (choices.py): melee is a Combat Round of `choose` decisions.
  const rules::riddle_of_steel::RiddleOfSteelSystem* riddle_of_steel() const {
    return fm_.riddle_of_steel ? &*fm_.riddle_of_steel : nullptr;
  }
  int pain_of(std::size_t i) const;
  void open_choice_melee(std::size_t i, std::size_t j, const std::vector<rules::Modifier>& a_mods,
                         const std::vector<rules::Modifier>& d_mods);
  void apply_choice_decision(const Decision& decision);
  void settle_choice();
  void apply_choice_effects(const std::vector<rules::riddle_of_steel::Effect>& found, std::size_t a, std::size_t b);
  void ros_test(std::size_t i, const std::string& kind, const std::string& attribute, int value, int tn,
                const std::vector<rules::Modifier>& modifiers, const PendingContext& context);
  std::vector<rules::Modifier> melee_modifiers(std::size_t i, bool attacking);
  void start_test(std::size_t i, const std::string& kind, const std::string& attribute, int tn,
                  const std::vector<rules::Modifier>& modifiers, const PendingContext& context, int opponent = -1);
  void start_action_test(std::size_t i, ActionKind action, PendingContext context);
  // Model i's pending roll for `context`, its system's part set by set_roll(pending); the spend
  // phase opens if it has choices, or the roll closes at once.
  template <class SetRoll>
  void open_roll(std::size_t i, const PendingContext& context, SetRoll&& set_roll);
  void open_choices();
  void apply_spend_decision(const Decision& decision);
  void finish_test();
  // A ported system's closed roll: a melee's outcome, or the shot or test event, the action's
  // effect and the aftermath.
  template <class Result>
  void finish_system_roll(const Pending& pending, const Result& result);
  // The shot or test event of a finished roll, either system's: who rolled at what, and the
  // fields every roll has (its dice as the system writes them); the caller adds the rest.
  template <class Result>
  JsonValue& roll_event(ActionKind action, std::size_t i, const PendingContext& context, const Result& result,
                        JsonValue dice);
  void resolve(const PendingContext& context, std::size_t i, rules::Band band);
  void partial_cost(std::size_t i, rules::Band band);
  std::optional<Destination> find_destination(std::size_t i, double allowance, int kind, std::int32_t ref);
  MovePlan plan_for(std::size_t i, const Destination& dest) const;

  const ForwardModel& fm_;
  const rules::RulesConfig& rules_;
  rules::ResolutionSystem system_;
  GameState& s_;
  EventLog& log_;
};

// ====================================================================== effects.py
int Loop::change_momentum(int side, int delta, std::string_view reason) {
  const auto owner = at(s_.statics->side_owner[at(side)]);
  const int old = s_.momentum[owner];
  const int now = std::max(0, std::min(rules_.momentum.cap, old + delta));
  if (now == old) return 0;
  s_.momentum[owner] = now;
  if (JsonValue& logged = emit("momentum"); recording()) {
    logged
        .set("owner", S(s_.statics->owners[owner]))
        .set("delta", I(now - old))
        .set("value", I(now))
        .set("reason", S(reason));
  }
  return now - old;
}

void Loop::change_resource(std::size_t i, const std::string& name, int delta, const std::string& reason) {
  const int r = find_name(s_.statics->resources, name);
  if (r < 0) throw std::invalid_argument("resource '" + name + "' is not in the game's vocabulary");
  Model& model = m(i);
  const auto bit = static_cast<std::uint8_t>(1U << static_cast<unsigned>(r));
  const int old = (model.resource_mask & bit) != 0 ? model.resources[at(r)] : 0;
  const int now = std::max(0, old + delta);
  if (now == old) return;
  model.resource_mask = static_cast<std::uint8_t>(model.resource_mask | bit);
  model.resources[at(r)] = now;
  if (JsonValue& logged = emit("resource"); recording()) {
    logged
        .set("model", S(id(i)))
        .set("resource", S(name))
        .set("delta", I(now - old))
        .set("value", I(now))
        .set("reason", S(reason));
  }
}

void Loop::apply_aftermath(std::size_t i, int j, const std::vector<rules::Aftermath>& aftermath) {
  for (const rules::Aftermath& entry : aftermath) {
    if (s_.over) return;
    int k = -1;
    if (entry.who.starts_with("model:")) {
      k = std::stoi(entry.who.substr(6));
    } else {
      k = entry.who == "actor" ? static_cast<int>(i) : j;
    }
    if (k < 0 || !m(at(k)).is_on_table_status()) continue;
    const std::size_t model = at(k);
    const std::string& reason = entry.reason.empty() ? entry.effect : entry.reason;
    if (entry.effect == "resource") {
      change_resource(model, entry.name, entry.amount, reason);
    } else if (entry.effect == "strain") {
      change_strain(model, entry.amount, reason);
    } else if (entry.effect == "wound") {
      wound(model, entry.amount, -1, reason);
    } else if (entry.effect == "complication") {
      roll_complication(model);
    } else if (entry.effect == "condition") {
      gain_condition(model, entry.name, reason);
    } else if (entry.effect == "end_activation" && s_.active_model == k) {
      s_.actions_left = 0;
    }
  }
}

void Loop::change_strain(std::size_t i, int delta, const std::string& reason) {
  Model& model = m(i);
  if (delta == 0 || !model.is_on_table_status()) return;
  rules::StrainChange change;
  if (delta > 0) {
    change = rules::gain_strain(model.strain, delta, strain_max(fm_, s_, i), s_.rng, rules_);
  } else {
    change = rules::StrainChange{model.strain, std::max(0, model.strain + delta), false, 0, ""};
  }
  if (change.new_value != change.old_value) {
    model.strain = change.new_value;
    if (JsonValue& logged = emit("strain"); recording()) {
      logged
          .set("model", S(id(i)))
          .set("delta", I(change.new_value - change.old_value))
          .set("value", I(change.new_value))
          .set("reason", S(reason));
    }
  }
  if (change.overflow) {
    if (JsonValue& logged = emit("strain"); recording()) {
      logged
          .set("model", S(id(i)))
          .set("delta", I(0))
          .set("value", I(m(i).strain))
          .set("reason", S(std::string("overflow (d6 ").append(std::to_string(change.roll)).append(")")));
    }
    if (!change.condition_gained.empty()) gain_condition(i, change.condition_gained, "strain overflow");
  }
}

bool Loop::gain_condition(std::size_t i, const std::string& name, const std::string& reason) {
  Model& model = m(i);
  if (!model.is_on_table_status()) return false;
  const int c = condition_id(name);
  const int slot = model.condition_slot(c);
  if (slot >= 0) {
    model.conditions[at(slot)].count = 0;  // gaining it again restarts its duration
    return true;
  }
  if (model.condition_count >= kMaxConditions) throw std::invalid_argument("more Conditions than the native state holds");
  model.gain_condition(c);
  if (JsonValue& logged = emit("condition"); recording()) {
    logged.set("model", S(id(i))).set("condition", S(name)).set("gained", B(true)).set("reason", S(reason));
  }
  return true;
}

void Loop::lose_condition(std::size_t i, const std::string& name, const std::string& reason) {
  Model& model = m(i);
  const int c = condition_id(name);
  if (!model.has_condition(c)) return;
  model.lose_condition(c);
  if (JsonValue& logged = emit("condition"); recording()) {
    logged.set("model", S(id(i))).set("condition", S(name)).set("gained", B(false)).set("reason", S(reason));
  }
}

void Loop::expire_conditions(std::size_t i, std::string_view when_name) {
  Model& model = m(i);
  if (model.condition_count == 0) return;  // before any string is built: most models hold none
  const std::string when(when_name);
  std::string spaced = when;
  std::replace(spaced.begin(), spaced.end(), '_', ' ');
  for (const std::string& name : rules::conditions_expiring(when, condition_names(s_, i), rules_)) {
    if (when == "end_of_next_activation") {
      const int slot = model.condition_slot(condition_id(name));
      if (slot < 0 || model.conditions[at(slot)].count < 1) continue;
    }
    lose_condition(i, name, spaced);
  }
}

void Loop::roll_complication(std::size_t i) {
  const rules::Complication& entry = rules::roll_complication(system_, s_.rng);
  std::string text = entry.text;
  for (const auto& [setting, flavour] : entry.flavour) {
    if (setting == s_.statics->setting) {
      text = flavour;
      break;
    }
  }
  if (JsonValue& logged = emit("complication"); recording()) {
    logged
        .set("model", S(id(i)))
        .set("roll", I(entry.roll))
        .set("name", S(entry.name))
        .set("effect", S(entry.effect))
        .set("text", S(text));
  }
  const std::string reason = "complication: " + entry.name;
  if (entry.effect == "strain") {
    change_strain(i, entry.amount, reason);
  } else if (entry.effect == "end_activation") {
    if (s_.active_model == static_cast<int>(i)) s_.actions_left = 0;
  } else if (entry.effect == "enemy_momentum") {
    change_momentum(1 - side_of(i), entry.amount, reason);
  } else if (entry.effect == "lose_momentum") {
    change_momentum(side_of(i), -entry.amount, reason);
  } else if (entry.effect == "condition") {
    gain_condition(i, entry.condition, reason);
  } else if (entry.effect == "exposed") {
    gain_condition(i, rules_.shooting.exposed_condition, reason);
  }
}

void Loop::wound(std::size_t i, int amount, int source, const std::string& cause) {
  Model& model = m(i);
  if (amount <= 0 || !model.is_active()) return;
  model.wounds = std::max(0, model.wounds - amount);
  if (JsonValue& logged = emit("wound"); recording()) {
    logged
        .set("model", S(id(i)))
        .set("amount", I(amount))
        .set("wounds_left", I(model.wounds))
        .set("source", source < 0 ? JsonValue::null() : S(id(at(source))))
        .set("cause", S(cause));
  }
  if (model.wounds == 0) {
    model.status = Status::Down;
    model.stable = false;
    if (JsonValue& logged = emit("down"); recording()) {
      logged.set("model", S(id(i)));
    }
    if (s_.active_model == static_cast<int>(i)) s_.actions_left = 0;
    check_immediate();
    return;
  }
  change_strain(i, rules::strain_gain_amount("wound", rules_), "wound");
}

void Loop::out_check(std::size_t i) {
  const rules::OutCheckResult result = rules::roll_out_check(system_, profile_of(s_, i).mettle, s_.rng);
  if (JsonValue& logged = emit("out_check"); recording()) {
    logged
        .set("model", S(id(i)))
        .set("mettle", I(result.mettle))
        .set("die", I(result.die))
        .set("out", B(result.out));
  }
  if (result.out) remove(i, Status::Out);
}

void Loop::remove(std::size_t i, Status reason) {
  Model& model = m(i);
  if (!model.is_on_table_status()) return;
  model.last_x = model.x;
  model.last_y = model.y;
  model.has_last_position = true;
  model.status = reason;
  model.on_table = false;
  const bool casualty = reason == Status::Out || reason == Status::Fled;
  if (JsonValue& logged = emit("removed"); recording()) {
    logged.set("model", S(id(i))).set("reason", S(kStatusNames[static_cast<std::size_t>(reason)]));
  }
  if (casualty) on_casualty(i);
  if (s_.active_model == static_cast<int>(i)) s_.actions_left = 0;
  if (casualty) morale_after_loss(i);
  check_immediate();
}

void Loop::apply_move(std::size_t i, const MovePlan& plan, std::string_view kind) {
  const table::Point start = position(i);
  const table::Point end = plan.end;
  if (std::hypot(end.x - start.x, end.y - start.y) < 1e-9) return;
  m(i).x = end.x;
  m(i).y = end.y;
  // The polyline is written only where the event is kept (a discarding log drops it unread).
  JsonValue path = JsonValue::list();
  if (!log_.discards()) {
    path.reserve_members(plan.path.size());
    for (const table::Point& p : plan.path) path.push(P(p));
  }
  if (JsonValue& logged = emit("move"); recording()) {
    logged
        .set("model", S(id(i)))
        .set("from", P(start))
        .set("to", P(end))
        .set("path", std::move(path))
        .set("path_length", F(plan.cost))
        .set("kind", S(kind));
  }
  if (kind != "flee") after_move(i);
}

void Loop::push(std::size_t i, table::Point away_from, double distance, std::string_view kind) {
  if (distance <= 0 || !m(i).is_on_table_status()) return;
  const BasesArrays bases = bases_of(s_);
  apply_move(i, fm_.planner->plan_push(bases.view(), i, away_from, distance), kind);
}

bool Loop::flee(std::size_t i, double distance) {
  const BasesArrays bases = bases_of(s_);
  const bool around = rules_.morale.flight_route == rules::FlightRoute::Around;
  const auto [plan, left] = fm_.planner->plan_flight(bases.view(), i, distance, around);
  apply_move(i, plan, "flee");
  if (left) remove(i, Status::Fled);
  return left;
}

void Loop::morale_test(std::size_t i, std::string_view trigger_name) {
  if (!m(i).is_active() || s_.over) return;
  const rules::MoraleResult result = rules::roll_morale(system_, profile_of(s_, i).mettle, s_.rng);
  if (JsonValue& logged = emit("morale"); recording()) {
    logged
        .set("model", S(id(i)))
        .set("trigger", S(trigger_name))
        .set("mettle", I(result.mettle))
        .set("die", I(result.die))
        .set("passed", B(result.passed))
        .set("flee_distance", F(result.passed ? 0.0 : result.flee_distance))
        .set("fled_off_table", B(false));
  }
  const std::size_t event = log_.events().size() - 1;
  if (!result.passed) {
    const bool fled_off = flee(i, result.flee_distance);
    log_.at(event).set("fled_off_table", B(fled_off));
  }
}

void Loop::morale_after_loss(std::size_t i) {
  const int side = side_of(i);
  const Profile& lost = profile_of(s_, i);
  std::vector<std::pair<int, std::string>> testers;
  const rules::MoraleTrigger* leader = trigger(rules_, "leader_out");
  const rules::MoraleTrigger* friend_lost = trigger(rules_, "friend_lost");
  const rules::MoraleTrigger* half = trigger(rules_, "half_strength");
  const ModelList members = side_models(s_, side);
  if (leader != nullptr && leader->enabled && contains(lost.keywords, leader->keyword)) {
    for (const int j : members) {
      if (m(at(j)).is_active()) testers.emplace_back(j, "leader_out");
    }
  } else if (friend_lost != nullptr && friend_lost->enabled) {
    const double lost_reach = friend_lost->radius + m(i).radius;
    const table::Point centre{m(i).last_x, m(i).last_y};
    for (const int j : members) {
      if (m(at(j)).is_active() && distance_to_point(s_, at(j), centre) <= lost_reach) {
        testers.emplace_back(j, "friend_lost");
      }
    }
  }
  const auto bit = static_cast<std::uint8_t>(1U << static_cast<unsigned>(side));
  if (half != nullptr && half->enabled && (s_.half_strength_tested & bit) == 0) {
    int left = 0;
    for (const int j : members) left += m(at(j)).is_on_table_status() ? 1 : 0;
    if (left <= half->fraction * static_cast<double>(members.size())) {
      s_.half_strength_tested = static_cast<std::uint8_t>(s_.half_strength_tested | bit);
      std::vector<int> seen;
      for (const auto& [j, _] : testers) seen.push_back(j);
      for (const int j : members) {
        if (m(at(j)).is_active() && std::find(seen.begin(), seen.end(), j) == seen.end()) {
          testers.emplace_back(j, "half_strength");
        }
      }
    }
  }
  for (const auto& [j, name] : testers) morale_test(at(j), name);
}

// ====================================================================== victory.py
void Loop::score(int side, std::int64_t points, const std::string& reason) {
  if (points == 0) return;
  // ForwardModel::prepare refuses a game whose most points pass 64 bits, so this never fires.
  if (__builtin_add_overflow(s_.points[at(side)], points, &s_.points[at(side)])) {
    throw std::overflow_error("points: " + std::string(side_name(side)) + "'s total passes 2**63 - 1");
  }
  if (JsonValue& logged = emit("score"); recording()) {
    logged
        .set("side", S(side_name(side)))
        .set("points", I(points))
        .set("total", I(s_.points[at(side)]))
        .set("reason", S(reason));
  }
}

void Loop::objective_gained(int side, std::size_t objective, std::string_view event) {
  if (JsonValue& logged = emit("objective"); recording()) {
    logged
        .set("objective", S(s_.statics->objectives[objective].name))
        .set("side", S(side_name(side)))
        .set("event", S(event));
  }
  if (event == "controlled") {
    change_momentum(side, rules_.momentum.gain_objective_held, "objective held");
  } else {
    change_momentum(side, rules_.momentum.gain_objective, "objective");
  }
}

int Loop::controller(std::size_t objective) const {
  const Objective& obj = s_.statics->objectives[objective];
  bool present[2] = {false, false};
  for (std::size_t i = 0; i < s_.models.size(); ++i) {
    if (s_.models[i].is_active() && distance_to_point(s_, i, {obj.x, obj.y}) <= obj.radius) {
      present[at(side_of(i))] = true;
    }
  }
  if (present[0] == present[1]) return -1;
  return present[0] ? 0 : 1;
}

void Loop::check_immediate() {
  if (s_.over) return;
  for (const VictoryCondition& c : fm_.victory) {
    if (c.type != "protect") continue;
    for (const std::string& model_id : c.models) {
      const int i = model_index(model_id);
      if (i >= 0 && (m(at(i)).status == Status::Out || m(at(i)).status == Status::Fled)) {
        end_game(1 - c.side, "protect");
        return;
      }
    }
  }
  const bool eliminate =
      std::any_of(fm_.victory.begin(), fm_.victory.end(), [](const VictoryCondition& c) { return c.type == "eliminate"; });
  if (eliminate) {
    std::vector<int> wiped;
    for (int side = 0; side < kSides; ++side) {
      bool extracted = false;
      for (const int j : side_models(s_, side)) extracted = extracted || m(at(j)).status == Status::Extracted;
      if (active_models(s_, side).empty() && !extracted) wiped.push_back(side);
    }
    if (wiped.size() == 2) {
      end_game(-1, "eliminate");
      return;
    }
    if (!wiped.empty()) {
      end_game(1 - wiped[0], "eliminate");
      return;
    }
  }
  if (active_models(s_, 0).empty() && active_models(s_, 1).empty()) end_at_round_limit("no_models");
}

void Loop::on_casualty(std::size_t i) {
  const int enemy = 1 - side_of(i);
  for (const VictoryCondition& c : fm_.victory) {
    if (c.type == "casualties") score(enemy, c.points, "casualty " + id(i));
  }
}

void Loop::after_move(std::size_t i) {
  if (!m(i).is_active()) return;
  const double x = m(i).x;
  const double y = m(i).y;
  for (const VictoryCondition& c : fm_.victory) {
    if (c.type != "extract") continue;
    if (side_of(i) != c.side || !contains(c.models, id(i)) || !c.has_zone) continue;
    if (c.zone[0] <= x && x <= c.zone[2] && c.zone[1] <= y && y <= c.zone[3]) {
      extract(i, &c);
      return;
    }
  }
}

void Loop::extract(std::size_t i, const VictoryCondition* condition) {
  std::vector<const VictoryCondition*> conditions;
  if (condition != nullptr) {
    conditions.push_back(condition);
  } else {
    for (const VictoryCondition& c : fm_.victory) {
      if (c.type == "extract" && c.side == side_of(i) && contains(c.models, id(i))) conditions.push_back(&c);
    }
  }
  remove(i, Status::Extracted);
  if (s_.over) return;
  for (const VictoryCondition* c : conditions) {
    score(side_of(i), c->points, "extracted " + id(i));
    if (c->win) {
      end_game(side_of(i), "extract");
      return;
    }
  }
}

void Loop::end_of_round() {
  for (const VictoryCondition& c : fm_.victory) {
    if (c.type != "hold") continue;
    if (s_.round < std::max(1, c.from_round)) continue;
    const auto& objectives = s_.statics->objectives;
    for (std::size_t k = 0; k < objectives.size(); ++k) {
      if (objectives[k].kind != "hold") continue;
      const int side = controller(k);
      if (side >= 0) {
        score(side, std::int64_t{objectives[k].points} * std::max(1, c.points), "hold " + objectives[k].name);
        objective_gained(side, k, "controlled");
      }
    }
  }
}

void Loop::end_at_round_limit(std::string_view reason) {
  if (s_.over) return;
  for (const VictoryCondition& c : fm_.victory) {
    if (c.type != "survive") continue;
    const auto active = static_cast<int>(active_models(s_, c.side).size());
    if (active >= std::max(1, c.min_models)) score(c.side, c.points, "survived");
  }
  const std::string& rule = fm_.at_round_limit;
  if (rule.rfind("side:", 0) == 0) {
    const std::string name = rule.substr(5);
    end_game(name == "blue" ? 0 : (name == "red" ? 1 : -1), reason);
  } else if (rule == "draw") {
    end_game(-1, reason);
  } else {
    const std::int64_t blue = s_.points[0];
    const std::int64_t red = s_.points[1];
    end_game(blue == red ? -1 : (blue > red ? 0 : 1), reason);
  }
}

void Loop::end_game(int winner, std::string_view reason) {
  if (s_.over) return;
  s_.over = true;
  s_.winner = static_cast<std::int8_t>(winner);
  s_.end_reason = InlineName(reason);
  s_.phase = Phase::Over;
  s_.active_model = -1;
  s_.pending.reset();
  s_.decider = -1;
  JsonValue points = JsonValue::object();
  points.set("blue", I(s_.points[0]));
  points.set("red", I(s_.points[1]));
  if (JsonValue& logged = emit("game_end"); recording()) {
    logged
        .set("winner", winner < 0 ? JsonValue::null() : S(side_name(winner)))
        .set("draw", B(winner < 0))
        .set("reason", S(reason))
        .set("rounds", I(s_.round))
        .set("points", std::move(points));
  }
}

// ====================================================================== state.py
void Loop::start_turn() {
  for (std::size_t i = 0; i < s_.models.size(); ++i) {
    if (side_of(i) == s_.side) {  // model_state.py reset_turn_flags
      m(i).activated = false;
      m(i).moved_or_attacked = false;
      m(i).rested = false;
    }
  }
  s_.last_activated = -1;
  s_.phase = Phase::Activate;
  s_.in_turn = true;
  if (JsonValue& logged = emit("turn_start"); recording()) {
    logged.set("side", S(side_name(s_.side))).set("round", I(s_.round));
  }
}

void Loop::begin_activation(std::size_t i, int dice) {
  Model& model = m(i);
  if (dice > 0 || rules_.momentum.bonus_mode == rules::BonusMode::Replace) model.activated = true;
  s_.last_activated = static_cast<int>(i);
  reset_activation_flags(i);
  s_.taken_count = 0;
  expire_conditions(i, "start_of_next_activation");
  for (std::size_t k = 0; k < m(i).condition_count; ++k) ++m(i).conditions[k].count;
  const Profile& profile = profile_of(s_, i);
  int actions = 1;
  bool passes = false;
  if (dice <= 0) {
    if (JsonValue& logged = emit("activation"); recording()) {
      logged
          .set("side", S(side_name(side_of(i))))
          .set("model", S(id(i)))
          .set("mettle", I(profile.mettle))
          .set("dice", JsonValue::list())
          .set("successes", I(0))
          .set("actions", I(1))
          .set("turn_passes", B(false))
          .set("bonus", B(true));
    }
  } else {
    const rules::ActivationResult roll = rules::roll_activation(system_, profile.mettle, dice, s_.rng);
    actions = roll.actions;
    passes = roll.turn_passes;
    JsonValue faces = JsonValue::list();
    if (recording()) {
      for (const int d : roll.dice) faces.push(I(d));
    }
    if (JsonValue& logged = emit("activation"); recording()) {
      logged
          .set("side", S(side_name(side_of(i))))
          .set("model", S(id(i)))
          .set("mettle", I(roll.mettle))
          .set("dice", std::move(faces))
          .set("successes", I(roll.successes))
          .set("actions", I(roll.actions))
          .set("turn_passes", B(roll.turn_passes))
          .set("bonus", B(false));
    }
    if (dice == rules_.activation.max_dice) {
      change_strain(i, rules::strain_gain_amount("max_dice_activation", rules_), "max dice");
    }
  }
  const auto cap = limits(fm_, s_, i).max_actions;
  if (cap) actions = std::min(actions, *cap);
  s_.active_model = static_cast<int>(i);
  s_.actions_left = actions;
  s_.turn_passes_after = passes;
  s_.phase = Phase::Action;
}

void Loop::end_activation() {
  const int i = s_.active_model;
  if (i >= 0) {
    expire_conditions(at(i), "end_of_activation");
    expire_conditions(at(i), "end_of_next_activation");
    reset_activation_flags(at(i));
  }
  s_.active_model = -1;
  s_.actions_left = 0;
  s_.taken_count = 0;
  s_.phase = Phase::Activate;
  if (s_.turn_passes_after) {
    s_.turn_passes_after = false;
    end_turn("turnover");
  }
}

void Loop::end_turn(std::string_view reason) {
  const int side = s_.side;
  for (std::size_t i = 0; i < s_.models.size(); ++i) {
    if (side_of(i) != side) continue;
    if (s_.over) break;
    Model& model = m(i);
    if (model.is_down() && !model.stable) {
      out_check(i);
    } else if (model.is_active() && limits(fm_, s_, i).end_of_turn_wound_check) {
      bleeding_check(i);
    }
    if (m(i).is_on_table_status()) expire_conditions(i, "end_of_side_turn");
  }
  if (s_.over) return;
  if (JsonValue& logged = emit("turn_end"); recording()) {
    logged.set("side", S(side_name(side))).set("round", I(s_.round)).set("reason", S(reason));
  }
  s_.in_turn = false;
  if (s_.turn_index == 0) {
    s_.turn_index = 1;
    s_.side = static_cast<std::uint8_t>(1 - s_.statics->first_side);
    start_turn();
    return;
  }
  end_of_round();
  if (JsonValue& logged = emit("round_end"); recording()) {
    logged.set("round", I(s_.round));
  }
  if (s_.over) return;
  if (s_.round >= s_.statics->round_limit) {
    end_at_round_limit("round_limit");
    return;
  }
  ++s_.round;
  s_.turn_index = 0;
  s_.side = s_.statics->first_side;
  if (JsonValue& logged = emit("round_start"); recording()) {
    logged.set("round", I(s_.round));
  }
  start_turn();
}

void Loop::advance() {
  while (!s_.over) {
    if (s_.phase == Phase::Spend || s_.phase == Phase::Choice) return;
    if (s_.phase == Phase::Action) {
      const int i = s_.active_model;
      if (i >= 0 && s_.actions_left > 0 && m(at(i)).is_active()) return;
      end_activation();
      continue;
    }
    if (any_eligible(fm_, s_)) return;
    end_turn("all_activated");
  }
  s_.phase = Phase::Over;
  s_.active_model = -1;
}

void Loop::apply(const Decision& decision, std::span<const Decision> legal) {
  if (std::find(legal.begin(), legal.end(), decision) == legal.end()) {
    std::string listed;
    for (const Decision& d : legal) listed += (listed.empty() ? "" : ", ") + decision_label(fm_, s_, d);
    const int side = s_.current_side();
    throw rules::IllegalAction("illegal decision " + decision_label(fm_, s_, decision) + " (phase " +
                               std::string(kPhaseNames[static_cast<std::size_t>(s_.phase)]) + ", side " +
                               (side < 0 ? std::string("None") : std::string(side_name(side))) +
                               "); legal: " + listed);
  }
  const int current = s_.current_side();
  const std::string_view kind_name = decision.kind < kFirstActionKind
                                         ? kDecisionPointKinds[at(decision.kind)]
                                         : std::string_view(s_.statics->actions[at(decision.kind - kFirstActionKind)]);
  if (JsonValue& logged = emit("decision"); recording()) {
    logged
        .set("side", current < 0 ? JsonValue::null() : S(side_name(current)))
        .set("decision", S(decision_label(fm_, s_, decision)))
        .set("kind", S(kind_name));
  }
  if (s_.phase == Phase::Activate) {
    if (decision.kind == kPass) {
      end_turn("pass");
    } else if (decision.kind == kBonus) {
      change_momentum(s_.side, -rules_.momentum.cost_bonus_action, "bonus action");
      begin_activation(at(decision.model), 0);
    } else {
      begin_activation(at(decision.model), decision.dice);
    }
  } else if (s_.phase == Phase::Spend) {
    apply_spend_decision(decision);
  } else if (s_.phase == Phase::Choice) {
    apply_choice_decision(decision);
  } else {
    perform(decision);
  }
  advance();
}

// ====================================================================== actions.py
void Loop::perform(const Decision& decision) {
  const std::size_t i = decision.model >= 0 ? at(decision.model) : at(s_.active_model);
  const auto action = at(decision.kind - kFirstActionKind);
  const ActionKind kind = fm_.action_kinds[action];
  if (kind == ActionKind::End) {
    s_.actions_left = 0;
    return;
  }
  const ActionSpec& spec = fm_.actions[action];
  s_.actions_left -= spec.cost;
  if (s_.taken_count >= kMaxTakenActions) throw std::invalid_argument("more actions in one activation than the native state holds");
  s_.taken_actions[s_.taken_count++] = static_cast<std::int16_t>(action);
  JsonValue destination = JsonValue::null();
  if (decision.destination_kind >= 0 && recording()) {
    std::string label = s_.statics->destination_kinds[at(decision.destination_kind)];
    if (decision.destination_ref >= 0) label.append(":").append(std::to_string(decision.destination_ref));
    destination = S(label);
  }
  if (JsonValue& logged = emit("action"); recording()) {
    logged
        .set("model", S(id(i)))
        .set("action", S(spec.name))
        .set("target", decision.target < 0 ? JsonValue::null() : S(id(at(decision.target))))
        .set("destination", std::move(destination))
        .set("actions_left", I(s_.actions_left));
  }
  if (contains(fm_.spec(ActionKind::Rest).excludes, spec.name)) {
    m(i).moved_or_attacked = true;  // no Rest for the rest of the side-turn
  }
  switch (kind) {
    case ActionKind::Move: {
      const auto dest = find_destination(i, move_allowance(fm_, s_, i), decision.destination_kind, decision.destination_ref);
      if (dest) apply_move(i, plan_for(i, *dest), "move");
      break;
    }
    case ActionKind::Charge: {
      const auto j = at(decision.target);
      const double reach = move_allowance(fm_, s_, i) * rules_.distance("charge_reach_factor");
      const BasesArrays bases = bases_of(s_);
      const auto plan = fm_.planner->plan_charge(bases.view(), i, j, reach);
      if (plan) apply_move(i, *plan, "charge");
      m(i).charged = true;
      const rules::MoraleTrigger* terror = trigger(rules_, "terror_charge");
      if (terror != nullptr && terror->enabled && contains(profile_of(s_, i).keywords, terror->keyword)) {
        morale_test(j, "terror_charge");
      }
      if (m(j).is_active() && m(i).is_active()) {
        const ModelList engaged = engaged_enemies(fm_, s_, i);
        if (std::find(engaged.begin(), engaged.end(), static_cast<int>(j)) != engaged.end()) fight(i, j);
      }
      m(i).charged = false;
      break;
    }
    case ActionKind::Melee:
      fight(i, at(decision.target));
      break;
    case ActionKind::Shoot: {
      const int j = decision.target;
      std::string cover = "none";
      for (const auto& [t, c] : shot_targets(fm_, s_, i)) {
        if (t == j) {
          cover = c;
          break;
        }
      }
      const std::vector<rules::Modifier> mods =
          rules::shot_modifiers(ranged_weapon(i), condition_names(s_, i), rules_);
      PendingContext context;
      context.action = static_cast<std::int16_t>(action);
      context.target = static_cast<std::int16_t>(j);
      context.cover = InlineName(cover);
      start_test(i, "shot", rules_.shooting.attribute, rules::shot_tn(system_, cover), mods, context, j);
      break;
    }
    case ActionKind::Aim:
      gain_condition(i, spec.applies, "aim");
      break;
    case ActionKind::TakeCover:
      gain_condition(i, spec.applies, "take cover");
      break;
    case ActionKind::Disengage: {
      PendingContext context;
      context.has_destination = true;
      context.destination_kind = decision.destination_kind;
      context.destination_ref = decision.destination_ref;
      start_action_test(i, kind, context);
      break;
    }
    case ActionKind::Focus:
      change_momentum(side_of(i), rules_.momentum.gain_focus, "focus");
      break;
    case ActionKind::Rest:
      m(i).rested = true;
      change_strain(i, -rules_.strain.rest_removes, "rest");
      break;
    case ActionKind::Stabilise: {
      const auto j = at(decision.target);
      m(j).stable = true;
      if (JsonValue& logged = emit("stabilise"); recording()) {
        logged.set("model", S(id(j))).set("by", S(id(i)));
      }
      break;
    }
    case ActionKind::Rally: {
      PendingContext context;
      context.target = decision.target;
      start_action_test(i, kind, context);
      break;
    }
    case ActionKind::Interact: {
      PendingContext context;
      context.objective = static_cast<std::int16_t>(decision.destination_ref);
      start_action_test(i, kind, context);
      break;
    }
    case ActionKind::End:
      break;
  }
  if (m(i).is_on_table_status() && !s_.over && m(i).condition_count > 0) {
    for (const std::string& name : rules::conditions_removed_by(spec.name, condition_names(s_, i), rules_)) {
      lose_condition(i, name, spec.name);
    }
  }
}

std::optional<Destination> Loop::find_destination(std::size_t i, double allowance, int kind, std::int32_t ref) {
  const BasesArrays bases = bases_of(s_);
  std::vector<table::Point> objectives;
  for (const Objective& o : s_.statics->objectives) objectives.push_back({o.x, o.y});
  return fm_.planner->plan_destination(bases.view(), i, allowance, s_.statics->destination_kinds[at(kind)], ref,
                                       objectives, std::nullopt);
}

MovePlan Loop::plan_for(std::size_t i, const Destination& dest) const {
  MovePlan plan;
  plan.start = position(i);
  plan.end = dest.point;
  plan.path = dest.path.empty() ? std::vector<table::Point>{position(i), dest.point} : dest.path;
  plan.cost = dest.cost;
  plan.reached = dest.reached;
  return plan;
}

std::vector<rules::Modifier> Loop::melee_modifiers(std::size_t i, bool attacking) {
  const auto engaged = static_cast<int>(engaged_enemies(fm_, s_, i).size());
  return rules::melee_modifiers(&melee_weapon(i), attacking && m(i).charged, engaged, condition_names(s_, i),
                                !attacking, rules_);
}

void Loop::fight(std::size_t i, std::size_t j) {
  const std::vector<rules::Modifier> a_mods = melee_modifiers(i, true);
  const std::vector<rules::Modifier> d_mods = melee_modifiers(j, false);
  m(i).charged = false;  // the charge bonus applies to the first strike only
  if (riddle_of_steel() != nullptr) {  // a round of choices (choices.py open_melee)
    open_choice_melee(i, j, a_mods, d_mods);
    return;
  }
  PendingContext melee;
  melee.action = static_cast<std::int16_t>(fm_.id(ActionKind::Melee));
  melee.target = static_cast<std::int16_t>(j);
  if (const auto* engine = invictus()) {
    // A pending roll: the attacker's pool, raised in the spend phase (actions.py fight).
    const rules::invictus::Side attacker{profile_of(s_, i).might, a_mods, roll_facts(i)};
    const rules::invictus::Side defender{profile_of(s_, j).might, d_mods, roll_facts(j)};
    const rules::invictus::InvictusRoll roll = engine->start_melee(attacker, defender, s_.rng);
    open_roll(i, melee, [&](Pending& pending) { set_invictus_roll(pending, roll, rules_.invictus); });
    return;
  }
  if (const auto* engine = new_world()) {
    // A pending roll: both sides' 2d6, Luck in the spend phase (the attacker's, then the
    // defender's).
    const rules::new_world::Side attacker{fighter(i), a_mods, luck_of(s_, i).value_or(0)};
    const rules::new_world::Side defender{fighter(j), d_mods, luck_of(s_, j).value_or(0)};
    const rules::new_world::NewWorldRoll roll = engine->start_melee(attacker, defender, s_.rng);
    open_roll(i, melee, [&](Pending& pending) { set_new_world_roll(pending, roll, rules_.new_world); });
    return;
  }
  const rules::MeleeResult result =
      rules::resolve_melee(system_, profile_of(s_, i).might, profile_of(s_, j).might, a_mods, d_mods, s_.rng);
  apply_melee(i, j, result);
}

JsonValue Loop::side_id(std::size_t i, std::size_t j, rules::Winner side) const {
  if (side == rules::Winner::None) return JsonValue::null();
  return S(id(side == rules::Winner::Attacker ? i : j));
}

void Loop::apply_melee(std::size_t i, std::size_t j, const rules::MeleeResult& result) {
  if (JsonValue& logged = emit("melee"); recording()) {
    logged
        .set("attacker", S(id(i)))
        .set("defender", S(id(j)))
        .set("attacker_dice", dice_json(result.attacker_dice))
        .set("defender_dice", dice_json(result.defender_dice))
        .set("attacker_total", I(result.attacker_total))
        .set("defender_total", I(result.defender_total))
        .set("attacker_modifiers", mods_json(result.attacker_modifiers))
        .set("defender_modifiers", mods_json(result.defender_modifiers))
        .set("outcome", S(rules::melee_outcome_name(result.outcome)))
        .set("winner", side_id(i, j, result.winner))
        .set("loser", side_id(i, j, result.loser()));
  }
  melee_outcome(i, j, result.winner, result.outcome, result.wounds, result.recoil_distance, result.condition);
}

template <class Result>
void Loop::apply_system_melee(std::size_t i, std::size_t j, const Result& result, JsonValue defender_dice,
                              int defender_total, JsonValue winner, JsonValue loser) {
  if (JsonValue& logged = emit("melee"); recording()) {
    logged
        .set("attacker", S(id(i)))
        .set("defender", S(id(j)))
        .set("attacker_dice", ints_json(result.dice))
        .set("defender_dice", std::move(defender_dice))
        .set("attacker_total", I(result.total))
        .set("defender_total", I(defender_total))
        .set("attacker_modifiers", mods_json(result.modifiers))
        .set("defender_modifiers", mods_json(result.defender_modifiers))
        .set("outcome", S(rules::melee_outcome_name(result.outcome)))
        .set("winner", std::move(winner))
        .set("loser", std::move(loser))
        .set("detail", detail_json(result));
  }
  melee_outcome(i, j, result.winner, result.outcome, result.wounds, result.recoil_distance, result.condition);
  if (!result.aftermath.empty() && !s_.over) apply_aftermath(i, static_cast<int>(j), result.aftermath);
}

void Loop::apply_melee(std::size_t i, std::size_t j, const rules::invictus::Result& result) {
  // InvictusResolution._melee_result: the attacker's pool; the Narrator rolls no dice.
  const bool parry = result.winner == rules::Winner::None;
  apply_system_melee(i, j, result, JsonValue::list(), 0, parry ? JsonValue::null() : S(id(i)),
                     parry ? JsonValue::null() : S(id(j)));
}

void Loop::apply_melee(std::size_t i, std::size_t j, const rules::new_world::Result& result) {
  // NewWorldResolution._melee_result: both sides' 2d6; a striking defender may win.
  const rules::Winner loser = result.winner == rules::Winner::None ? rules::Winner::None
                              : result.winner == rules::Winner::Attacker ? rules::Winner::Defender
                                                                         : rules::Winner::Attacker;
  apply_system_melee(i, j, result, ints_json(result.defender_dice), result.defender_total,
                     side_id(i, j, result.winner), side_id(i, j, loser));
}

void Loop::melee_outcome(std::size_t i, std::size_t j, rules::Winner winner_side, rules::MeleeOutcome outcome,
                         int wounds, double recoil_distance, const std::string& condition) {
  if (winner_side == rules::Winner::None) return;
  const std::size_t winner = winner_side == rules::Winner::Attacker ? i : j;
  const std::size_t loser = winner_side == rules::Winner::Attacker ? j : i;
  if (outcome == rules::MeleeOutcome::Critical) {
    change_momentum(side_of(winner), rules_.momentum.gain_melee_critical, "melee critical");
  }
  if (outcome == rules::MeleeOutcome::Recoil) {
    push(loser, position(winner), recoil_distance, "recoil");
    change_strain(loser, rules::strain_gain_amount("recoiled", rules_), "recoiled");
    if (trigger_enabled("recoiled")) morale_test(loser, "recoiled");
    return;
  }
  wound(loser, wounds, static_cast<int>(winner), "melee " + std::string(rules::melee_outcome_name(outcome)));
  if (!condition.empty() && m(loser).is_active()) gain_condition(loser, condition, "melee critical");
}

rules::invictus::RollFacts Loop::roll_facts(std::size_t i) const {
  // actions.py roll_context: what Invictus reads of it.
  const Model& model = s_.models[i];
  rules::invictus::RollFacts facts;
  facts.engaged = is_engaged(fm_, s_, i);
  facts.conditions = condition_names(s_, i);
  facts.wounds_left = model.wounds;
  facts.wounds_max = model.wounds_max != 0 ? model.wounds_max : profile_of(s_, i).wounds;
  facts.final_round = s_.round >= s_.statics->round_limit;
  facts.luck = luck_of(s_, i).value_or(0);
  return facts;
}

rules::new_world::Fighter Loop::fighter(std::size_t i) const {
  const Profile& p = profile_of(s_, i);
  return rules::new_world::Fighter{p.might, p.agility, p.wit, p.resolve, p.mettle, p.keywords};
}

rules::new_world::RollFacts Loop::new_world_facts(std::size_t i, int other, const PendingContext& context) const {
  // actions.py roll_context: what New World reads of it. The helpers: the roller's active,
  // unengaged friends within distances.rally_range, nearest first (ties by index).
  rules::new_world::RollFacts facts;
  facts.profile = fighter(i);
  if (other >= 0) facts.opponent = fighter(at(other));
  if (!context.cover.view().empty()) facts.cover = std::string(context.cover.view());
  const double reach = rules_.distance("rally_range");
  std::vector<std::pair<double, int>> near;
  for (const int j : side_models(s_, side_of(i))) {
    if (at(j) == i || !s_.models[at(j)].is_active() || is_engaged(fm_, s_, at(j))) continue;
    near.emplace_back(distance(s_, i, at(j)), j);
  }
  std::sort(near.begin(), near.end());
  for (const auto& [d, j] : near) {
    if (d <= reach) facts.helper_models.push_back(j);
  }
  facts.helpers = static_cast<int>(facts.helper_models.size());
  facts.luck = luck_of(s_, i).value_or(0);
  return facts;
}

void Loop::start_action_test(std::size_t i, ActionKind action, PendingContext context) {
  const ActionSpec& spec = fm_.spec(action);
  const int tn = rules::difficulty_tn(spec.difficulty, rules_);
  const std::vector<rules::Modifier> mods =
      rules::condition_modifiers(condition_names(s_, i), rules::ModifierKind::Test, rules_);
  context.action = static_cast<std::int16_t>(fm_.id(action));
  start_test(i, spec.name, spec.attribute, tn, mods, context);
}

int attribute_value(const Profile& p, const std::string& attribute) {
  if (attribute == "might") return p.might;
  if (attribute == "agility") return p.agility;
  if (attribute == "wit") return p.wit;
  if (attribute == "resolve") return p.resolve;
  if (attribute == "mettle") return p.mettle;
  throw std::invalid_argument("attribute '" + attribute + "': expected might, agility, wit, resolve or mettle");
}

void Loop::start_test(std::size_t i, const std::string& kind, const std::string& attribute, int tn,
                      const std::vector<rules::Modifier>& modifiers, const PendingContext& context, int opponent) {
  const int value = attribute_value(profile_of(s_, i), attribute);
  if (riddle_of_steel() != nullptr) {
    ros_test(i, kind, attribute, value, tn, modifiers, context);
    return;
  }
  if (const auto* engine = invictus()) {
    std::optional<int> against;
    if (opponent >= 0) against = attribute_value(profile_of(s_, at(opponent)), attribute);
    const rules::invictus::InvictusRoll roll =
        engine->roll_test(kind, attribute, value, tn, modifiers, against, roll_facts(i), s_.rng);
    open_roll(i, context, [&](Pending& pending) { set_invictus_roll(pending, roll, rules_.invictus); });
    return;
  }
  if (const auto* engine = new_world()) {
    const rules::new_world::NewWorldRoll roll =
        engine->roll_test(kind, attribute, value, tn, modifiers, new_world_facts(i, opponent, context), s_.rng);
    open_roll(i, context, [&](Pending& pending) { set_new_world_roll(pending, roll, rules_.new_world); });
    return;
  }
  const rules::TestRoll roll = rules::roll_test(system_, kind, attribute, value, tn, modifiers, s_.rng);
  open_roll(i, context, [&](Pending& pending) { pending.roll = from_rules_roll(roll); });
}

template <class SetRoll>
void Loop::open_roll(std::size_t i, const PendingContext& context, SetRoll&& set_roll) {
  Pending pending;
  set_roll(pending);
  pending.model = static_cast<std::int32_t>(i);
  pending.context = context;
  s_.pending = pending;
  open_choices();
}

void Loop::open_choices() {
  if (!spend_option_ids(fm_, s_).empty()) {
    s_.phase = Phase::Spend;
  } else {
    finish_test();
  }
}

void Loop::apply_spend_decision(const Decision& decision) {
  if (s_.pending->invictus) {
    if (decision.option != fm_.accept_option) {
      const rules::invictus::InvictusRoll next =
          invictus()->apply_spend(to_invictus_roll(*s_.pending), s_.statics->options[at(decision.option)]);
      set_invictus_roll(*s_.pending, next, rules_.invictus);
      if (!spend_option_ids(fm_, s_).empty()) return;
    }
    finish_test();  // Invictus's rolls have one chooser: accepting closes the roll
    return;
  }
  if (s_.pending->new_world) {
    // actions.py apply_spend_decision: apply (an allocation rolls the dice) and offer what is
    // still possible, or accept: a melee's attacker hands the choice to the defender.
    const rules::new_world::NewWorldSystem& engine = *new_world();
    if (decision.option != fm_.accept_option) {
      const rules::new_world::NewWorldRoll next = engine.apply_spend(
          to_new_world_roll(*s_.pending), s_.statics->options[at(decision.option)], s_.rng);
      set_new_world_roll(*s_.pending, next, rules_.new_world);
      if (!spend_option_ids(fm_, s_).empty()) return;
    } else if (const auto handed = engine.accept(to_new_world_roll(*s_.pending))) {
      set_new_world_roll(*s_.pending, *handed, rules_.new_world);
      if (!spend_option_ids(fm_, s_).empty()) return;
    }
    finish_test();
    return;
  }
  if (decision.option != fm_.accept_option) {
    int spend = -1;
    for (std::size_t s = 0; s < fm_.spend_option.size(); ++s) {
      if (fm_.spend_option[s] == decision.option) spend = static_cast<int>(s);
    }
    const rules::TestRoll next = rules::apply_spend(system_, to_rules_roll(s_.pending->roll),
                                                    static_cast<rules::Spend>(spend), s_.rng);
    s_.pending->roll = from_rules_roll(next);
    if (!spend_options(fm_, s_).empty()) return;
  }
  finish_test();
}

void Loop::partial_cost(std::size_t i, rules::Band band) {
  if (band == rules::Band::Partial) change_strain(i, rules_.test.partial_strain, "partial");
}

template <class Result>
JsonValue& Loop::roll_event(ActionKind action, std::size_t i, const PendingContext& context, const Result& result,
                            JsonValue dice) {
  JsonValue& event = emit(action == ActionKind::Shoot ? "shot" : "test");
  if (action == ActionKind::Shoot) {
    event.set("shooter", S(id(i))).set("target", S(id(at(context.target)))).set("cover", S(context.cover.view()));
  } else {
    event.set("model", S(id(i)))
        .set("kind", S(result.kind))
        .set("attribute", S(result.attribute))
        .set("attribute_value", I(result.attribute_value));
  }
  event.set("modifiers", mods_json(result.modifiers))
      .set("tn", I(result.tn))
      .set("dice", std::move(dice))
      .set("total", I(result.total))
      .set("result", S(rules::band_name(result.result)));
  return event;
}

template <class Result>
void Loop::finish_system_roll(const Pending& pending, const Result& result) {
  const auto i = at(pending.model);
  const PendingContext& context = pending.context;
  const ActionKind action = fm_.action_kinds[at(context.action)];
  if (action == ActionKind::Melee) {
    apply_melee(i, at(context.target), result);
    return;
  }
  JsonValue& event = roll_event(action, i, context, result, ints_json(result.dice));
  if (!result.spends.empty()) {
    event.set("rolled_result", S(rules::band_name(result.rolled_result))).set("spends", names_json(result.spends));
  }
  event.set("detail", detail_json(result));
  if constexpr (requires { result.momentum_gained; }) {  // New World's critical
    if (result.momentum_gained != 0) change_momentum(side_of(i), result.momentum_gained, "critical");
  }
  resolve(context, i, result.result);
  if (!result.aftermath.empty() && !s_.over) apply_aftermath(i, context.target, result.aftermath);
}

void Loop::finish_test() {
  const Pending pending = *s_.pending;
  s_.pending.reset();
  s_.phase = Phase::Action;
  if (pending.invictus) {
    finish_system_roll(pending, invictus()->finalise(to_invictus_roll(pending)));
    return;
  }
  if (pending.new_world) {
    finish_system_roll(pending, new_world()->finalise(to_new_world_roll(pending)));
    return;
  }
  const auto i = at(pending.model);
  const rules::TestResult result = rules::finalise(system_, to_rules_roll(pending.roll));
  const PendingContext& context = pending.context;
  const ActionKind action = fm_.action_kinds[at(context.action)];
  if (result.momentum_spent != 0) change_momentum(side_of(i), -result.momentum_spent, "spend");
  if (result.strain_taken != 0) change_strain(i, result.strain_taken, "spend");
  JsonValue& event = roll_event(action, i, context, result, dice_json(result.dice));
  if (!result.spends.empty()) {
    JsonValue spends = JsonValue::list();
    for (const rules::Spend sp : result.spends) spends.push(S(rules::spend_name(sp)));
    event.set("rolled_result", S(rules::band_name(result.rolled_result))).set("spends", std::move(spends));
  }
  if (result.momentum_gained != 0) change_momentum(side_of(i), result.momentum_gained, "critical");
  resolve(context, i, result.result);
}

void Loop::resolve(const PendingContext& context, std::size_t i, rules::Band result) {
  // actions.py _RESOLVERS.
  const ActionKind action = fm_.action_kinds[at(context.action)];
  const std::string band(rules::band_name(result));
  switch (action) {
    case ActionKind::Shoot: {
      const auto j = at(context.target);
      const rules::ShotEffect& effect = rules::shot_effect(system_, result);
      wound(j, effect.wounds, static_cast<int>(i), "shot " + band);
      if (s_.over) return;
      if (effect.push_distance != 0.0 && m(j).is_on_table_status()) {
        push(j, position(i), effect.push_distance, "push");
      }
      if (effect.shooter_exposed) gain_condition(i, rules_.shooting.exposed_condition, "partial shot");
      if (effect.complication) roll_complication(i);
      break;
    }
    case ActionKind::Disengage: {
      if (result == rules::Band::Miss) {
        roll_complication(i);
        return;
      }
      const double allowance = move_allowance(fm_, s_, i) * rules_.distance("disengage_move_factor");
      const auto dest = find_destination(i, allowance, context.destination_kind, context.destination_ref);
      if (dest) apply_move(i, plan_for(i, *dest), "disengage");
      partial_cost(i, result);
      break;
    }
    case ActionKind::Rally: {
      if (result == rules::Band::Miss) {
        roll_complication(i);
        return;
      }
      const auto j = at(context.target);
      for (const std::string& name : fm_.spec(ActionKind::Rally).removes) lose_condition(j, name, "rally");
      partial_cost(i, result);
      break;
    }
    case ActionKind::Interact: {
      if (result == rules::Band::Miss) {
        roll_complication(i);
        return;
      }
      const auto k = at(context.objective);
      const Objective& obj = s_.statics->objectives[k];
      const int side = side_of(i);
      partial_cost(i, result);
      if (obj.kind == "loot") {
        s_.looted |= (std::uint64_t{1} << k);
        score(side, obj.points, "loot " + obj.name);
        objective_gained(side, k, "looted");
      } else if (obj.kind == "extract" && m(i).is_active()) {
        objective_gained(side, k, "extracted");
        extract(i, nullptr);
      }
      break;
    }
    default:
      throw std::invalid_argument("a pending roll of action " + fm_.actions[at(context.action)].name +
                                  ": no resolver for it");
  }
}

// ====================================================================== choices.py
int Loop::pain_of(std::size_t i) const {
  const int key = find_name(s_.statics->system_keys, ros::kPainKey);
  for (const SystemEntry& entry : s_.system_state) {
    if (entry.key == key && at(entry.model) == i) return entry.value;
  }
  return 0;
}

void Loop::open_choice_melee(std::size_t i, std::size_t j, const std::vector<rules::Modifier>& a_mods,
                             const std::vector<rules::Modifier>& d_mods) {
  const ros::RiddleOfSteelSystem& engine = *riddle_of_steel();
  const auto fighter_of = [&](std::size_t k, const std::vector<rules::Modifier>& mods) {
    const Profile& p = profile_of(s_, k);
    ros::Profile profile{p.might, p.agility, p.wit, p.resolve, p.mettle, std::nullopt, {}};
    if (const auto& weapon = fm_.melee[at(s_.statics->model_profile[k])]) {
      profile.melee = weapon->name;
      profile.melee_traits = weapon->traits;
    }
    return engine.fighter(static_cast<int>(k), id(k), profile, m(k).wounds, pain_of(k), mods);
  };
  const ros::Fighter attacker = fighter_of(i, a_mods);
  const ros::Fighter defender = fighter_of(j, d_mods);
  ChoicePending choice;
  choice.session = engine.open_session(attacker, defender, s_.rng);
  choice.model = static_cast<std::int32_t>(i);
  choice.target = static_cast<std::int32_t>(j);
  s_.choice = std::move(choice);
  s_.phase = Phase::Choice;
  settle_choice();
}

void Loop::apply_choice_decision(const Decision& decision) {
  ros::MeleeSession& session = s_.choice->session;
  session = riddle_of_steel()->apply_choice(session, s_.statics->options[at(decision.option)], s_.rng);
  settle_choice();
}

void Loop::settle_choice() {
  // choices.py _settle: write the session's new events; hand the choice to its side, or finish.
  ros::MeleeSession& session = s_.choice->session;
  for (const ros::SessionEvent& event : session.new_events) write_session_event(event, emit(ros::event_type(event)));
  session.new_events.clear();
  if (!session.done()) {
    s_.decider = static_cast<std::int8_t>(side_of(at(session.decider_index())));
    return;
  }
  const ChoicePending done = std::move(*s_.choice);
  s_.choice.reset();
  s_.decider = -1;
  s_.phase = Phase::Action;
  apply_choice_effects(done.session.effects, at(done.session.fighters[0].index), at(done.session.fighters[1].index));
}

void Loop::apply_choice_effects(const std::vector<ros::Effect>& found, std::size_t a, std::size_t b) {
  const int pain_key = find_name(s_.statics->system_keys, ros::kPainKey);
  for (const ros::Effect& effect : found) {
    if (s_.over) return;
    const auto i = at(effect.index);
    const int source = static_cast<int>(i == a ? b : a);
    Model& model = m(i);
    switch (effect.kind) {
      case ros::EffectKind::Pain: {
        if (pain_key < 0) throw std::invalid_argument("system_state key 'pain' is not in the game's vocabulary");
        const int total = pain_of(i) + effect.amount;
        auto it = std::find_if(s_.system_state.begin(), s_.system_state.end(), [&](const SystemEntry& entry) {
          return entry.key == pain_key && at(entry.model) == i;
        });
        if (it == s_.system_state.end()) {
          s_.system_state.push_back(
              SystemEntry{static_cast<std::int16_t>(pain_key), static_cast<std::int16_t>(i), total});
        } else {
          it->value = total;
        }
        if (JsonValue& logged = emit("ros_pain"); recording()) {
          logged.set("model", S(id(i))).set("pain", I(effect.amount)).set("total", I(total));
        }
        break;
      }
      case ros::EffectKind::Wound:
        wound(i, effect.amount, source, "melee");
        break;
      case ros::EffectKind::Down:
        if (model.is_active()) wound(i, model.wounds, source, "melee");
        break;
      case ros::EffectKind::Out:
        if (model.is_active()) wound(i, model.wounds, source, "melee");
        if (m(i).on_table && !s_.over) remove(i, Status::Out);
        break;
      case ros::EffectKind::Condition:
        if (model.is_active()) gain_condition(i, effect.condition, "melee wound");
        break;
    }
  }
}

void Loop::ros_test(std::size_t i, const std::string& kind, const std::string& attribute, int value, int tn,
                    const std::vector<rules::Modifier>& modifiers, const PendingContext& context) {
  // actions.py start_test then _finish_test: an RoS test offers no spend, so it closes at once.
  const ros::RosTest test = riddle_of_steel()->roll_test(kind, attribute, value, tn, modifiers, s_.rng);
  s_.phase = Phase::Action;
  struct Closed {  // RosTestResult's fields every roll event reads (total: the successes)
    std::string kind;
    std::string attribute;
    int attribute_value;
    std::vector<rules::Modifier> modifiers;
    int tn;
    int total;
    rules::Band result;
  };
  const Closed closed{test.kind, test.attribute, test.attribute_value, test.modifiers, test.tn, test.successes,
                      test.result};
  const ActionKind action = fm_.action_kinds[at(context.action)];
  JsonValue& event = roll_event(action, i, context, closed, ints_json(test.dice));
  event.set("system", S(ros::kName))
      .set("ros_attribute", S(test.ros_attribute))
      .set("pool", I(test.pool))
      .set("successes", I(test.successes))
      .set("fumble", B(test.fumble))
      .set("faces", faces_json(test.faces));
  resolve(context, i, test.result);
}

void Loop::bleeding_check(std::size_t i) {
  const int mettle = profile_of(s_, i).mettle;
  const auto [die, wounded] = rules::roll_wound_check(mettle, s_.rng, rules_);
  if (JsonValue& logged = emit("bleeding"); recording()) {
    logged.set("model", S(id(i))).set("mettle", I(mettle)).set("die", I(die)).set("wounded", B(wounded));
  }
  if (wounded) wound(i, 1, -1, "bleeding");
}

}  // namespace

void apply(const ForwardModel& fm, GameState& state, const Decision& decision, EventLog& log) {
  const std::vector<Decision> legal = legal_decisions(fm, state);
  Loop(fm, state, log).apply(decision, legal);
}

void apply(const ForwardModel& fm, GameState& state, const Decision& decision, EventLog& log,
           std::span<const Decision> legal) {
  Loop(fm, state, log).apply(decision, legal);
}

void start(const ForwardModel& fm, GameState& state, EventLog& log) { Loop(fm, state, log).start(); }

RandomPlay play_random(const ForwardModel& fm, GameState& state, rules::Pcg64& chooser, std::int64_t max_steps,
                       EventLog& log) {
  RandomPlay played;
  while (!state.over && played.steps < max_steps) {
    const std::vector<Decision> legal = legal_decisions(fm, state);
    const auto pick = static_cast<std::size_t>(chooser.integers(0, static_cast<std::int64_t>(legal.size())));
    Loop(fm, state, log).apply(legal[pick], legal);
    played.events += log.drain().size();
    ++played.steps;
  }
  return played;
}

}  // namespace riven::game
