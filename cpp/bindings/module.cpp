// riven_env._native: the one binding module of the native core. It stays thin: it converts
// arguments and results and calls into cpp/riven; no rule lives here. Each package of the core
// binds itself in a bind_<package>.cpp beside this file.
#include <nanobind/nanobind.h>

#include "bindings.hpp"

NB_MODULE(_native, module) {
  module.doc() = "RIVEN Lab native core (C++20), the compiled twin of the Python engine.";
  module.attr("ABI_VERSION") = 1;
  riven::bindings::bind_rules(module);
  riven::bindings::bind_table(module);
  riven::bindings::bind_game(module);
  riven::bindings::bind_encoding(module);
  riven::bindings::bind_game_loop(module);
  riven::bindings::bind_oracle(module);
  riven::bindings::bind_batch(module);
  riven::bindings::bind_agents(module);
}
