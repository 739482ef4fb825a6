// One function per core package, each defined in bind_<package>.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace riven::bindings {

void bind_rules(nanobind::module_& module);
/// The Riddle of Steel's rules data and engine (bind_riddle_of_steel.cpp; bind_rules calls it).
void bind_riddle_of_steel(nanobind::module_& module);
void bind_table(nanobind::module_& module);
void bind_game(nanobind::module_& module);
void bind_encoding(nanobind::module_& module);
void bind_game_loop(nanobind::module_& module);
void bind_oracle(nanobind::module_& module);
void bind_batch(nanobind::module_& module);
void bind_agents(nanobind::module_& module);

}  // namespace riven::bindings
