// SnapDeals (SNAP_DEALS_UPDATE) in the engine, as Curio's Go client sends it
// (curio lib/ffi/cuzk_funcs.go ProveUpdateCuzk, tasks/proofshare computeSnap):
//
//   registered_proof  the RegisteredUpdateProof (0-4: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB); it
//                     names the circuit ("snap-2k" ... "snap-64g");
//   sector_size       the sector's size, or 0 (derived from the proof type);
//   vanilla_proofs    one bincode PartitionProof per partition (GenerateUpdateVanillaProofs);
//   comm_r_old, comm_r_new, comm_d_new   raw 32-byte commitments (stored byte order).
//
// Before anything is proved the payload is checked: commitment lengths, the partition count of the
// sector size, each proof's decoding and shape, and the whole vanilla verifier
// (update::check_update_vanilla); a failure fails the job with the reason.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/handlers/circuit_handler.hpp"
#include "update/update_partitions.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_vanilla.hpp"

namespace cuzk::engine {

std::shared_ptr<const CircuitHandler> make_update_handler();
// The circuit id of a sector size: "snap-32g" (both variants share it).
std::string update_circuit_id(uint64_t sector_size);

// The kind's partitions (update/update_partitions.hpp), under the engine's name.
using update::make_update_job;

}  // namespace cuzk::engine
