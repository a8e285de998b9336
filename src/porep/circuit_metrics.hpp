// The size of one PoRep partition circuit (cs/circuit_metrics.hpp counts any circuit): what
// `cuzk porep info` prints and the count oracles compare with the facts sheet (7.1).
#pragma once

#include "cs/circuit_metrics.hpp"
#include "porep/public_params.hpp"
#include "porep/stacked_circuit.hpp"

namespace cuzk::porep {

using cuzk::CircuitMetrics;
using cuzk::measure_circuit;

// The blank circuit of `pp`.
CircuitMetrics measure_circuit(const PublicParams& pp, bool track_density);

}  // namespace cuzk::porep
