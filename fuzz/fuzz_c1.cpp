// The C1 output as the daemon and `cuzk porep c2` receive it: bare SealCommitPhase1Output JSON or
// the c1.json wrapper around its base64 (filecoin/c1_wrapper.hpp). Accepted documents print back
// to JSON that parses to the same document.
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "porep/vanilla/c1_wrapper.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const filecoin::C1Document d = filecoin::parse_c1_document(text);
    const std::string again = filecoin::seal_commit_phase1_to_json(d.c1);
    const filecoin::SealCommitPhase1Output back = filecoin::seal_commit_phase1_from_json(again);
    fuzz::require(filecoin::seal_commit_phase1_to_json(back) == again, "C1 JSON round trip");
  } catch (const std::invalid_argument& e) {
    fuzz::require_utf8_message(e.what());
  } catch (const std::runtime_error& e) {
    fuzz::require_utf8_message(e.what());
  }
  return 0;
}
