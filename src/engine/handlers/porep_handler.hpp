// PoRep C2 (POREP_SEAL_COMMIT) in the engine: the request's registered proof names the circuit
// ("porep-32g"; NI-PoRep, whose partitions have another challenge count, "porep-ni-32g"); the
// payload is the C1 output JSON (bare, or the c1.json wrapper), checked as `cuzk porep c2`
// checks it before anything is proved (porep/seal_commit_phase2.hpp check_c1).
#pragma once

#include <cstdint>
#include <memory>

#include "engine/handlers/circuit_handler.hpp"
#include "porep/porep_partitions.hpp"
#include "porep/public_params.hpp"
#include "porep/vanilla/porep_proof.hpp"

namespace cuzk::engine {

std::shared_ptr<const CircuitHandler> make_porep_handler();
// The circuit id of a sector size: "porep-32g", or "porep-ni-32g" for NI-PoRep.
std::string porep_circuit_id(uint64_t sector_size, bool non_interactive);

// The kind's partitions (porep/porep_partitions.hpp), under the engine's name.
using porep::make_porep_job;

}  // namespace cuzk::engine
