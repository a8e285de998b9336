// bellperson .vk and .params (groth16/bellperson_format.hpp): accepted files serialize back to
// the same bytes. The .vk points are fully checked; the bulk points on the curve only (a subgroup
// check per point, ~1 s per seed under ASan, would leave no time to mutate; decoding and bounds
// are what is fuzzed, the checks themselves are tested against vectors). The layout scan agrees
// with the parse: the same layout for an accepted file, the same error for a truncated one.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "fuzz_check.hpp"
#include "groth16/bellperson_format.hpp"

namespace {

using namespace cuzk;

// The bytes of the section points a scan found (a bulk point is decoded by the parse only).
bool inside_points(const groth16::ParametersLayout& l, uint64_t offset) {
  const auto in = [&](const groth16::SectionLayout& s, uint64_t size) {
    return offset >= s.offset && offset - s.offset < s.count * size;
  };
  return in(l.h, kG1UncompressedBytes) || in(l.l, kG1UncompressedBytes) ||
         in(l.a, kG1UncompressedBytes) || in(l.b_g1, kG1UncompressedBytes) ||
         in(l.b_g2, kG2UncompressedBytes);
}

// scan_parameters against parse_parameters on the same bytes.
void compare_scan_with_parse(std::span<const uint8_t> bytes, ThreadPool& pool) {
  std::optional<groth16::ParametersLayout> layout;
  std::optional<groth16::FormatError> scan_error;
  try {
    layout = groth16::scan_parameters(bytes, "fuzz.params");
  } catch (const groth16::FormatError& e) {
    fuzz::require_utf8_message(e.what());
    scan_error = e;
  }
  try {
    const groth16::Parameters p =
        groth16::parse_parameters(bytes, "fuzz.params", SubgroupCheck::kSkipTrusted, pool);
    fuzz::require(layout.has_value(), "scan refuses what parse accepts",
                  scan_error ? scan_error->what() : "");
    const std::vector<uint8_t> vk = groth16::serialize_verifying_key(p.vk);
    const auto counts_match = layout->vk == p.vk && layout->h.count == p.h.size() &&
                              layout->l.count == p.l.size() && layout->a.count == p.a.size() &&
                              layout->b_g1.count == p.b_g1.size() &&
                              layout->b_g2.count == p.b_g2.size();
    fuzz::require(counts_match, "scan's vk or counts differ from parse's");
    fuzz::require(layout->h.offset == vk.size() + 4 && layout->file_bytes == bytes.size(),
                  "scan's offsets do not follow the vk");
    const std::vector<uint8_t> again = groth16::serialize_parameters(p);
    fuzz::require(std::equal(again.begin(), again.end(), bytes.begin(), bytes.end()),
                  ".params round trip");
  } catch (const groth16::FormatError& e) {
    fuzz::require_utf8_message(e.what());
    if (layout) {
      fuzz::require(inside_points(*layout, e.offset()),
                    "scan accepts a file parse refuses outside the bulk points", e.what());
    } else {
      // Parse fails where scan does, or earlier on a bulk point scan never decodes.
      const bool same = std::string(e.what()) == scan_error->what();
      fuzz::require(same || e.offset() < scan_error->offset(), "scan and parse fail apart",
                    std::string(e.what()) + " | " + scan_error->what());
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
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
  compare_scan_with_parse(bytes, pool);
  return 0;
}
