// The .params layout scan and the slab decoder (groth16/bellperson_format.hpp), against
// parse_parameters on the same bytes: the same vk and counts, offsets whose bytes are the points
// parse decodes there, the same FormatError for every truncation and bad length; and the layout
// of a 32 GiB PoRep file as the facts sheet gives it (section 8.3), scanned from a sparse file.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/temp_dir.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/setup.hpp"
#include "porep_32g_shape.hpp"
#include "random_circuit.hpp"
#include "random_parameters.hpp"

namespace cuzk::groth16 {
namespace {

using cuzk::testing::test_pool;

const Parameters& small_params() {
  static const Parameters p = testing::random_parameters(40, 3, 11, "layout");
  return p;
}

const std::vector<uint8_t>& small_bytes() {
  static const std::vector<uint8_t> b = serialize_parameters(small_params());
  return b;
}

uint32_t u32_be_at(std::span<const uint8_t> b, uint64_t at) {
  return uint32_t{b[at]} << 24 | uint32_t{b[at + 1]} << 16 | uint32_t{b[at + 2]} << 8 | b[at + 3];
}

// The section's length word precedes its first point, and its first and last points' bytes are
// the encodings of the points parse decoded.
template <class P>
void expect_section(std::span<const uint8_t> bytes, const SectionLayout& s,
                    const std::vector<P>& parsed, const char* what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(s.count, parsed.size());
  ASSERT_GE(s.offset, 4u);
  EXPECT_EQ(u32_be_at(bytes, s.offset - 4), parsed.size());
  if (parsed.empty()) return;
  const auto first = encode_uncompressed(parsed.front());
  const auto last = encode_uncompressed(parsed.back());
  EXPECT_EQ(0, std::memcmp(bytes.data() + s.offset, first.data(), first.size()));
  EXPECT_EQ(0, std::memcmp(bytes.data() + s.offset + (s.count - 1) * sizeof(P), last.data(),
                           last.size()));
}

TEST(ParametersLayout, ScanFindsTheVectorsParseDecodes) {
  const std::vector<uint8_t>& bytes = small_bytes();
  const Parameters parsed = parse_parameters(bytes, "x.params", SubgroupCheck::kCheck, test_pool());
  const ParametersLayout layout = scan_parameters(bytes, "x.params");
  EXPECT_EQ(layout.vk, parsed.vk);
  EXPECT_EQ(layout.file_bytes, bytes.size());
  // Facts sheet 8.3: the vk is 868 + 96 n_ic bytes, then h's u32 length.
  EXPECT_EQ(layout.h.offset, 868 + 96 * parsed.vk.ic.size() + 4);
  expect_section(bytes, layout.h, parsed.h, "h");
  expect_section(bytes, layout.l, parsed.l, "l");
  expect_section(bytes, layout.a, parsed.a, "a");
  expect_section(bytes, layout.b_g1, parsed.b_g1, "b_g1");
  expect_section(bytes, layout.b_g2, parsed.b_g2, "b_g2");
  EXPECT_EQ(layout.b_g2.offset + layout.b_g2.count * kG2UncompressedBytes, bytes.size());
}

// Scan and parse on bytes both must refuse: the same message, at the same offset.
void expect_same_failure(std::span<const uint8_t> bytes, const std::string& why) {
  SCOPED_TRACE(why);
  std::string parse_error, scan_error;
  uint64_t parse_at = 0, scan_at = 0;
  try {
    (void)parse_parameters(bytes, "cut.params", SubgroupCheck::kSkipTrusted, test_pool());
  } catch (const FormatError& e) {
    parse_error = e.what();
    parse_at = e.offset();
  }
  try {
    (void)scan_parameters(bytes, "cut.params");
  } catch (const FormatError& e) {
    scan_error = e.what();
    scan_at = e.offset();
  }
  ASSERT_FALSE(parse_error.empty()) << "parse accepted";
  EXPECT_EQ(scan_error, parse_error);
  EXPECT_EQ(scan_at, parse_at);
}

TEST(ParametersLayout, EveryTruncationFailsAsParseFails) {
  const std::vector<uint8_t>& bytes = small_bytes();
  const ParametersLayout layout = scan_parameters(bytes, "x.params");
  std::vector<size_t> cuts;
  for (size_t cut = 0; cut < bytes.size(); cut += 29)
    cuts.push_back(cut);
  // Around each length word and each section's end.
  for (const SectionLayout* s : {&layout.h, &layout.l, &layout.a, &layout.b_g1, &layout.b_g2}) {
    for (const int64_t d : {-5, -4, -3, -1, 0, 1, 95, 96, 97}) {
      const int64_t cut = static_cast<int64_t>(s->offset) + d;
      if (cut >= 0 && cut < static_cast<int64_t>(bytes.size())) cuts.push_back(size_t(cut));
    }
  }
  cuts.push_back(bytes.size() - 1);
  for (const size_t cut : cuts)
    expect_same_failure(std::span(bytes).first(cut), "cut at " + std::to_string(cut));
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  expect_same_failure(longer, "one trailing byte");
}

TEST(ParametersLayout, ABadLengthFailsAsParseFails) {
  const ParametersLayout layout = scan_parameters(small_bytes(), "x.params");
  for (const SectionLayout* s : {&layout.h, &layout.l, &layout.a, &layout.b_g1, &layout.b_g2}) {
    // One point short (the next length is read from inside the last point), one point more than
    // the bytes left, and the largest.
    const size_t size = s == &layout.b_g2 ? kG2UncompressedBytes : kG1UncompressedBytes;
    const uint32_t past = uint32_t((small_bytes().size() - s->offset) / size + 1);
    for (const uint32_t n : {uint32_t(s->count - 1), past, 0xffffffffu}) {
      std::vector<uint8_t> bytes = small_bytes();
      for (int i = 0; i < 4; ++i)
        bytes[s->offset - 4 + i] = static_cast<uint8_t>(n >> (24 - 8 * i));
      expect_same_failure(bytes,
                          "length " + std::to_string(n) + " at " + std::to_string(s->offset - 4));
    }
  }
}

// The bulk points are left to whoever reads them: bytes that are no point at all scan alike,
// and parse refuses the first of them.
TEST(ParametersLayout, ScanDecodesNoBulkPoint) {
  const ParametersLayout layout = scan_parameters(small_bytes(), "x.params");
  std::vector<uint8_t> bytes = small_bytes();
  for (const SectionLayout* s : {&layout.h, &layout.l, &layout.a, &layout.b_g1}) {
    std::memset(bytes.data() + s->offset, 0xff, s->count * kG1UncompressedBytes);
  }
  std::memset(bytes.data() + layout.b_g2.offset, 0xff, layout.b_g2.count * kG2UncompressedBytes);
  const ParametersLayout garbled = scan_parameters(bytes, "x.params");
  EXPECT_EQ(garbled.vk, layout.vk);
  for (const auto member : {&ParametersLayout::h, &ParametersLayout::l, &ParametersLayout::a,
                            &ParametersLayout::b_g1, &ParametersLayout::b_g2}) {
    EXPECT_EQ(garbled.*member, layout.*member);
  }
  try {
    (void)parse_parameters(bytes, "x.params", SubgroupCheck::kCheck, test_pool());
    FAIL() << "parse accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), layout.h.offset);
  }
}

// A slab decoded by itself, from a copy or in place over its own bytes, gives parse's points.
template <class P>
void expect_slab_decodes(const SectionLayout& s, const std::vector<P>& parsed, const char* what) {
  SCOPED_TRACE(what);
  ASSERT_GE(s.count, 5u);
  const size_t first = 2, count = s.count - 3;
  const std::span<const uint8_t> src =
      std::span(small_bytes()).subspan(s.offset + first * sizeof(P), count * sizeof(P));
  const std::vector<P> want(parsed.begin() + first, parsed.begin() + first + count);
  std::vector<P> out(count);
  decode_points(src, std::span(out), s.offset + first * sizeof(P), what, "x.params",
                SubgroupCheck::kCheck, &test_pool());
  EXPECT_EQ(out, want);
  std::vector<P> in_place(count);
  std::memcpy(in_place.data(), src.data(), src.size());
  const std::span<const uint8_t> own(reinterpret_cast<const uint8_t*>(in_place.data()), src.size());
  for (ThreadPool* p : {&test_pool(), static_cast<ThreadPool*>(nullptr)}) {
    if (p == nullptr) std::memcpy(in_place.data(), src.data(), src.size());
    decode_points(own, std::span(in_place), 0, what, "x.params", SubgroupCheck::kCheck, p);
    EXPECT_EQ(in_place, want) << (p == nullptr ? "on this thread" : "on the pool");
  }
  EXPECT_THROW(decode_points(src.first(src.size() - 1), std::span(out), 0, what, "x.params",
                             SubgroupCheck::kCheck, nullptr),
               std::invalid_argument);
}

TEST(DecodePoints, ASlabDecodesToParsePointsInPlaceToo) {
  const ParametersLayout layout = scan_parameters(small_bytes(), "x.params");
  expect_slab_decodes(layout.l, small_params().l, "l");
  expect_slab_decodes(layout.b_g2, small_params().b_g2, "b_g2");
}

TEST(DecodePoints, ABadPointIsReportedAtParseOffset) {
  const ParametersLayout layout = scan_parameters(small_bytes(), "x.params");
  ASSERT_GE(layout.a.count, 6u);
  std::vector<uint8_t> bytes = small_bytes();
  const uint64_t bad = layout.a.offset + 4 * kG1UncompressedBytes;
  bytes[bad + 40] ^= 0x01;  // x changes: off the curve (or not a field element)
  uint64_t parse_at = 0;
  std::string parse_what;
  try {
    (void)parse_parameters(bytes, "x.params", SubgroupCheck::kCheck, test_pool());
    FAIL() << "parse accepted";
  } catch (const FormatError& e) {
    parse_at = e.offset();
    parse_what = e.what();
  }
  EXPECT_EQ(parse_at, bad);
  // The slab of a[1..6) read by itself, named by its place in the file.
  const uint64_t from = layout.a.offset + kG1UncompressedBytes;
  std::vector<G1Affine> out(5);
  try {
    decode_points(std::span(bytes).subspan(from, 5 * kG1UncompressedBytes), std::span(out), from,
                  "a", "x.params", SubgroupCheck::kCheck, &test_pool());
    FAIL() << "decode_points accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), parse_at);
    EXPECT_EQ(std::string(e.what()), parse_what);
  }
}

// A sparse file of Filecoin's 32 GiB PoRep shape (facts sheet 8.3, porep_32g_shape.hpp), its
// size the facts' 47 373 928 632 bytes, scans as that layout (its zero bytes are no points: a scan
// that decoded one would fail); a byte more or less is refused.
TEST(ParametersLayout, The32GiBPoRepLayoutOfTheFactsSheetScansFromASparseFile) {
  using testing::Porep32gShape;
  const testing::TempDir dir("layout");
  const auto path = dir.path() / "porep-32g-shape.params";
  const Porep32gShape shape(path);
  ASSERT_EQ(serialize_verifying_key(shape.vk).size(), Porep32gShape::kVkBytes);
  const ParametersLayout layout = read_parameters_layout(path);
  EXPECT_EQ(layout.file_bytes, Porep32gShape::kFileBytes);
  EXPECT_EQ(layout.vk, shape.vk);
  const SectionLayout* got[5] = {&layout.h, &layout.l, &layout.a, &layout.b_g1, &layout.b_g2};
  for (size_t s = 0; s < 5; ++s) {
    EXPECT_EQ(got[s]->count, Porep32gShape::kCounts[s]) << s;
    EXPECT_EQ(got[s]->offset, shape.offsets[s]) << s;
  }

  std::filesystem::resize_file(path, Porep32gShape::kFileBytes + 1);
  try {
    (void)read_parameters_layout(path);
    FAIL() << "a trailing byte accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), Porep32gShape::kFileBytes);
  }
  std::filesystem::resize_file(path, Porep32gShape::kFileBytes - 1);
  try {
    (void)read_parameters_layout(path);
    FAIL() << "a missing byte accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), shape.offsets[4] - 4);  // b_g2's length runs past the end
    EXPECT_NE(std::string(e.what()).find("b_g2: length 33112282 runs past the end"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cuzk::groth16
