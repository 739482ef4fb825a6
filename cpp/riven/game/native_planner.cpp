#include "riven/game/native_planner.hpp"

#include <array>
#include <stdexcept>
#include <string_view>

#include "riven/table/routing.hpp"

namespace riven::game {
namespace {

// destinations.DESTINATION_KINDS, in table::DestinationKind order.
constexpr std::array<std::string_view, 5> kKindNames{"toward_enemy", "toward_objective", "cover_from_enemy", "away",
                                                     "toward_friend"};

/// movement.MovePlan of a straight or routed plan: start and end are the path's ends (as
/// riven_env/native/table.py _plan reads them).
MovePlan move_plan(table::StraightPlan plan) {
  MovePlan out;
  if (plan.path.empty()) throw std::logic_error("NativePlanner: a plan without a path");
  out.start = plan.path.front();
  out.end = plan.path.back();
  out.path = std::move(plan.path);
  out.cost = plan.cost;
  out.reached = plan.reached;
  return out;
}

}  // namespace

table::DestinationKind destination_kind(const std::string& name) {
  for (std::size_t k = 0; k < kKindNames.size(); ++k) {
    if (kKindNames[k] == name) return static_cast<table::DestinationKind>(k);
  }
  throw std::invalid_argument("destination kind '" + name +
                              "': the native router knows toward_enemy, toward_objective, cover_from_enemy, away, "
                              "toward_friend");
}

std::string_view destination_kind_name(table::DestinationKind kind) {
  return kKindNames.at(static_cast<std::size_t>(kind));
}

NativePlanner::NativePlanner(std::shared_ptr<const table::TableGeometry> table, double enemy_gap)
    : table_(std::move(table)), enemy_gap_(enemy_gap) {
  if (!table_) throw std::invalid_argument("NativePlanner: a table is required");
  if (!(enemy_gap_ >= 0.0)) throw std::invalid_argument("NativePlanner: enemy_gap must be >= 0");
}

std::optional<Destination> NativePlanner::plan_destination(const table::BasesView& bases, std::size_t i,
                                                           double allowance, const std::string& kind,
                                                           std::int64_t ref, std::span<const table::Point> objectives,
                                                           std::optional<double> enemy_gap) const {
  auto found = table::plan_destination(*table_, bases, i, allowance, destination_kind(kind), ref, objectives,
                                       enemy_gap.value_or(enemy_gap_));
  if (!found) return std::nullopt;
  Destination out;
  out.kind = kind;
  out.ref = ref;  // destinations.Destination carries the ref asked (None stays None)
  out.point = found->point;
  out.cost = found->cost;
  out.label = std::move(found->label);
  out.path = std::move(found->path);
  out.reached = found->reached;
  return out;
}

std::optional<MovePlan> NativePlanner::plan_charge(const table::BasesView& bases, std::size_t i, std::size_t target,
                                                   double reach) const {
  auto found = table::plan_charge(*table_, bases, i, target, reach);
  if (!found) return std::nullopt;
  return move_plan(std::move(*found));
}

std::vector<std::int64_t> NativePlanner::charge_targets(const table::BasesView& bases, std::size_t i, double reach,
                                                        std::span<const std::int64_t> enemies) const {
  return table::charge_targets(*table_, bases, i, reach, enemies);
}

MovePlan NativePlanner::plan_push(const table::BasesView& bases, std::size_t i, table::Point away_from,
                                  double distance) const {
  return move_plan(table_->plan_push(bases, i, away_from, distance));
}

std::pair<MovePlan, bool> NativePlanner::plan_flight(const table::BasesView& bases, std::size_t i, double distance,
                                                     bool around) const {
  auto [plan, left] = around ? table::plan_flight_around(*table_, bases, i, distance)
                             : table_->plan_flight(bases, i, distance);
  return {move_plan(std::move(plan)), left};
}

}  // namespace riven::game
