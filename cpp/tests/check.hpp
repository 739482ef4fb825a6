// A minimal check macro for the native tests: each test binary returns non-zero on failure, which
// ctest reports; the tests also run under AddressSanitizer and UBSan (-DRIVEN_SANITIZE=ON).
#pragma once

#include <cstdlib>
#include <iostream>

namespace riven::testing {
inline int& failures() {
  static int count = 0;
  return count;
}
}  // namespace riven::testing

#define RIVEN_CHECK(condition)                                                           \
  do {                                                                                   \
    if (!(condition)) {                                                                  \
      std::cerr << __FILE__ << ":" << __LINE__ << ": check failed: " #condition "\n"; \
      ++::riven::testing::failures();                                                    \
    }                                                                                    \
  } while (false)

#define RIVEN_TEST_RESULT() (::riven::testing::failures() == 0 ? EXIT_SUCCESS : EXIT_FAILURE)
