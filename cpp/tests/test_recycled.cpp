// Recycled<T>: a vector that takes its storage from the thread's pool and gives it back,
// emptied, so the hot paths stop allocating once warm; and it is still a plain vector.
#include <cstddef>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "check.hpp"
#include "riven/recycled.hpp"

namespace {

using riven::Recycled;

// Sums through the base class, as the core's functions taking std::vector<T>& see a Recycled.
int sum(const std::vector<int>& values) {
  int total = 0;
  for (const int v : values) total += v;
  return total;
}

}  // namespace

int main() {
  // The storage of a destroyed vector is handed to the next one of its type, empty.
  const int* first = nullptr;
  std::size_t capacity = 0;
  {
    Recycled<int> values(100, 7);
    RIVEN_CHECK(values.size() == 100 && values[99] == 7);
    RIVEN_CHECK(sum(values) == 700);
    first = values.data();
    capacity = values.capacity();
  }
  {
    Recycled<int> again;
    RIVEN_CHECK(again.empty());
    RIVEN_CHECK(again.capacity() == capacity);
    RIVEN_CHECK(again.data() == first);
    again.push_back(3);  // no allocation: the capacity is there
    RIVEN_CHECK(again.data() == first && again.front() == 3);
  }

  // Nested vectors each get their own storage.
  {
    Recycled<int> outer(4, 1);
    Recycled<int> inner(4, 2);
    RIVEN_CHECK(outer.data() != inner.data());
    RIVEN_CHECK(sum(outer) == 4 && sum(inner) == 8);
  }

  // Copies and moves keep vector semantics.
  {
    Recycled<std::string> names;
    names.emplace_back("move");
    names.emplace_back("a name well past the small-string buffer");
    Recycled<std::string> copy(names);
    RIVEN_CHECK(copy.size() == 2 && copy[1] == names[1]);
    Recycled<std::string> moved(std::move(copy));
    RIVEN_CHECK(moved.size() == 2 && moved[0] == "move");
    Recycled<std::string> assigned;
    assigned = moved;
    RIVEN_CHECK(assigned.size() == 2 && assigned[1] == names[1]);
    assigned = std::move(names);
    RIVEN_CHECK(assigned.size() == 2 && assigned[0] == "move");
    RIVEN_CHECK(names.empty());  // emptied, as a moved-from std::vector is
  }
  {
    Recycled<std::string> reused;
    RIVEN_CHECK(reused.empty());  // given back cleared: no stale strings
  }

  // Moving the storage out into a plain vector is allowed (the pool just does not get it back).
  std::vector<int> kept;
  {
    Recycled<int> values(3, 5);
    kept = std::move(values);
  }
  RIVEN_CHECK(kept.size() == 3 && sum(kept) == 15);

  // A thread has its own pool, freed when the thread ends (ASan reports a leak otherwise).
  std::thread worker([] {
    for (int round = 0; round < 100; ++round) {
      Recycled<double> a(1000, 1.0);
      Recycled<double> b(10, 2.0);
      RIVEN_CHECK(a.size() == 1000 && b.size() == 10);
    }
  });
  worker.join();

  // Many live at once: the pool keeps a bounded number, the rest are freed as usual.
  {
    std::vector<Recycled<int>> many(200);
    for (Recycled<int>& v : many) v.assign(10, 1);
  }
  {
    Recycled<int> after(10, 0);
    RIVEN_CHECK(after.size() == 10);
  }
  return RIVEN_TEST_RESULT();
}
