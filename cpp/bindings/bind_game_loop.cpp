// riven::game's loop in Python: the ForwardModel (built by riven_env/native/loop.py from a Python
// game), the routing seam's planners (the core's NativePlanner, or a Python callback for
// diagnosis), legal decisions and apply.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "bindings.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/loop.hpp"
#include "riven/game/native_planner.hpp"
#include "riven/game/planner.hpp"
#include "riven/game/queries.hpp"
#include "riven/oracle/oracle.hpp"
#include "riven/oracle/play.hpp"
#include "riven/rules/pcg64.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using game::Decision;
using game::ForwardModel;
using game::GameState;
using game::JsonValue;
using table::Point;

nb::list floats(std::span<const double> values) {
  nb::list out;
  for (const double v : values) out.append(v);
  return out;
}

nb::tuple bases_args(const table::BasesView& bases) {
  nb::list flags;
  for (const std::uint8_t f : bases.on_table) flags.append(f != 0);
  return nb::make_tuple(floats(bases.centers), floats(bases.radii), flags);
}

std::vector<Point> points(nb::handle path) {
  std::vector<Point> out;
  for (nb::handle p : path) out.push_back({nb::cast<double>(p[0]), nb::cast<double>(p[1])});
  return out;
}

game::MovePlan move_plan(nb::handle plan) {
  // (start, end, path, cost, reached)
  game::MovePlan out;
  out.start = {nb::cast<double>(plan[0][0]), nb::cast<double>(plan[0][1])};
  out.end = {nb::cast<double>(plan[1][0]), nb::cast<double>(plan[1][1])};
  out.path = points(plan[2]);
  out.cost = nb::cast<double>(plan[3]);
  out.reached = nb::cast<bool>(plan[4]);
  return out;
}

/// The routing seam answered by Python (riven_env/native/loop.py PythonPlanner), GIL held.
class PythonPlanner final : public game::Planner {
 public:
  explicit PythonPlanner(nb::object target) : target_(std::move(target)) {}

  [[nodiscard]] std::optional<game::Destination> plan_destination(const table::BasesView& bases, std::size_t i,
                                                                  double allowance, const std::string& kind,
                                                                  std::int64_t ref, std::span<const Point> objectives,
                                                                  std::optional<double> enemy_gap) const override {
    nb::list objs;
    for (const Point& p : objectives) objs.append(nb::make_tuple(p.x, p.y));
    nb::tuple b = bases_args(bases);
    nb::object found = target_.attr("plan_destination")(
        b[0], b[1], b[2], i, allowance, kind, ref < 0 ? nb::none() : nb::cast(ref), objs,
        enemy_gap ? nb::cast(*enemy_gap) : nb::none());
    if (found.is_none()) return std::nullopt;
    // (kind, ref, point, cost, label, path, reached)
    game::Destination d;
    d.kind = nb::cast<std::string>(found[0]);
    d.ref = found[1].is_none() ? -1 : nb::cast<std::int64_t>(found[1]);
    d.point = {nb::cast<double>(found[2][0]), nb::cast<double>(found[2][1])};
    d.cost = nb::cast<double>(found[3]);
    d.label = nb::cast<std::string>(found[4]);
    d.path = points(found[5]);
    d.reached = nb::cast<bool>(found[6]);
    return d;
  }

  [[nodiscard]] std::optional<game::MovePlan> plan_charge(const table::BasesView& bases, std::size_t i,
                                                          std::size_t target, double reach) const override {
    nb::tuple b = bases_args(bases);
    nb::object found = target_.attr("plan_charge")(b[0], b[1], b[2], i, target, reach);
    if (found.is_none()) return std::nullopt;
    return move_plan(found);
  }

  [[nodiscard]] std::vector<std::int64_t> charge_targets(const table::BasesView& bases, std::size_t i, double reach,
                                                         std::span<const std::int64_t> enemies) const override {
    nb::tuple b = bases_args(bases);
    nb::list foes;
    for (const std::int64_t j : enemies) foes.append(j);
    nb::object found = target_.attr("charge_targets")(b[0], b[1], b[2], i, reach, foes);
    std::vector<std::int64_t> out;
    for (nb::handle j : found) out.push_back(nb::cast<std::int64_t>(j));
    return out;
  }

  [[nodiscard]] game::MovePlan plan_push(const table::BasesView& bases, std::size_t i, Point away_from,
                                         double distance) const override {
    nb::tuple b = bases_args(bases);
    return move_plan(target_.attr("plan_push")(b[0], b[1], b[2], i, nb::make_tuple(away_from.x, away_from.y), distance));
  }

  [[nodiscard]] std::pair<game::MovePlan, bool> plan_flight(const table::BasesView& bases, std::size_t i,
                                                            double distance, bool around) const override {
    nb::tuple b = bases_args(bases);
    nb::object found = target_.attr("plan_flight")(b[0], b[1], b[2], i, distance, around);
    return {move_plan(found[0]), nb::cast<bool>(found[1])};
  }

 private:
  nb::object target_;
};

// A new reference from a CPython call, or the Python error it set.
PyObject* checked(PyObject* made) {
  if (made == nullptr) throw nb::python_error();
  return made;
}

// The Python strings of one conversion: an event log repeats its keys (and its types, sides and
// model ids) hundreds of times a game; each is made, and hashed, once per conversion. Keys are
// told apart by their literal's address (one per name and translation unit), short values by
// their text (the views point into the events being converted, which outlive the conversion);
// long texts (labels, explanations) are rarely repeated and not kept.
class PythonStrings {
 public:
  /// A borrowed reference to the key's string (the cache holds it).
  PyObject* key(const game::JsonKey& key) {
    const std::string_view name = key.view();
    if (!key.literal()) return text(name, true);
    auto [found, fresh] = keys_.try_emplace(name.data());
    if (fresh) found->second = made(name);
    return found->second.ptr();
  }
  /// A new reference to a value's string.
  PyObject* value(std::string_view value) { return Py_NewRef(text(value, false)); }

 private:
  static constexpr std::size_t kLongest = 32;

  static nb::object made(std::string_view text) {
    return nb::steal(checked(PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()))));
  }

  // A borrowed reference (kept in the cache, or in `scratch_` for a long text until the next).
  PyObject* text(std::string_view text, bool key) {
    if (text.size() > kLongest && !key) {
      scratch_ = made(text);
      return scratch_.ptr();
    }
    auto [found, fresh] = strings_.try_emplace(text);
    if (fresh) found->second = made(text);
    return found->second.ptr();
  }

  std::unordered_map<const char*, nb::object> keys_;
  std::unordered_map<std::string_view, nb::object> strings_;
  nb::object scratch_;
};

/// An event as Python values (dicts, lists, ints, floats, strings, None): what GameState.emit
/// records. A new reference; lists are made at their final size.
PyObject* to_python(const JsonValue& value, PythonStrings& strings) {
  switch (value.kind()) {
    case JsonValue::Kind::Null:
    case JsonValue::Kind::Sink:
      return Py_NewRef(Py_None);
    case JsonValue::Kind::Bool:
      return Py_NewRef(value.as_bool() ? Py_True : Py_False);
    case JsonValue::Kind::Int:
      return checked(PyLong_FromLongLong(value.as_int()));
    case JsonValue::Kind::BigInt:
      return checked(PyLong_FromString(std::string(value.text()).c_str(), nullptr, 10));
    case JsonValue::Kind::Float:
      return checked(PyFloat_FromDouble(value.as_float()));
    case JsonValue::Kind::String:
      return strings.value(value.text());
    case JsonValue::Kind::List: {
      const std::vector<JsonValue>& items = value.items();
      nb::object out = nb::steal(checked(PyList_New(static_cast<Py_ssize_t>(items.size()))));
      for (std::size_t k = 0; k < items.size(); ++k) {
        // A list left part-filled by an error is freed as it is (its empty slots are NULL).
        PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(k), to_python(items[k], strings));
      }
      return out.release().ptr();
    }
    case JsonValue::Kind::Object: {
      const std::vector<JsonValue::Member>& members = value.members();
      // PyDict_New, not the private _PyDict_NewPresized: its table is a general one (no
      // str-keys-only layout), larger and slower to read, for a saving of under 1%.
      nb::object out = nb::steal(checked(PyDict_New()));
      for (const JsonValue::Member& member : members) {
        PyObject* const key = strings.key(member.key);
        const nb::object item = nb::steal(to_python(member.value, strings));
        if (PyDict_SetItem(out.ptr(), key, item.ptr()) != 0) throw nb::python_error();
      }
      return out.release().ptr();
    }
  }
  return Py_NewRef(Py_None);
}

nb::list events_to_python(const std::vector<JsonValue>& events) {
  PythonStrings strings;
  nb::list out = nb::steal<nb::list>(checked(PyList_New(static_cast<Py_ssize_t>(events.size()))));
  for (std::size_t k = 0; k < events.size(); ++k) {
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(k), to_python(events[k], strings));
  }
  return out;
}

template <class T>
std::shared_ptr<const T> held(nb::object owner) {
  // The core object stays owned by its Python object; the shared_ptr keeps that alive.
  const T* pointer = nb::cast<const T*>(owner);
  auto keep = std::make_shared<nb::object>(std::move(owner));
  return std::shared_ptr<const T>(keep, pointer);
}

using ActionTuple = std::tuple<std::string, int, std::string, std::string, bool, std::vector<std::string>, std::string,
                               std::vector<std::string>>;
using VictoryTuple = std::tuple<std::string, int, std::vector<std::string>, std::optional<std::array<double, 4>>, int,
                                bool, int, int>;

/// The ForwardModel's planner: a bound NativePlanner is shared as is, anything else answers
/// through Python (PythonPlanner).
std::shared_ptr<const game::Planner> planner_of(nb::object planner) {
  if (nb::isinstance<game::NativePlanner>(planner)) return held<game::NativePlanner>(std::move(planner));
  return std::make_shared<PythonPlanner>(std::move(planner));
}

/// Whether the model plans without Python (the GIL may be released while it plays).
// Each side's seat of play_seats / rollout_seats: the Oracle (an OracleGame) or random (None),
// each on its own stream, which moves on in place.
std::array<oracle::Seat, game::kSides> seats_of(const char* caller, nb::object blue_oracle, rules::Pcg64& blue_rng,
                                                nb::object red_oracle, rules::Pcg64& red_rng) {
  if (&blue_rng == &red_rng) throw std::invalid_argument(std::string(caller) + ": the two sides need their own streams");
  std::array<oracle::Seat, game::kSides> seats;
  const std::array<nb::object*, game::kSides> oracles{&blue_oracle, &red_oracle};
  const std::array<rules::Pcg64*, game::kSides> rngs{&blue_rng, &red_rng};
  for (std::size_t s = 0; s < seats.size(); ++s) {
    seats[s].oracle = oracles[s]->is_none() ? nullptr : nb::cast<const oracle::OracleGame*>(*oracles[s]);
    seats[s].rng = rngs[s];
  }
  return seats;
}

bool native_planner(const ForwardModel& fm) {
  return dynamic_cast<const game::NativePlanner*>(fm.planner.get()) != nullptr;
}

}  // namespace

void bind_game_loop(nb::module_& module) {
  nb::class_<game::NativePlanner>(module, "NativePlanner",
                                  "The routing seam answered by the core's router (riven::game::NativePlanner).")
      .def(
          "__init__",
          [](game::NativePlanner* self, nb::object table, double enemy_gap) {
            new (self) game::NativePlanner(held<table::TableGeometry>(std::move(table)), enemy_gap);
          },
          nb::arg("table"), nb::arg("enemy_gap"))
      .def_prop_ro("enemy_gap", &game::NativePlanner::enemy_gap);

  nb::class_<ForwardModel>(module, "ForwardModel",
                           "What the native game loop reads besides the state (riven::game::ForwardModel).")
      .def_prop_ro("native_planner", &native_planner, "Whether routes are planned by the core (no Python per step).")
      .def(
          "__init__",
          [](ForwardModel* self, nb::object rules, nb::object table, nb::object planner, const game::GameStatic& statics,
             const std::vector<ActionTuple>& actions, const std::vector<std::optional<rules::Weapon>>& melee,
             const std::vector<std::optional<rules::Weapon>>& ranged, const rules::Weapon& unarmed,
             const std::vector<VictoryTuple>& victory, const std::string& at_round_limit, double contact_tolerance) {
            ForwardModel fm;
            fm.rules = held<rules::RulesConfig>(std::move(rules));
            fm.table = held<table::TableGeometry>(std::move(table));
            fm.planner = planner_of(std::move(planner));
            for (const auto& [name, cost, attribute, difficulty, once, excludes, applies, removes] : actions) {
              fm.actions.push_back(game::ActionSpec{name, cost, attribute, difficulty, once, excludes, applies, removes});
            }
            fm.melee = melee;
            fm.ranged = ranged;
            fm.unarmed = unarmed;
            for (const auto& [type, side, models, zone, points, win, from_round, min_models] : victory) {
              game::VictoryCondition c;
              c.type = type;
              c.side = side;
              c.models = models;
              c.has_zone = zone.has_value();
              if (zone) c.zone = *zone;
              c.points = points;
              c.win = win;
              c.from_round = from_round;
              c.min_models = min_models;
              fm.victory.push_back(std::move(c));
            }
            fm.at_round_limit = at_round_limit;
            fm.contact_tolerance = contact_tolerance;
            fm.prepare(statics);
            new (self) ForwardModel(std::move(fm));
          },
          nb::arg("rules"), nb::arg("table"), nb::arg("planner"), nb::arg("statics"), nb::arg("actions"),
          nb::arg("melee"), nb::arg("ranged"), nb::arg("unarmed"), nb::arg("victory"), nb::arg("at_round_limit"),
          nb::arg("contact_tolerance"));

  module.def(
      "legal_decisions",
      [](const ForwardModel& fm, const GameState& state) {
        game::check_same_game(fm, state, "legal_decisions");
        return game::legal_decisions(fm, state);
      },
      nb::arg("model"), nb::arg("state"), "GameState.legal_decisions, in the Python order.");
  module.def(
      "apply_decision",
      [](const ForwardModel& fm, GameState& state, const Decision& decision) {
        game::check_same_game(fm, state, "apply_decision");
        game::EventLog log;
        game::apply(fm, state, decision, log);
        return events_to_python(log.drain());
      },
      nb::arg("model"), nb::arg("state"), nb::arg("decision"),
      "GameState.apply: the events, as the Python engine records them.");
  module.def(
      "apply_decision_quiet",
      [](const ForwardModel& fm, GameState& state, const Decision& decision) {
        // A search's step (agents/expert.py in its tree): the same state as apply_decision, the
        // events dropped in the core instead of turned into Python dicts nobody reads (nor built).
        game::check_same_game(fm, state, "apply_decision_quiet");
        game::EventLog log = game::EventLog::discarding();
        game::apply(fm, state, decision, log);
      },
      nb::arg("model"), nb::arg("state"), nb::arg("decision"),
      "GameState.apply with the events dropped (a search's step).");
  module.def(
      "start_game",
      [](const ForwardModel& fm, GameState& state) {
        game::check_same_game(fm, state, "start_game");
        game::EventLog log;
        game::start(fm, state, log);
        return events_to_python(log.drain());
      },
      nb::arg("model"), nb::arg("state"));
  module.def(
      "decision_label",
      [](const ForwardModel& fm, const GameState& state, const Decision& decision) {
        game::check_same_game(fm, state, "decision_label");
        return game::decision_label(fm, state, decision);
      },
      nb::arg("model"), nb::arg("state"), nb::arg("decision"), "str(decision) of the Python Decision.");
  module.def(
      "play_random",
      [](const ForwardModel& fm, GameState& state, rules::Pcg64& chooser, std::int64_t max_steps, bool quiet) {
        // A soak: uniformly random legal decisions (their own stream) until the game ends; quiet,
        // a search's rollout: the same game, no event built (and none counted).
        // With the core's planner nothing calls Python, so the GIL is let go meanwhile.
        game::check_same_game(fm, state, "play_random");
        const auto play = [&] {
          game::EventLog log = quiet ? game::EventLog::discarding() : game::EventLog();
          const game::RandomPlay played = game::play_random(fm, state, chooser, max_steps, log);
          return std::make_pair(played.steps, played.events);
        };
        if (!native_planner(fm)) return play();
        nb::gil_scoped_release release;
        return play();
      },
      nb::arg("model"), nb::arg("state"), nb::arg("chooser"), nb::arg("max_steps"), nb::arg("quiet") = false,
      "Play random legal decisions natively: (steps, events); quiet: no event built (events 0).");
  module.def(
      "play_seats",
      [](const ForwardModel& fm, GameState& state, nb::object blue_oracle, rules::Pcg64& blue_rng,
         nb::object red_oracle, rules::Pcg64& red_rng, std::int64_t max_decisions, bool timed) {
        // A whole game (riven_env/game/runner.py play) with each side decided in the core: the
        // Oracle (an OracleGame) or the random agent (None), each on its own stream, which
        // moves on in place. The core's planner calls no Python: the GIL is let go meanwhile.
        game::check_same_game(fm, state, "play_seats");
        std::array<oracle::Seat, game::kSides> seats = seats_of("play_seats", blue_oracle, blue_rng, red_oracle, red_rng);
        game::EventLog log;
        oracle::Played played;
        {
          nb::gil_scoped_release release;
          played = oracle::play(fm, state, seats, log, max_decisions, timed);
        }
        nb::list costs;
        for (const oracle::Seat& seat : seats) costs.append(nb::make_tuple(seat.decisions, seat.seconds, seat.cpu_seconds));
        return nb::make_tuple(events_to_python(log.drain()), played.decisions, played.stopped, costs);
      },
      nb::arg("model"), nb::arg("state"), nb::arg("blue_oracle").none(), nb::arg("blue_rng"),
      nb::arg("red_oracle").none(), nb::arg("red_rng"), nb::arg("max_decisions"), nb::arg("timed"),
      "Play the game in the core, each side the Oracle (an OracleGame) or random (None): (events, decisions, "
      "stopped, [(decisions, seconds, cpu_seconds)] per side); `stopped` names a point left to Python.");
  module.def(
      "rollout_seats",
      [](const ForwardModel& fm, GameState& state, nb::object blue_oracle, rules::Pcg64& blue_rng,
         nb::object red_oracle, rules::Pcg64& red_rng, std::int64_t max_decisions) {
        // A search's rollout (riven::oracle::rollout): play_seats in quiet mode, no events, no
        // explanations, the GIL let go; the streams move on in place.
        game::check_same_game(fm, state, "rollout_seats");
        std::array<oracle::Seat, game::kSides> seats = seats_of("rollout_seats", blue_oracle, blue_rng, red_oracle, red_rng);
        oracle::Played played;
        {
          nb::gil_scoped_release release;
          played = oracle::rollout(fm, state, seats, max_decisions);
        }
        return nb::make_tuple(played.decisions, played.stopped);
      },
      nb::arg("model"), nb::arg("state"), nb::arg("blue_oracle").none(), nb::arg("blue_rng"),
      nb::arg("red_oracle").none(), nb::arg("red_rng"), nb::arg("max_decisions"),
      "A search rollout in the core (no events, no explanations; a single legal decision taken without asking "
      "the seat): (decisions, stopped); `stopped` names a point left to Python.");
  module.def(
      "oracle_decide_loop",
      [](const ForwardModel& fm, const GameState& state, const oracle::OracleGame& o,
         const std::vector<Decision>& legal, rules::Pcg64& rng) {
        // OracleAgent.act on the loop's own state: the core's routing, the core's words.
        game::check_same_game(fm, state, "oracle_decide_loop");
        const oracle::Routing routing = oracle::loop_routing(fm, state);
        const oracle::Choice c = oracle::decide(o, state, *fm.table, *fm.rules, legal, rng, routing);
        if (c.branch == oracle::Branch::Unsupported) {
          return nb::make_tuple(static_cast<int>(c.branch), -1, c.decision, nb::none(), "", "", "", "", c.reason);
        }
        const oracle::Explained why = oracle::explain(o, fm, state, legal, c);
        return nb::make_tuple(static_cast<int>(c.branch), why.index, why.decision,
                              why.model ? nb::cast(*why.model) : nb::none(), why.profile, why.rule, why.label,
                              why.text, c.reason);
      },
      nb::arg("model"), nb::arg("state"), nb::arg("oracle"), nb::arg("legal"), nb::arg("rng"),
      "The Oracle's choice on the loop's state: (branch, index, decision, model, profile, rule, label, "
      "explanation, reason).");
}

}  // namespace riven::bindings
