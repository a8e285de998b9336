// zcash point encodings of G1 and G2, compressed and uncompressed (ec/encoding.hpp): a point that
// decodes (curve and subgroup checked) encodes back to the same bytes, and is on the curve.
#include <cstdint>
#include <span>

#include "ec/encoding.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  const std::span<const uint8_t> bytes(data, size);
  if (const auto p = decode_g1(bytes)) {
    fuzz::require(p->is_on_curve() && (p->is_identity() || g1_is_in_subgroup(*p)), "G1 checked");
    const bool ok = size == kG1CompressedBytes
                        ? std::equal(bytes.begin(), bytes.end(), encode_compressed(*p).begin())
                        : std::equal(bytes.begin(), bytes.end(), encode_uncompressed(*p).begin());
    fuzz::require(ok, "G1 encoding round trip");
  }
  if (const auto p = decode_g2(bytes)) {
    fuzz::require(p->is_on_curve() && (p->is_identity() || g2_is_in_subgroup(*p)), "G2 checked");
    const bool ok = size == kG2CompressedBytes
                        ? std::equal(bytes.begin(), bytes.end(), encode_compressed(*p).begin())
                        : std::equal(bytes.begin(), bytes.end(), encode_uncompressed(*p).begin());
    fuzz::require(ok, "G2 encoding round trip");
  }
  // Without the subgroup check (trusted bulk data) the curve check still holds.
  if (const auto p = decode_g1(bytes, SubgroupCheck::kSkipTrusted)) {
    fuzz::require(p->is_on_curve(), "G1 on the curve");
  }
  return 0;
}
