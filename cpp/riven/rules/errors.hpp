// The core's validation errors. Both are std::invalid_argument (Python ValueError at the seam);
// the binding module gives each its own Python class so that riven_env/native/rules.py can raise
// the project's matching error (riven_env/errors.py) with the same message as the Python engine.
#pragma once

#include <stdexcept>
#include <string>

namespace riven::rules {

/// A decision that is not legal now (Python: IllegalActionError).
class IllegalAction : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A name or value the rules data does not hold (Python: RulesDataError).
class RulesDataError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A weapon or profile that names what the rules do not define (Python: ProfileError).
class ProfileError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace riven::rules
