// R1csCircuit: replays a recorded R1cs (rows without the input * 0 = 0 rows) as a Circuit, with
// an optional full witness (inputs, ONE first, then aux). Lets every constraint system and the
// Groth16 setup/prover work from a circom .r1cs + .wtns exactly as from circuit code.
#pragma once

#include <span>
#include <stdexcept>
#include <vector>

#include "cs/constraint_system.hpp"
#include "cs/r1cs.hpp"

namespace cuzk {

class R1csCircuit final : public Circuit {
 public:
  // witness: empty (shape only) or num_inputs + num_aux values with witness[0] == 1.
  R1csCircuit(const R1cs& r1cs, std::span<const Fr> witness);

  void synthesize(ConstraintSystem& cs) const override;

 private:
  const R1cs& r1cs_;
  std::span<const Fr> witness_;
  // Start of each row's entries in r1cs_.a/b/c (entries are grouped by row in row order).
  std::vector<size_t> a_start_, b_start_, c_start_;
};

}  // namespace cuzk
