// The routing seam answered by the core: riven::table's routing (cpp/riven/table/routing.hpp:
// plan_destination, plan_charge, charge_targets, plan_flight around) and the table's straight
// push and flight (cpp/riven/table/table.hpp). No Python is called: a game on this planner
// steps without the GIL. riven_env/native/loop.py builds it by default, after registering the
// static visibility graph of every base radius of the game (NativeTable.ensure_nav).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "riven/game/planner.hpp"
#include "riven/table/table.hpp"

namespace riven::game {

class NativePlanner final : public Planner {
 public:
  /// ``enemy_gap`` is the data's [destinations] enemy_gap (what plan_destination uses when the
  /// caller passes none).
  NativePlanner(std::shared_ptr<const table::TableGeometry> table, double enemy_gap);

  [[nodiscard]] std::optional<Destination> plan_destination(const table::BasesView& bases, std::size_t i,
                                                            double allowance, const std::string& kind,
                                                            std::int64_t ref,
                                                            std::span<const table::Point> objectives,
                                                            std::optional<double> enemy_gap) const override;
  [[nodiscard]] std::optional<MovePlan> plan_charge(const table::BasesView& bases, std::size_t i,
                                                    std::size_t target, double reach) const override;
  [[nodiscard]] std::vector<std::int64_t> charge_targets(const table::BasesView& bases, std::size_t i, double reach,
                                                         std::span<const std::int64_t> enemies) const override;
  [[nodiscard]] MovePlan plan_push(const table::BasesView& bases, std::size_t i, table::Point away_from,
                                   double distance) const override;
  [[nodiscard]] std::pair<MovePlan, bool> plan_flight(const table::BasesView& bases, std::size_t i, double distance,
                                                      bool around) const override;

  [[nodiscard]] double enemy_gap() const { return enemy_gap_; }

 private:
  std::shared_ptr<const table::TableGeometry> table_;
  double enemy_gap_;
};

/// destinations.DESTINATION_KINDS: the kind named ``name`` (std::invalid_argument otherwise).
[[nodiscard]] table::DestinationKind destination_kind(const std::string& name);
/// The DESTINATION_KINDS name of ``kind``.
[[nodiscard]] std::string_view destination_kind_name(table::DestinationKind kind);

}  // namespace riven::game
