// The file `cuzk update prove-vanilla` writes and `cuzk update prove` / `verify` read: everything
// a SnapDeals SubmitProofRequest carries, as one JSON object
//
//   {"registered_proof": 0, "sector_size": 2048,
//    "comm_r_old": "<64 hex>", "comm_r_new": "<64 hex>", "comm_d_new": "<64 hex>",
//    "vanilla_proofs": ["<base64 of one bincode PartitionProof>", ...]}
//
// "vanilla_proofs" is exactly what Curio stores for a sector (ReadSnapVanillaProof: Go's JSON of
// [][]byte, one base64 string per partition) and sends as vanilla_proofs; the commitments are the
// raw 32-byte values (stored byte order) Curio extracts from the CIDs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/domain.hpp"

namespace cuzk::filecoin {

struct UpdateVanillaFile {
  uint32_t registered_proof = 0;  // RegisteredUpdateProof id
  uint64_t sector_size = 0;
  Domain comm_r_old{}, comm_r_new{}, comm_d_new{};
  std::vector<std::vector<uint8_t>> vanilla_proofs;  // one bincode PartitionProof each
};

std::string encode_update_vanilla_file(const UpdateVanillaFile& f);
// std::invalid_argument naming the field for malformed JSON, missing fields, bad hex or base64,
// or a registered proof whose sector size is not `sector_size`.
UpdateVanillaFile parse_update_vanilla_file(std::string_view text);

}  // namespace cuzk::filecoin
