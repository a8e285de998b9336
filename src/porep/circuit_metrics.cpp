#include "porep/circuit_metrics.hpp"

#include <chrono>

#include "cs/metric_cs.hpp"

namespace cuzk::porep {

size_t CircuitMetrics::domain_size() const {
  size_t m = 1;
  while (m < prover_rows())
    m <<= 1;
  return m;
}

CircuitMetrics measure_circuit(const Circuit& circuit, bool track_density) {
  const auto t0 = std::chrono::steady_clock::now();
  MetricCS cs(track_density);
  circuit.synthesize(cs);
  CircuitMetrics m;
  m.inputs = cs.num_inputs();
  m.aux = cs.num_aux();
  m.constraints = cs.num_constraints();
  if (track_density) {
    m.has_density = true;
    m.a_aux_density = cs.a_aux_density().popcount();
    m.b_input_density = cs.b_input_density().popcount();
    m.b_aux_density = cs.b_aux_density().popcount();
  }
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

CircuitMetrics measure_circuit(const PublicParams& pp, bool track_density) {
  return measure_circuit(StackedCircuit::blank(pp), track_density);
}

}  // namespace cuzk::porep
