#include "filecoin/graph/bucket_graph.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "filecoin/chacha.hpp"

namespace cuzk::filecoin {

Sha256Digest derive_porep_domain_seed(std::string_view tag, const PorepId& porep_id) {
  return sha256({std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(tag.data()), tag.size()),
                 porep_id});
}

DrgSeed derive_drg_seed(const PorepId& porep_id) {
  const Sha256Digest raw = derive_porep_domain_seed(kDrgSeedTag, porep_id);
  DrgSeed seed;
  std::copy_n(raw.begin(), seed.size(), seed.begin());
  return seed;
}

BucketGraph::BucketGraph(uint64_t nodes, const PorepId& porep_id, ApiVersion api_version,
                         TreeHasher hasher)
    : nodes_(nodes), api_version_(api_version), hasher_(hasher), seed_(derive_drg_seed(porep_id)) {
  // Upstream casts node indices to u32 (and StackedGraph rejects more than u32::MAX nodes).
  if (nodes < 2 || nodes > (uint64_t{1} << 32)) {
    throw std::invalid_argument("BucketGraph: " + std::to_string(nodes) +
                                " nodes is outside [2, 2^32]");
  }
}

std::string BucketGraph::identifier() const {
  return "drgraph::BucketGraph{size: " + std::to_string(nodes_) +
         "; degree: " + std::to_string(kBaseDegree) + "; hasher: " + tree_hasher_name(hasher_) +
         "}";
}

void BucketGraph::parents(uint64_t node, std::span<uint32_t, kBaseDegree> out) const {
  if (node >= nodes_) {
    throw std::out_of_range("BucketGraph::parents: node " + std::to_string(node) + " of " +
                            std::to_string(nodes_));
  }
  if (node < 2) {
    std::fill(out.begin(), out.end(), 0);
    return;
  }
  const uint32_t v = static_cast<uint32_t>(node);
  ChaChaKey key;
  std::copy(seed_.begin(), seed_.end(), key.begin());
  for (int i = 0; i < 4; ++i)
    key[28 + i] = static_cast<uint8_t>(v >> (8 * i));
  ChaCha8Rng rng(key);

  constexpr uint64_t m_prime = kBaseDegree - 1;
  const uint64_t meta = uint64_t{v} * m_prime;
  // Upstream: (meta as f64).log2().ceil(). meta = 5v is never a power of two, and below 2^47 the
  // double log2 of a non-power of two stays above the integer below it (its excess over k is at
  // least 2^-k / ln 2, more than half an ulp of k); meta < 5 * 2^32 here, so the bucket count is
  // the bit length of meta.
  const uint64_t n_buckets = static_cast<uint64_t>(std::bit_width(meta));

  const bool v1_0 = api_version_ == ApiVersion::kV1_0_0;
  const size_t first = v1_0 ? 0 : 1;
  for (size_t k = 0; k < m_prime; ++k) {
    const uint64_t bucket = rng.next_u64() % n_buckets + 1;
    const uint64_t hi = std::min(meta, uint64_t{1} << bucket);
    const uint64_t lo = std::max<uint64_t>(2, hi >> 1);
    const uint64_t dist = lo + rng.next_u64() % (hi - lo + 1);
    const uint32_t parent = static_cast<uint32_t>((meta - dist) / m_prime);
    out[first + k] = parent == v ? v - 1 : parent;
  }
  out[v1_0 ? m_prime : 0] = v - 1;
}

std::array<uint32_t, kBaseDegree> BucketGraph::parents(uint64_t node) const {
  std::array<uint32_t, kBaseDegree> p;
  parents(node, p);
  return p;
}

}  // namespace cuzk::filecoin
