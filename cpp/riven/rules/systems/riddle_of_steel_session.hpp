// The Riddle of Steel's Combat Round, step by step (riddle_of_steel.py _apply, _roll_exchange,
// _hit, advance): the steps that roll are templates on the stream type, so this part is a header
// included at the end of riddle_of_steel.hpp. The order of the draws is the Python engine's: the
// attack pool, then the defence pool, then a hit's knockdown test.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "riven/rules/systems/riddle_of_steel.hpp"

namespace riven::rules::riddle_of_steel {

namespace detail {

// Lookups by name in the data (each throws RulesDataError naming the missing entry).
const RosAttack& attack_named(const RiddleOfSteelRules& s, std::string_view name);
const RosDefence& defence_named(const RiddleOfSteelRules& s, std::string_view name);
const RosZone& zone_named(const RiddleOfSteelRules& s, std::string_view zone);
/// The Damage Table cell for `level` (1..max) at `zone` (its row, else the default row).
const RosWound& wound(const RiddleOfSteelRules& s, std::string_view zone, int level);

/// floor(dice * share): the pool lost to a fumble or a won Duck and Weave (math.floor).
int share_of(int dice, double share);
/// Each fighter's id with the number given (fighters' order).
ByFighter by_fighter(const MeleeSession& session, const std::array<int, 2>& values);
/// Python's `a // b` (b > 0).
int floor_div(int a, int b);

/// A new exchange's declarations, or the round's end when the attacker has no dice.
MeleeSession begin_exchange(MeleeSession session);
/// End the round: the ros_round_end event.
MeleeSession finish(MeleeSession session, std::string reason);
/// The next exchange, or the round's end after the last.
MeleeSession next_exchange(MeleeSession session, int next_attacker);
/// Whether the attacker may Feint (Proficiency and dice enough).
bool feint_open(const MeleeSession& session, const RiddleOfSteelRules& s);
/// Whether the defender has a defence beyond none.
bool defence_open(const MeleeSession& session, const RiddleOfSteelRules& s);
/// The damage of a hit before the knockdown test: the record, the effects, the shock, the
/// wounds that stay on the model, why the round ends ("" when it goes on), and whether a
/// knockdown test is to be rolled.
struct HitSteps {
  HitRecord record;
  std::vector<Effect> effects;
  int shock = 0;
  int wounds = 0;
  std::string ends;
  bool knockdown_test = false;
  int knockdown_tn = 0;
};
HitSteps hit_before_knockdown(const MeleeSession& session, int margin, int extra, const RiddleOfSteelRules& s);

template <class Rng>
HitSteps hit(const MeleeSession& session, int margin, int extra, Rng& rng, const RiddleOfSteelRules& s) {
  HitSteps out = hit_before_knockdown(session, margin, extra, s);
  if (!out.knockdown_test) return out;
  const Fighter& fd = session.fighters[static_cast<std::size_t>(session.defender())];
  const PoolRoll test = roll_pool(fd.resistance, out.knockdown_tn, rng, s);
  const bool knocked = test.successes == 0;
  out.record.knockdown = KnockdownRecord{fd.resistance, out.knockdown_tn, test.totals, test.successes, knocked};
  if (knocked) out.effects.push_back(Effect{EffectKind::Condition, fd.index, 0, s.knockdown_condition});
  return out;
}

template <class Rng>
MeleeSession roll_exchange(MeleeSession session, Rng& rng, const RiddleOfSteelRules& s) {
  const int a = session.attacker;
  const int d = session.defender();
  const auto ai = static_cast<std::size_t>(a);
  const auto di = static_cast<std::size_t>(d);
  const Fighter fa = session.fighters[ai];
  const Fighter fd = session.fighters[di];
  const RosAttack& attack = attack_named(s, session.manoeuvre);
  const int bonus = session.bonus[ai];
  const int rolled = session.attack_dice + attack.bonus_dice + bonus;
  const PoolRoll att = roll_pool(rolled, fa.weapon.atn, rng, s);
  const bool defending = session.defence != kNoDefence;
  const int dtn = defending ? defence_tn(session, session.defence, s) : 0;
  std::optional<PoolRoll> dfn;
  if (defending) dfn = roll_pool(session.defence_dice, dtn, rng, s);
  int a_succ = att.successes;
  const int d_succ = dfn ? dfn->successes : 0;
  const bool defender_won = d_succ > a_succ;
  const bool counter_failed = session.defence == kCounter && !defender_won;
  if (counter_failed) a_succ += s.counter_fail_extra_successes;
  const int margin = a_succ - d_succ;
  std::array<int, 2> pools = session.pools;
  std::array<int, 2> bonuses{};  // a counter bonus is spent on the attack it was won for
  if (att.fumble) pools[ai] = std::max(0, pools[ai] - share_of(session.attack_dice, s.fumble_pool_loss));

  ExchangeEvent record;
  record.exchange = session.exchange;
  record.attacker = fa.id;
  record.defender = fd.id;
  record.manoeuvre = session.manoeuvre;
  record.zone = session.zone;
  record.zone_name = zone_named(s, session.zone).name;
  record.feint = session.feint;
  record.attack_dice = att.totals;
  record.attack_faces = att.faces;
  record.attack_bonus_dice = attack.bonus_dice + bonus;
  record.atn = att.tn;
  record.attack_successes = att.successes;
  record.attack_fumble = att.fumble;
  record.defence = session.defence;
  if (dfn) record.defence_dice = dfn->totals;
  if (defending) record.dtn = dtn;
  record.defence_successes = d_succ;
  record.defence_fumble = dfn && dfn->fumble;
  record.counter_failed = counter_failed;
  record.margin = margin;

  int next_attacker = a;
  std::string end;
  bool steal_pending = false;
  if (margin > 0) {
    record.outcome = ExchangeOutcome::Hit;
    HitSteps done = hit(session, margin, attack.damage, rng, s);
    record.hit = std::move(done.record);
    session.effects.insert(session.effects.end(), done.effects.begin(), done.effects.end());
    pools[di] = std::max(0, pools[di] - done.shock);
    session.fighters[di].wounds = std::max(0, fd.wounds - done.wounds);
    end = std::move(done.ends);
  } else if (margin == 0) {
    record.outcome = ExchangeOutcome::Tie;
  } else {
    record.outcome = ExchangeOutcome::Defended;
    next_attacker = d;
    if (session.defence == kDodgeBreak) {
      end = fd.id + " broke off (Dodge and Break)";
    } else if (session.defence == kDodgeStand) {
      const bool free = att.successes == 0 || att.fumble;
      record.steal = free ? "free" : "may pay";
      if (!free) {
        next_attacker = a;
        steal_pending = pools[di] >= s.stand_steal_cost;
      }
    } else if (session.defence == kDuckWeave) {
      const int loss = share_of(session.attack_dice, s.duck_weave_pool_loss);
      pools[ai] = std::max(0, pools[ai] - loss);
      record.attacker_pool_lost = loss;
    } else if (session.defence == kCounter) {
      const int won = s.counter_bonus == "attacker_successes" ? att.successes : rolled;
      bonuses[di] = won;
      record.counter_bonus = won;
    }
  }
  record.initiative = session.fighters[static_cast<std::size_t>(next_attacker)].id;
  record.pools = by_fighter(session, pools);
  session.new_events.emplace_back(std::move(record));
  session.pools = pools;
  session.bonus = bonuses;
  session.last_attacker = a;
  if (!end.empty()) return finish(std::move(session), std::move(end));
  if (steal_pending) {
    session.step = Step::Steal;
    session.pending_steal = true;
    return session;
  }
  return next_exchange(std::move(session), next_attacker);
}

template <class Rng>
MeleeSession after_defence(MeleeSession session, Rng& rng, const RiddleOfSteelRules& s) {
  if (feint_open(session, s)) {
    session.step = Step::Feint;
    return session;
  }
  return roll_exchange(std::move(session), rng, s);
}

/// "NAME:REST" split at the first colon (an option's two parts).
std::pair<std::string, std::string> split_option(const std::string& option);
/// An option's count (its decimal digits; throws RulesDataError otherwise).
int option_count(std::string_view text);

template <class Rng>
MeleeSession apply_step(MeleeSession session, const std::string& option, Rng& rng, const RiddleOfSteelRules& s) {
  const auto ai = static_cast<std::size_t>(session.attacker);
  const auto di = static_cast<std::size_t>(session.defender());
  switch (session.step) {
    case Step::Attack: {
      auto [manoeuvre, zone] = split_option(option);
      session.manoeuvre = std::move(manoeuvre);
      session.zone = std::move(zone);
      session.step = Step::AttackDice;
      return session;
    }
    case Step::AttackDice: {
      const int k = option_count(option);
      const int paid = attack_named(s, session.manoeuvre).extra + k;
      session.attack_dice = k;
      session.pools[ai] = std::max(0, session.pools[ai] - paid);
      if (defence_open(session, s)) {
        session.step = Step::Defence;
        return session;
      }
      session.defence = kNoDefence;
      return after_defence(std::move(session), rng, s);
    }
    case Step::Defence: {
      if (option == kNoDefence) {
        session.defence = kNoDefence;
        return after_defence(std::move(session), rng, s);
      }
      const int cost = defence_named(s, option).cost;
      session.defence = option;
      session.pools[di] = std::max(0, session.pools[di] - cost);
      session.step = Step::DefenceDice;
      return session;
    }
    case Step::DefenceDice: {
      const int k = option_count(option);
      session.defence_dice = k;
      session.pools[di] = std::max(0, session.pools[di] - k);
      return after_defence(std::move(session), rng, s);
    }
    case Step::Feint: {
      if (option == kNoFeint) return roll_exchange(std::move(session), rng, s);
      auto [zone, extra] = split_option(option);
      const int added = option_count(extra);
      const auto& near = zone_named(s, session.zone).near;
      const bool is_near = std::find(near.begin(), near.end(), zone) != near.end();
      const int paid = s.feint_cost + added * (is_near ? s.feint_die_cost_near : s.feint_die_cost_far);
      session.feint = session.zone + ">" + zone + ":" + std::to_string(added);
      session.zone = std::move(zone);
      session.attack_dice += added;
      session.pools[ai] = std::max(0, session.pools[ai] - paid);
      return roll_exchange(std::move(session), rng, s);
    }
    case Step::Steal: {
      const bool steal = option == kSteal;
      if (steal) session.pools[di] = std::max(0, session.pools[di] - s.stand_steal_cost);
      session.new_events.emplace_back(StealEvent{session.fighters[di].id, steal, steal ? s.stand_steal_cost : 0});
      const int next = steal ? session.defender() : session.attacker;
      return next_exchange(std::move(session), next);
    }
    case Step::Done:
      break;
  }
  throw RulesDataError("riddle-of-steel melee: no step '" + std::string(step_name(session.step)) + "'");
}

}  // namespace detail

template <class Rng>
MeleeSession RiddleOfSteelSystem::advance(MeleeSession session, Rng& rng) const {
  while (!session.done()) {
    std::vector<std::string> legal = choice_options(session);
    if (legal.size() != 1) return session;
    session = detail::apply_step(std::move(session), legal.front(), rng, settings());
  }
  return session;
}

template <class Rng>
MeleeSession RiddleOfSteelSystem::open_session(const Fighter& attacker, const Fighter& defender, Rng& rng) const {
  MeleeSession session;
  session.fighters = {attacker, defender};
  session.pools = {attacker.pool, defender.pool};
  session.exchanges = settings().exchanges;
  RoundStartEvent start;
  start.attacker = attacker.id;
  start.defender = defender.id;
  start.pools = {{attacker.id, attacker.pool}, {defender.id, defender.pool}};
  start.weapons = {{attacker.id, attacker.weapon}, {defender.id, defender.weapon}};
  start.brawn = {{attacker.id, attacker.brawn}, {defender.id, defender.brawn}};
  session.new_events.emplace_back(std::move(start));
  return advance(detail::begin_exchange(std::move(session)), rng);
}

template <class Rng>
MeleeSession RiddleOfSteelSystem::apply_choice(const MeleeSession& session, const std::string& option,
                                               Rng& rng) const {
  const std::vector<std::string> legal = choice_options(session);
  if (std::find(legal.begin(), legal.end(), option) == legal.end()) {
    std::string listed;
    for (const std::string& o : legal) listed += (listed.empty() ? "" : ", ") + o;
    throw RulesDataError("riddle-of-steel melee: option '" + option + "' is not legal at step '" +
                         std::string(step_name(session.step)) + "'; legal: " + (listed.empty() ? "none" : listed));
  }
  return advance(detail::apply_step(session, option, rng, settings()), rng);
}

}  // namespace riven::rules::riddle_of_steel
