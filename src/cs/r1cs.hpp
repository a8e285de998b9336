// R1cs: a rank-1 constraint system as three sparse matrices (row = constraint, column = variable),
// the common form of a recorded circuit (KeyAssembly) and of a snarkjs .r1cs file. Setup works
// from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cs/variable.hpp"
#include "ff/fr.hpp"

namespace cuzk {

struct R1csEntry {
  uint32_t row;
  Variable var;
  Fr coeff;
};

struct R1cs {
  size_t num_inputs = 0;  // including ONE (input 0)
  size_t num_aux = 0;
  size_t num_constraints = 0;  // rows, including any input * 0 = 0 rows already appended
  std::vector<R1csEntry> a, b, c;
};

}  // namespace cuzk
