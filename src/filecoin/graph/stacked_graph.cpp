#include "filecoin/graph/stacked_graph.hpp"

#include <stdexcept>

namespace cuzk::filecoin {

FeistelKeys derive_feistel_keys(const PorepId& porep_id) {
  const Sha256Digest raw = derive_porep_domain_seed(kFeistelTag, porep_id);
  FeistelKeys keys{};
  for (size_t k = 0; k < keys.size(); ++k)
    for (int b = 7; b >= 0; --b)
      keys[k] = keys[k] << 8 | raw[8 * k + static_cast<size_t>(b)];
  return keys;
}

StackedGraph::StackedGraph(uint64_t nodes, const PorepId& porep_id, ApiVersion api_version,
                           TreeHasher hasher)
    : base_(nodes, porep_id, api_version, hasher),
      hasher_(hasher),
      keys_(derive_feistel_keys(porep_id)) {
  if (nodes > UINT32_MAX) {
    throw std::invalid_argument("StackedGraph: " + std::to_string(nodes) +
                                " nodes exceed u32::MAX");
  }
  feistel_ = std::make_shared<const FeistelNetwork>(nodes * kExpansionDegree, keys_);
}

std::string StackedGraph::identifier() const {
  return "stacked_graph::StackedGraph{expansion_degree: " + std::to_string(kExpansionDegree) +
         " base_graph: " + base_.identifier() + " }";
}

void StackedGraph::expanded_parents(uint64_t node,
                                    std::span<uint32_t, kExpansionDegree> out) const {
  if (node >= nodes()) {
    throw std::out_of_range("StackedGraph::expanded_parents: node " + std::to_string(node) +
                            " of " + std::to_string(nodes()));
  }
  const bool v1_0 = api_version() == ApiVersion::kV1_0_0;
  for (unsigned i = 0; i < kExpansionDegree; ++i) {
    const uint64_t t = feistel_->permute(node * kExpansionDegree + i);
    // graph.rs `correspondent`: V1_0 `transformed as u32 / 8`, later `u32::try_from(t / 8)`
    // (which cannot fail: t < 8 * nodes <= 8 * u32::MAX).
    out[i] = v1_0 ? static_cast<uint32_t>(t) / kExpansionDegree
                  : static_cast<uint32_t>(t / kExpansionDegree);
  }
}

void StackedGraph::parents(uint64_t node, std::span<uint32_t, kTotalDegree> out) const {
  base_parents(node, out.subspan<0, kBaseDegree>());
  expanded_parents(node, out.subspan<kBaseDegree, kExpansionDegree>());
}

std::array<uint32_t, kTotalDegree> StackedGraph::parents(uint64_t node) const {
  std::array<uint32_t, kTotalDegree> p;
  parents(node, p);
  return p;
}

}  // namespace cuzk::filecoin
