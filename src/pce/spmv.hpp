// The evaluations of a recorded circuit on a witness: a = A w, b = B w, c = C w, one per row,
// where w = (inputs | aux) — the CPU twin of the device SpMV (gpu/spmv/spmv.hpp), and the prover's
// input in place of the classic proving assignment's a, b, c.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cs/constraint_system.hpp"
#include "pce/compact_witness.hpp"
#include "pce/recorded_circuit.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::pce {

// std::invalid_argument when the witness does not have the circuit's inputs and aux, or the spans
// are shorter than its rows. Writes the first num_rows entries of a, b, c.
void evaluate(const RecordedCircuit& rc, const CompactWitness& w, std::span<Fr> a, std::span<Fr> b,
              std::span<Fr> c, ThreadPool& pool);

// The first row r < rows with a[r] * b[r] != c[r], if any.
std::optional<size_t> first_unsatisfied_row(std::span<const Fr> a, std::span<const Fr> b,
                                            std::span<const Fr> c, ThreadPool& pool);

// What every prover throws when row `row` of `rc` does not hold (the CPU backend and each of the
// GPU backend's paths, found by first_unsatisfied_row or its device twin): one message for all.
SynthesisError unsatisfied_row_error(size_t row, const RecordedCircuit& rc);

// SHA-256, in hex, of the canonical little-endian bytes of a, then b, then c: one line to compare
// the evaluations of two synthesis modes or machines (`cuzk-bench synth-only` prints it).
std::string abc_sha256_hex(std::span<const Fr> a, std::span<const Fr> b, std::span<const Fr> c);

// The witness has the shape the recording needs: std::invalid_argument saying what differs.
void check_witness_shape(const RecordedCircuit& rc, const CompactWitness& w);

}  // namespace cuzk::pce
