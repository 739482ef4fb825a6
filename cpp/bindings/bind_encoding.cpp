// riven::encoding in Python: the observation encoder (one state, or a batch written into a
// preallocated numpy array with the GIL released) and the action catalogue's mask.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "riven/encoding/catalogue.hpp"
#include "riven/encoding/entity.hpp"
#include "riven/game/forward_model.hpp"
#include "riven/encoding/observation.hpp"

namespace nb = nanobind;

namespace riven::bindings {

namespace {

using encoding::ActionCatalogue;
using encoding::ObservationEncoder;
using encoding::SightCode;
using game::GameState;

using FloatArray = nb::ndarray<nb::numpy, float, nb::ndim<1>>;
using Floats2 = nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Codes2 = nb::ndarray<const std::int8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Codes1 = nb::ndarray<const std::int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Bytes4 = nb::ndarray<std::uint8_t, nb::ndim<4>, nb::c_contig, nb::device::cpu>;

std::span<const SightCode> codes(const std::int8_t* data, std::size_t count) {
  return {reinterpret_cast<const SightCode*>(data), count};
}

}  // namespace

void bind_encoding(nb::module_& module) {
  nb::class_<encoding::Scales>(module, "EncodingScales", "encoding.toml [scales].")
      .def(nb::init<>())
      .def_rw("attribute", &encoding::Scales::attribute)
      .def_rw("mettle", &encoding::Scales::mettle)
      .def_rw("wounds", &encoding::Scales::wounds)
      .def_rw("move", &encoding::Scales::move)
      .def_rw("weapon_range", &encoding::Scales::weapon_range)
      .def_rw("weapon_modifier", &encoding::Scales::weapon_modifier)
      .def_rw("engaged", &encoding::Scales::engaged)
      .def_rw("points", &encoding::Scales::points)
      .def_rw("test_margin", &encoding::Scales::test_margin)
      .def_rw("objective_points", &encoding::Scales::objective_points)
      .def_rw("base", &encoding::Scales::base);

  nb::class_<encoding::EncoderSpec>(module, "EncoderSpec", "What the observation encoder reads besides the state.")
      .def(nb::init<>())
      .def_rw("models_per_side", &encoding::EncoderSpec::models_per_side)
      .def_rw("objectives", &encoding::EncoderSpec::objectives)
      .def_rw("scales", &encoding::EncoderSpec::scales)
      .def_rw("cover_vs_nearest_enemy", &encoding::EncoderSpec::cover_vs_nearest_enemy)
      .def_rw("raster", &encoding::EncoderSpec::raster)
      .def_rw("raster_size", &encoding::EncoderSpec::raster_size)
      .def_rw("max_dice", &encoding::EncoderSpec::max_dice)
      .def_rw("momentum_cap", &encoding::EncoderSpec::momentum_cap)
      .def_rw("strain_per_wit", &encoding::EncoderSpec::strain_per_wit)
      .def_rw("max_spends", &encoding::EncoderSpec::max_spends)
      .def_rw("contact_tolerance", &encoding::EncoderSpec::contact_tolerance)
      .def_rw("objective_kinds", &encoding::EncoderSpec::objective_kinds)
      .def_rw("keyword_features", &encoding::EncoderSpec::keyword_features);

  nb::class_<ObservationEncoder>(module, "ObservationEncoder", "The native observation encoder.")
      .def(
          "__init__",
          [](ObservationEncoder* self, encoding::EncoderSpec spec, std::shared_ptr<game::GameStatic> statics,
             const std::vector<float>& terrain) { new (self) ObservationEncoder(std::move(spec), statics, terrain); },
          nb::arg("spec"), nb::arg("statics"), nb::arg("terrain"))
      .def_prop_ro("model_features", &ObservationEncoder::model_features)
      .def_prop_ro("objective_features", &ObservationEncoder::objective_features)
      .def_prop_ro("global_features", &ObservationEncoder::global_features)
      .def_prop_ro("flat_size", &ObservationEncoder::flat_size)
      .def_prop_ro("raster_bytes", &ObservationEncoder::raster_size_bytes)
      .def("nearest_enemies", &ObservationEncoder::nearest_enemies, nb::arg("state"))
      .def(
          "encode",
          [](const ObservationEncoder& enc, const GameState& state, int side, Codes1 sight) {
            auto* data = new float[enc.flat_size()];
            nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<float*>(p); });
            enc.encode(state, side, codes(sight.data(), sight.shape(0)), {data, enc.flat_size()});
            return FloatArray(data, {enc.flat_size()}, owner);
          },
          nb::arg("state"), nb::arg("side"), nb::arg("sight"), "The flat float32 observation of one state.")
      .def(
          "encode_into",
          [](const ObservationEncoder& enc, const std::vector<const GameState*>& states, const std::vector<int>& sides,
             Codes2 sight, Floats2 out) {
            // The batched interface: every argument is checked and converted while the GIL is held;
            // the encoding itself runs without it, straight into the caller's array.
            const std::size_t count = states.size();
            if (sides.size() != count || out.shape(0) != count || out.shape(1) != enc.flat_size() ||
                sight.shape(0) != count) {
              throw std::invalid_argument("encode_into: states, sides, sight rows and out rows must agree (" +
                                          std::to_string(count) + " states, out rows of " +
                                          std::to_string(enc.flat_size()) + " floats)");
            }
            for (const GameState* state : states) {
              if (state == nullptr) {
                throw std::invalid_argument("encode_into: a state is None");
              }
            }
            const std::size_t width = enc.flat_size();
            const std::size_t codes_per_state = sight.shape(1);
            const std::int8_t* sight_data = sight.data();
            float* out_data = out.data();
            nb::gil_scoped_release release;
            for (std::size_t k = 0; k < count; ++k) {
              enc.encode(*states[k], sides[k], codes(sight_data + k * codes_per_state, codes_per_state),
                         {out_data + k * width, width});
            }
          },
          nb::arg("states"), nb::arg("sides"), nb::arg("sight"), nb::arg("out"),
          "Encode N states into out (N, flat_size) float32, the GIL released.")
      .def(
          "encode_raster_into",
          [](const ObservationEncoder& enc, const std::vector<const GameState*>& states, const std::vector<int>& sides,
             Bytes4 out) {
            const std::size_t count = states.size();
            const std::size_t bytes = enc.raster_size_bytes();
            if (sides.size() != count || out.shape(0) != count || out.size() != count * bytes) {
              throw std::invalid_argument("encode_raster_into: states, sides and out (N, C, R, R) must agree");
            }
            std::uint8_t* out_data = out.data();
            nb::gil_scoped_release release;
            for (std::size_t k = 0; k < count; ++k) {
              enc.encode_raster(*states[k], sides[k], {out_data + k * bytes, bytes});
            }
          },
          nb::arg("states"), nb::arg("sides"), nb::arg("out"), "Rasters of N states into out (N, C, R, R) uint8.");

  nb::class_<encoding::PairSpec>(module, "PairSpec", "What the entity pair encoder reads besides the state.")
      .def(nb::init<>())
      .def_rw("models_per_side", &encoding::PairSpec::models_per_side)
      .def_rw("charge_reach_factor", &encoding::PairSpec::charge_reach_factor)
      .def_rw("charge_paths", &encoding::PairSpec::charge_paths)
      .def_rw("contact_tolerance", &encoding::PairSpec::contact_tolerance);

  nb::class_<encoding::PairEncoder>(module, "PairEncoder",
                                    "The entity observation's pair block (riven_env/encoding/entity.py).")
      .def(
          "__init__",
          [](encoding::PairEncoder* self, encoding::PairSpec spec, std::shared_ptr<game::GameStatic> statics) {
            new (self) encoding::PairEncoder(spec, statics);
          },
          nb::arg("spec"), nb::arg("statics"))
      .def_prop_ro("size", &encoding::PairEncoder::size)
      .def_static("features", &encoding::PairEncoder::features, "The pair columns (entity.py PAIR_FEATURES).")
      .def(
          "encode_into",
          [](const encoding::PairEncoder& enc, const game::ForwardModel& model, const GameState& state, int side,
             nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu> out) {
            // The GIL stays held: the model's planner may be the Python one (a callback).
            game::check_same_game(model, state, "PairEncoder.encode_into");
            enc.encode(model, state, side, std::span(out.data(), out.size()));
          },
          nb::arg("model"), nb::arg("state"), nb::arg("side"), nb::arg("out"),
          "The pair block of one native state for a side into out ((2S)^2 * F_p float32).");

  nb::enum_<encoding::RefKind>(module, "RefKind")
      .value("enemy", encoding::RefKind::Enemy)
      .value("friend", encoding::RefKind::Friend)
      .value("objective", encoding::RefKind::Objective)
      .value("single", encoding::RefKind::Single)
      .value("none", encoding::RefKind::None);

  nb::class_<encoding::CatalogueAction>(module, "CatalogueAction")
      .def(nb::init<>())
      .def_rw("name", &encoding::CatalogueAction::name)
      .def_rw("target", &encoding::CatalogueAction::target)
      .def_rw("allowed_kinds", &encoding::CatalogueAction::allowed_kinds);

  nb::class_<encoding::CatalogueSpec>(module, "CatalogueSpec")
      .def(nb::init<>())
      .def_rw("models_per_side", &encoding::CatalogueSpec::models_per_side)
      .def_rw("objectives", &encoding::CatalogueSpec::objectives)
      .def_rw("max_dice", &encoding::CatalogueSpec::max_dice)
      .def_rw("actions", &encoding::CatalogueSpec::actions)
      .def_rw("destination_refs", &encoding::CatalogueSpec::destination_refs)
      .def_rw("choices", &encoding::CatalogueSpec::choices);

  nb::class_<ActionCatalogue>(module, "ActionCatalogue", "The native action catalogue and mask.")
      .def(
          "__init__",
          [](ActionCatalogue* self, encoding::CatalogueSpec spec, std::shared_ptr<game::GameStatic> statics) {
            new (self) ActionCatalogue(std::move(spec), statics);
          },
          nb::arg("spec"), nb::arg("statics"))
      .def_prop_ro("size", &ActionCatalogue::size)
      .def_prop_ro("labels", &ActionCatalogue::labels)
      .def(
          "index_of",
          [](const ActionCatalogue& cat, const game::Decision& decision, int side) {
            std::string why;
            const int index = cat.index_of(decision, side, &why);
            if (index < 0) {
              throw std::invalid_argument(why);
            }
            return index;
          },
          nb::arg("decision"), nb::arg("side"))
      .def(
          "mask",
          [](const ActionCatalogue& cat, const std::vector<game::Decision>& legal, int side) {
            auto* data = new bool[cat.size()];
            nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<bool*>(p); });
            std::vector<std::uint8_t> cells(cat.size());
            cat.mask(legal, side, cells);
            for (std::size_t k = 0; k < cells.size(); ++k) {
              data[k] = cells[k] != 0;
            }
            return nb::ndarray<nb::numpy, bool, nb::ndim<1>>(data, {cat.size()}, owner);
          },
          nb::arg("legal"), nb::arg("side"), "The bool mask of the legal decisions of the side to play.");
}

}  // namespace riven::bindings
