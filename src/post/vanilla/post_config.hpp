// What a registered PoSt proof fixes, in the two forms rust-fil-proofs uses (facts sheet 1.2,
// 2.3):
//
//   PoStConfig          filecoin-proofs types/post_config.rs as rust-filecoin-proofs-api
//                       registry.rs `as_v1_config` fills it: Winning = 66 challenges of 1 sector
//                       (WINNING_POST_CHALLENGE_COUNT / _SECTOR_COUNT), Window = 10 challenges per
//                       sector and WINDOW_POST_SECTOR_COUNT sectors per partition (2, 2349 for
//                       32 GiB, 2300 for 64 GiB); the API version of the proof (Winning and Window
//                       V1: 1.0.0; Window V1_2, which Go calls V1_1, ids 10-14: 1.2.0).
//   FallbackPoStParams  storage-proofs-post fallback `PublicParams` of the circuit, as
//                       parameters.rs `winning_post_setup_params` / `window_post_setup_params`
//                       derive it: Winning becomes 66 sector slots of 1 challenge each, Window
//                       keeps (10 challenges, sectors per partition). The tree shape of tree_r_last
//                       is the type parameter upstream; here it is a field, so the test shapes of
//                       rfp's fallback_circuit.rs (64 leaves per base tree, 5 challenges) are built
//                       by the same code as the production sizes.
#pragma once

#include <cstdint>
#include <string>

#include "filecoin/merkle/tree_shape.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

// The miner actor's max_partitions_per_deadline (builtin-actors runtime/src/runtime/policy.rs
// MAX_PARTITIONS_PER_DEADLINE): a Window PoSt partition index is below it.
inline constexpr uint32_t kMaxPartitionsPerDeadline = 3000;

struct PoStConfig {
  uint32_t registered_proof = 0;  // RegisteredPoStProof id
  PoStKind kind = PoStKind::kWindow;
  uint64_t sector_size = 0;
  unsigned challenge_count = 0;  // Winning: 66 in total; Window: per sector
  unsigned sector_count = 0;     // Winning: 1; Window: sectors per partition
  ApiVersion api_version = ApiVersion::kV1_0_0;
};

// as_v1_config of a registered PoSt proof id (std::invalid_argument for ids >= 15).
PoStConfig post_config(uint32_t registered_post_proof_id);
// The registered proof of a kind and sector size: Winning V1, or Window V1_2 (the current one).
PoStConfig post_config(PoStKind kind, uint64_t sector_size);

struct FallbackPoStParams {
  uint64_t sector_size = 0;      // bytes; leaves = sector_size / 32
  unsigned challenge_count = 0;  // per sector slot
  unsigned sector_count = 0;     // sector slots of one partition circuit
  ApiVersion api_version = ApiVersion::kV1_0_0;
  TreeShape tree;  // tree_r_last

  uint64_t leaves() const { return sector_size / 32; }
  // Public inputs of one partition without ONE: per slot comm_r and the challenged leaves.
  uint64_t public_input_count() const { return uint64_t{sector_count} * (1 + challenge_count); }
  // std::invalid_argument naming the field when the circuit cannot be built: no slots or
  // challenges, a size that is not a whole number of nodes, or leaves that do not split into
  // base trees whose leaf count is a power of the base arity.
  void validate() const;
};

// winning_post_setup_params / window_post_setup_params, with the tree shape of the sector size.
FallbackPoStParams fallback_post_params(const PoStConfig& config);

// "winning" / "window".
const char* post_kind_name(PoStKind kind);

}  // namespace cuzk::filecoin
