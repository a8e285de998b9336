// bellperson parameter/vk files and proof bytes: round trips, sizes from the facts sheet, and a
// clear error (file + offset) for every truncation and corrupted point.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "groth16/bellperson_format.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "random_circuit.hpp"

namespace cuzk::groth16 {
namespace {

ThreadPool& pool() {
  static ThreadPool p(2);
  return p;
}

const Parameters& small_params() {
  static const Parameters p = generate_parameters_insecure(
      testing::RandomCircuit(20, 2, 3), ToxicWaste::insecure_from_seed("formats"), pool());
  return p;
}

TEST(BellpersonFormat, ParametersRoundTripThroughAFile) {
  const auto path = std::filesystem::temp_directory_path() / "cuzk_formats_test.params";
  write_parameters(path, small_params());
  EXPECT_EQ(read_parameters(path, SubgroupCheck::kCheck, pool()), small_params());
  std::filesystem::remove(path);
}

TEST(BellpersonFormat, VerifyingKeySizeIs868Plus96PerInput) {
  const auto bytes = serialize_verifying_key(small_params().vk);
  EXPECT_EQ(bytes.size(), 868 + 96 * small_params().vk.ic.size());  // facts sheet 8.3
  EXPECT_EQ(parse_verifying_key(bytes, "vk"), small_params().vk);
}

TEST(BellpersonFormat, EveryTruncationIsAnErrorNamingFileAndOffset) {
  const auto bytes = serialize_parameters(small_params());
  for (size_t cut = 0; cut < bytes.size(); cut += 37) {
    try {
      parse_parameters(std::span(bytes).first(cut), "demo.params", SubgroupCheck::kCheck, pool());
      ADD_FAILURE() << "truncation at " << cut << " accepted";
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find("demo.params"), std::string::npos);
      EXPECT_LE(e.offset(), cut);
    }
  }
}

TEST(BellpersonFormat, CorruptedPointIsRejectedAtItsOffset) {
  auto bytes = serialize_parameters(small_params());
  const size_t at = 96 + 96 + 192 + 192 + 96 + 192 + 4 + 10;  // inside ic[0]
  bytes[at] ^= 0x40;
  try {
    parse_parameters(bytes, "x.params", SubgroupCheck::kCheck, pool());
    FAIL() << "corrupted point accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.offset(), at - 10);
  }
  auto extra = serialize_parameters(small_params());
  extra.push_back(0);
  EXPECT_THROW(parse_parameters(extra, "x.params", SubgroupCheck::kCheck, pool()), FormatError);
}

TEST(ProofBytes, EncodeDecodeRoundTripAndConcatenation) {
  const testing::RandomCircuit c(20, 2, 3);
  const Proof p = prove(small_params(), c, ProofRandomness::from_os(), pool());
  const auto bytes = encode_proof(p);
  ASSERT_EQ(bytes.size(), 192u);
  EXPECT_EQ(*decode_proof(bytes), p);
  std::vector<uint8_t> two(bytes.begin(), bytes.end());
  two.insert(two.end(), bytes.begin(), bytes.end());
  const auto both = decode_proofs(two);
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both->size(), 2u);
  two.pop_back();
  EXPECT_FALSE(decode_proofs(two).has_value());
  auto bad = bytes;
  bad[48 + 5] ^= 1;  // inside B
  const auto r = decode_proof(bad);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().offset, 48u);
}

// What a progress listener hears: each phase's reports in order, done never going back.
struct Heard {
  std::vector<std::string> phases;  // in the order they started
  std::map<std::string, uint64_t> last_done, total;
  bool ordered = true;
  ProgressFn fn() {
    return [this](std::string_view phase, uint64_t done, uint64_t all) {
      const std::string p(phase);
      if (phases.empty() || phases.back() != p) phases.push_back(p);
      if (last_done.count(p) != 0 && done < last_done[p]) ordered = false;
      last_done[p] = done;
      total[p] = all;
    };
  }
};

// Loading a .params reports every point of each vector, checked or trusted, in file order.
TEST(BellpersonFormat, LoadingReportsEveryPointOfEachVector) {
  const std::vector<uint8_t> bytes = serialize_parameters(small_params());
  const Parameters& p = small_params();
  for (const SubgroupCheck check : {SubgroupCheck::kCheck, SubgroupCheck::kSkipTrusted}) {
    Heard heard;
    const ProgressFn fn = heard.fn();
    EXPECT_EQ(parse_parameters(bytes, "x.params", check, pool(), nullptr, fn), p);
    const std::string tail = check == SubgroupCheck::kCheck ? " + subgroup check" : "";
    const std::vector<std::string> want = {"h" + tail, "l" + tail, "a" + tail, "b_g1" + tail,
                                           "b_g2" + tail};
    EXPECT_EQ(heard.phases, want);
    EXPECT_TRUE(heard.ordered);
    const std::map<std::string, size_t> sizes = {{"h", p.h.size()},
                                                 {"l", p.l.size()},
                                                 {"a", p.a.size()},
                                                 {"b_g1", p.b_g1.size()},
                                                 {"b_g2", p.b_g2.size()}};
    for (const auto& [name, n] : sizes) {
      EXPECT_EQ(heard.total[name + tail], n) << name;
      EXPECT_EQ(heard.last_done[name + tail], n) << name;
    }
  }
}

// Test parameter generation reports its synthesis and each fixed-base multiplication.
TEST(Setup, GenerationReportsEachMultiplication) {
  Heard heard;
  const ProgressFn fn = heard.fn();
  SetupTiming t;
  const Parameters p =
      generate_test_parameters(testing::RandomCircuit(20, 2, 3), "formats", pool(), &t, fn);
  EXPECT_EQ(p, small_params());  // the same seed: the same parameters as without a listener
  const std::vector<std::string> want = {"synthesis (key assembly)",
                                         "setup ic",
                                         "setup h",
                                         "setup l",
                                         "setup a",
                                         "setup b_g1",
                                         "setup b_g2"};
  EXPECT_EQ(heard.phases, want);
  EXPECT_TRUE(heard.ordered);
  EXPECT_EQ(heard.last_done["setup ic"], p.vk.ic.size());
  EXPECT_EQ(heard.last_done["setup h"], p.h.size());
  EXPECT_EQ(heard.last_done["setup b_g2"], p.b_g2.size());
  EXPECT_EQ(heard.total["setup l"], p.l.size());
}

}  // namespace
}  // namespace cuzk::groth16
