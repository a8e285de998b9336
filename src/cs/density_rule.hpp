// The prover's density rule: which variables of a constraint's A and B combinations the MSMs
// keep (bellperson's ProvingAssignment::enforce). Out of density.hpp, the bit vector, which CUDA
// sources include: this one needs the linear combinations and their field.
#pragma once

#include "cs/density.hpp"
#include "cs/linear_combination.hpp"

namespace cuzk {

// Sets the bit of every variable in `lc`'s terms: inputs in `inputs` (skipped when null), aux in
// `aux`; a term counts even when its coefficients cancel, as in bellpepper. The prover's rule
// (ProvingAssignment, MetricCS): A marks aux only (inputs are all dense, the prover adding
// input * 0 = 0), B marks both.
inline void mark_density(const LinearCombination& lc, DensityTracker* inputs, DensityTracker& aux) {
  for (const Term& t : lc.terms()) {
    if (!t.var.is_input()) {
      aux.set(t.var.index);
    } else if (inputs != nullptr) {
      inputs->set(t.var.index);
    }
  }
}

}  // namespace cuzk
