// Vectors whose storage a thread keeps for the next one of the same type.
//
// A route plan, a menu of legal decisions or an observation builds the same short-lived
// arrays over and over (a batched step builds about ninety); the C library's malloc and
// free for each cost more than the work done on most of them. A Recycled<T> is a
// std::vector<T> that takes its storage from the thread's pool of T vectors when built and
// gives it back, emptied, when destroyed, so a hot path stops allocating once warm.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace riven {

template <class T>
class Recycled : public std::vector<T> {
 public:
  Recycled() : std::vector<T>(take()) {}
  explicit Recycled(std::size_t count) : std::vector<T>(take()) { this->resize(count); }
  Recycled(std::size_t count, const T& value) : std::vector<T>(take()) { this->assign(count, value); }
  Recycled(const Recycled& other) : std::vector<T>(take()) { this->assign(other.begin(), other.end()); }
  Recycled(Recycled&& other) noexcept : std::vector<T>(std::move(static_cast<std::vector<T>&>(other))) {}
  Recycled& operator=(const Recycled& other) {
    if (this != &other) this->assign(other.begin(), other.end());
    return *this;
  }
  Recycled& operator=(Recycled&& other) noexcept {
    // other takes this one's storage, emptied as a moved-from vector is, and returns it to the
    // pool when it goes.
    std::vector<T>::swap(other);
    other.clear();
    return *this;
  }
  ~Recycled() { give(std::move(static_cast<std::vector<T>&>(*this))); }

 private:
  // Bounds on what a thread keeps: enough vectors for the deepest nesting of a hot path, none
  // so large that an idle thread holds much memory.
  static constexpr std::size_t kKept = 32;
  static constexpr std::size_t kLargest = std::size_t{1} << 16;

  using Pool = std::vector<std::vector<T>>;

  // The thread's pool is reached through one trivial thread_local (one TLS lookup, no guard):
  // a pointer to the vectors, which live in a holder that frees them when the thread ends and
  // marks the slot ended, after which nothing more is kept.
  struct Slot {
    Pool* kept = nullptr;
    bool ended = false;
  };
  static Slot& slot() noexcept {
    thread_local Slot current;
    return current;
  }
  struct Holder {
    Pool kept;
    ~Holder() {
      Slot& s = slot();
      s.kept = nullptr;
      s.ended = true;
    }
  };
  static Pool* open(Slot& s) {
    thread_local Holder holder;
    s.kept = &holder.kept;
    holder.kept.reserve(kKept);  // so that give's push_back never allocates (or throws)
    return s.kept;
  }

  static std::vector<T> take() noexcept {
    Slot& s = slot();
    if (s.kept == nullptr || s.kept->empty()) return {};
    std::vector<T> items = std::move(s.kept->back());
    s.kept->pop_back();
    return items;
  }
  static void give(std::vector<T>&& items) noexcept {
    if (items.capacity() == 0 || items.capacity() > kLargest) return;
    Slot& s = slot();
    Pool* kept = s.kept;
    if (kept == nullptr) {
      if (s.ended) return;
      try {
        kept = open(s);
      } catch (...) {
        return;
      }
    }
    if (kept->size() >= kKept) return;
    items.clear();
    kept->push_back(std::move(items));
  }
};

}  // namespace riven
