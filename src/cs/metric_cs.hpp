// MetricCS: counts inputs, aux variables and constraints without storing constraints; optionally
// also the A/B density bitmaps (one bit per variable), so a 10^8-constraint circuit is measured in
// a few hundred MB at most. Never evaluates a witness.
#pragma once

#include <cstddef>

#include "cs/constraint_system.hpp"
#include "cs/density.hpp"
#include "cs/density_rule.hpp"

namespace cuzk {

class MetricCS final : public ConstraintSystem {
 public:
  explicit MetricCS(bool track_density = false) : track_density_(track_density) {
    alloc_input([] { return std::string("ONE"); }, [] { return Fr::one(); });
  }

  Variable alloc(NameFn, ValueFn) override {
    if (track_density_) {
      a_aux_density_.add_element();
      b_aux_density_.add_element();
    }
    return Variable::aux(static_cast<uint32_t>(num_aux_++));
  }
  Variable alloc_input(NameFn, ValueFn) override {
    if (track_density_) b_input_density_.add_element();
    return Variable::input(static_cast<uint32_t>(num_inputs_++));
  }
  void enforce(NameFn, LcFn a, LcFn b, LcFn) override {
    ++num_constraints_;
    if (!track_density_) return;
    scratch_.clear();
    a(scratch_);
    mark_density(scratch_, nullptr, a_aux_density_);
    scratch_.clear();
    b(scratch_);
    mark_density(scratch_, &b_input_density_, b_aux_density_);
  }

  // Without density tracking no callback of enforce is called.
  bool wants_linear_combinations() const override { return track_density_; }

  size_t num_inputs() const { return num_inputs_; }  // including ONE
  size_t num_aux() const { return num_aux_; }
  size_t num_constraints() const { return num_constraints_; }  // circuit constraints only
  // Density popcounts (track_density only). A over inputs is full: the prover adds input * 0 = 0.
  const DensityTracker& a_aux_density() const { return a_aux_density_; }
  const DensityTracker& b_input_density() const { return b_input_density_; }
  const DensityTracker& b_aux_density() const { return b_aux_density_; }

 private:
  bool track_density_;
  size_t num_inputs_ = 0, num_aux_ = 0, num_constraints_ = 0;
  DensityTracker a_aux_density_, b_input_density_, b_aux_density_;
  LinearCombination scratch_;
};

}  // namespace cuzk
