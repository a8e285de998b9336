// PoSt vanilla proofs in bincode (FallbackPoStSectorProof, .vproof; a bare MerkleProof too):
// accepted bytes re-encode to themselves.
#include <cstdint>
#include <span>

#include "filecoin/merkle/merkle_proof_codec.hpp"
#include "fuzz_check.hpp"
#include "post/vanilla/post_vanilla_proof.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  const std::span<const uint8_t> bytes(data, size);
  try {
    const auto p = filecoin::decode_fallback_post_sector_proof(bytes);
    const std::vector<uint8_t> again = filecoin::encode_fallback_post_sector_proof(p);
    fuzz::require(std::equal(again.begin(), again.end(), bytes.begin(), bytes.end()),
                  "FallbackPoStSectorProof bincode round trip");
  } catch (const std::invalid_argument& e) {
    fuzz::require_utf8_message(e.what());
  }
  try {
    const auto m = filecoin::merkle_proof_from_bincode(bytes);
    const std::vector<uint8_t> again = filecoin::merkle_proof_to_bincode(m);
    fuzz::require(std::equal(again.begin(), again.end(), bytes.begin(), bytes.end()),
                  "MerkleProof bincode round trip");
  } catch (const std::invalid_argument& e) {
    fuzz::require_utf8_message(e.what());
  }
  return 0;
}
