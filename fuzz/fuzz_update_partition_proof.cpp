// SnapDeals vanilla partition proofs in bincode (PartitionProof, one per partition in a
// SNAP_DEALS_UPDATE request's vanilla_proofs): accepted bytes re-encode to themselves.
#include <algorithm>
#include <cstdint>
#include <span>

#include "fuzz_check.hpp"
#include "update/vanilla/update_proof.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  const std::span<const uint8_t> bytes(data, size);
  try {
    const filecoin::UpdatePartitionProof p = filecoin::decode_update_partition_proof(bytes);
    const std::vector<uint8_t> again = filecoin::encode_update_partition_proof(p);
    fuzz::require(std::equal(again.begin(), again.end(), bytes.begin(), bytes.end()),
                  "PartitionProof bincode round trip");
  } catch (const std::invalid_argument& e) {
    fuzz::require_utf8_message(e.what());
  }
  return 0;
}
