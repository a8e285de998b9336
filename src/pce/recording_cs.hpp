// RecordingCS: synthesizes a circuit once, without a witness, into a RecordedCircuit (CSR
// matrices over inputs | aux, a coefficient table, the proving assignment's density bitmaps).
// Works for any Circuit: it sees only the ConstraintSystem calls. Value callbacks are never
// called, so the blank circuit of a shape (no witness) records it; a circuit whose variables or
// constraints depended on its witness would break every proving system alike (the tests check
// that PoRep's do not).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "cs/constraint_system.hpp"
#include "cs/density.hpp"
#include "pce/coefficient_table.hpp"
#include "pce/recorded_circuit.hpp"

namespace cuzk::pce {

class RecordingCS final : public ConstraintSystem {
 public:
  RecordingCS();  // allocates input 0 = ONE, as the prover does before synthesize

  Variable alloc(NameFn name, ValueFn value) override;
  Variable alloc_input(NameFn name, ValueFn value) override;
  void enforce(NameFn name, LcFn a, LcFn b, LcFn c) override;

  // Called with 2^20 after every 2^20 constraints (progress of a long recording).
  void on_progress(std::function<void(uint64_t)> progress) { progress_ = std::move(progress); }

  size_t num_inputs() const { return num_inputs_; }
  size_t num_aux() const { return num_aux_; }
  size_t num_constraints() const { return num_constraints_; }

  // Appends the input rows, numbers the columns and hands the recording over. Call once.
  // std::invalid_argument when the circuit does not fit the format (over 2^31 variables of a
  // kind, 2^32 entries in a matrix, or 2^16 distinct coefficients).
  RecordedCircuit finish(const CircuitIdentity& identity) &&;

 private:
  // Entries of one matrix while recording: columns tagged kAuxTag for aux (the number of inputs
  // is known only at the end), rows as end offsets.
  struct Builder {
    std::vector<uint32_t> row_end, cols;
    std::vector<CoefficientIndex> coeffs;
  };
  static constexpr uint32_t kAuxTag = 0x8000'0000u;
  void record(LcFn fn, Builder& m, DensityTracker* input_density, DensityTracker* aux_density);

  size_t num_inputs_ = 0, num_aux_ = 0, num_constraints_ = 0;
  Builder a_, b_, c_;
  DensityTracker a_aux_density_, b_input_density_, b_aux_density_;
  CoefficientTable table_;
  LinearCombination scratch_;
  std::vector<std::pair<uint32_t, Fr>> merged_;
  std::function<void(uint64_t)> progress_;
};

}  // namespace cuzk::pce
