#include "porep/circuit_metrics.hpp"

namespace cuzk::porep {

CircuitMetrics measure_circuit(const PublicParams& pp, bool track_density) {
  return cuzk::measure_circuit(StackedCircuit::blank(pp), track_density);
}

}  // namespace cuzk::porep
