// SDR labels (facts sheet 5.2): the hash that every layer of PC1, every labeling / encoding proof
// and the PoRep circuit compute, here in a reference form and a fast form with identical results.
//
//   prefix(l, v) = replica_id || u32_be(l) || u64_be(v) || 20 zero bytes          (one block)
//   label_l(0)   = trunc254(SHA-256(prefix(l, 0)))
//   label_l(v)   = trunc254(SHA-256(prefix(l, v) || Q_1 || ... || Q_37))          (v >= 1)
// with Q the distinct parent labels cycled to 37 entries: the 6 DRG parents of layer l for l = 1;
// the 6 DRG parents of layer l then the 8 expander parents of layer l - 1 for l > 1.
// Sources: rust-fil-proofs storage-proofs-porep/src/stacked/vanilla/create_label/single.rs (the
// labeler), labeling_proof.rs / encoding_proof.rs (the verifier's form, over the 37 repeated
// parents), params.rs `from_parts` and proof.rs `prove_layers_generate` (how Q is cycled);
// TOTAL_PARENTS = 37 in vanilla/mod.rs.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kLabelParents = 37;  // TOTAL_PARENTS
using LabelPrefix = std::array<uint8_t, 64>;

LabelPrefix label_prefix(const Domain& replica_id, uint32_t layer, uint64_t node);

// The verifier's form (LabelingProof::create_label): the prefix, then every given parent in order.
Domain create_label(const Domain& replica_id, uint32_t layer, uint64_t node,
                    std::span<const Domain> parents);

// Q: `distinct` (6 DRG labels, or 6 DRG + 8 expander labels) repeated cyclically to 37 entries.
// Throws std::invalid_argument for an empty list.
std::vector<Domain> repeat_label_parents(std::span<const Domain> distinct);

// The labeler's form: `distinct` holds the 6 (layer 1) or 14 (layer > 1) distinct parent labels
// contiguously (32 bytes each), or nothing for node 0. Equal to create_label over
// repeat_label_parents(distinct); hashes the repeated blocks straight from the buffer. Throws
// std::invalid_argument for another parent count.
Domain sdr_label(const Domain& replica_id, uint32_t layer, uint64_t node,
                 std::span<const uint8_t> distinct);

}  // namespace cuzk::filecoin
