// The observation encoder: riven_env/encoding/observation.py's ObservationEncoder over the native
// GameState, value for value.
//
// The flat float32 vector is the models block (2S x F_m, own slots first), the objectives block
// (K x F_o) and the global block (F_g), every value clipped to [-1, 1]; the optional raster is
// (C, R, R) uint8 (riven_env/encoding/raster.py). The arithmetic is the Python encoder's: float64
// for the situation (positions, gaps, objective control, the global entries) rounded once to
// float32 on storing, float32 divisions for the dynamic model columns, the same libm hypot.
//
// Line of sight and cover from each model's nearest active enemy are table queries: the caller
// hands them in per model (SightCode) after asking nearest_enemies() which pairs they are for,
// so that the encoder runs with the table's queries of either engine.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "riven/game/state.hpp"
#include "riven/recycled.hpp"

namespace riven::encoding {

/// The encoding scales (encoding.toml [scales]).
struct Scales {
  double attribute = 5.0;
  double mettle = 6.0;
  double wounds = 5.0;
  double move = 10.0;
  double weapon_range = 36.0;
  double weapon_modifier = 3.0;
  double engaged = 3.0;
  double points = 10.0;
  double test_margin = 8.0;
  double objective_points = 5.0;
  double base = 2.0;
};

/// Everything the encoder reads besides the state (the Python encoder's constructor arguments,
/// resolved: encoding config, rules values, layout sizes).
struct EncoderSpec {
  int models_per_side = 0;
  int objectives = 1;
  Scales scales;
  bool cover_vs_nearest_enemy = true;
  bool raster = false;
  int raster_size = 48;
  int max_dice = 3;
  int momentum_cap = 1;
  double strain_per_wit = 2.0;
  int max_spends = 1;
  double contact_tolerance = 0.0;
  std::vector<std::string> objective_kinds{"hold", "loot", "extract"};
  std::vector<std::string> keyword_features{"leader", "hero"};
};

/// Sight from a model's nearest active enemy: not seen (or no such enemy), or seen with a cover.
enum class SightCode : std::int8_t { NotSeen = -1, CoverNone = 0, CoverSoft = 1, CoverHard = 2 };

inline constexpr int kRasterChannels = 11;  // raster.py RASTER_CHANNELS
inline constexpr int kTerrainChannels = 5;

/// The centre-to-centre lengths (hypot) that one game's observations read, kept from one
/// observation to the next: a length is computed again only when one of its ends has moved
/// (coordinates compared bit for bit), so each is the very value a fresh hypot gives. One per
/// game (the batch env's), used by one thread at a time.
class LengthMemo {
 public:
  /// Forget the lengths of every model that moved since the last call (every length, for a
  /// state of another game's static part).
  void refresh(const game::GameState& state);
  /// hypot(i.x - j.x, i.y - j.y): the same either way round (hypot(-dx, -dy) == hypot(dx, dy)).
  double between(const game::GameState& state, std::size_t i, std::size_t j);
  /// hypot(o - model i) for objective k (o, its point), as the objective columns compute it.
  double to_objective(const game::GameState& state, std::size_t i, std::size_t k, const game::Objective& o);

 private:
  std::shared_ptr<const game::GameStatic> statics_;  // held: its address then names one game's
  std::size_t models_ = 0;
  std::size_t objectives_ = 0;
  std::vector<std::uint64_t> x_bits_;
  std::vector<std::uint64_t> y_bits_;
  std::vector<double> pairs_;       // models x models, nan: not computed
  std::vector<double> objective_;   // models x objectives, nan: not computed
};

class ObservationEncoder {
 public:
  /// `terrain`: the (5, R, R) 0/1 terrain layers of the table (raster.py terrain_layers), needed
  /// only with spec.raster. Throws std::invalid_argument on a spec that does not fit.
  ObservationEncoder(EncoderSpec spec, std::shared_ptr<const game::GameStatic> statics,
                     std::vector<float> terrain = {});

  [[nodiscard]] const std::vector<std::string>& model_features() const { return model_features_; }
  [[nodiscard]] const std::vector<std::string>& objective_features() const { return objective_features_; }
  [[nodiscard]] const std::vector<std::string>& global_features() const { return global_features_; }
  [[nodiscard]] std::size_t flat_size() const { return flat_size_; }
  [[nodiscard]] std::size_t raster_size_bytes() const;
  [[nodiscard]] const EncoderSpec& spec() const { return spec_; }

  /// Each model's nearest active enemy (-1: none, or the model is off the table), its edge gap
  /// and how many enemies it touches (situation.py nearest_enemies).
  struct Nearby {  // (Recycled: built every step)
    Recycled<int> enemy;
    Recycled<double> gap;
    Recycled<int> engaged;
  };
  /// `lengths`, when given: the game's memo of lengths (refreshed by the caller).
  [[nodiscard]] Nearby nearby(const game::GameState& state, LengthMemo* lengths = nullptr) const;
  /// Each model's nearest active enemy (-1: none, or the model is off the table): the shooters
  /// whose sight the cover columns need, pair (nearest[i], i).
  [[nodiscard]] std::vector<int> nearest_enemies(const game::GameState& state) const;

  /// Encode `state` for `side` (0 blue, 1 red) into `out` (flat_size floats). `sight` has one
  /// code per model (ignored without cover_vs_nearest_enemy). Throws std::invalid_argument on a
  /// state of another game or a phase the encoder has no column for.
  void encode(const game::GameState& state, int side, std::span<const SightCode> sight, std::span<float> out) const;
  /// The same with nearby(state) already worked out (a caller that asked it for the sight codes).
  /// `lengths`, when given: the game's memo of lengths (refreshed by the caller).
  void encode(const game::GameState& state, int side, std::span<const SightCode> sight, const Nearby& nearby,
              std::span<float> out, LengthMemo* lengths = nullptr) const;
  /// The raster of `state` for `side` into `out` (raster_size_bytes() bytes).
  void encode_raster(const game::GameState& state, int side, std::span<std::uint8_t> out) const;

 private:
  void check_state(const game::GameState& state) const;
  void disc(std::vector<std::uint8_t>& layer, double x, double y, double r) const;

  // The static parts check_state found of this encoder's scenario (held, so that no other part
  // can take a freed one's address), shared by copies of the encoder: a batch's games share a
  // few static parts, and comparing one field by field cost as much as a tenth of an encoding.
  struct Verified {
    std::mutex mutex;
    std::vector<std::shared_ptr<const game::GameStatic>> statics;
  };
  static constexpr std::size_t kVerified = 8;

  EncoderSpec spec_;
  std::shared_ptr<const game::GameStatic> statics_;
  std::shared_ptr<Verified> verified_ = std::make_shared<Verified>();
  std::vector<float> terrain_;
  std::vector<std::string> model_features_;
  std::vector<std::string> objective_features_;
  std::vector<std::string> global_features_;
  std::size_t model_width_ = 0;
  std::size_t objective_width_ = 0;
  std::size_t split_models_ = 0;
  std::size_t split_objectives_ = 0;
  std::size_t flat_size_ = 0;
  // Column indices.
  std::size_t col_status_ = 0, col_x_ = 0, col_dx_ = 0, col_nearest_ = 0, col_wounds_ = 0, col_condition_ = 0,
              col_activated_ = 0, col_seen_ = 0, col_cover_ = 0, col_profile_ = 0;
  std::size_t ocol_kind_ = 0, ocol_points_ = 0, ocol_looted_ = 0, ocol_within_ = 0;
  std::size_t gcol_phase_ = 0, gcol_own_turn_ = 0, gcol_taken_ = 0, gcol_pending_ = 0;
  std::vector<int> action_column_;  // GameStatic::actions id -> encoder action column, -1 ("end")
  std::size_t action_count_ = 0;
  // Constants per side: the flat template and each model's row offset.
  std::array<std::vector<float>, 2> templates_;
  std::array<std::vector<std::size_t>, 2> offsets_;
  std::vector<float> full_wounds_;
  std::vector<float> strain_max_;
  std::size_t objective_count_ = 0;  // objectives encoded: min(scenario's, K)
  double diagonal_ = 0.0;            // hypot(table width, table height), asked at every encoding
  std::vector<double> grid_x_;       // raster cell centres
  std::vector<double> grid_y_;
};

}  // namespace riven::encoding
