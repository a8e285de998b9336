// The size of one PoRep partition circuit, counted with the metric CS (no constraints stored, no
// witness evaluated), so a 32 GiB partition (~1.3 * 10^8 constraints) is measured in minutes and a
// few tens of MB: what `cuzk porep info` prints and the count oracles compare with the facts
// sheet (7.1).
#pragma once

#include <cstddef>

#include "porep/public_params.hpp"
#include "porep/stacked_circuit.hpp"

namespace cuzk::porep {

struct CircuitMetrics {
  size_t inputs = 0;  // including ONE
  size_t aux = 0;
  size_t constraints = 0;  // circuit constraints (TestConstraintSystem / MetricCS count)
  // With density tracking:
  size_t a_aux_density = 0, b_input_density = 0, b_aux_density = 0;
  bool has_density = false;
  double seconds = 0;

  // Rows of the proving assignment: constraints plus one input * 0 = 0 per input.
  size_t prover_rows() const { return constraints + inputs; }
  // The Groth16 evaluation domain: the smallest power of two >= prover_rows().
  size_t domain_size() const;
};

// Any circuit (the SnapDeals ones are counted the same way).
CircuitMetrics measure_circuit(const Circuit& circuit, bool track_density);
// The blank circuit of `pp`.
CircuitMetrics measure_circuit(const PublicParams& pp, bool track_density);

}  // namespace cuzk::porep
