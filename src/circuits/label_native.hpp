// The native SDR label (facts sheet 5.2; rust-fil-proofs storage-proofs-porep
// stacked/vanilla/create_label/single.rs and labeling_proof.rs), the twin of create_label.hpp:
//
//   label = trunc254(SHA-256(replica_id || u32_be(layer) || u64_be(node) || 20 zero bytes ||
//                            Q_1 || ... || Q_37))
//
// where Q is the parent list extended cyclically to 37 entries (expand_label_parents). Node 0
// has no parents (a 64-byte message). The circuits layer keeps this twin (and the generic
// expansion, which the circuit applies to bit vectors) so it depends only on the filecoin layer's
// SHA-256.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "filecoin/domain.hpp"

namespace cuzk::circuits {

inline constexpr size_t kTotalParents = 37;  // TOTAL_PARENTS
inline constexpr size_t kDrgParents = 6;     // BASE_DEGREE
inline constexpr size_t kExpParents = 8;     // EXP_DEGREE

// The 37-entry parent sequence of a label (stacked/circuit/params.rs and graph.rs): layer 1 has
// the 6 DRG parents only, repeated 6 times and followed by the first; later layers have the 14
// DRG + expander parents twice, followed by the first 9.
template <class T>
std::vector<T> expand_label_parents(std::span<const T> parents, uint32_t layer) {
  const size_t want = layer > 1 ? kDrgParents + kExpParents : kDrgParents;
  if (parents.size() != want) {
    throw std::invalid_argument("expand_label_parents: wrong number of parents for the layer");
  }
  std::vector<T> out;
  out.reserve(kTotalParents);
  while (out.size() + parents.size() <= kTotalParents)
    out.insert(out.end(), parents.begin(), parents.end());
  out.insert(out.end(), parents.begin(),
             parents.begin() + static_cast<ptrdiff_t>(kTotalParents - out.size()));
  return out;
}

// The label from the 37 expanded parent labels (or none, for node 0).
filecoin::Domain create_label_native(const filecoin::Domain& replica_id, uint32_t layer,
                                     uint64_t node, std::span<const filecoin::Domain> parents);

}  // namespace cuzk::circuits
