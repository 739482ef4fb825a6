#include "riven/oracle/play.hpp"

#include <cctype>
#include <chrono>
#include <ctime>
#include <stdexcept>
#include <utility>

#include "riven/game/loop.hpp"
#include "riven/game/native_planner.hpp"
#include "riven/game/queries.hpp"
#include "riven/table/routing.hpp"

namespace riven::oracle {

namespace {

using game::Decision;
using game::GameState;

std::vector<std::int64_t> wide(const std::vector<int>& models) {
  return {models.begin(), models.end()};
}

const std::string& at(const std::vector<std::string>& texts, int k, const char* what) {
  if (k < 0 || static_cast<std::size_t>(k) >= texts.size()) {
    throw std::invalid_argument(std::string("oracle explain: no words for ") + what + " " + std::to_string(k));
  }
  return texts[static_cast<std::size_t>(k)];
}

}  // namespace

Routing loop_routing(const game::ForwardModel& fm, const GameState& state) {
  const auto* planner = dynamic_cast<const game::NativePlanner*>(fm.planner.get());
  if (planner == nullptr) {
    throw std::invalid_argument("the Oracle in the core needs the core's planner (planner='native')");
  }
  Routing routing;
  routing.charge_targets = [&fm, &state](std::size_t i, double reach, const std::vector<std::int64_t>& near) {
    const game::BasesArrays bases = game::bases_of(state);
    return fm.planner->charge_targets(bases.view(), i, reach, near);
  };
  const double enemy_gap = planner->enemy_gap();
  routing.destinations = [&fm, &state, enemy_gap](std::size_t i, double allowance) {
    // actions.destinations_for: every objective is passed (a ref is the objective's index),
    // the looted ones dropped afterwards.
    const game::BasesArrays bases = game::bases_of(state);
    std::vector<table::Point> objectives;
    for (const game::Objective& o : state.info().objectives) objectives.push_back({o.x, o.y});
    const std::vector<std::int64_t> enemies = wide(game::enemies_of(state, i));
    const std::vector<std::int64_t> friends = wide(game::friends_of(state, i));
    const std::vector<std::string>& kinds = state.info().destination_kinds;
    std::vector<DestinationPoint> out;
    for (const table::Destination& d :
         table::candidate_destinations(*fm.table, bases.view(), i, allowance, enemies, friends, objectives, enemy_gap)) {
      if (d.kind == table::DestinationKind::kTowardObjective && d.ref >= 0 &&
          state.is_looted(static_cast<std::size_t>(d.ref))) {
        continue;
      }
      const int kind = game::find_name(kinds, std::string(game::destination_kind_name(d.kind)));
      if (kind < 0) throw std::invalid_argument("oracle routing: a destination kind the game does not name");
      out.push_back({kind, d.ref, d.point.x, d.point.y});
    }
    return out;
  };
  return routing;
}

Decision chosen_decision(std::span<const Decision> legal, const Choice& c) {
  if (c.index >= 0) return legal[static_cast<std::size_t>(c.index)];
  if (c.branch == Branch::PassAllActivated || c.branch == Branch::Hold) return Decision{};  // PASS
  return c.decision;  // END after a roll, a spend or accept the core built
}

Explained explain(const OracleGame& oracle, const game::ForwardModel& fm, const GameState& state,
                  std::span<const Decision> legal, const Choice& c) {
  if (c.branch == Branch::Unsupported) throw std::invalid_argument("oracle explain: an unsupported choice");
  if (c.profile < 0 || static_cast<std::size_t>(c.profile) >= oracle.words.size()) {
    throw std::invalid_argument("oracle explain: the OracleGame carries no words for profile " +
                                std::to_string(c.profile));
  }
  const ProfileWords& w = oracle.words[static_cast<std::size_t>(c.profile)];
  const game::GameStatic& info = state.info();
  Explained out;
  out.index = c.index;
  out.decision = chosen_decision(legal, c);
  out.profile = w.name;
  std::string model;
  if (c.model >= 0) {
    model = info.model_ids.at(static_cast<std::size_t>(c.model));
    out.model = model;
  }
  const std::string chosen =
      c.target >= 0 ? " Target: " + info.model_ids.at(static_cast<std::size_t>(c.target)) + "." : std::string();
  switch (c.branch) {
    case Branch::PassAllActivated:
      out.rule = "pass:all_activated";
      out.text = "Every model has activated: the side passes.";
      break;
    case Branch::Hold: {
      // sorted({d.model for d in legal if d.kind == "activate"})
      std::vector<bool> eligible(info.model_count(), false);
      for (const Decision& d : legal) {
        if (d.kind == game::kActivate && d.model >= 0) eligible[static_cast<std::size_t>(d.model)] = true;
      }
      std::string held;
      for (std::size_t i = 0; i < eligible.size(); ++i) {
        if (!eligible[i]) continue;
        if (!held.empty()) held += ", ";
        held += info.model_ids[i];
      }
      out.rule = "hold";
      out.text = "Every model left to activate holds its ground (" + held + "): the side passes.";
      break;
    }
    case Branch::Bonus:
    case Branch::Dice: {
      const int side = state.current_side();
      const int order_profile = side >= 0 ? oracle.side_profile[static_cast<std::size_t>(side)] : -1;
      if (order_profile < 0 || static_cast<std::size_t>(order_profile) >= oracle.words.size()) {
        throw std::invalid_argument("oracle explain: no words for the side's profile");
      }
      const std::string head = "Activates " + model + ", first by the activation order (" +
                               oracle.words[static_cast<std::size_t>(order_profile)].order + "). ";
      if (c.branch == Branch::Bonus) {
        out.rule = "bonus";
        out.text = head + w.bonus;
      } else {
        const int mettle = game::profile_of(state, static_cast<std::size_t>(c.model)).mettle;
        if (mettle < oracle.mettle_low || c.dice < 0 || c.dice > oracle.max_dice) {
          throw std::invalid_argument("oracle explain: no dice odds words for Mettle " + std::to_string(mettle) +
                                      " and " + std::to_string(c.dice) + " dice");
        }
        const std::string& why =
            at(oracle.dice_words, (mettle - oracle.mettle_low) * (oracle.max_dice + 1) + c.dice, "dice odds");
        out.rule = "dice:" + std::to_string(c.rule + 1);
        out.text = head + "Dice rule " + std::to_string(c.rule + 1) + ": " + at(w.dice, c.rule, "dice rule") +
                   " -> " + std::to_string(c.dice) + " (" + why + ").";
      }
      break;
    }
    case Branch::Priority:
      out.rule = at(w.priority_ids, c.rule, "priority rule");
      out.text = model + ", rule " + std::to_string(c.rule + 1) + " (" + out.rule +
                 "): " + at(w.priorities, c.rule, "priority rule") + chosen;
      break;
    case Branch::Fallback:
    case Branch::FallbackEnd: {
      const std::string faces = std::to_string(w.fallback.size());
      const std::string roll = std::to_string(c.roll);
      const std::string& what = at(w.fallback, c.roll - 1, "fallback face");
      if (c.branch == Branch::Fallback) {
        out.rule = "d6:" + roll;
        out.text = model + ": no priority applies; the d" + faces + " rolled " + roll + ": " + what + "." + chosen;
      } else {
        out.rule = "end:no_action";
        out.text = model + ": no priority applies; the d" + faces + " rolled " + roll + " (" + what +
                   "), which it cannot do now: it ends its activation.";
      }
      break;
    }
    case Branch::Spend:
    case Branch::Accept: {
      if (!state.pending) throw std::invalid_argument("oracle explain: a spend without a pending roll");
      const game::TestRoll& roll = state.pending->roll;
      std::string result(game::kBandNames[static_cast<std::size_t>(roll.result)]);
      for (std::size_t k = 0; k < result.size(); ++k) {
        const auto ch = static_cast<unsigned char>(result[k]);
        result[k] = static_cast<char>(k == 0 ? std::toupper(ch) : std::tolower(ch));
      }
      const std::string head = model + "'s " + std::string(roll.kind.view()) + " test came up " + result + ": ";
      if (c.branch == Branch::Spend) {
        out.rule = at(w.spend_ids, c.rule, "spend rule");
        out.text = head + at(w.spends, c.rule, "spend rule");
      } else {
        out.rule = "spend:accept";
        out.text = head + "no spend rule applies; it stands.";
      }
      break;
    }
    case Branch::System:
      out.rule = c.system_rule;
      out.text = c.system_text;
      break;
    case Branch::Unsupported:
      break;
  }
  out.label = game::decision_label(fm, state, out.decision);
  return out;
}

Played play(const game::ForwardModel& fm, GameState& state, std::array<Seat, game::kSides>& seats,
            game::EventLog& log, std::int64_t max_decisions, bool timed) {
  for (const Seat& seat : seats) {
    if (seat.rng == nullptr) throw std::invalid_argument("oracle play: every seat needs its stream");
    if (seat.oracle != nullptr) seat.oracle->validate(state.info());
  }
  const Routing routing = loop_routing(fm, state);
  Played out;
  Recycled<Decision> legal;  // each decision's menu, in one reused buffer
  while (!state.over && (max_decisions < 0 || out.decisions < max_decisions)) {
    const int side = state.current_side();
    if (side < 0) throw std::logic_error("oracle play: no side decides in a running game");
    Seat& seat = seats[static_cast<std::size_t>(side)];
    game::legal_decisions_into(fm, state, legal);
    const auto wall = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    const std::clock_t cpu = timed ? std::clock() : std::clock_t{};
    Decision decision;
    std::optional<Explained> why;
    if (seat.oracle == nullptr) {
      decision = legal[static_cast<std::size_t>(seat.rng->integers(0, static_cast<std::int64_t>(legal.size())))];
    } else {
      // decide() rolls only the fallback table, on the agent's stream (a copy: a point left
      // to Python must find the stream as it was).
      rules::Pcg64 rng = *seat.rng;
      const Choice choice = decide(*seat.oracle, state, *fm.table, *fm.rules, legal, rng, routing);
      if (choice.branch == Branch::Unsupported) {
        out.stopped = choice.reason;
        return out;
      }
      *seat.rng = rng;
      why = explain(*seat.oracle, fm, state, legal, choice);
      decision = why->decision;
    }
    if (timed) {
      seat.decisions += 1;
      seat.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
      seat.cpu_seconds += static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC;
    }
    if (why) {
      game::JsonValue& event = log.emit(state, "oracle_decision");
      event.set("model", why->model ? game::JsonValue::string(*why->model) : game::JsonValue::null());
      event.set("profile", game::JsonValue::string(why->profile));
      event.set("rule", game::JsonValue::string(why->rule));
      event.set("decision", game::JsonValue::string(why->label));
      event.set("explanation", game::JsonValue::string(why->text));
    }
    game::apply(fm, state, decision, log, legal);
    out.decisions += 1;
  }
  return out;
}

Played rollout(const game::ForwardModel& fm, GameState& state, std::array<Seat, game::kSides>& seats,
               std::int64_t max_decisions) {
  for (const Seat& seat : seats) {
    if (seat.rng == nullptr) throw std::invalid_argument("oracle rollout: every seat needs its stream");
    if (seat.oracle != nullptr) seat.oracle->validate(state.info());
  }
  const Routing routing = loop_routing(fm, state);
  game::EventLog log = game::EventLog::discarding();  // a rollout's events are never read
  Played out;
  Recycled<Decision> legal;  // each decision's menu, in one reused buffer
  while (!state.over && out.decisions < max_decisions) {
    const int side = state.current_side();
    if (side < 0) throw std::logic_error("oracle rollout: no side decides in a running game");
    Seat& seat = seats[static_cast<std::size_t>(side)];
    game::legal_decisions_into(fm, state, legal);
    Decision decision;
    if (legal.size() == 1) {
      decision = legal.front();
    } else if (seat.oracle == nullptr) {
      decision = legal[static_cast<std::size_t>(seat.rng->integers(0, static_cast<std::int64_t>(legal.size())))];
    } else {
      rules::Pcg64 rng = *seat.rng;  // a point left to Python must find the stream as it was
      const Choice choice = decide(*seat.oracle, state, *fm.table, *fm.rules, legal, rng, routing);
      if (choice.branch == Branch::Unsupported) {
        out.stopped = choice.reason;
        return out;
      }
      *seat.rng = rng;
      decision = chosen_decision(legal, choice);
    }
    game::apply(fm, state, decision, log, legal);
    log.drain();
    out.decisions += 1;
  }
  return out;
}

}  // namespace riven::oracle
