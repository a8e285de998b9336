// RecordedCircuit: the R1CS of one circuit shape, recorded once (RecordingCS) and reused for every
// proof of that shape, so that a proof only generates its witness (WitnessCS) and evaluates
// a = A w, b = B w, c = C w as sparse matrix-vector products (spmv.hpp).
//
// Rows are the circuit's constraints followed by the input rows bellperson appends
// (input_i * 0 = 0: A holds input_i with coefficient 1). Columns are the variables in the
// prover's order: inputs first (column 0 = ONE), then aux (column num_inputs + j). A row keeps
// one entry per variable with a non-zero coefficient (a variable's terms merged, as bellpepper's
// LinearCombination merges them), sorted by column. Coefficients are stored once in a table and
// referenced by a 16-bit index: a PoRep partition has 722 million entries but only a few
// thousand distinct coefficients (1, -1, powers of two, Poseidon's constants).
//
// The density bitmaps are those of the proving assignment (a variable counts when it appears in
// some A or B combination, whatever its coefficient), which fix the lengths and order of the
// parameters' a, b_g1, b_g2 vectors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "cs/density.hpp"
#include "ff/fr.hpp"
#include "pce/identity.hpp"

namespace cuzk::pce {

using CoefficientIndex = uint16_t;
inline constexpr size_t kMaxCoefficients = size_t{1} << 16;

// One of A, B, C in compressed sparse rows.
struct CsrMatrix {
  std::span<const uint32_t> row_ptr;         // rows + 1 offsets into cols / coeffs
  std::span<const uint32_t> cols;            // column of each entry
  std::span<const CoefficientIndex> coeffs;  // its coefficient's index in the table

  size_t rows() const { return row_ptr.empty() ? 0 : row_ptr.size() - 1; }
  size_t nnz() const { return cols.size(); }
};

struct RecordedCircuit {
  CircuitIdentity identity;
  size_t num_inputs = 0;  // including ONE
  size_t num_aux = 0;
  size_t num_rows = 0;  // constraints + input rows
  std::span<const Fr> coefficients;
  CsrMatrix a, b, c;
  DensityTracker a_aux_density, b_input_density, b_aux_density;
  // Owns what the spans view (vectors of a fresh recording, or the mapping of a PCE file).
  std::shared_ptr<const void> storage;
  uint64_t storage_bytes = 0;  // the matrices and the table (memory budgets, logs)

  size_t num_columns() const { return num_inputs + num_aux; }
  size_t nnz() const { return a.nnz() + b.nnz() + c.nnz(); }
};

}  // namespace cuzk::pce
