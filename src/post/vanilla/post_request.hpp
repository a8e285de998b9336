// What Curio's Go client sends for a PoSt (curio lib/ffi/cuzk_funcs.go WinningPoStCuzk /
// WindowPoStCuzk, the cuzk.v1 SubmitProofRequest fields), decoded and checked as the Rust daemon
// hands them to rust-filecoin-proofs-api post.rs (`generate_winning_post_with_vanilla`,
// `generate_single_window_post_with_vanilla`):
//
//   registered_proof  RegisteredPoStProof id; Window V1_1 in Go (ids 10-14) is Rust's V1_2,
//                     API 1.2.0; it must be of the request's kind (Winning ids 0-4);
//   vanilla_proofs    one bincode FallbackPoStSectorProof per non-skipped sector (the output of
//                     GenerateSingleVanillaProof): exactly one for Winning, 1 ..
//                     sectors-per-partition for a Window partition (skipped sectors are left out
//                     and the rest move up, so a partition may be short: it is padded);
//   randomness        32 bytes, a canonical field element (the caller clears the top two bits:
//                     curio tasks/window/compute_do.go, tasks/winning/winning_task.go);
//                     as_safe_commitment refuses anything else;
//   partition_index   Window: below the actor's 3000 partitions per deadline; Winning: 0;
//   miner_id          the actor id; prover_id = its LEB128 bytes (replica_id.hpp).
//
// Every vanilla proof is verified (post_partition.hpp) before anything is proved, so a bad one
// fails with the sector, challenge and level instead of as an unsatisfiable circuit.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/domain.hpp"
#include "post/vanilla/post_config.hpp"
#include "post/vanilla/post_partition.hpp"

namespace cuzk::filecoin {

// The request was refused; what() says why.
class PoStRequestError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct PoStRequest {
  PoStKind kind = PoStKind::kWindow;  // which proof the client asked for
  uint64_t registered_proof = 0;
  uint64_t sector_size = 0;  // 0: take the registered proof's
  std::span<const std::vector<uint8_t>> vanilla_proofs;
  std::span<const uint8_t> randomness;
  uint32_t partition_index = 0;
  uint64_t miner_id = 0;
};

struct PoStJob {
  PoStConfig config;
  FallbackPoStParams params;
  Domain randomness{};
  Domain prover_id{};
  PoStPartition partition;
};

// The registered proof of a request, checked against its kind and sector size (no payload
// parsing: what the engine needs to queue it). PoStRequestError otherwise.
PoStConfig post_request_config(PoStKind kind, uint64_t registered_proof, uint64_t sector_size);

// Decodes, shapes and verifies (on `pool` when given). PoStRequestError with the reason for any
// bad field or proof.
PoStJob decode_post_request(const PoStRequest& request, ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
