// A parameter set opened without its points (filecoin::open_parameter_set, open_parameter_file)
// against the same set read with them (read_parameter_set, read_parameter_file): the same vk,
// counts, points through its source and verdict, and the same refusals (a set marked insecure, a
// missing or truncated file, a .params whose digest differs, a key for another circuit). The
// digest is taken through the descriptor the points are then read by: a set renamed over the
// path after the open is never what is read.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error_of.hpp"
#include "common/temp_dir.hpp"
#include "filecoin/circuit_parameters.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/point_source.hpp"

namespace cuzk::filecoin {
namespace {

using cuzk::testing::error_of;
using cuzk::testing::TempDir;

// Distinct points k G (every one in the subgroup), `first` onwards.
std::vector<G1Affine> g1_points(uint64_t first, size_t n) {
  std::vector<G1Affine> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(g1_mul(G1Jacobian::generator(), Fr::from_u64(first + i)).to_affine());
  return out;
}

groth16::Parameters small_set(uint64_t seed) {
  groth16::Parameters p;
  const std::vector<G1Affine> g = g1_points(seed, 8);
  const G2Affine g2 = g2_mul(G2Jacobian::generator(), Fr::from_u64(seed)).to_affine();
  p.vk = {g[0], g[1], g2, g2, g[2], g2, g1_points(seed + 10, 3)};
  p.h = g1_points(seed + 20, 7);
  p.l = g1_points(seed + 30, 5);
  p.a = g1_points(seed + 40, 6);
  p.b_g1 = g1_points(seed + 50, 4);
  for (uint64_t k = 0; k < 4; ++k)
    p.b_g2.push_back(g2_mul(G2Jacobian::generator(), Fr::from_u64(seed + 60 + k)).to_affine());
  return p;
}

// Every point of `opened` through its source equals the vectors of `read`.
void expect_same_points(const groth16::Parameters& opened, const groth16::Parameters& read) {
  ASSERT_NE(opened.source, nullptr);
  EXPECT_FALSE(groth16::has_host_points(opened));
  EXPECT_EQ(opened.vk, read.vk);
  EXPECT_EQ(groth16::section_counts(opened), groth16::section_counts(read));
  const groth16::PointSource& s = *opened.source;
  const auto g1 = [&](groth16::Section section, const std::vector<G1Affine>& want) {
    std::vector<G1Affine> got(want.size());
    s.read_g1(section, 0, got, nullptr);
    EXPECT_EQ(got, want) << groth16::section_name(section);
  };
  g1(groth16::Section::kH, read.h);
  g1(groth16::Section::kL, read.l);
  g1(groth16::Section::kA, read.a);
  g1(groth16::Section::kBG1, read.b_g1);
  std::vector<G2Affine> b_g2(read.b_g2.size());
  s.read_g2(groth16::Section::kBG2, 0, b_g2, nullptr);
  EXPECT_EQ(b_g2, read.b_g2);
}

TEST(OpenParameterSet, OpensWhatReadReadsWithTheSameVerdict) {
  TempDir dir("open-set");
  const ParameterFiles f = parameter_files(dir.path(), "kind-neutral-id");
  write_parameter_set(f, small_set(1), {2048, true, "open seed"}, Overwrite::kRefuse);
  ThreadPool pool(2);
  for (const bool bulk : {true, false}) {
    const ParameterChecks checks{.allow_insecure = true, .check_bulk_points = bulk};
    ParameterVerdict read_verdict, open_verdict;
    const groth16::Parameters read = read_parameter_set(f, checks, pool, &read_verdict);
    const groth16::Parameters opened = open_parameter_set(f, checks, &open_verdict);
    EXPECT_EQ(read, small_set(1));
    expect_same_points(opened, read);
    EXPECT_TRUE(open_verdict.insecure);
    EXPECT_EQ(open_verdict.bulk_check, read_verdict.bulk_check);
    EXPECT_EQ(open_verdict.bulk_check, bulk ? SubgroupCheck::kCheck : SubgroupCheck::kSkipTrusted);
  }
}

TEST(OpenParameterSet, RefusesWhatReadRefusesAlike) {
  TempDir dir("open-set");
  const ParameterFiles f = parameter_files(dir.path(), "kind-neutral-id");
  write_parameter_set(f, small_set(2), {2048, true, "open seed"}, Overwrite::kRefuse);
  ThreadPool pool(1);
  const auto same = [&](const ParameterChecks& checks, const char* why) {
    const std::string read = error_of([&] { (void)read_parameter_set(f, checks, pool); });
    EXPECT_NE(read, "") << why;
    EXPECT_EQ(error_of([&] { (void)open_parameter_set(f, checks); }), read) << why;
  };
  same({}, "marked insecure, not allowed");
  const uint64_t size = std::filesystem::file_size(f.params);
  std::filesystem::resize_file(f.params, size - 1);
  same({.allow_insecure = true}, "one byte short");
  std::filesystem::remove(f.params);
  same({.allow_insecure = true}, "missing");
}

TEST(OpenParameterSet, TheDigestIsTakenThroughTheFileTheSourceReads) {
  TempDir dir("open-set");
  const ParameterFiles f = parameter_files(dir.path(), "kind-neutral-id");
  groth16::write_parameters(f.params, small_set(3));
  const std::string name = f.params.filename().string();
  const std::string good = parameter_file_digest(f.params);
  const PublishedParameterFile right[] = {{name, good}};
  const PublishedParameterFile wrong[] = {{name, "00000000000000000000000000000000"}};
  const ParameterChecks verify{.verify_params_digest = true};

  ParameterVerdict v;
  const groth16::Parameters opened = open_parameter_set(f, verify, &v, right);
  EXPECT_TRUE(v.params_digest_verified);
  EXPECT_EQ(v.bulk_check, SubgroupCheck::kSkipTrusted);  // the digest vouches for the points
  EXPECT_EQ(v.params_hash.bytes, std::filesystem::file_size(f.params));
  const std::string refused = error_of([&] { (void)check_parameter_set(f, verify, true, wrong); });
  ASSERT_NE(refused.find(good), std::string::npos) << refused;
  EXPECT_EQ(error_of([&] { (void)open_parameter_set(f, verify, nullptr, wrong); }), refused);

  // Another set renamed over the path: the digest of the descriptor held before is still the
  // first set's, and so are the points the opened set reads; the path's digest is another.
  const ReadOnlyFile held(f.params);
  groth16::write_parameters(dir.path() / "next.params", small_set(100));
  std::filesystem::rename(dir.path() / "next.params", f.params);
  EXPECT_EQ(parameter_file_digest(held), good);
  EXPECT_NE(parameter_file_digest(f.params), good);
  expect_same_points(opened, small_set(3));
  EXPECT_NE(error_of([&] { (void)open_parameter_set(f, verify, nullptr, right); }), "");
}

TEST(OpenParameterFile, AKeyForAnotherCircuitIsRefusedAsOnRead) {
  TempDir dir("open-set");
  CircuitParameterSet set;
  set.cache_id = "kind-neutral-id";
  set.sector_size = 2048;
  set.public_inputs = 2;  // ic has ONE and two inputs: 3 points
  set.missing = "test parameters for 2KiB";
  set.circuit = "the test circuit of 2KiB";
  set.test_command = "cuzk test params";
  const ParameterChecks checks{.allow_insecure = true};
  ThreadPool pool(1);
  EXPECT_EQ(error_of([&] { (void)open_parameter_file(dir.path(), set, checks); }),
            error_of([&] { (void)read_parameter_file(dir.path(), set, checks, pool); }));
  write_test_parameter_files(dir.path(), set, small_set(4), "open seed", Overwrite::kRefuse);
  expect_same_points(open_parameter_file(dir.path(), set, checks),
                     read_parameter_file(dir.path(), set, checks, pool));
  set.public_inputs = 5;
  const std::string read =
      error_of([&] { (void)read_parameter_file(dir.path(), set, checks, pool); });
  EXPECT_NE(read.find("3 IC points, the test circuit of 2KiB has 6 inputs"), std::string::npos)
      << read;
  EXPECT_EQ(error_of([&] { (void)open_parameter_file(dir.path(), set, checks); }), read);
}

}  // namespace
}  // namespace cuzk::filecoin
