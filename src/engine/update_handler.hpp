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

#include "engine/circuit_handler.hpp"
#include "update/vanilla/update_params.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_vanilla.hpp"

namespace cuzk::engine {

std::shared_ptr<const CircuitHandler> make_update_handler();

// The prepared job of vanilla proofs that update::check_update_vanilla accepted: what prepare()
// makes of a request, and where `cuzk update prove` gets its partitions. `payload_bytes`: the
// proofs' bincode size.
std::unique_ptr<PreparedJob> make_update_job(filecoin::UpdateParams pp,
                                             filecoin::UpdatePublicInputs in,
                                             std::vector<filecoin::UpdatePartitionProof> proofs,
                                             uint64_t payload_bytes);

}  // namespace cuzk::engine
