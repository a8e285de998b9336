// The files the PoSt tools exchange:
//
//   vanilla proofs   a JSON array of standard-base64 strings, one bincode FallbackPoStSectorProof
//                    each (the form Go's encoding/json gives [][]byte, and what `cuzk-bench
//                    single --vanilla` reads), or one raw bincode proof (a .vproof file such as
//                    curio's lib/proof/testgolden/post.vproof);
//   verify info      go-state-types proof.WindowPoStVerifyInfo / WinningPoStVerifyInfo as JSON
//                    (curio lib/proof/testgolden/postpub.json): {"Randomness": base64,
//                    "Proofs": [{"PoStProof": id, "ProofBytes": base64 | null}],
//                    "ChallengedSectors": [{"SealProof": id, "SectorNumber": n,
//                    "SealedCID": {"/": "bagboea4b5abc..."}}], "Prover": actor id}. What a verifier
//                    knows: the randomness, the proof type, the challenged sectors' comm_r.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/domain.hpp"

namespace cuzk::filecoin {

// std::invalid_argument naming the entry that is not a base64 string.
std::vector<std::vector<uint8_t>> parse_vanilla_proofs(std::string_view file_bytes);
std::string vanilla_proofs_json(const std::vector<std::vector<uint8_t>>& proofs);

struct ChallengedSector {
  uint64_t seal_proof = 0;  // RegisteredSealProof id
  uint64_t sector_number = 0;
  Domain comm_r{};  // from / to the sealed CID
};

struct PoStVerifyInfo {
  Domain randomness{};
  uint64_t post_proof = 0;                    // RegisteredPoStProof id (Proofs[0])
  std::optional<std::vector<uint8_t>> proof;  // Proofs[0].ProofBytes
  std::vector<ChallengedSector> sectors;
  uint64_t prover = 0;  // actor id
};

// std::invalid_argument naming the field that is missing or malformed (exactly one entry in
// Proofs, a 32-byte randomness, sealed CIDs).
PoStVerifyInfo parse_post_verify_info(std::string_view json);
std::string post_verify_info_json(const PoStVerifyInfo& info);

}  // namespace cuzk::filecoin
