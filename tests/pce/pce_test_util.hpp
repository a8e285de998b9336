// Helpers of the pce tests.
#pragma once

#include <bit>
#include <cstddef>
#include <stdexcept>

#include "pce/compact_witness.hpp"
#include "pce/recorded_circuit.hpp"

namespace cuzk::test {

using pce::CompactWitness;
using pce::CsrMatrix;
using pce::RecordedCircuit;

// The aux index holding w.aux_values[rank].
inline size_t aux_of_value(const CompactWitness& w, size_t rank) {
  for (size_t word = 0; word < w.aux_dense.size(); ++word) {
    const auto n = static_cast<size_t>(std::popcount(w.aux_dense[word]));
    if (rank < n) {
      uint64_t bits = w.aux_dense[word];
      for (size_t k = 0; k < rank; ++k)
        bits &= bits - 1;
      return word * 64 + static_cast<size_t>(std::countr_zero(bits));
    }
    rank -= n;
  }
  throw std::out_of_range("no such dense value");
}

// The first row of A, B or C with an entry in the column of dense value `rank`.
inline size_t first_row_reading(const RecordedCircuit& rc, const CompactWitness& w, size_t rank) {
  const size_t col = rc.num_inputs + aux_of_value(w, rank);
  size_t best = rc.num_rows;
  for (const CsrMatrix* m : {&rc.a, &rc.b, &rc.c}) {
    for (size_t r = 0; r < m->rows() && r < best; ++r) {
      for (uint32_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; ++k)
        if (m->cols[k] == col) best = r;
    }
  }
  return best;
}

}  // namespace cuzk::test
