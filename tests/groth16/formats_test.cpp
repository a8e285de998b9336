// bellperson parameter/vk files and proof bytes: round trips, sizes from the facts sheet, and a
// clear error (file + offset) for every truncation and corrupted point.
#include <gtest/gtest.h>

#include <filesystem>

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

}  // namespace
}  // namespace cuzk::groth16
