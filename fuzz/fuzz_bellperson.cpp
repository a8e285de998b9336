// bellperson .vk and .params (groth16/bellperson_format.hpp): accepted files serialize back to
// the same bytes. The .vk points are fully checked; the bulk points on the curve only (a subgroup
// check per point, ~1 s per seed under ASan, would leave no time to mutate; decoding and bounds
// are what is fuzzed, the checks themselves are tested against vectors).
#include <cstdint>
#include <span>

#include "fuzz_check.hpp"
#include "groth16/bellperson_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  static ThreadPool pool(1);
  const std::span<const uint8_t> bytes(data, size);
  try {
    const groth16::VerifyingKey vk = groth16::parse_verifying_key(bytes, "fuzz.vk");
    const std::vector<uint8_t> again = groth16::serialize_verifying_key(vk);
    fuzz::require(std::equal(again.begin(), again.end(), bytes.begin(), bytes.end()),
                  ".vk round trip");
  } catch (const std::runtime_error& e) {
    fuzz::require_utf8_message(e.what());
  }
  try {
    const groth16::Parameters p =
        groth16::parse_parameters(bytes, "fuzz.params", SubgroupCheck::kSkipTrusted, pool);
    const std::vector<uint8_t> again = groth16::serialize_parameters(p);
    fuzz::require(std::equal(again.begin(), again.end(), bytes.begin(), bytes.end()),
                  ".params round trip");
  } catch (const std::runtime_error& e) {
    fuzz::require_utf8_message(e.what());
  }
  return 0;
}
