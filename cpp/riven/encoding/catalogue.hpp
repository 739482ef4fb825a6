// The action catalogue: riven_env/encoding/catalogue.py's fixed, side-relative numbering of every
// decision of a scenario, and the action mask over native decisions.
//
// The entries, in order: pass; activate own:s dice:d; bonus own:s; per action of the rules data
// (data order) one entry per target its kind allows; the resolution system's choice vocabulary;
// spend accept. Decisions are game::Decision records whose ids refer to the game's static
// vocabularies (actions, options, destination kinds).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "riven/game/decision.hpp"
#include "riven/game/state.hpp"

namespace riven::encoding {

/// How a destination kind's ref is read (encoding config REF_KINDS).
enum class RefKind : std::uint8_t { Enemy, Friend, Objective, Single, None };

/// An action of the rules data and its target kind ("none", "enemy", "friend", "objective",
/// "destination"), with the destination kinds it may take (empty: every kind).
struct CatalogueAction {
  std::string name;
  std::string target;
  std::vector<std::string> allowed_kinds;
};

struct CatalogueSpec {
  int models_per_side = 0;
  int objectives = 1;
  int max_dice = 3;
  std::vector<CatalogueAction> actions;                          // rules data order
  std::vector<std::pair<std::string, RefKind>> destination_refs;  // encoding.toml order
  std::vector<std::pair<std::string, std::string>> choices;       // (kind, option)
};

class ActionCatalogue {
 public:
  ActionCatalogue(CatalogueSpec spec, std::shared_ptr<const game::GameStatic> statics);

  [[nodiscard]] std::size_t size() const { return labels_.size(); }
  [[nodiscard]] const std::vector<std::string>& labels() const { return labels_; }
  /// The index of `decision` taken by `side`; -1 when the catalogue has no entry for it, with
  /// the reason in `why` when given.
  [[nodiscard]] int index_of(const game::Decision& decision, int side, std::string* why = nullptr) const;
  /// The mask of `legal` (decisions of the side `side` to play) into `out` (size() bytes, 0/1).
  /// Throws std::invalid_argument when a decision has no index or two share one.
  void mask(std::span<const game::Decision> legal, int side, std::span<std::uint8_t> out) const;

 private:
  struct Key {
    std::int16_t kind = 0;  // game decision kind id
    std::int16_t a = -1;    // slot, destination kind id or option id
    std::int16_t b = -1;    // dice or ref slot
    friend bool operator==(const Key&, const Key&) = default;
  };
  [[nodiscard]] int find(const Key& key) const;
  [[nodiscard]] static std::uint64_t packed(const Key& key);
  // An action's target, read once from its name (index_of is asked for every legal decision
  // of every step of a batch).
  enum class Target : std::uint8_t { kNone, kEnemy, kFriend, kObjective, kDestination, kOther };
  [[nodiscard]] int slot_of(int model, int side) const;

  CatalogueSpec spec_;
  std::shared_ptr<const game::GameStatic> statics_;
  std::vector<Key> keys_;
  std::vector<std::string> labels_;
  std::vector<std::string> action_targets_;   // by action id ("" for decision-point kinds)
  std::vector<Target> target_codes_;          // by action id: action_targets_, read
  std::unordered_map<std::uint64_t, int> index_;  // packed key -> its first index in keys_
  std::vector<int> destination_refs_;        // by destination kind id: RefKind, or -1 absent
  std::vector<int> slots_;                   // model -> slot within its side
};

}  // namespace riven::encoding
