// The SDR base graph: DRG parents by bucket sampling ("DRSample"), storage-proofs-core/src/
// drgraph.rs `BucketGraph` (facts sheet 4.2).
//
// drg_seed = first 28 bytes of SHA-256("Filecoin_DRSample" || porep_id) (crypto/mod.rs). Nodes 0
// and 1 have all six parents 0. Node v >= 2 seeds a fresh ChaCha8Rng with drg_seed || u32_le(v);
// with meta = 5v and n_buckets = ceil(log2(meta)) it draws five parents, each as
//   bucket = next_u64 % n_buckets + 1, hi = min(meta, 2^bucket), lo = max(2, hi / 2),
//   dist = lo + next_u64 % (hi - lo + 1), parent = (meta - dist) / 5, replaced by v - 1 if it is v.
// API 1.0 puts the five in slots 0..4 and v - 1 in slot 5; API >= 1.1 puts v - 1 in slot 0 and the
// five in slots 1..5. Parents may repeat and are not sorted.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "filecoin/hash/sha256.hpp"
#include "filecoin/merkle/merkle_hasher.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kBaseDegree = 6;                            // BASE_DEGREE
inline constexpr std::string_view kDrgSeedTag = "Filecoin_DRSample";  // DRSAMPLE_DST
inline constexpr std::string_view kFeistelTag = "Filecoin_Feistel";   // FEISTEL_DST

using DrgSeed = std::array<uint8_t, 28>;

// crypto/mod.rs derive_porep_domain_seed: SHA-256(tag || porep_id).
Sha256Digest derive_porep_domain_seed(std::string_view tag, const PorepId& porep_id);
DrgSeed derive_drg_seed(const PorepId& porep_id);

class BucketGraph {
 public:
  // Throws std::invalid_argument for fewer than 2 or more than 2^32 nodes (node ids are u32).
  BucketGraph(uint64_t nodes, const PorepId& porep_id, ApiVersion api_version,
              TreeHasher hasher = TreeHasher::kPoseidon);

  uint64_t nodes() const { return nodes_; }
  ApiVersion api_version() const { return api_version_; }
  const DrgSeed& seed() const { return seed_; }
  // "drgraph::BucketGraph{size: <nodes>; degree: 6; hasher: poseidon_hasher}"
  std::string identifier() const;

  // The six DRG parents of `node` (< nodes(), else std::out_of_range).
  void parents(uint64_t node, std::span<uint32_t, kBaseDegree> out) const;
  std::array<uint32_t, kBaseDegree> parents(uint64_t node) const;

 private:
  uint64_t nodes_;
  ApiVersion api_version_;
  TreeHasher hasher_;
  DrgSeed seed_;
};

}  // namespace cuzk::filecoin
