#pragma once
// Per-thread memos of the tabletop's pure queries (a link's cost, the sight between two bases):
// direct-mapped, so a lookup is one probe and nothing is allocated after the first.
//
// A query qualifies when its answer depends only on its arguments and on geometry that never
// changes once built (named by a uid, never by an address that a later object could reuse).
// An answer is the very value the computation gives, whichever call asked first, so a memo
// changes the work done, never a result.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace riven::table {

/// splitmix64's finaliser over each word: the slot of a key.
inline std::uint64_t mix_words(std::uint64_t h, std::uint64_t word) {
  std::uint64_t z = h ^ (word + 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The key of a memo: the words that name a query (uids and the bits of its doubles).
template <std::size_t Words>
struct MemoKey {
  std::array<std::uint64_t, Words> words{};
  friend bool operator==(const MemoKey&, const MemoKey&) = default;

  [[nodiscard]] std::uint64_t hash() const {
    std::uint64_t h = 0;
    for (const std::uint64_t word : words) h = mix_words(h, word);
    return h;
  }
};

/// ``Slots`` (a power of two) recent answers: a key's slot holds the last query that hashed there.
template <class Key, class Value, std::size_t Slots>
class DirectMemo {
  static_assert((Slots & (Slots - 1)) == 0, "the slots are a power of two");

 public:
  template <class Compute>
  Value answer(const Key& key, Compute&& compute) {
    Slot& slot = slots_[static_cast<std::size_t>(key.hash()) & (Slots - 1)];
    if (slot.filled && slot.key == key) return slot.value;
    slot.value = compute();
    slot.key = key;
    slot.filled = true;
    return slot.value;
  }

 private:
  struct Slot {
    Key key;
    Value value{};
    bool filled = false;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(Slots);
};

}  // namespace riven::table
