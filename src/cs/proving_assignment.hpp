// ProvingAssignment: what the Groth16 prover needs from synthesis, exactly as bellperson computes
// it: per constraint the evaluations a = <A_j, w>, b = <B_j, w>, c = <C_j, w>; the input and aux
// assignments; and the density bitmaps of the A query over aux and the B query over inputs and aux.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cs/constraint_system.hpp"
#include "cs/density.hpp"
#include "cs/density_rule.hpp"

namespace cuzk {

class ProvingAssignment final : public ConstraintSystem {
 public:
  // Allocates input 0 = ONE, as the prover does before calling synthesize.
  ProvingAssignment();

  Variable alloc(NameFn name, ValueFn value) override;
  Variable alloc_input(NameFn name, ValueFn value) override;
  void enforce(NameFn name, LcFn a, LcFn b, LcFn c) override;

  // Capacity for a circuit of known shape (e.g. from its parameters: rows <= the domain size),
  // so the vectors never regrow and copy. Optional; values are unchanged.
  void reserve(size_t rows, size_t inputs, size_t aux);

  // Appends input_i * 0 = 0 for every input (after synthesis), which makes the A query dense
  // over inputs and binds the inputs into the QAP. Call once.
  void add_input_constraints();

  std::vector<Fr> a, b, c;
  std::vector<Fr> input_assignment, aux_assignment;
  DensityTracker a_aux_density, b_input_density, b_aux_density;

  // The first constraint whose evaluations do not satisfy a * b = c, checked as each constraint is
  // enforced (one product per constraint): a prover must refuse such a witness instead of
  // producing a proof that cannot verify. The name callback is only called for this one.
  struct Unsatisfied {
    size_t index;
    std::string name;
  };
  const std::optional<Unsatisfied>& first_unsatisfied() const { return first_unsatisfied_; }

 private:
  LinearCombination scratch_;
  std::optional<Unsatisfied> first_unsatisfied_;
};

}  // namespace cuzk
