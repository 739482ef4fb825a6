// Validation of the core's inputs: a failed check is a std::invalid_argument (Python ValueError
// at the seam) naming what was wrong. Some checks run at every step of a game (the batched env's
// legal-decision index, the encoder's output size): give those their message as a callable, so
// that it is written only when the check fails, never on the way through.
#pragma once

#include <concepts>
#include <stdexcept>
#include <string>
#include <utility>

namespace riven {

inline void require(bool ok, const char* message) {
  if (!ok) {
    throw std::invalid_argument(message);
  }
}

inline void require(bool ok, const std::string& message) {
  if (!ok) {
    throw std::invalid_argument(message);
  }
}

template <class Message>
  requires std::invocable<Message>
inline void require(bool ok, Message&& message) {
  if (!ok) {
    throw std::invalid_argument(std::forward<Message>(message)());
  }
}

}  // namespace riven
