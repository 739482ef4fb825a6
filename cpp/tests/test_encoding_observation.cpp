// The native encoder and catalogue on a hand-built two-model state: sizes, the side-relative
// frame, clipping, the raster's half turn for red, and the catalogue's entries and mask.
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "check.hpp"
#include "riven/encoding/catalogue.hpp"
#include "riven/encoding/observation.hpp"

namespace {

using riven::encoding::SightCode;
using riven::game::GameState;
using riven::game::GameStatic;

std::shared_ptr<const GameStatic> duel() {
  auto st = std::make_shared<GameStatic>();
  st->model_ids = {"blue-1", "red-1"};
  st->model_sides = {0, 1};
  st->model_profile = {0, 0};
  st->model_oracle = {-1, -1};
  riven::game::Profile p;
  p.name = "soldier";
  p.might = p.agility = p.wit = p.resolve = 3;
  p.mettle = 4;
  p.wounds = 2;
  p.move = 6.0;
  p.base_diameter = 1.0;
  st->profiles = {p};
  riven::game::Objective o;
  o.name = "centre";
  o.x = 6.0;
  o.y = 6.0;
  o.radius = 3.0;
  o.kind = "hold";
  o.points = 2;
  st->objectives = {o};
  st->table_width = 12.0;
  st->table_height = 12.0;
  st->round_limit = 4;
  st->owners = {"blue", "red"};
  st->actions = {"move", "shoot", "end"};
  st->conditions = {"aiming"};
  st->options = {"reroll:0", "boost", "accept"};
  st->destination_kinds = {"toward_enemy", "away", "objective"};
  return st;
}

}  // namespace

int main() {
  auto st = duel();
  GameState state = GameState::initial(st, 2);
  state.models[0].x = 2.0;
  state.models[0].y = 3.0;
  state.models[1].x = 10.0;
  state.models[1].y = 9.0;

  riven::encoding::EncoderSpec spec;
  spec.models_per_side = 1;
  spec.objectives = 1;
  spec.momentum_cap = 4;
  spec.raster = true;
  spec.raster_size = 4;
  std::vector<float> terrain(5 * 16, 0.0F);
  terrain[0] = 1.0F;  // impassable at row 0, col 0
  riven::encoding::ObservationEncoder encoder(spec, st, terrain);
  const std::size_t width = encoder.model_features().size();
  RIVEN_CHECK(width == 2 + 5 + 2 + 3 + 1 + 4 + 1 + 5 + 1 + 3 + 13);
  RIVEN_CHECK(encoder.flat_size() == 2 * width + encoder.objective_features().size() + encoder.global_features().size());

  const std::vector<int> nearest = encoder.nearest_enemies(state);
  RIVEN_CHECK(nearest[0] == 1 && nearest[1] == 0);
  const std::vector<SightCode> sight{SightCode::CoverSoft, SightCode::NotSeen};
  std::vector<float> blue(encoder.flat_size());
  std::vector<float> red(encoder.flat_size());
  encoder.encode(state, 0, sight, blue);
  encoder.encode(state, 1, sight, red);
  // Own model first: blue's row 0 is blue-1 at (2, 3)/12; red sees red-1 at (12-10, 12-9)/12.
  RIVEN_CHECK(blue[0] == 1.0F && blue[1] == 1.0F && blue[width + 1] == 0.0F);
  RIVEN_CHECK(blue[7] == static_cast<float>(2.0 / 12.0) && blue[8] == static_cast<float>(3.0 / 12.0));
  RIVEN_CHECK(red[7] == static_cast<float>(2.0 / 12.0) && red[8] == static_cast<float>(3.0 / 12.0));
  for (const float v : blue) {
    RIVEN_CHECK(v >= -1.0F && v <= 1.0F && !std::isnan(v));
  }
  // The seen/cover columns of blue-1 (seen from red-1 with soft cover).
  const std::size_t seen = 2 + 5 + 2 + 3 + 1 + 4 + 1 + 5;
  RIVEN_CHECK(blue[seen] == 1.0F && blue[seen + 2] == 1.0F && blue[width + seen] == 0.0F);

  // A game's memo of lengths gives the very encodings a fresh computation does, as models move
  // (only a moved model's lengths are computed again), with an acting model's gap columns too.
  {
    riven::encoding::LengthMemo lengths;
    GameState moving = state;
    moving.active_model = 0;
    const double steps[][2] = {{2.0, 3.0}, {2.5, 3.25}, {2.5, 3.25}, {7.0, 8.5}, {0.1, 11.9}};
    for (const auto& step : steps) {
      moving.models[0].x = step[0];
      moving.models[0].y = step[1];
      moving.models[1].x = 12.0 - step[1];
      lengths.refresh(moving);
      std::vector<float> fresh(encoder.flat_size());
      std::vector<float> kept(encoder.flat_size());
      const auto near_fresh = encoder.nearby(moving);
      const auto near_kept = encoder.nearby(moving, &lengths);
      RIVEN_CHECK(std::vector<double>(near_fresh.gap.begin(), near_fresh.gap.end()) ==
                  std::vector<double>(near_kept.gap.begin(), near_kept.gap.end()));
      encoder.encode(moving, 0, sight, near_fresh, fresh);
      encoder.encode(moving, 0, sight, near_kept, kept, &lengths);
      RIVEN_CHECK(fresh == kept);
      RIVEN_CHECK(lengths.between(moving, 0, 1) == lengths.between(moving, 1, 0));
      RIVEN_CHECK(lengths.between(moving, 0, 1) ==
                  std::hypot(moving.models[0].x - moving.models[1].x, moving.models[0].y - moving.models[1].y));
    }
  }

  std::vector<std::uint8_t> raster_blue(encoder.raster_size_bytes());
  std::vector<std::uint8_t> raster_red(encoder.raster_size_bytes());
  encoder.encode_raster(state, 0, raster_blue);
  encoder.encode_raster(state, 1, raster_red);
  RIVEN_CHECK(raster_blue[0] == 255 && raster_red[15] == 255 && raster_red[0] == 0);

  bool refused = false;
  try {
    std::vector<float> short_out(3);
    encoder.encode(state, 0, sight, short_out);
  } catch (const std::invalid_argument&) {
    refused = true;
  }
  RIVEN_CHECK(refused);

  // A state of another game of the scenario (red first) reads its own first side; a state of
  // another scenario is refused.
  auto red_first = std::make_shared<GameStatic>(*st);
  red_first->first_side = 1;
  GameState other = state;
  other.statics = red_first;
  std::vector<float> other_out(encoder.flat_size());
  encoder.encode(other, 0, sight, other_out);
  const std::size_t own_side_first = 2 * width + encoder.objective_features().size() + 7;
  RIVEN_CHECK(encoder.global_features()[own_side_first - 2 * width - encoder.objective_features().size()] ==
              "own_side_first");
  RIVEN_CHECK(blue[own_side_first] == 1.0F && other_out[own_side_first] == 0.0F);
  auto renamed = std::make_shared<GameStatic>(*st);
  renamed->model_ids = {"blue-9", "red-9"};
  other.statics = renamed;
  bool other_scenario_refused = false;
  try {
    encoder.encode(other, 0, sight, other_out);
  } catch (const std::invalid_argument&) {
    other_scenario_refused = true;
  }
  RIVEN_CHECK(other_scenario_refused);

  riven::encoding::CatalogueSpec cat_spec;
  cat_spec.models_per_side = 1;
  cat_spec.objectives = 1;
  cat_spec.max_dice = 2;
  cat_spec.actions = {{"move", "destination", {}}, {"shoot", "enemy", {}}, {"end", "none", {}}};
  cat_spec.destination_refs = {{"toward_enemy", riven::encoding::RefKind::Enemy},
                               {"away", riven::encoding::RefKind::Single}};
  cat_spec.choices = {{"spend", "reroll:0"}, {"spend", "boost"}};
  riven::encoding::ActionCatalogue catalogue(cat_spec, st);
  // pass, 2 activate, 1 bonus, move @toward_enemy enemy:0, move @away, shoot enemy:0, end, 2 spends, accept.
  RIVEN_CHECK(catalogue.size() == 11);
  RIVEN_CHECK(catalogue.labels()[4] == "move @toward_enemy enemy:0");
  RIVEN_CHECK(catalogue.labels()[10] == "spend accept");
  const riven::game::Decision shoot{static_cast<std::int16_t>(riven::game::kFirstActionKind + 1), 0, -1, 1, -1, -1, -1};
  RIVEN_CHECK(catalogue.index_of(shoot, 0) == 6);
  RIVEN_CHECK(catalogue.index_of(shoot, 1) == -1);  // model 1 is no enemy of red
  std::vector<std::uint8_t> mask(catalogue.size());
  const std::vector<riven::game::Decision> legal{riven::game::Decision{}, shoot};
  catalogue.mask(legal, 0, mask);
  RIVEN_CHECK(mask[0] == 1 && mask[6] == 1 && mask[1] == 0);
  bool duplicate_refused = false;
  try {
    const std::vector<riven::game::Decision> twice{shoot, shoot};
    catalogue.mask(twice, 0, mask);
  } catch (const std::invalid_argument&) {
    duplicate_refused = true;
  }
  RIVEN_CHECK(duplicate_refused);
  return RIVEN_TEST_RESULT();
}
