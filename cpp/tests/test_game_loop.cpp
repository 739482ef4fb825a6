// The native game loop under a soak of random legal decisions, and of Oracle-decided games
// (riven::oracle::play: the Enemy Oracle on each side, or the Oracle against random) (run
// under ASan + UBSan by tests/test_native_sanitizers.py): a 3-against-3 game on a table with a wall, woods and a marsh,
// every action of the bundled rules, a loot and a hold objective, eliminate/hold/casualties
// victory. The loop's equality with the Python engine is tests/test_native_loop.py's; here every
// game must reach its end with a non-empty menu at every decision point, keep a valid state,
// number its events without a gap, and replay byte for byte from a copy. The same soak runs
// under Invictus (invictus_soak: pending pools raised in the spend phase, the aftermath, the
// Oracle's Invictus choices), under New World (new_world_soak: helpers and Luck, the defender's
// Luck, the shared risk) and under The Riddle of Steel (riddle_of_steel_soak: d10 tests and
// shots, the Combat Round's choice phase, Pain, the Oracle's RoS rules); their equality with the
// Python engine is tests/test_native_invictus_loop.py's, tests/test_native_new_world_loop.py's
// and tests/test_native_riddle_of_steel_loop.py's.
//
// Routes come from the core's own planner (riven::game::NativePlanner on cpp/riven/table/routing),
// as in a native game: the table's static visibility graph for the bases' radius (the four
// waypoints around the wall, Floyd-Warshall below) and its cover spots are set up here, as the
// Python engine would hand them over (NativeTable.ensure_nav).
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <limits>
#include <iostream>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check.hpp"
#include "riven/agents/evaluation.hpp"
#include "riven/agents/signature.hpp"
#include "riven/game/events.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/game/loop.hpp"
#include "riven/game/native_planner.hpp"
#include "riven/game/queries.hpp"
#include "riven/game/state.hpp"
#include "riven/oracle/oracle.hpp"
#include "riven/oracle/play.hpp"
#include "riven/table/table.hpp"
#include "rules_fixture.hpp"
#include "skirmish_fixture.hpp"

namespace {

using riven::game::Decision;
using riven::game::Destination;
using riven::game::ForwardModel;
using riven::game::GameState;
using riven::game::GameStatic;
using riven::game::MovePlan;
using riven::table::BasesView;
using riven::table::Point;
using riven::table::Shape;
using riven::table::TableGeometry;

using namespace skirmish_fixture;

/// Play to the end with random choices from `chooser`; the JSON lines of the events.
std::string play(const ForwardModel& fm, GameState& state, riven::rules::Pcg64& chooser, riven::game::EventLog& log,
                 int& steps) {
  std::string lines;
  std::int64_t seq = state.seq;
  while (!state.over && steps < 5000) {
    const std::vector<Decision> legal = riven::game::legal_decisions(fm, state);
    RIVEN_CHECK(!legal.empty());
    if (legal.empty()) break;
    const auto pick = static_cast<std::size_t>(chooser.integers(0, static_cast<std::int64_t>(legal.size())));
    riven::game::apply(fm, state, legal[pick], log);
    state.validate();
    for (const auto& event : log.drain()) {
      const std::string line = riven::game::dumps_event(event);
      RIVEN_CHECK(line.find("\"seq\":" + std::to_string(seq) + ",") != std::string::npos);
      ++seq;
      lines += line;
      lines += '\n';
    }
    ++steps;
  }
  RIVEN_CHECK(state.over);
  RIVEN_CHECK(riven::game::legal_decisions(fm, state).empty());
  return lines;
}

// -- the Oracle soak ---------------------------------------------------------------------------
// Two hand-made profiles over the fixture's vocabulary (the bundled ones are loaded in Python;
// their equality with the Python Oracle is tests/test_native_oracle_loop.py's): charges,
// shots by selector, melee, rally, objectives, a bonus, a fallback table with an impossible
// face, and spends of each option, so that every branch of decide() and explain() runs.
riven::oracle::Check check(riven::oracle::Predicate p, double number = 0.0, bool negated = false) {
  return riven::oracle::Check{p, number, -1, negated};
}

riven::oracle::Order order(const ForwardModel& fm, riven::game::ActionKind kind, int destination = -1,
                           riven::oracle::TargetSide side = riven::oracle::TargetSide::None,
                           riven::oracle::Selector selector = riven::oracle::Selector::Nearest) {
  riven::oracle::Order o;
  o.kind = riven::game::kFirstActionKind + fm.id(kind);
  o.end = kind == riven::game::ActionKind::End;
  o.destination = destination;
  o.toward_objective = destination == 1;
  o.side = side;
  o.selector = selector;
  return o;
}

riven::oracle::OracleGame oracle_game(const ForwardModel& fm, const GameStatic& st) {
  using riven::game::ActionKind;
  using riven::oracle::Predicate;
  using riven::oracle::Selector;
  using riven::oracle::TargetSide;
  riven::oracle::OracleGame o;
  auto words = [](std::string name, const riven::oracle::Profile& p) {
    riven::oracle::ProfileWords w;
    w.name = std::move(name);
    w.order = "keys";
    w.bonus = "bonus";
    w.dice.assign(p.dice.size(), "dice");
    for (std::size_t k = 0; k < p.priorities.size(); ++k) {
      w.priority_ids.push_back("rule-" + std::to_string(k));
      w.priorities.push_back("line " + std::to_string(k));
    }
    w.fallback.assign(p.fallback.size(), "face");
    for (std::size_t k = 0; k < p.spend.size(); ++k) {
      w.spend_ids.push_back("spend-" + std::to_string(k));
      w.spends.push_back("spends");
    }
    return w;
  };
  riven::oracle::Profile bold;
  bold.activation_order = {riven::oracle::OrderKey::Engaged, riven::oracle::OrderKey::NearestEnemy};
  bold.has_bonus = true;
  bold.bonus_min_momentum = 2;
  bold.bonus_when = {check(Predicate::EnemyInChargeReach)};
  bold.dice = {riven::oracle::DiceRule{{check(Predicate::Wounded)}, 1, {}},
               riven::oracle::DiceRule{{check(Predicate::Always)}, 3, {}}};
  bold.priorities = {
      riven::oracle::Rule{{check(Predicate::Engaged)}, order(fm, ActionKind::Melee, -1, TargetSide::Enemy, Selector::Weakest)},
      riven::oracle::Rule{{check(Predicate::EnemyInChargeReach)},
                          order(fm, ActionKind::Charge, -1, TargetSide::Enemy, Selector::Nearest)},
      riven::oracle::Rule{{check(Predicate::FriendNeedsRally)}, order(fm, ActionKind::Rally, -1, TargetSide::Friend)},
      riven::oracle::Rule{{check(Predicate::EnemyInShot)},
                          order(fm, ActionKind::Shoot, -1, TargetSide::Enemy, Selector::OutOfCover)},
      riven::oracle::Rule{{check(Predicate::ObjectiveWithinMove)}, order(fm, ActionKind::Move, 1)},
  };
  bold.fallback = {order(fm, ActionKind::Move, 0), order(fm, ActionKind::Aim), order(fm, ActionKind::Focus),
                   order(fm, ActionKind::Stabilise, -1, TargetSide::Friend), order(fm, ActionKind::Move, 2),
                   order(fm, ActionKind::End)};
  riven::oracle::SpendRule reroll;
  reroll.option = riven::oracle::SpendOption::Reroll;
  reroll.on = 1U << 0U;  // miss
  reroll.any_test = true;
  reroll.min_momentum = 1;
  riven::oracle::SpendRule strain;
  strain.option = riven::oracle::SpendOption::Strain;
  strain.on = 1U << 1U;  // partial
  strain.any_test = true;
  strain.strain_headroom = 1;
  riven::oracle::SpendRule boost;
  boost.option = riven::oracle::SpendOption::Boost;
  boost.on = 1U << 1U;
  boost.tests = {"shoot", "melee"};
  bold.spend = {reroll, strain, boost};
  riven::oracle::Profile wary;
  wary.activation_order = {riven::oracle::OrderKey::WoundedLast, riven::oracle::OrderKey::RangedFirst};
  wary.hold_when = {check(Predicate::BadlyWounded), check(Predicate::EnemiesCloserThan, 3.0, true)};
  wary.dice = {riven::oracle::DiceRule{{check(Predicate::Always)}, 2, {}}};
  wary.priorities = {
      riven::oracle::Rule{{check(Predicate::Engaged), check(Predicate::Outnumbered)}, order(fm, ActionKind::Disengage, 3)},
      riven::oracle::Rule{{check(Predicate::EnemyInShotWithoutCover)},
                          order(fm, ActionKind::Shoot, -1, TargetSide::Enemy, Selector::Easiest)},
      riven::oracle::Rule{{check(Predicate::CanInteract)}, order(fm, ActionKind::Interact)},
      riven::oracle::Rule{{check(Predicate::InCover, 0.0, true)}, order(fm, ActionKind::Move, 2)},
  };
  wary.fallback = {order(fm, ActionKind::TakeCover), order(fm, ActionKind::Rest), order(fm, ActionKind::End)};
  wary.spend = {strain};
  o.profiles = {bold, wary};
  o.words = {words("bold", bold), words("wary", wary)};
  o.model_profile = {0, 1, 0, 1, 0, 1};
  o.side_profile = {0, 1};
  for (std::size_t i = 0; i < st.model_count(); ++i) {
    o.ranged.push_back(fm.ranged[static_cast<std::size_t>(st.model_profile[i])]);
    o.leader.push_back(i % 3 == 0 ? 1 : 0);
    o.strain_max.push_back(4);
  }
  for (const std::string& name : st.conditions) o.rally_removes.push_back(name == "shaken" ? 1 : 0);
  o.max_dice = fm.rules->activation.max_dice;
  o.mettle_low = 3;
  o.mettle_count = 2;
  o.dice_words.assign(static_cast<std::size_t>(o.mettle_count * (o.max_dice + 1)), "odds");
  o.kind_charge = riven::game::kFirstActionKind + fm.id(ActionKind::Charge);
  o.kind_shoot = riven::game::kFirstActionKind + fm.id(ActionKind::Shoot);
  o.kind_stabilise = riven::game::kFirstActionKind + fm.id(ActionKind::Stabilise);
  o.kind_rally = riven::game::kFirstActionKind + fm.id(ActionKind::Rally);
  o.kind_interact = riven::game::kFirstActionKind + fm.id(ActionKind::Interact);
  o.kind_end = riven::game::kFirstActionKind + fm.id(ActionKind::End);
  o.kind_disengage = riven::game::kFirstActionKind + fm.id(ActionKind::Disengage);
  o.validate(st);
  return o;
}

/// One Oracle-decided game (`random_red`: red plays random); its event lines.
std::string oracle_game_lines(const ForwardModel& fm, GameState& state, const riven::oracle::OracleGame& o,
                              std::uint64_t seed, bool random_red, std::int64_t& decisions) {
  riven::rules::Pcg64 blue(riven::rules::Pcg64State{seed * 31 + 1, 2 * seed + 3, false, 0});
  riven::rules::Pcg64 red(riven::rules::Pcg64State{seed * 37 + 5, 2 * seed + 7, false, 0});
  std::array<riven::oracle::Seat, riven::game::kSides> seats;
  seats[0].oracle = &o;
  seats[0].rng = &blue;
  seats[1].oracle = random_red ? nullptr : &o;
  seats[1].rng = &red;
  riven::game::EventLog log;
  const riven::oracle::Played played = riven::oracle::play(fm, state, seats, log, -1, true);
  RIVEN_CHECK(played.stopped.empty());
  RIVEN_CHECK(state.over);
  state.validate();
  decisions += played.decisions;
  RIVEN_CHECK(seats[0].decisions + seats[1].decisions == played.decisions);
  std::string lines;
  std::int64_t seq = -1;
  for (const auto& event : log.drain()) {
    const std::string line = riven::game::dumps_event(event);
    if (seq >= 0) RIVEN_CHECK(line.find("\"seq\":" + std::to_string(seq + 1) + ",") != std::string::npos);
    const auto at = line.find("\"seq\":");
    seq = std::stoll(line.substr(at + 6));
    lines += line;
    lines += '\n';
  }
  return lines;
}

void oracle_soak(const ForwardModel& fm, const std::shared_ptr<const GameStatic>& st) {
  const riven::oracle::OracleGame o = oracle_game(fm, *st);
  const std::vector<std::string> wanted{"\"rule\":\"rule-", "\"rule\":\"d6:", "\"rule\":\"dice:",
                                        "\"rule\":\"spend",
                                        "\"type\":\"melee\"", "\"type\":\"shot\""};
  std::vector<bool> seen(wanted.size(), false);
  std::int64_t decisions = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const bool random_red = seed % 3 == 0;
    GameState state = opening(st, seed);
    riven::game::EventLog log;
    riven::game::start(fm, state, log);
    log.drain();
    GameState copy = state;
    const std::string first = oracle_game_lines(fm, state, o, seed, random_red, decisions);
    const std::string second = oracle_game_lines(fm, copy, o, seed, random_red, decisions);
    RIVEN_CHECK(first == second);  // a copy replays the same game byte for byte
    RIVEN_CHECK(first.find("\"type\":\"oracle_decision\"") != std::string::npos);
    for (std::size_t k = 0; k < wanted.size(); ++k) seen[k] = seen[k] || first.find(wanted[k]) != std::string::npos;
  }
  RIVEN_CHECK(decisions > 30 * 2 * 20);
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    if (!seen[k]) std::cerr << "never seen in the Oracle soak: " << wanted[k] << "\n";
    RIVEN_CHECK(seen[k]);
  }
  // A planner that is not the core's is refused (the Oracle's routing is the core's).
  ForwardModel other = fm;
  other.planner = nullptr;
  bool refused = false;
  try {
    GameState state = opening(st, 1);
    (void)riven::oracle::loop_routing(other, state);
  } catch (const std::invalid_argument&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
}

/// The search agents' pieces (riven::oracle::rollout, riven::agents weighted_total and
/// signature) on games played rollout by rollout to their end: every rollout stops within its
/// budget, a copy rolled out on copies of the streams ends in the same position, the totals are
/// finite and exactly antisymmetric between the sides, and the key of a copy is the key.
void rollout_soak(const ForwardModel& fm, const std::shared_ptr<const GameStatic>& st) {
  const riven::oracle::OracleGame o = oracle_game(fm, *st);
  riven::agents::EvaluationGame eval;
  eval.diagonal = std::hypot(st->table_width, st->table_height);
  eval.covers = {"none", "soft", "hard"};
  for (std::size_t p = 0; p < st->profiles.size(); ++p) {
    for (std::size_t c = 0; c < eval.covers.size(); ++c) eval.wound_chance.push_back(0.9 - 0.1 * static_cast<double>(c + p));
  }
  eval.validate(*st);
  riven::agents::EvaluationWeights weights;
  weights.holding = 0.13;
  weights.threat = 0.61;
  std::int64_t rollouts = 0;
  bool threatened = false;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    GameState state = opening(st, seed);
    riven::game::EventLog log;
    riven::game::start(fm, state, log);
    log.drain();
    riven::rules::Pcg64 blue(riven::rules::Pcg64State{seed * 41 + 1, 2 * seed + 3, false, 0});
    riven::rules::Pcg64 red(riven::rules::Pcg64State{seed * 43 + 5, 2 * seed + 7, false, 0});
    while (!state.over && rollouts < 100000) {
      const double total = riven::agents::weighted_total(fm, state, 0, weights, eval);
      RIVEN_CHECK(std::isfinite(total));
      RIVEN_CHECK(riven::agents::weighted_total(fm, state, 1, weights, eval) == -total);
      threatened = threatened || riven::agents::threat(fm, state, 0, eval) > 0.0;
      GameState copy = state;
      RIVEN_CHECK(riven::agents::signature(copy) == riven::agents::signature(state));
      riven::rules::Pcg64 blue_copy = blue;
      riven::rules::Pcg64 red_copy = red;
      std::array<riven::oracle::Seat, riven::game::kSides> seats;
      seats[0].oracle = &o;
      seats[0].rng = &blue;
      seats[1].oracle = seed % 2 == 0 ? nullptr : &o;  // random on red in every other game
      seats[1].rng = &red;
      const riven::oracle::Played played = riven::oracle::rollout(fm, state, seats, 8);
      RIVEN_CHECK(played.stopped.empty());
      RIVEN_CHECK(played.decisions >= 1 && played.decisions <= 8);
      RIVEN_CHECK(state.over || played.decisions == 8);
      seats[0].rng = &blue_copy;
      seats[1].rng = &red_copy;
      (void)riven::oracle::rollout(fm, copy, seats, 8);
      RIVEN_CHECK(riven::agents::signature(copy) == riven::agents::signature(state));
      RIVEN_CHECK(copy.seq == state.seq);
      state.validate();
      rollouts += 1;
    }
    RIVEN_CHECK(state.over);
  }
  RIVEN_CHECK(rollouts > 12 * 5);
  RIVEN_CHECK(threatened);
  // A table that does not fit the game is refused.
  riven::agents::EvaluationGame bad = eval;
  bad.wound_chance.pop_back();
  bool refused = false;
  try {
    bad.validate(*st);
  } catch (const std::invalid_argument&) {
    refused = true;
  }
  RIVEN_CHECK(refused);
}

/// A ported system's loop, soaked: each test, shot and melee is a pending roll that the spend
/// phase changes (`options`, the system's choices, then "accept") before it closes, with its
/// aftermath. Random and Oracle-decided games on the fixture, each model's track and Luck set up
/// by `set_up(engine, model, profile)` as setup.py does, must end, keep a valid state (no roll left
/// pending, no Combat Round left open), replay byte for byte from a copy and reach every `wanted`
/// part of the system. `system_keys` names the per-model state the system keeps (RoS's Pain).
template <class Engine, class SetUp>
void system_soak(const char* label, const riven::rules::RulesConfig& rules,
                 const std::optional<Engine> ForwardModel::*engine, std::vector<std::string> options,
                 const std::vector<std::string>& wanted, SetUp set_up, std::vector<std::string> system_keys = {}) {
  auto statics = std::make_shared<GameStatic>(*skirmish(rules));
  statics->options = std::move(options);
  statics->options.push_back("accept");
  statics->resources = {"luck"};
  statics->system_keys = std::move(system_keys);
  statics->validate();
  const std::shared_ptr<const GameStatic> st = statics;
  const ForwardModel fm = forward_model(st, &rules);
  RIVEN_CHECK((fm.*engine).has_value());
  const riven::oracle::OracleGame o = oracle_game(fm, *st);
  auto start = [&](std::uint64_t seed) {
    GameState state = opening(st, seed);
    for (std::size_t i = 0; i < state.models.size(); ++i) {
      state.models[i].resource_mask = 1;
      set_up(*(fm.*engine), state.models[i], st->profiles[static_cast<std::size_t>(st->model_profile[i])]);
    }
    riven::game::EventLog log;
    riven::game::start(fm, state, log);
    return state;
  };
  std::vector<bool> seen(wanted.size(), false);
  std::int64_t decisions = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    GameState state = start(seed);
    GameState copy = state;
    std::string lines;
    if (seed % 2 == 0) {
      riven::rules::Pcg64 chooser(riven::rules::Pcg64State{seed * 7717 + 9, 2 * seed + 1, false, 0});
      riven::rules::Pcg64 chooser_copy = chooser;
      riven::game::EventLog log;
      int steps = 0;
      lines = play(fm, state, chooser, log, steps);
      int replay_steps = 0;
      RIVEN_CHECK(play(fm, copy, chooser_copy, log, replay_steps) == lines);
    } else {
      lines = oracle_game_lines(fm, state, o, seed, seed % 3 == 0, decisions);
      RIVEN_CHECK(oracle_game_lines(fm, copy, o, seed, seed % 3 == 0, decisions) == lines);
    }
    RIVEN_CHECK(!state.pending.has_value() && !state.choice.has_value());
    for (std::size_t k = 0; k < wanted.size(); ++k) seen[k] = seen[k] || lines.find(wanted[k]) != std::string::npos;
  }
  RIVEN_CHECK(decisions > 15 * 2 * 20);
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    if (!seen[k]) std::cerr << "never seen in the " << label << " soak: " << wanted[k] << "\n";
    RIVEN_CHECK(seen[k]);
  }
}

/// The loop under Invictus (meta.resolution = "invictus"): the spend phase raises a pool
/// (`favour:I`, `luck:I`); the aftermath is Luck and the Narrator's moves.
void invictus_soak() {
  const riven::rules::RulesConfig rules = riven::testing::invictus_v01();
  std::vector<std::string> options;
  for (const std::string prefix : {"favour:", "luck:"}) {
    for (int k = 0; k < rules.invictus.max_dice; ++k) options.push_back(prefix + std::to_string(k));
  }
  system_soak("Invictus", rules, &ForwardModel::invictus, std::move(options),
              {"\"system\":\"invictus\"", "\"spends\":[\"favour:", "\"type\":\"resource\"", "\"defender_dice\":[]",
               "\"type\":\"shot\"", "\"rule\":\"invictus:"},
              [](const riven::rules::invictus::InvictusSystem& engine, riven::game::Model& model,
                 const riven::game::Profile& p) {  // setup.py: the system's track and Luck
                model.wounds = model.wounds_max = engine.starting_wounds(p.wounds);
                model.resources[0] = engine.starting_luck();
              });
}

/// The loop under New World (meta.resolution = "new-world"): helpers are called before a rally,
/// interact or disengage roll, Luck spent after any roll (a melee's defender's too); the
/// aftermath is the Luck spent and the helpers' shared risk.
void new_world_soak() {
  const riven::rules::RulesConfig rules = riven::testing::new_world_v01();
  std::vector<std::string> options;
  for (int k = 0; k <= rules.new_world.helpers_max; ++k) options.push_back("help:" + std::to_string(k));
  options.push_back("luck");
  system_soak("New World", rules, &ForwardModel::new_world, std::move(options),
              {"\"system\":\"new-world\"", "\"spends\":[\"luck\"", "\"type\":\"resource\"", "\"defender_luck_spent\":",
               "\"type\":\"shot\"", "\"rule\":\"new-world:"},
              [](const riven::rules::new_world::NewWorldSystem& engine, riven::game::Model& model,
                 const riven::game::Profile& p) {  // setup.py: the system's Luck
                model.resources[0] = engine.starting_luck(
                    riven::rules::new_world::Fighter{p.might, p.agility, p.wit, p.resolve, p.mettle, p.keywords});
              });
}

/// The loop under The Riddle of Steel (meta.resolution = "riddle-of-steel"): tests and shots
/// are d10 pools closed at once, and a melee is a Combat Round of `choose` decisions by both
/// sides in the choice phase (the defender chooses its defence in the attacker's turn), whose
/// effects (Pain kept between melees, wounds, Down, Out, Conditions) land at the round's end.
/// Random and Oracle-decided games on the fixture must end, keep a valid state (the session
/// only in the choice phase), replay byte for byte from a copy and reach the system's parts.
void riddle_of_steel_soak() {
  const riven::rules::RulesConfig rules = riven::testing::riddle_of_steel_v01();
  system_soak("Riddle of Steel", rules, &ForwardModel::riddle_of_steel,
              riven::rules::riddle_of_steel::option_vocabulary(rules.riddle_of_steel),
              {"\"system\":\"riddle-of-steel\"", "\"type\":\"ros_round\"", "\"type\":\"ros_exchange\"",
               "\"outcome\":\"hit\"", "\"type\":\"ros_pain\"", "\"type\":\"ros_round_end\"", "\"type\":\"shot\"",
               "\"rule\":\"ros:attack:", "\"kind\":\"choose\""},
              [](const riven::rules::riddle_of_steel::RiddleOfSteelSystem&, riven::game::Model&,
                 const riven::game::Profile&) {},  // setup.py: RoS keeps RIVEN's track and no resource
              {"pain"});
}

/// Issue 38: a repeated Focus is offered (RAW "the same action multiple times"); Rest's bans of
/// the side-turn (a bonus action belongs to the activation) close the moves and attacks of a model
/// that Rested and the Rest of one that moved (queries.cpp allowed_actions).
void activation_bans(const ForwardModel& fm, const std::shared_ptr<const GameStatic>& st) {
  using riven::game::ActionKind;
  GameState state = opening(st, 5);
  riven::game::EventLog log;
  riven::game::start(fm, state, log);
  state.phase = riven::game::Phase::Action;
  state.active_model = 1;
  state.actions_left = 2;
  state.models[1].strain = 2;
  const auto offered = [&](ActionKind kind) {
    const auto wanted = static_cast<std::int16_t>(riven::game::kFirstActionKind + fm.id(kind));
    for (const Decision& d : riven::game::action_decisions(fm, state, 1)) {
      if (d.kind == wanted) return true;
    }
    return false;
  };
  RIVEN_CHECK(offered(ActionKind::Focus) && offered(ActionKind::Move) && offered(ActionKind::Rest));
  state.taken_actions[0] = static_cast<std::int16_t>(fm.id(ActionKind::Focus));
  state.taken_count = 1;
  RIVEN_CHECK(offered(ActionKind::Focus));  // a second Focus
  state.taken_count = 0;
  state.models[1].rested = true;  // Rested earlier this side-turn
  RIVEN_CHECK(!offered(ActionKind::Move) && !offered(ActionKind::Charge) && offered(ActionKind::Focus));
  state.models[1].rested = false;
  state.models[1].moved_or_attacked = true;  // moved earlier this side-turn
  RIVEN_CHECK(!offered(ActionKind::Rest) && offered(ActionKind::Move));
}

/// Issue 38: a Down friend in base contact is in no melee (shooting.down_models_in_melee false).
void down_friend_in_melee(const std::shared_ptr<const GameStatic>& st) {
  const auto place = [](GameState& state) {
    const double spots[6][2] = {{19, 16}, {20, 16}, {18, 17}, {18, 16}, {4, 21}, {8, 21}};
    for (std::size_t k = 0; k < 6; ++k) {
      state.models[k].x = spots[k][0];
      state.models[k].y = spots[k][1];
    }
    state.models[0].wounds = 0;  // blue-leader, beside the archer and red-leader, is Down
    state.models[0].status = riven::game::Status::Down;
  };
  const auto targets = [](const ForwardModel& model, const GameState& game) {
    std::vector<int> found;
    for (const auto& [j, cover] : riven::game::shot_targets(model, game, 1)) found.push_back(j);
    return found;
  };
  const auto shoots_red_leader = [&](const ForwardModel& model, const GameState& game) {
    const auto found = targets(model, game);
    return std::find(found.begin(), found.end(), 3) != found.end();
  };
  const ForwardModel fm = forward_model(st);
  GameState state = opening(st, 6);
  place(state);
  // red-leader fights the active blue-3; the archer touches only the Down blue-leader.
  RIVEN_CHECK(!shoots_red_leader(fm, state));
  state.models[2].x = 3.0;  // blue-3 leaves: red-leader touches only a Down model, in no melee
  state.models[2].y = 3.0;
  RIVEN_CHECK(shoots_red_leader(fm, state));
  riven::rules::RulesConfig counted = riven::testing::riven_v01();
  counted.shooting.down_models_in_melee = true;  // the variant: Down friends count
  const ForwardModel variant = forward_model(st, &counted);
  place(state);
  RIVEN_CHECK(shoots_red_leader(variant, state));  // the Down blue-leader it touches is in the melee
  state.models[2].x = 3.0;
  state.models[2].y = 3.0;
  state.models[1].x = 21.5;  // the archer steps away from everyone
  RIVEN_CHECK(!shoots_red_leader(variant, state) && shoots_red_leader(fm, state));
}

// Issue 39.4: a state of another game is refused by a forward model (one integer compare of the
// game fingerprints); the states of one game with either first side share their model.
void game_mismatch(const ForwardModel& fm, const std::shared_ptr<const GameStatic>& st) {
  const auto refused = [&](const GameState& state) {
    try {
      riven::game::check_same_game(fm, state, "test");
    } catch (const riven::game::GameMismatch& e) {
      return std::string(e.what()).find("another game") != std::string::npos;
    }
    return false;
  };
  RIVEN_CHECK(fm.game_id != 0 && fm.game_id == riven::game::game_fingerprint(*st));
  const GameState own = opening(st, 3);
  RIVEN_CHECK(own.game_id == fm.game_id && !refused(own));
  RIVEN_CHECK(GameState(own).game_id == fm.game_id);  // a copy keeps its game
  auto red_first = std::make_shared<GameStatic>(*st);
  red_first->first_side = 1;  // a rolled mission's other opening: the same game
  RIVEN_CHECK(!refused(GameState::initial(red_first, 0)));
  auto renamed = std::make_shared<GameStatic>(*st);
  renamed->model_ids[0] = "blue-captain";
  RIVEN_CHECK(refused(GameState::initial(renamed, 0)));
  auto moved = std::make_shared<GameStatic>(*st);
  moved->objectives[1].x += 0.5;
  RIVEN_CHECK(refused(GameState::initial(moved, 0)));
  auto longer = std::make_shared<GameStatic>(*st);
  longer->round_limit += 1;
  RIVEN_CHECK(refused(GameState::initial(longer, 0)));
  // Lists are hashed with their lengths: moving a name from one vocabulary to the next differs.
  auto shifted = std::make_shared<GameStatic>(*st);
  shifted->destination_kinds.insert(shifted->destination_kinds.begin(), shifted->options.back());
  shifted->options.pop_back();
  RIVEN_CHECK(riven::game::game_fingerprint(*shifted) != fm.game_id);
}

}  // namespace

int main() {
  const auto rules_for_names = riven::testing::riven_v01();
  const auto st = skirmish(rules_for_names);
  const ForwardModel fm = forward_model(st);
  int total_steps = 0;
  int ended_early = 0;
  // What the soak must reach: shots, melees, tests of actions, charges, morale, removals, scores.
  const std::vector<std::string> wanted{"\"type\":\"shot\"",  "\"type\":\"melee\"",   "\"type\":\"test\"",
                                        "\"kind\":\"charge\"", "\"type\":\"morale\"", "\"type\":\"removed\"",
                                        "\"type\":\"score\"", "\"type\":\"condition\""};
  std::vector<bool> seen(wanted.size(), false);
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    GameState state = opening(st, seed);
    riven::game::EventLog log;
    riven::game::start(fm, state, log);
    log.drain();
    riven::rules::Pcg64 chooser(riven::rules::Pcg64State{seed * 104729 + 3, 2 * seed + 5, false, 0});
    // A copy at the opening replays the same game byte for byte with the same choices.
    GameState copy = state;
    riven::rules::Pcg64 chooser_copy = chooser;
    int steps = 0;
    const std::string first = play(fm, state, chooser, log, steps);
    total_steps += steps;
    int replay_steps = 0;
    riven::game::EventLog replay_log;
    const std::string second = play(fm, copy, chooser_copy, replay_log, replay_steps);
    RIVEN_CHECK(first == second);
    for (std::size_t k = 0; k < wanted.size(); ++k) seen[k] = seen[k] || first.find(wanted[k]) != std::string::npos;
    RIVEN_CHECK(first.find("\"type\":\"game_end\"") != std::string::npos);
    ended_early += state.end_reason.view() != "round_limit" ? 1 : 0;
  }
  RIVEN_CHECK(total_steps > 40 * 20);
  RIVEN_CHECK(ended_early > 0);  // some games end by elimination, not only at the round limit
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    if (!seen[k]) std::cerr << "never seen in the soak: " << wanted[k] << "\n";
    RIVEN_CHECK(seen[k]);
  }

  // An illegal decision is refused and changes nothing.
  GameState state = opening(st, 99);
  riven::game::EventLog log;
  riven::game::start(fm, state, log);
  const std::int64_t seq = state.seq;
  Decision bad;
  bad.kind = static_cast<std::int16_t>(riven::game::kFirstActionKind + fm.id(riven::game::ActionKind::Shoot));
  bad.model = 1;
  bad.target = 4;
  bool refused = false;
  try {
    riven::game::apply(fm, state, bad, log);
  } catch (const riven::rules::IllegalAction&) {
    refused = true;
  }
  RIVEN_CHECK(refused && state.seq == seq);
  activation_bans(fm, st);
  game_mismatch(fm, st);
  down_friend_in_melee(st);
  oracle_soak(fm, st);
  rollout_soak(fm, st);
  invictus_soak();
  new_world_soak();
  riddle_of_steel_soak();
  return RIVEN_TEST_RESULT();
}
