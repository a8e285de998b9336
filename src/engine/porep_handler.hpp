// PoRep C2 (POREP_SEAL_COMMIT) in the engine: the request's registered proof names the circuit
// ("porep-32g"; NI-PoRep, whose partitions have another challenge count, "porep-ni-32g"); the
// payload is the C1 output JSON (bare, or the c1.json wrapper), checked as `cuzk porep c2`
// checks it before anything is proved (porep/seal_commit_phase2.hpp check_c1).
#pragma once

#include <memory>

#include "engine/circuit_handler.hpp"

namespace cuzk::engine {

std::shared_ptr<const CircuitHandler> make_porep_handler();

}  // namespace cuzk::engine
