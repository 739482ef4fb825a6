// riven::game in Python: the static part, the state's fields (read and written field by field by
// riven_env/native/game.py, which converts the Python GameState) and the event log writer.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "riddle_of_steel_tuples.hpp"
#include "riven/game/decision.hpp"
#include "riven/game/events.hpp"
#include "riven/game/queries.hpp"
#include "riven/game/state.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using game::ConditionSlot;
using game::GameState;
using game::GameStatic;
using game::InlineName;
using game::JsonValue;
using game::Model;

// A model's fields as one tuple (the order riven_env/native/game.py MODEL_FIELDS names).
using ModelTuple = std::tuple<double, double, double, int, int, bool, int, bool, int, bool, bool, bool, bool, bool,
                              bool, int, std::vector<std::pair<int, int>>, std::vector<std::pair<int, int>>,
                              std::optional<std::pair<double, double>>>;

ModelTuple model_tuple(const Model& m) {
  std::vector<std::pair<int, int>> conditions;
  for (std::size_t k = 0; k < m.condition_count; ++k) {
    conditions.emplace_back(m.conditions[k].id, m.conditions[k].count);
  }
  std::vector<std::pair<int, int>> resources;
  for (std::size_t r = 0; r < game::kMaxResources; ++r) {
    if (((m.resource_mask >> r) & 1U) != 0) {
      resources.emplace_back(static_cast<int>(r), m.resources[r]);
    }
  }
  std::optional<std::pair<double, double>> last;
  if (m.has_last_position) {
    last = std::pair{m.last_x, m.last_y};
  }
  return {m.x,         m.y,       m.radius,  m.wounds,    static_cast<int>(m.status),
          m.on_table,  m.strain,  m.stable,  m.aim_bonus, m.activated,
          m.hunkered,  m.moved_or_attacked,  m.rested,    m.focused,
          m.charged,   m.wounds_max, std::move(conditions), std::move(resources), last};
}

void set_model(GameState& state, std::size_t i, const ModelTuple& t) {
  if (i >= state.models.size()) {
    throw std::out_of_range("model index " + std::to_string(i) + " out of range");
  }
  Model m;
  m.x = std::get<0>(t);
  m.y = std::get<1>(t);
  m.radius = std::get<2>(t);
  m.wounds = std::get<3>(t);
  const int status = std::get<4>(t);
  if (status < 0 || status > 4) {
    throw std::invalid_argument("model status " + std::to_string(status) + " (expected 0..4)");
  }
  m.status = static_cast<game::Status>(status);
  m.on_table = std::get<5>(t);
  m.strain = std::get<6>(t);
  m.stable = std::get<7>(t);
  m.aim_bonus = std::get<8>(t);
  m.activated = std::get<9>(t);
  m.hunkered = std::get<10>(t);
  m.moved_or_attacked = std::get<11>(t);
  m.rested = std::get<12>(t);
  m.focused = std::get<13>(t);
  m.charged = std::get<14>(t);
  m.wounds_max = std::get<15>(t);
  const auto& conditions = std::get<16>(t);
  if (conditions.size() > game::kMaxConditions) {
    throw std::invalid_argument("a model holds more than 16 Conditions");
  }
  for (const auto& [id, count] : conditions) {
    m.conditions[m.condition_count] = ConditionSlot{static_cast<std::int16_t>(id), static_cast<std::int16_t>(count)};
    ++m.condition_count;
  }
  for (const auto& [id, value] : std::get<17>(t)) {
    if (id < 0 || static_cast<std::size_t>(id) >= game::kMaxResources) {
      throw std::invalid_argument("resource id " + std::to_string(id) + " out of range");
    }
    m.resource_mask = static_cast<std::uint8_t>(m.resource_mask | (1U << static_cast<unsigned>(id)));
    m.resources[static_cast<std::size_t>(id)] = value;
  }
  if (std::get<18>(t).has_value()) {
    m.has_last_position = true;
    m.last_x = std::get<18>(t)->first;
    m.last_y = std::get<18>(t)->second;
  }
  state.models[i] = m;
}

// Pending: (kind, attribute, attribute_value, [(source, value)], tn, (d1, d2), rolled_result,
// result, [spends], momentum_spent, strain_taken, critical_momentum, model,
// (action, target, objective, cover, has_destination, destination_kind, destination_ref)).
using ContextTuple = std::tuple<int, int, int, std::string, bool, int, int>;
using PendingTuple = std::tuple<std::string, std::string, int, std::vector<std::pair<std::string, int>>, int,
                                std::pair<int, int>, int, int, std::vector<std::string>, int, int, int, int,
                                ContextTuple>;

PendingTuple pending_tuple(const game::Pending& p) {
  std::vector<std::pair<std::string, int>> modifiers;
  for (std::size_t k = 0; k < p.roll.modifier_count; ++k) {
    modifiers.emplace_back(std::string(p.roll.modifiers[k].source.view()), p.roll.modifiers[k].value);
  }
  std::vector<std::string> spends;
  for (std::size_t k = 0; k < p.roll.spend_count; ++k) {
    spends.emplace_back(p.roll.spends[k].view());
  }
  const auto& c = p.context;
  return {std::string(p.roll.kind.view()),
          std::string(p.roll.attribute.view()),
          p.roll.attribute_value,
          std::move(modifiers),
          p.roll.tn,
          std::pair{p.roll.dice[0], p.roll.dice[1]},
          static_cast<int>(p.roll.rolled_result),
          static_cast<int>(p.roll.result),
          std::move(spends),
          p.roll.momentum_spent,
          p.roll.strain_taken,
          p.roll.critical_momentum,
          p.model,
          ContextTuple{c.action, c.target, c.objective, std::string(c.cover.view()), c.has_destination,
                       c.destination_kind, c.destination_ref}};
}

game::Band band(int value) {
  if (value < 0 || value > 3) {
    throw std::invalid_argument("band " + std::to_string(value) + " (expected 0..3)");
  }
  return static_cast<game::Band>(value);
}

game::Pending pending_from(const PendingTuple& t) {
  game::Pending p;
  p.roll.kind = InlineName(std::get<0>(t));
  p.roll.attribute = InlineName(std::get<1>(t));
  p.roll.attribute_value = std::get<2>(t);
  const auto& modifiers = std::get<3>(t);
  if (modifiers.size() > game::kMaxModifiers) {
    throw std::invalid_argument("a pending roll with more than 12 modifiers");
  }
  for (const auto& [source, value] : modifiers) {
    p.roll.modifiers[p.roll.modifier_count] = game::Modifier{InlineName(source), value};
    ++p.roll.modifier_count;
  }
  p.roll.tn = std::get<4>(t);
  p.roll.dice = {std::get<5>(t).first, std::get<5>(t).second};
  p.roll.rolled_result = band(std::get<6>(t));
  p.roll.result = band(std::get<7>(t));
  const auto& spends = std::get<8>(t);
  if (spends.size() > game::kMaxSpends) {
    throw std::invalid_argument("a pending roll with more than 12 spends");
  }
  for (const auto& spend : spends) {
    p.roll.spends[p.roll.spend_count] = InlineName(spend);
    ++p.roll.spend_count;
  }
  p.roll.momentum_spent = std::get<9>(t);
  p.roll.strain_taken = std::get<10>(t);
  p.roll.critical_momentum = std::get<11>(t);
  p.model = std::get<12>(t);
  const ContextTuple& c = std::get<13>(t);
  p.context.action = static_cast<std::int16_t>(std::get<0>(c));
  p.context.target = static_cast<std::int16_t>(std::get<1>(c));
  p.context.objective = static_cast<std::int16_t>(std::get<2>(c));
  p.context.cover = InlineName(std::get<3>(c));
  p.context.has_destination = std::get<4>(c);
  p.context.destination_kind = static_cast<std::int16_t>(std::get<5>(c));
  p.context.destination_ref = std::get<6>(c);
  return p;
}

// The Invictus part of a pending roll (Pending::invictus): (dice, rolled_dice, danger, factors,
// fray, favourable, unfavourable, score, critical_health, luck_held, luck_spent, spends,
// rolled_band (0 miss .. 3 crit), melee defender modifiers or None).
using InvictusTuple =
    std::tuple<std::vector<int>, std::vector<int>, std::vector<int>, std::vector<std::string>, bool, bool, bool, int,
               bool, int, int, std::vector<std::string>, int, std::optional<std::vector<std::pair<std::string, int>>>>;

InvictusTuple invictus_tuple(const game::Pending& p) {
  const rules::invictus::InvictusRoll roll = game::to_invictus_roll(p);
  std::optional<std::vector<std::pair<std::string, int>>> melee;
  if (roll.is_melee) {
    melee.emplace();
    for (const rules::Modifier& m : roll.melee) melee->emplace_back(m.source, m.value);
  }
  return {roll.dice,       roll.rolled_dice,     roll.danger,     roll.factors,     roll.fray,
          roll.favourable, roll.unfavourable,    roll.score,      roll.critical_health, roll.luck_held,
          roll.luck_spent, roll.spends,          static_cast<int>(roll.rolled_band), std::move(melee)};
}

game::InvictusPart invictus_from(const InvictusTuple& t) {
  rules::invictus::InvictusRoll roll;
  roll.dice = std::get<0>(t);
  roll.rolled_dice = std::get<1>(t);
  roll.pool = static_cast<int>(roll.dice.size());
  roll.danger = std::get<2>(t);
  roll.factors = std::get<3>(t);
  roll.fray = std::get<4>(t);
  roll.favourable = std::get<5>(t);
  roll.unfavourable = std::get<6>(t);
  roll.score = std::get<7>(t);
  roll.critical_health = std::get<8>(t);
  roll.luck_held = std::get<9>(t);
  roll.luck_spent = std::get<10>(t);
  roll.spends = std::get<11>(t);
  const int band = std::get<12>(t);
  if (band < 0 || band > 3) {
    throw std::invalid_argument("Invictus rolled band " + std::to_string(band) + " (expected 0..3)");
  }
  roll.rolled_band = static_cast<rules::invictus::IBand>(band);
  if (std::get<13>(t).has_value()) {
    roll.is_melee = true;
    for (const auto& [source, value] : *std::get<13>(t)) roll.melee.push_back({source, value});
  }
  return game::invictus_part(roll);
}

// The New World part of a pending roll (Pending::new_world): (bonus, difficulty, rolled,
// target_chooses, helpers_available, helpers, helper_models, luck_held, luck_spent, melee as
// (defender dice, defender bonus, defender modifiers) or None, defender_luck_held,
// defender_luck_spent, rolled_total, margin). The roller's dice and the spends are the pending
// TestRoll's.
using NwMods = std::vector<std::pair<std::string, int>>;
using NewWorldTuple = std::tuple<int, int, bool, bool, int, int, std::vector<int>, int, int,
                                 std::optional<std::tuple<std::vector<int>, int, NwMods>>, int, int, int, int>;

NewWorldTuple new_world_tuple(const game::Pending& p) {
  const game::NewWorldPart& nw = p.nw;
  std::optional<std::tuple<std::vector<int>, int, NwMods>> melee;
  if (nw.is_melee) {
    NwMods mods;
    for (std::size_t k = 0; k < nw.melee_count; ++k) mods.emplace_back(std::string(nw.melee[k].source.view()), nw.melee[k].value);
    melee.emplace(std::vector<int>{nw.melee_dice[0], nw.melee_dice[1]}, nw.melee_bonus, std::move(mods));
  }
  return {nw.bonus,
          nw.difficulty,
          nw.rolled,
          nw.target_chooses,
          nw.helpers_available,
          nw.helpers,
          std::vector<int>(nw.helper_models.begin(), nw.helper_models.begin() + nw.helper_count),
          nw.luck_held,
          nw.luck_spent,
          std::move(melee),
          nw.defender_luck_held,
          nw.defender_luck_spent,
          nw.rolled_total,
          nw.margin};
}

game::NewWorldPart new_world_from(const NewWorldTuple& t) {
  game::NewWorldPart nw;
  const std::vector<int>& helpers = std::get<6>(t);
  const auto& melee = std::get<9>(t);
  if (helpers.size() > game::kMaxHelpers ||
      (melee && (std::get<0>(*melee).size() != 2 || std::get<2>(*melee).size() > game::kMaxModifiers))) {
    throw std::invalid_argument("pending_new_world: more helpers or defender modifiers than the native state holds, "
                                "or defender dice that are not 2d6");
  }
  nw.bonus = std::get<0>(t);
  nw.difficulty = std::get<1>(t);
  nw.rolled = std::get<2>(t);
  nw.target_chooses = std::get<3>(t);
  nw.helpers_available = static_cast<std::int8_t>(std::get<4>(t));
  nw.helpers = static_cast<std::int8_t>(std::get<5>(t));
  nw.helper_count = static_cast<std::uint8_t>(helpers.size());
  for (std::size_t k = 0; k < helpers.size(); ++k) nw.helper_models[k] = static_cast<std::int16_t>(helpers[k]);
  nw.luck_held = std::get<7>(t);
  nw.luck_spent = std::get<8>(t);
  nw.is_melee = melee.has_value();
  if (melee) {
    nw.melee_dice = {static_cast<std::int8_t>(std::get<0>(*melee)[0]), static_cast<std::int8_t>(std::get<0>(*melee)[1])};
    nw.melee_bonus = std::get<1>(*melee);
    nw.melee_count = static_cast<std::uint8_t>(std::get<2>(*melee).size());
    for (std::size_t k = 0; k < std::get<2>(*melee).size(); ++k) {
      nw.melee[k] = game::Modifier{InlineName(std::get<2>(*melee)[k].first), std::get<2>(*melee)[k].second};
    }
  }
  nw.defender_luck_held = std::get<10>(t);
  nw.defender_luck_spent = std::get<11>(t);
  nw.rolled_total = std::get<12>(t);
  nw.margin = std::get<13>(t);
  return nw;
}

// ------------------------------------------------------------------ events: Python -> JSON value
JsonValue to_json(nb::handle value, int depth);

JsonValue to_json(nb::handle value, int depth) {
  if (depth > 64) {
    throw std::invalid_argument("event nests deeper than 64 levels");
  }
  if (value.is_none()) {
    return JsonValue::null();
  }
  if (nb::isinstance<nb::bool_>(value)) {
    return JsonValue::boolean(nb::cast<bool>(value));
  }
  if (nb::isinstance<nb::int_>(value)) {
    std::int64_t out = 0;
    if (nb::try_cast<std::int64_t>(value, out)) {
      return JsonValue::integer(out);
    }
    return JsonValue::big_integer(nb::cast<std::string>(nb::str(value)));
  }
  if (nb::isinstance<nb::float_>(value)) {
    return JsonValue::number(nb::cast<double>(value));
  }
  if (nb::isinstance<nb::str>(value)) {
    return JsonValue::string(nb::cast<std::string>(value));
  }
  if (nb::isinstance<nb::dict>(value)) {
    JsonValue object = JsonValue::object();
    for (auto [key, item] : nb::borrow<nb::dict>(value)) {
      object.set(game::JsonKey(nb::cast<std::string>(nb::str(key))), to_json(item, depth + 1));  // str(k), as _clean
    }
    return object;
  }
  if (nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value)) {
    JsonValue list = JsonValue::list();
    for (nb::handle item : value) {
      list.push(to_json(item, depth + 1));
    }
    return list;
  }
  if (nb::hasattr(value, "item")) {  // numpy scalars, as _clean
    return to_json(value.attr("item")(), depth + 1);
  }
  throw std::invalid_argument("event value of type " + nb::cast<std::string>(nb::str(value.type())) +
                              " has no JSON form");
}

}  // namespace

void bind_game(nb::module_& module) {
  nb::class_<game::Profile>(module, "GameProfile", "A model profile's numbers (riven::game::Profile).")
      .def(nb::init<>())
      .def_rw("name", &game::Profile::name)
      .def_rw("might", &game::Profile::might)
      .def_rw("agility", &game::Profile::agility)
      .def_rw("wit", &game::Profile::wit)
      .def_rw("resolve", &game::Profile::resolve)
      .def_rw("mettle", &game::Profile::mettle)
      .def_rw("wounds", &game::Profile::wounds)
      .def_rw("move", &game::Profile::move)
      .def_rw("base_diameter", &game::Profile::base_diameter)
      .def_rw("has_melee", &game::Profile::has_melee)
      .def_rw("melee_modifier", &game::Profile::melee_modifier)
      .def_rw("has_ranged", &game::Profile::has_ranged)
      .def_rw("ranged_range", &game::Profile::ranged_range)
      .def_rw("ranged_modifier", &game::Profile::ranged_modifier)
      .def_rw("keywords", &game::Profile::keywords);

  nb::class_<game::Objective>(module, "GameObjective", "An objective of the scenario.")
      .def(nb::init<>())
      .def_rw("name", &game::Objective::name)
      .def_rw("x", &game::Objective::x)
      .def_rw("y", &game::Objective::y)
      .def_rw("radius", &game::Objective::radius)
      .def_rw("kind", &game::Objective::kind)
      .def_rw("points", &game::Objective::points);

  nb::class_<GameStatic>(module, "GameStatic", "What never changes in a game (shared by its states' copies).")
      .def(nb::init<>())
      .def_rw("model_ids", &GameStatic::model_ids)
      .def_rw("model_sides", &GameStatic::model_sides)
      .def_rw("model_profile", &GameStatic::model_profile)
      .def_rw("model_oracle", &GameStatic::model_oracle)
      .def_rw("profiles", &GameStatic::profiles)
      .def_rw("oracle_names", &GameStatic::oracle_names)
      .def_rw("objectives", &GameStatic::objectives)
      .def_rw("table_width", &GameStatic::table_width)
      .def_rw("table_height", &GameStatic::table_height)
      .def_rw("round_limit", &GameStatic::round_limit)
      .def_rw("first_side", &GameStatic::first_side)
      .def_rw("owners", &GameStatic::owners)
      .def_rw("side_owner", &GameStatic::side_owner)
      .def_rw("actions", &GameStatic::actions)
      .def_rw("conditions", &GameStatic::conditions)
      .def_rw("resources", &GameStatic::resources)
      .def_rw("options", &GameStatic::options)
      .def_rw("destination_kinds", &GameStatic::destination_kinds)
      .def_rw("system_keys", &GameStatic::system_keys)
      .def_rw("setting", &GameStatic::setting)
      .def("validate", &GameStatic::validate);

  nb::class_<GameState>(module, "GameState", "The native game state (riven::game::GameState).")
      .def(
          "__init__",
          [](GameState* self, std::shared_ptr<GameStatic> statics, std::int32_t momentum_start) {
            new (self) GameState(GameState::initial(std::move(statics), momentum_start));
          },
          nb::arg("statics"), nb::arg("momentum_start"))
      .def_prop_ro("statics", [](const GameState& s) { return std::const_pointer_cast<GameStatic>(s.statics); })
      .def_prop_ro("model_count", &GameState::model_count)
      .def("model", [](const GameState& s, std::size_t i) {
        if (i >= s.models.size()) {
          throw std::out_of_range("model index " + std::to_string(i) + " out of range");
        }
        return model_tuple(s.models[i]);
      })
      .def("set_model", &set_model, nb::arg("index"), nb::arg("fields"))
      .def_rw("momentum", &GameState::momentum)
      .def_rw("points", &GameState::points)
      .def_rw("round", &GameState::round)
      .def_rw("side", &GameState::side)
      .def_rw("turn_index", &GameState::turn_index)
      .def_rw("in_turn", &GameState::in_turn)
      .def_prop_rw(
          "phase", [](const GameState& s) { return static_cast<int>(s.phase); },
          [](GameState& s, int phase) {
            if (phase < 0 || phase > 4) {
              throw std::invalid_argument("phase " + std::to_string(phase) + " (expected 0..4)");
            }
            s.phase = static_cast<game::Phase>(phase);
          })
      .def_rw("active_model", &GameState::active_model)
      .def_rw("last_activated", &GameState::last_activated)
      .def_rw("actions_left", &GameState::actions_left)
      .def_rw("turn_passes_after", &GameState::turn_passes_after)
      .def_prop_rw(
          "taken_actions",
          [](const GameState& s) {
            return std::vector<int>(s.taken_actions.begin(), s.taken_actions.begin() + s.taken_count);
          },
          [](GameState& s, const std::vector<int>& ids) {
            if (ids.size() > game::kMaxTakenActions) {
              throw std::invalid_argument("more than 16 taken actions");
            }
            s.taken_actions = {};
            for (std::size_t k = 0; k < ids.size(); ++k) {
              s.taken_actions[k] = static_cast<std::int16_t>(ids[k]);
            }
            s.taken_count = static_cast<std::uint8_t>(ids.size());
          })
      .def_prop_rw(
          "pending",
          [](const GameState& s) -> std::optional<PendingTuple> {
            if (!s.pending.has_value()) {
              return std::nullopt;
            }
            return pending_tuple(*s.pending);
          },
          [](GameState& s, const std::optional<PendingTuple>& t) {
            s.pending = t.has_value() ? std::optional<game::Pending>(pending_from(*t)) : std::nullopt;
          },
          nb::arg("value").none())
      .def_prop_rw(
          "pending_invictus",
          [](const GameState& s) -> std::optional<InvictusTuple> {
            if (!s.pending.has_value() || !s.pending->invictus) {
              return std::nullopt;
            }
            return invictus_tuple(*s.pending);
          },
          [](GameState& s, const std::optional<InvictusTuple>& t) {
            if (!s.pending.has_value()) {
              if (t.has_value()) throw std::invalid_argument("pending_invictus: set the pending roll first");
              return;
            }
            s.pending->invictus = t.has_value();
            s.pending->inv = t.has_value() ? invictus_from(*t) : game::InvictusPart{};
          },
          nb::arg("value").none(),
          "The Invictus part of the pending roll (None: no pending roll, or a RIVEN one); set it after `pending`.")
      .def_prop_rw(
          "pending_new_world",
          [](const GameState& s) -> std::optional<NewWorldTuple> {
            if (!s.pending.has_value() || !s.pending->new_world) return std::nullopt;
            return new_world_tuple(*s.pending);
          },
          [](GameState& s, const std::optional<NewWorldTuple>& t) {
            if (!s.pending.has_value()) {
              if (t.has_value()) throw std::invalid_argument("pending_new_world: set the pending roll first");
              return;
            }
            s.pending->new_world = t.has_value();
            s.pending->nw = t.has_value() ? new_world_from(*t) : game::NewWorldPart{};
          },
          nb::arg("value").none(),
          "The New World part of the pending roll (None: no pending roll, or another system's); set it after "
          "`pending`.")
      .def_prop_rw(
          "pending_choice",
          [](const GameState& s) -> std::optional<std::tuple<ros_tuples::SessionTuple, int, int>> {
            if (!s.choice.has_value()) return std::nullopt;
            return std::make_tuple(ros_tuples::session_out(s.choice->session), s.choice->model, s.choice->target);
          },
          [](GameState& s, const std::optional<std::tuple<ros_tuples::SessionTuple, int, int>>& t) {
            if (!t.has_value()) {
              s.choice.reset();
              return;
            }
            game::ChoicePending choice;
            choice.session = ros_tuples::session_in(std::get<0>(*t));
            choice.model = std::get<1>(*t);
            choice.target = std::get<2>(*t);
            s.choice = std::move(choice);
          },
          nb::arg("value").none(),
          "The choice phase's Combat Round (session fields, model, target), or None.")
      .def_rw("decider", &GameState::decider)
      .def_prop_rw(
          "system_state",
          [](const GameState& s) {
            std::vector<std::tuple<int, int, int>> out;
            for (const auto& e : s.system_state) {
              out.emplace_back(e.key, e.model, e.value);
            }
            return out;
          },
          [](GameState& s, const std::vector<std::tuple<int, int, int>>& entries) {
            s.system_state.clear();
            for (const auto& [key, model, value] : entries) {
              s.system_state.push_back({static_cast<std::int16_t>(key), static_cast<std::int16_t>(model), value});
            }
          })
      .def_rw("looted", &GameState::looted)
      .def_rw("half_strength_tested", &GameState::half_strength_tested)
      .def_rw("over", &GameState::over)
      .def_rw("winner", &GameState::winner)
      .def_prop_rw(
          "end_reason",
          [](const GameState& s) -> std::optional<std::string> {
            if (s.end_reason.empty()) {
              return std::nullopt;
            }
            return std::string(s.end_reason.view());
          },
          [](GameState& s, const std::optional<std::string>& reason) {
            s.end_reason = reason.has_value() ? InlineName(*reason) : InlineName();
          },
          nb::arg("value").none())
      .def_rw("seq", &GameState::seq)
      .def_rw("rng", &GameState::rng)
      .def("current_side", &GameState::current_side)
      .def("owned_bytes", &GameState::owned_bytes, "Bytes this state owns (its static part excluded).")
      .def("validate", &GameState::validate)
      .def("copy", [](const GameState& s) { return GameState(s); })
      .def("__copy__", [](const GameState& s) { return GameState(s); })
      .def("copy_many", [](const GameState& s, std::size_t count) {
        // A benchmark helper: `count` copies made and dropped in C++, none crossing to Python.
        std::size_t bytes = 0;
        for (std::size_t k = 0; k < count; ++k) {
          const GameState copy(s);
          bytes += copy.models.size();
        }
        return bytes;
      });

  module.attr("DECISION_POINT_KINDS") = nb::make_tuple("pass", "activate", "bonus", "spend", "allocate", "choose");
  nb::class_<game::Decision>(module, "Decision", "A decision as ids (riven::game::Decision; -1 for None).")
      .def(
          "__init__",
          [](game::Decision* self, int kind, int model, int dice, int target, int destination_kind,
             int destination_ref, int option) {
            new (self) game::Decision{static_cast<std::int16_t>(kind),
                                      static_cast<std::int16_t>(model),
                                      static_cast<std::int16_t>(dice),
                                      static_cast<std::int16_t>(target),
                                      static_cast<std::int16_t>(destination_kind),
                                      destination_ref,
                                      static_cast<std::int16_t>(option)};
          },
          nb::arg("kind"), nb::arg("model") = -1, nb::arg("dice") = -1, nb::arg("target") = -1,
          nb::arg("destination_kind") = -1, nb::arg("destination_ref") = -1, nb::arg("option") = -1)
      .def_rw("kind", &game::Decision::kind)
      .def_rw("model", &game::Decision::model)
      .def_rw("dice", &game::Decision::dice)
      .def_rw("target", &game::Decision::target)
      .def_rw("destination_kind", &game::Decision::destination_kind)
      .def_rw("destination_ref", &game::Decision::destination_ref)
      .def_rw("option", &game::Decision::option);

  nb::class_<JsonValue>(module, "JsonValue", "An event as a native JSON value.")
      .def("dumps", [](const JsonValue& v) { return game::dumps_event(v); });
  module.def(
      "event_json", [](nb::handle event) { return to_json(event, 0); }, nb::arg("event"),
      "The native JSON value of a Python event (a dict).");
  module.def(
      "dumps_event", [](nb::handle event) { return game::dumps_event(to_json(event, 0)); }, nb::arg("event"),
      "dumps_event (riven_env/game/events.py) written by the native writer.");
  module.def(
      "dumps_events",
      [](nb::handle events) {
        std::vector<JsonValue> values;
        for (nb::handle event : events) {
          values.push_back(to_json(event, 0));
        }
        return game::dumps_events(values);
      },
      nb::arg("events"), "The JSON Lines text of events, one line each ending in a newline.");
  module.def("python_round", &game::python_round, nb::arg("value"), nb::arg("digits"));
  module.def("python_float_repr", &game::python_float_repr, nb::arg("value"));
}

}  // namespace riven::bindings
