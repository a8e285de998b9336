// WinningPoSt (WINNING_POST) and a WindowPoSt partition (WINDOW_POST_PARTITION) in the engine:
// the request's registered PoSt proof names the circuit ("winning-32g", "wpost-32g"; Window V1 and
// V1_2 share one circuit and one parameter file); the payload is the per-sector vanilla proofs
// Curio sends, with randomness, partition index and miner id, decoded and verified as
// post/vanilla/post_request.hpp does it before anything is proved; the job is one partition
// (a Window request with more sectors than a partition holds: consecutive partitions from
// partition_index, proofs concatenated), its circuit the FallbackPoSt circuit of
// post/fallback_circuit.hpp. Curio submits WinningPoSt at
// CRITICAL and WindowPoSt at HIGH priority, so the scheduler gives them the next synthesis slot
// and the next prover after the partitions already in the prover queue.
#pragma once

#include <memory>

#include "engine/handlers/circuit_handler.hpp"
#include "post/post_partitions.hpp"
#include "post/vanilla/post_request.hpp"

namespace cuzk::engine {

std::shared_ptr<const CircuitHandler> make_winning_post_handler();
std::shared_ptr<const CircuitHandler> make_window_post_handler();
// The circuit id of a PoSt kind and sector size: "winning-32g", "wpost-32g".
std::string post_circuit_id(filecoin::PoStKind kind, uint64_t sector_size);

// The kind's partitions (post/post_partitions.hpp), under the engine's name.
using post::make_post_job;

}  // namespace cuzk::engine
