// Standard base64 as the c1.json wrapper carries Phase1Out: the strict decoder accepts exactly
// what the encoder writes.
#include <cstdint>
#include <string_view>

#include "filecoin/base64.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<uint8_t> bytes = filecoin::base64_decode(text);
    fuzz::require(filecoin::base64_encode(bytes) == text, "base64 round trip");
  } catch (const std::invalid_argument& e) {
    fuzz::require_utf8_message(e.what());
  }
  return 0;
}
