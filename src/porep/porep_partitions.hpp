// PoRep C2's partitions: a C1 output that check_c1 (seal_commit_phase2.hpp) accepted, partition k
// its StackedCircuit with the witness and its native public inputs. What the engine's handler
// makes of a request and where `cuzk porep c2` gets its partitions.
#pragma once

#include <cstdint>
#include <memory>

#include "circuits/proof_partitions.hpp"
#include "porep/public_params.hpp"
#include "porep/vanilla/porep_proof.hpp"

namespace cuzk::porep {

// `payload_bytes`: the C1 JSON's size (the parsed C1 is about as large).
std::unique_ptr<circuits::PreparedJob> make_porep_job(filecoin::SealCommitPhase1Output c1,
                                                      PublicParams pp, uint64_t payload_bytes);

}  // namespace cuzk::porep
