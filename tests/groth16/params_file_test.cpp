// ParamsFileSource (groth16/params_file.hpp) against parse_parameters of the same file: any range
// of any section, across the pool tasks' piece boundaries, reads as parse's points; a bad point
// is the FormatError parse gives, at the same offset, for a range over it and for no other; the
// identity follows the opened inode; and Filecoin's 32 GiB PoRep shape (facts sheet 8.3) from a
// sparse file: its counts and size, and a point 9.6 GB in named at its 64-bit offset.
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/temp_dir.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/params_file.hpp"
#include "groth16/setup.hpp"
#include "point_outside_g1.hpp"
#include "porep_32g_shape.hpp"
#include "random_circuit.hpp"
#include "random_parameters.hpp"

namespace cuzk::groth16 {
namespace {

using cuzk::testing::test_pool;

using cuzk::testing::point_outside_g1;

const Parameters& small_params() {
  static const Parameters p = testing::random_parameters(300, 3, 5, "params file");
  return p;
}

void write_bytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

template <class P>
std::vector<P> read_range(const PointSource& s, Section section, uint64_t first, size_t n,
                          ThreadPool* p) {
  std::vector<P> out(n);
  if constexpr (std::is_same_v<P, G2Affine>) {
    s.read_g2(section, first, out, p);
  } else {
    s.read_g1(section, first, out, p);
  }
  return out;
}

template <class P>
void expect_ranges_equal(const PointSource& s, Section section, const std::vector<P>& parsed,
                         std::mt19937_64& rng) {
  SCOPED_TRACE(section_name(section));
  const size_t n = parsed.size();
  ASSERT_GT(n, 20u);
  std::vector<std::pair<size_t, size_t>> ranges = {{0, n}, {0, 1}, {n - 1, 1}, {n, 0}, {3, 14}};
  for (int i = 0; i < 12; ++i) {
    const size_t first = rng() % n;
    ranges.emplace_back(first, rng() % (n - first + 1));
  }
  for (const auto& [first, count] : ranges) {
    const std::vector<P> want(parsed.begin() + first, parsed.begin() + first + count);
    EXPECT_EQ((read_range<P>(s, section, first, count, &test_pool())), want)
        << first << "+" << count;
    EXPECT_EQ((read_range<P>(s, section, first, count, nullptr)), want) << first << "+" << count;
  }
}

TEST(ParamsFileSource, AnyRangeReadsAsParseDecodesIt) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "small.params";
  write_parameters(path, small_params());
  const Parameters parsed = read_parameters(path, SubgroupCheck::kCheck, test_pool());
  ASSERT_EQ(parsed, small_params());
  std::mt19937_64 rng(7);
  // Pieces of 96 * 7 bytes: every G1 range of more than 7 points crosses a task boundary (and
  // a G2 piece is 3 points).
  for (const uint64_t task_bytes : {uint64_t{96 * 7}, ParamsFileSource::kTaskBytes}) {
    SCOPED_TRACE(task_bytes);
    const ParamsFileSource s(path, SubgroupCheck::kCheck, task_bytes);
    EXPECT_EQ(s.counts(), (SectionCounts{parsed.h.size(), parsed.l.size(), parsed.a.size(),
                                         parsed.b_g1.size(), parsed.b_g2.size()}));
    EXPECT_EQ(s.layout().vk, parsed.vk);
    EXPECT_EQ(s.name(), path.string());
    expect_ranges_equal(s, Section::kH, parsed.h, rng);
    expect_ranges_equal(s, Section::kL, parsed.l, rng);
    expect_ranges_equal(s, Section::kA, parsed.a, rng);
    expect_ranges_equal(s, Section::kBG1, parsed.b_g1, rng);
    expect_ranges_equal(s, Section::kBG2, parsed.b_g2, rng);
  }
}

TEST(ParamsFileSource, ARangePastTheSectionOrOnTheWrongCurveIsRefused) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "small.params";
  write_parameters(path, small_params());
  const ParamsFileSource s(path, SubgroupCheck::kCheck);
  const uint64_t n = small_params().l.size();
  std::vector<G1Affine> g1(2);
  std::vector<G2Affine> g2(2);
  EXPECT_THROW(s.read_g1(Section::kL, n - 1, g1, nullptr), std::out_of_range);
  EXPECT_THROW(s.read_g1(Section::kL, UINT64_MAX, g1, nullptr), std::out_of_range);
  EXPECT_THROW(s.read_g1(Section::kBG2, 0, g1, nullptr), std::invalid_argument);
  EXPECT_THROW(s.read_g2(Section::kBG1, 0, g2, nullptr), std::invalid_argument);
  EXPECT_NO_THROW(s.read_g1(Section::kL, n - 2, g1, nullptr));
}

TEST(ParamsFileSource, ABadPointIsParseErrorForARangeOverItOnly) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "bad.params";
  std::vector<uint8_t> bytes = serialize_parameters(small_params());
  const ParametersLayout layout = scan_parameters(bytes, "layout");
  const uint64_t k = 40;  // the bad b_g2 point
  ASSERT_GT(layout.b_g2.count, k + 10);
  bytes[layout.b_g2.offset + k * kG2UncompressedBytes + 100] ^= 0x04;
  write_bytes(path, bytes);
  std::string parse_what;
  try {
    (void)read_parameters(path, SubgroupCheck::kCheck, test_pool());
    FAIL() << "parse accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), layout.b_g2.offset + k * kG2UncompressedBytes);
    parse_what = e.what();
  }
  const ParamsFileSource s(path, SubgroupCheck::kCheck, 192 * 3);
  for (ThreadPool* p : {&test_pool(), static_cast<ThreadPool*>(nullptr)}) {
    try {
      (void)read_range<G2Affine>(s, Section::kBG2, k - 5, 11, p);
      ADD_FAILURE() << "the bad point read";
    } catch (const FormatError& e) {
      EXPECT_EQ(std::string(e.what()), parse_what);
    }
    const std::vector<G2Affine> before = read_range<G2Affine>(s, Section::kBG2, 0, k, p);
    EXPECT_EQ(before,
              std::vector<G2Affine>(small_params().b_g2.begin(), small_params().b_g2.begin() + k));
    EXPECT_NO_THROW((void)read_range<G2Affine>(s, Section::kBG2, k + 1, 5, p));
  }
}

// Subgroup checks as the verdict says: a point on the curve outside the subgroup passes
// unchecked and is refused checked, as parse_parameters does.
TEST(ParamsFileSource, TheSubgroupCheckIsTheVerdicts) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "outside.params";
  std::vector<uint8_t> bytes = serialize_parameters(small_params());
  const ParametersLayout layout = scan_parameters(bytes, "layout");
  const auto outside = encode_uncompressed(point_outside_g1());
  std::copy(outside.begin(), outside.end(), bytes.begin() + layout.h.offset + 3 * 96);
  write_bytes(path, bytes);
  for (const SubgroupCheck check : {SubgroupCheck::kCheck, SubgroupCheck::kSkipTrusted}) {
    bool parse_ok = true, read_ok = true;
    try {
      (void)read_parameters(path, check, test_pool());
    } catch (const FormatError& e) {
      parse_ok = false;
      EXPECT_EQ(e.offset(), layout.h.offset + 3 * 96);
    }
    const ParamsFileSource s(path, check);
    try {
      (void)read_range<G1Affine>(s, Section::kH, 0, 10, &test_pool());
    } catch (const FormatError& e) {
      read_ok = false;
      EXPECT_EQ(e.offset(), layout.h.offset + 3 * 96);
    }
    EXPECT_EQ(read_ok, parse_ok);
    EXPECT_EQ(read_ok, check == SubgroupCheck::kSkipTrusted);
  }
}

TEST(ParamsFileSource, TheIdentityFollowsTheOpenedFile) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "set.params";
  write_parameters(path, small_params());
  const ParamsFileSource first(path, SubgroupCheck::kCheck);
  EXPECT_EQ(ParamsFileSource(path, SubgroupCheck::kCheck).identity(), first.identity());
  // Another set renamed over the path: the source opened before reads the first set still; a
  // source opened now has another identity and reads the new one.
  const Parameters other = generate_parameters_insecure(
      testing::RandomCircuit(300, 3, 5), ToxicWaste::insecure_from_seed("other"), test_pool());
  ASSERT_EQ(section_counts(other), section_counts(small_params()));
  write_parameters(dir.path() / "next.params", other);
  std::filesystem::rename(dir.path() / "next.params", path);
  const ParamsFileSource renamed(path, SubgroupCheck::kCheck);
  EXPECT_NE(renamed.identity(), first.identity());
  const size_t n = small_params().l.size();
  EXPECT_EQ(read_range<G1Affine>(first, Section::kL, 0, n, &test_pool()), small_params().l);
  EXPECT_EQ(read_range<G1Affine>(renamed, Section::kL, 0, n, &test_pool()), other.l);
  // Rewritten in place, the same size: the modification time moves (after a pause longer than
  // the file system's clock tick), and the identity with it.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  write_parameters(path, small_params());
  EXPECT_NE(ParamsFileSource(path, SubgroupCheck::kCheck).identity(), renamed.identity());
}

TEST(ParamsFileSource, AFileThatShrankIsAFormatErrorNamingItsEnd) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "shrinks.params";
  write_parameters(path, small_params());
  const ParamsFileSource s(path, SubgroupCheck::kCheck);
  const uint64_t cut = s.layout().b_g1.offset + 5 * 96 + 10;
  std::filesystem::resize_file(path, cut);
  try {
    (void)read_range<G1Affine>(s, Section::kBG1, 2, 10, &test_pool());
    FAIL() << "read past the end";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), cut);
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_range<G1Affine>(s, Section::kBG1, 0, 5, nullptr),
            std::vector<G1Affine>(small_params().b_g1.begin(), small_params().b_g1.begin() + 5));
}

// The whole read parses the file again: one rewritten in place with another setup of the same
// shape is refused, not read as the opened set's points.
TEST(ParamsFileSource, TheWholeReadOfAFileRewrittenInPlaceIsAFormatError) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "rewritten.params";
  write_parameters(path, small_params());
  const ParamsFileSource s(path, SubgroupCheck::kCheck);
  // The same circuit under other toxic waste: the same counts and size, another vk and points.
  const Parameters other = testing::random_parameters(300, 3, 5, "another setup");
  ASSERT_EQ(section_counts(other), s.counts());
  write_parameters(path, other);
  ASSERT_EQ(std::filesystem::file_size(path), s.stamp().size);
  try {
    (void)s.read_points(&test_pool());
    FAIL() << "read another setup as the opened set";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("rewritten since it was opened"), std::string::npos)
        << e.what();
  }
}

// The whole read (a map of the held descriptor) refuses a file shorter than it was opened with
// the same error, before it maps anything: a map would read past the end as SIGBUS.
TEST(ParamsFileSource, TheWholeReadOfAFileThatShrankIsAFormatError) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "shrinks.params";
  write_parameters(path, small_params());
  const ParamsFileSource s(path, SubgroupCheck::kCheck);
  EXPECT_EQ(s.read_points(&test_pool()).h, small_params().h);
  const uint64_t cut = s.layout().b_g2.offset + 10;
  std::filesystem::resize_file(path, cut);
  try {
    (void)s.read_points(&test_pool());
    FAIL() << "read a shrunk file whole";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), cut);
    EXPECT_NE(std::string(e.what()).find("shorter than when it was opened"), std::string::npos)
        << e.what();
  }
}

TEST(ParamsFileSource, The32GiBPoRepShapeOfTheFactsSheet) {
  const testing::TempDir dir("params-file");
  const auto path = dir.path() / "porep-32g-shape.params";
  const testing::Porep32gShape shape(path);
  const Parameters p = open_parameters(path, SubgroupCheck::kSkipTrusted);
  ASSERT_NE(p.source, nullptr);
  EXPECT_EQ(p.vk, shape.vk);
  const auto& c = testing::Porep32gShape::kCounts;
  EXPECT_EQ(section_counts(p), (SectionCounts{c[0], c[1], c[2], c[3], c[4]}));
  // The vk, five length words and the points: the whole file.
  EXPECT_EQ(testing::Porep32gShape::kVkBytes + 5 * 4 + points_bytes(section_counts(p)),
            testing::Porep32gShape::kFileBytes);
  EXPECT_TRUE(p.h.empty() && p.l.empty() && p.a.empty() && p.b_g1.empty() && p.b_g2.empty());
  // h's point 10^8, 9.6 GB into the file, is zeros: not on the curve, named at its offset.
  const uint64_t k = 100'000'000;
  try {
    (void)read_range<G1Affine>(*p.source, Section::kH, k, 4, &test_pool());
    FAIL() << "zeros read as points";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), shape.offsets[0] + k * 96);
    EXPECT_GT(e.offset(), uint64_t{1} << 33);
    EXPECT_NE(std::string(e.what()).find("at byte " + std::to_string(e.offset()) + ": h: "),
              std::string::npos)
        << e.what();
  }
  // The last b_g2 point is the file's last 192 bytes.
  try {
    (void)read_range<G2Affine>(*p.source, Section::kBG2, c[4] - 1, 1, nullptr);
    FAIL() << "zeros read as a point";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), testing::Porep32gShape::kFileBytes - 192);
  }
}

}  // namespace
}  // namespace cuzk::groth16
