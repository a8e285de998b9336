// WinningPoSt (WINNING_POST) and a WindowPoSt partition (WINDOW_POST_PARTITION) in the engine:
// the request's registered PoSt proof names the circuit ("winning-32g", "wpost-32g"; Window V1 and
// V1_2 share one circuit and one parameter file); the payload is the per-sector vanilla proofs
// Curio sends, with randomness, partition index and miner id, decoded and verified as
// filecoin/post/post_request.hpp does it before anything is proved; the job is one partition
// (a Window request with more sectors than a partition holds: consecutive partitions from
// partition_index, proofs concatenated), its circuit the FallbackPoSt circuit of
// post/fallback_circuit.hpp. Curio submits WinningPoSt at
// CRITICAL and WindowPoSt at HIGH priority, so the scheduler gives them the next synthesis slot
// and the next prover after the partitions already in the prover queue.
#pragma once

#include <memory>

#include "engine/circuit_handler.hpp"
#include "post/vanilla/post_request.hpp"

namespace cuzk::engine {

std::shared_ptr<const CircuitHandler> make_winning_post_handler();
std::shared_ptr<const CircuitHandler> make_window_post_handler();

// The prepared job (one partition) of a request filecoin::decode_post_request decoded and
// verified: what prepare() makes of a request, and where `cuzk post prove` gets its partition.
std::unique_ptr<PreparedJob> make_post_job(filecoin::PoStJob job);

}  // namespace cuzk::engine
