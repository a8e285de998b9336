// Commitment CIDs (go-fil-commcid; facts sheet 3.6): CIDv1 in base32 lower case with the "b"
// multibase prefix. The digest is the commitment's 32 stored bytes.
//   unsealed (comm_d, comm_P): codec fil-commitment-unsealed 0xf101,
//                              multihash sha2-256-trunc254-padded 0x1012;
//   sealed (comm_r):           codec fil-commitment-sealed 0xf102,
//                              multihash poseidon-bls12_381-a2-fc1 0xb401.
#pragma once

#include <string>
#include <string_view>

#include "filecoin/domain.hpp"

namespace cuzk::filecoin {

enum class CommitmentKind { kUnsealed, kSealed };

std::string commitment_to_cid(const Domain& commitment, CommitmentKind kind);
// Parses a CID string of the given kind; throws std::invalid_argument naming the CID when it is
// not base32 CIDv1 with that codec, multihash and a 32-byte digest.
Domain cid_to_commitment(std::string_view cid, CommitmentKind kind);

}  // namespace cuzk::filecoin
