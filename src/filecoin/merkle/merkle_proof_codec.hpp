// Serialized forms of MerkleProof as serde derives them for rust-fil-proofs'
// storage-proofs-core/src/merkle/proof.rs types:
//   * bincode 1.3 (vanilla PoSt proofs, .vproof files): u32 variant index (0 Single, 1 Sub, 2 Top),
//     then the variant's fields in declaration order; an InclusionPath is u64 element count, each
//     element u64 hash count, the 32-byte hashes, u64 index (PathElement's `_arity` is skipped);
//   * serde_json, compact (`serde_json::to_string`, the C1 output): {"data":{"Single":{"root":D,
//     "leaf":D,"path":{"path":[{"hashes":[D,...],"index":n},...]}}}} with D a JSON array of the 32
//     byte values, "Sub" / "Top" likewise with their fields (facts sheet 6.5).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "filecoin/bincode.hpp"
#include "filecoin/merkle/merkle_proof.hpp"

namespace cuzk::filecoin {

// The smallest bincode MerkleProof: variant index, root, leaf and an empty path (Single).
inline constexpr uint64_t kMinBincodeMerkleProofBytes = 4 + 2 * 32 + 8;

void write_bincode(bincode::Writer& w, const InclusionPath& path);
void write_bincode(bincode::Writer& w, const MerkleProof& proof);
InclusionPath read_bincode_inclusion_path(bincode::Reader& r);
// Throws std::invalid_argument naming the offset on an unknown variant or truncated input.
MerkleProof read_bincode_merkle_proof(bincode::Reader& r);

std::vector<uint8_t> merkle_proof_to_bincode(const MerkleProof& proof);
// The whole span must be one proof (trailing bytes are an error).
MerkleProof merkle_proof_from_bincode(std::span<const uint8_t> bytes);

// serde_json compact text of a Domain ([b0,b1,...,b31]), a path and a proof.
void append_json(std::string& out, const Domain& d);
void append_json(std::string& out, const InclusionPath& path);
void append_json(std::string& out, const MerkleProof& proof);
std::string merkle_proof_to_json(const MerkleProof& proof);

}  // namespace cuzk::filecoin
