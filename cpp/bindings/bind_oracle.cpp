// Binds riven::oracle: the profile structs agents/oracle/native.py fills field by field from the
// validated Python profiles, and decide(). Conversion only; the procedure lives in cpp/riven/oracle.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "riven/game/queries.hpp"
#include "riven/oracle/oracle.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using oracle::Check;
using oracle::Choice;
using oracle::DestinationPoint;
using oracle::DiceRule;
using oracle::OracleGame;
using oracle::Order;
using oracle::Profile;
using oracle::Rule;
using oracle::SpendRule;

// (branch, index, decision, model, profile, rule, roll, target, dice, reason)
using ChoiceTuple = std::tuple<int, int, game::Decision, int, int, int, int, int, int, std::string>;

ChoiceTuple choice_tuple(const Choice& c) {
  return {static_cast<int>(c.branch), c.index, c.decision, c.model, c.profile, c.rule, c.roll, c.target, c.dice,
          c.reason};
}

oracle::TargetSide side_from_name(const std::string& name) {
  if (name.empty()) return oracle::TargetSide::None;
  if (name == "enemy") return oracle::TargetSide::Enemy;
  if (name == "friend") return oracle::TargetSide::Friend;
  throw std::invalid_argument("unknown target side " + name + "; allowed: '', enemy, friend");
}

oracle::SpendOption spend_option_from_name(const std::string& name) {
  if (name == "reroll") return oracle::SpendOption::Reroll;
  if (name == "boost") return oracle::SpendOption::Boost;
  if (name == "strain") return oracle::SpendOption::Strain;
  throw std::invalid_argument("unknown spend option " + name + "; allowed: reroll, boost, strain");
}

}  // namespace

void bind_oracle(nb::module_& module) {
  nb::class_<Check>(module, "OracleCheck", "One condition of a profile ready to test.")
      .def(
          "__init__",
          [](Check* self, const std::string& predicate, double number, int id, bool negated) {
            new (self) Check{oracle::predicate_from_name(predicate), number, id, negated};
          },
          nb::arg("predicate"), nb::arg("number") = 0.0, nb::arg("id") = -1, nb::arg("negated") = false);
  nb::class_<Order>(module, "OracleOrder", "An action with its destination and target selector.")
      .def(
          "__init__",
          [](Order* self, int kind, bool end, int destination, bool toward_objective, const std::string& side,
             const std::string& selector) {
            new (self) Order{kind, end, destination, toward_objective, side_from_name(side),
                             selector.empty() ? oracle::Selector::Nearest : oracle::selector_from_name(selector)};
          },
          nb::arg("kind"), nb::arg("end"), nb::arg("destination"), nb::arg("toward_objective"), nb::arg("side"),
          nb::arg("selector"));
  nb::class_<Rule>(module, "OracleRule", "A priority rule: checks and order.")
      .def(nb::init<>())
      .def_rw("checks", &Rule::checks)
      .def_rw("order", &Rule::order);
  nb::class_<DiceRule>(module, "OracleDiceRule", "A dice rule: checks and a fixed number or a policy table.")
      .def(nb::init<>())
      .def_rw("checks", &DiceRule::checks)
      .def_rw("dice", &DiceRule::dice)
      .def_rw("choices", &DiceRule::choices);
  nb::class_<SpendRule>(module, "OracleSpendRule", "A spend rule.")
      .def(nb::init<>())
      .def_prop_rw(
          "option",
          [](const SpendRule& self) {
            static const char* const kNames[] = {"reroll", "boost", "strain"};
            return std::string(kNames[static_cast<int>(self.option)]);
          },
          [](SpendRule& self, const std::string& name) { self.option = spend_option_from_name(name); })
      .def_rw("on", &SpendRule::on)
      .def_rw("any_test", &SpendRule::any_test)
      .def_rw("tests", &SpendRule::tests)
      .def_rw("min_momentum", &SpendRule::min_momentum)
      .def_rw("strain_headroom", &SpendRule::strain_headroom)
      .def_rw("allow_overflow", &SpendRule::allow_overflow);
  nb::class_<Profile>(module, "OracleProfile", "A behaviour profile, ids resolved for one game.")
      .def(nb::init<>())
      .def_prop_rw(
          "activation_order",
          [](const Profile& self) {
            std::vector<std::string> names;
            for (const auto key : self.activation_order) {
              names.emplace_back(oracle::kOrderKeyNames[static_cast<std::size_t>(key)]);
            }
            return names;
          },
          [](Profile& self, const std::vector<std::string>& names) {
            self.activation_order.clear();
            for (const auto& name : names) self.activation_order.push_back(oracle::order_key_from_name(name));
          })
      .def_rw("hold_when", &Profile::hold_when)
      .def_rw("has_bonus", &Profile::has_bonus)
      .def_rw("bonus_min_momentum", &Profile::bonus_min_momentum)
      .def_rw("bonus_when", &Profile::bonus_when)
      .def_rw("dice", &Profile::dice)
      .def_rw("priorities", &Profile::priorities)
      .def_rw("fallback", &Profile::fallback)
      .def_rw("spend", &Profile::spend);
  nb::class_<oracle::ProfileWords>(module, "OracleProfileWords", "A profile's card lines, for the core's explanations.")
      .def(nb::init<>())
      .def_rw("name", &oracle::ProfileWords::name)
      .def_rw("order", &oracle::ProfileWords::order)
      .def_rw("bonus", &oracle::ProfileWords::bonus)
      .def_rw("dice", &oracle::ProfileWords::dice)
      .def_rw("priority_ids", &oracle::ProfileWords::priority_ids)
      .def_rw("priorities", &oracle::ProfileWords::priorities)
      .def_rw("fallback", &oracle::ProfileWords::fallback)
      .def_rw("spend_ids", &oracle::ProfileWords::spend_ids)
      .def_rw("spends", &oracle::ProfileWords::spends);
  nb::class_<OracleGame>(module, "OracleGame", "The Oracle's profiles and per-model facts for one game.")
      .def(nb::init<>())
      .def_rw("profiles", &OracleGame::profiles)
      .def_rw("model_profile", &OracleGame::model_profile)
      .def_rw("side_profile", &OracleGame::side_profile)
      .def_rw("ranged", &OracleGame::ranged)
      .def_rw("leader", &OracleGame::leader)
      .def_rw("strain_max", &OracleGame::strain_max)
      .def_rw("rally_removes", &OracleGame::rally_removes)
      .def_rw("mettle_low", &OracleGame::mettle_low)
      .def_rw("mettle_count", &OracleGame::mettle_count)
      .def_rw("max_dice", &OracleGame::max_dice)
      .def_rw("contact_tolerance", &OracleGame::contact_tolerance)
      .def_rw("charge_reach_factor", &OracleGame::charge_reach_factor)
      .def_rw("disengage_move_factor", &OracleGame::disengage_move_factor)
      .def_rw("stabilise_range", &OracleGame::stabilise_range)
      .def_rw("rally_range", &OracleGame::rally_range)
      .def_rw("spend_cost", &OracleGame::spend_cost)
      .def_rw("kind_charge", &OracleGame::kind_charge)
      .def_rw("kind_shoot", &OracleGame::kind_shoot)
      .def_rw("kind_stabilise", &OracleGame::kind_stabilise)
      .def_rw("kind_rally", &OracleGame::kind_rally)
      .def_rw("kind_interact", &OracleGame::kind_interact)
      .def_rw("kind_end", &OracleGame::kind_end)
      .def_rw("kind_disengage", &OracleGame::kind_disengage)
      .def_rw("words", &OracleGame::words)
      .def_rw("dice_words", &OracleGame::dice_words)
      .def("validate", &OracleGame::validate, nb::arg("statics"));

  module.def(
      "oracle_decide",
      [](const OracleGame& o, const game::GameState& state, const table::TableGeometry& table,
         const rules::RulesConfig& rules, const std::vector<game::Decision>& legal, rules::Pcg64& rng,
         nb::object charge_targets, nb::object destinations) {
        oracle::Routing routing;
        if (!charge_targets.is_none()) {
          routing.charge_targets = [charge_targets](std::size_t i, double reach, const std::vector<std::int64_t>& near) {
            return nb::cast<std::vector<std::int64_t>>(charge_targets(i, reach, near));
          };
        }
        if (!destinations.is_none()) {
          routing.destinations = [destinations](std::size_t i, double allowance) {
            std::vector<DestinationPoint> out;
            for (const auto& [kind, ref, x, y] :
                 nb::cast<std::vector<std::tuple<int, std::int64_t, double, double>>>(destinations(i, allowance))) {
              out.push_back({kind, ref, x, y});
            }
            return out;
          };
        }
        return choice_tuple(oracle::decide(o, state, table, rules, legal, rng, routing));
      },
      nb::arg("oracle"), nb::arg("state"), nb::arg("table"), nb::arg("rules"), nb::arg("legal"), nb::arg("rng"),
      nb::arg("charge_targets").none(), nb::arg("destinations").none(),
      "OracleAgent.act on the native state: (branch, index, decision, model, profile, rule, roll, target, dice, "
      "reason).");
  module.def(
      "oracle_decide_many",
      [](const OracleGame& o, const std::vector<const game::GameState*>& states, const table::TableGeometry& table,
         const rules::RulesConfig& rules, const std::vector<std::vector<game::Decision>>& legal,
         const std::vector<rules::Pcg64*>& rngs) {
        if (states.size() != legal.size() || states.size() != rngs.size()) {
          throw std::invalid_argument("oracle_decide_many: states, legal and rngs must have the same length");
        }
        std::vector<ChoiceTuple> out;
        out.reserve(states.size());
        const oracle::Routing routing;  // none: a point that needs routing raises
        for (std::size_t k = 0; k < states.size(); ++k) {
          out.push_back(choice_tuple(oracle::decide(o, *states[k], table, rules, legal[k], *rngs[k], routing)));
        }
        return out;
      },
      nb::arg("oracle"), nb::arg("states"), nb::arg("table"), nb::arg("rules"), nb::arg("legal"), nb::arg("rngs"),
      "decide() on many states in one call (benchmarks; no routing callbacks).");
  module.attr("ORACLE_BRANCHES") = nb::make_tuple("pass_all_activated", "hold", "bonus", "dice", "priority",
                                                  "fallback", "fallback_end", "spend", "accept", "unsupported");
}

}  // namespace riven::bindings
