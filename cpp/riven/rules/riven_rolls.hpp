// The rolls every system the core has takes from RIVEN v0.1: activation, morale, Out checks,
// the Complication Oracle and the shot table (Invictus keeps them, as the Python
// InvictusResolution inherits them from RivenResolution).
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "riven/rules/activation.hpp"
#include "riven/rules/casualties.hpp"
#include "riven/rules/complications.hpp"
#include "riven/rules/config.hpp"
#include "riven/rules/morale.hpp"
#include "riven/rules/shooting.hpp"

namespace riven::rules {

/// RIVEN's shared rolls on the rules data a system holds.
class RivenRolls {
 public:
  explicit RivenRolls(std::shared_ptr<const RulesConfig> rules) : rules_(std::move(rules)) {}

  [[nodiscard]] const RulesConfig& rules() const { return *rules_; }

  template <class Rng>
  ActivationResult roll_activation(int mettle, int dice, Rng& rng) const {
    return rules::roll_activation(mettle, dice, rng, *rules_);
  }
  [[nodiscard]] int shot_tn(const std::string& cover) const { return rules::shot_tn(cover, *rules_); }
  [[nodiscard]] const ShotEffect& shot_effect(Band band) const { return rules::shot_effect(band, *rules_); }
  template <class Rng>
  MoraleResult roll_morale(int mettle, Rng& rng) const {
    return rules::roll_morale(mettle, rng, *rules_);
  }
  template <class Rng>
  OutCheckResult roll_out_check(int mettle, Rng& rng) const {
    return rules::roll_out_check(mettle, rng, *rules_);
  }
  template <class Rng>
  const Complication& roll_complication(Rng& rng) const {
    return rules::roll_complication(rng, *rules_);
  }

 protected:
  std::shared_ptr<const RulesConfig> rules_;
};

}  // namespace riven::rules
