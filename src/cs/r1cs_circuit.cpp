#include "cs/r1cs_circuit.hpp"

#include <string>

namespace cuzk {
namespace {

std::vector<size_t> row_starts(const std::vector<R1csEntry>& entries, size_t rows,
                               const char* which) {
  std::vector<size_t> start(rows + 1, 0);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0 && entries[i].row < entries[i - 1].row) {
      throw std::invalid_argument(std::string("R1csCircuit: ") + which +
                                  " entries are not grouped by row");
    }
    if (entries[i].row >= rows)
      throw std::invalid_argument(std::string("R1csCircuit: ") + which + " row out of range");
    ++start[entries[i].row + 1];
  }
  for (size_t r = 0; r < rows; ++r)
    start[r + 1] += start[r];
  return start;
}

}  // namespace

R1csCircuit::R1csCircuit(const R1cs& r1cs, std::span<const Fr> witness)
    : r1cs_(r1cs), witness_(witness) {
  if (!witness.empty()) {
    if (witness.size() != r1cs.num_inputs + r1cs.num_aux) {
      throw std::invalid_argument("R1csCircuit: witness has " + std::to_string(witness.size()) +
                                  " values, the system " +
                                  std::to_string(r1cs.num_inputs + r1cs.num_aux) + " variables");
    }
    if (!witness[0].is_one()) throw std::invalid_argument("R1csCircuit: witness[0] (ONE) is not 1");
  }
  a_start_ = row_starts(r1cs.a, r1cs.num_constraints, "A");
  b_start_ = row_starts(r1cs.b, r1cs.num_constraints, "B");
  c_start_ = row_starts(r1cs.c, r1cs.num_constraints, "C");
}

void R1csCircuit::synthesize(ConstraintSystem& cs) const {
  const auto value = [&](size_t i) {
    if (witness_.empty())
      throw SynthesisError(SynthesisError::Kind::kAssignmentMissing, "R1csCircuit has no witness");
    return witness_[i];
  };
  for (size_t i = 1; i < r1cs_.num_inputs; ++i) {
    cs.alloc_input([&] { return "input " + std::to_string(i); }, [&] { return value(i); });
  }
  for (size_t i = 0; i < r1cs_.num_aux; ++i) {
    cs.alloc([&] { return "aux " + std::to_string(i); },
             [&] { return value(r1cs_.num_inputs + i); });
  }
  for (size_t row = 0; row < r1cs_.num_constraints; ++row) {
    const auto fill = [&](const std::vector<R1csEntry>& m, const std::vector<size_t>& start) {
      return [&m, &start, row](LinearCombination& lc) {
        for (size_t k = start[row]; k < start[row + 1]; ++k)
          lc.add(m[k].coeff, m[k].var);
      };
    };
    cs.enforce([&] { return "constraint " + std::to_string(row); }, fill(r1cs_.a, a_start_),
               fill(r1cs_.b, b_start_), fill(r1cs_.c, c_start_));
  }
}

}  // namespace cuzk
