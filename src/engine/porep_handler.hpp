// PoRep C2 (POREP_SEAL_COMMIT) in the engine: the request's registered proof names the circuit
// ("porep-32g"; NI-PoRep, whose partitions have another challenge count, "porep-ni-32g"); the
// payload is the C1 output JSON (bare, or the c1.json wrapper), checked as `cuzk porep c2`
// checks it before anything is proved (porep/seal_commit_phase2.hpp check_c1).
#pragma once

#include <cstdint>
#include <memory>

#include "engine/circuit_handler.hpp"
#include "porep/public_params.hpp"
#include "porep/vanilla/porep_proof.hpp"

namespace cuzk::engine {

std::shared_ptr<const CircuitHandler> make_porep_handler();

// The prepared job of a C1 that check_c1 accepted for `pp`: what prepare() makes of a request,
// and where `cuzk porep c2` gets its partitions. `payload_bytes`: the C1 JSON's size.
std::unique_ptr<PreparedJob> make_porep_job(filecoin::SealCommitPhase1Output c1,
                                            porep::PublicParams pp, uint64_t payload_bytes);

}  // namespace cuzk::engine
