// The SDR graph: the DRG base graph plus expander parents from a Feistel permutation,
// storage-proofs-porep/src/stacked/vanilla/graph.rs `StackedGraph` (facts sheet 4.1, 4.3).
//
// Parents of node v, in this order: the 6 DRG parents (bucket_graph.hpp), then 8 expander parents
// e_i = permute(8v + i) / 8 over the domain [0, 8 * nodes) with Feistel keys
// SHA-256("Filecoin_Feistel" || porep_id) read as four u64_le (the first three are used). API 1.0
// truncated the permuted value to u32 before dividing (a legacy defect that caps 32/64 GiB
// expander parents below 2^29); API >= 1.1 divides the full value (which always fits u32).
//
// Construction tabulates the Feistel round function (feistel.hpp FeistelNetwork; ~35 ms and
// 1.5 MiB for 32/64 GiB graphs), after which a node's 14 parents cost two ChaCha8 blocks and a few
// table lookups. The graph is immutable; copies share the table.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "filecoin/graph/bucket_graph.hpp"
#include "filecoin/graph/feistel.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kExpansionDegree = 8;                           // EXP_DEGREE
inline constexpr unsigned kTotalDegree = kBaseDegree + kExpansionDegree;  // DEGREE = 14

using FeistelKeys = std::array<uint64_t, 4>;
FeistelKeys derive_feistel_keys(const PorepId& porep_id);

class StackedGraph {
 public:
  // nodes: sector size / 32. Throws std::invalid_argument for more than u32::MAX nodes.
  StackedGraph(uint64_t nodes, const PorepId& porep_id, ApiVersion api_version,
               TreeHasher hasher = TreeHasher::kPoseidon);

  uint64_t nodes() const { return base_.nodes(); }
  ApiVersion api_version() const { return base_.api_version(); }
  TreeHasher hasher() const { return hasher_; }
  const BucketGraph& base_graph() const { return base_; }
  const FeistelKeys& feistel_keys() const { return keys_; }
  const FeistelPrecomputed& feistel_precomputed() const { return feistel_->precomputed(); }
  // "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: <BucketGraph identifier> }"
  std::string identifier() const;

  void base_parents(uint64_t node, std::span<uint32_t, kBaseDegree> out) const {
    base_.parents(node, out);
  }
  void expanded_parents(uint64_t node, std::span<uint32_t, kExpansionDegree> out) const;
  // parents() as BucketGraph declares it, with 14 parents for its 6.
  // All 14 parents, DRG first.
  void parents(uint64_t node, std::span<uint32_t, kTotalDegree> out) const;
  std::array<uint32_t, kTotalDegree> parents(uint64_t node) const;

 private:
  BucketGraph base_;
  TreeHasher hasher_;
  FeistelKeys keys_;
  std::shared_ptr<const FeistelNetwork> feistel_;
};

}  // namespace cuzk::filecoin
