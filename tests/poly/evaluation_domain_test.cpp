// EvaluationDomain: sizes, the order of omega, the constants it carries, and its roots of unity
// against the independent vector file (both the bellperson root 7^t and the snarkjs root 5^t).
#include "poly/evaluation_domain.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "poly_test_util.hpp"

namespace cuzk {
namespace {

namespace fs = std::filesystem;

Fr pow2_power(Fr x, size_t doublings) {
  for (size_t i = 0; i < doublings; ++i)
    x = x.sqr();
  return x;
}

fs::path vectors_dir() {
  if (const char* env = std::getenv("CUZK_VECTORS_DIR"); env != nullptr && *env != '\0') return env;
  return fs::path(CUZK_SOURCE_DIR) / ".." / "shared" / "vectors" / "bls12_381";
}

// roots_of_unity.<which> of fr.json; throws (failing the test loudly) when the file is missing.
nlohmann::json roots_of_unity(const std::string& which) {
  const fs::path path = vectors_dir() / "fr.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("vector file missing or unreadable: " + path.string());
  return nlohmann::json::parse(in).at("roots_of_unity").at(which);
}

Fr parse_fr(const nlohmann::json& j) {
  const auto v = Fr::from_canonical(Fr::Int::from_hex(j.get<std::string>()));
  if (!v) throw std::runtime_error("not a canonical Fr value: " + j.get<std::string>());
  return *v;
}

// Compares omega of every domain size 2^0..2^28 built from `root` with the file's list.
void expect_omegas_match(const std::string& which, const Fr& root) {
  const auto roots = roots_of_unity(which);
  EXPECT_EQ(parse_fr(roots.at("omega_2_32")), root);
  size_t checked = 0;
  for (const auto& entry : roots.at("omega_by_log2_size")) {
    const size_t k = entry.at("log2_n").get<size_t>();
    if (k > EvaluationDomain::kMaxLogSize) continue;
    EXPECT_EQ(EvaluationDomain(k, root).omega(), parse_fr(entry.at("omega"))) << "log2 n = " << k;
    ++checked;
  }
  EXPECT_EQ(checked, EvaluationDomain::kMaxLogSize + 1);
}

TEST(EvaluationDomain, OmegaHasExactOrderNForEverySize) {
  for (size_t k = 0; k <= EvaluationDomain::kMaxLogSize; ++k) {
    const EvaluationDomain d(k);
    ASSERT_EQ(d.size(), size_t{1} << k);
    ASSERT_EQ(d.log_size(), k);
    EXPECT_EQ(pow2_power(d.omega(), k), Fr::one()) << "omega^n != 1 at k = " << k;
    if (k >= 1) {
      EXPECT_EQ(pow2_power(d.omega(), k - 1), -Fr::one()) << "omega^(n/2) != -1 at k = " << k;
    }
  }
}

TEST(EvaluationDomain, CarriesConsistentInversesAndTheVanishingValueOnTheCoset) {
  std::mt19937_64 rng(11);
  for (size_t k : {0, 1, 5, 16, 28}) {
    const EvaluationDomain d(k);
    EXPECT_EQ(d.omega() * d.omega_inv(), Fr::one());
    EXPECT_EQ(d.n_inv() * Fr::from_u64(d.size()), Fr::one());
    EXPECT_EQ(d.g(), Fr::from_u64(7));
    EXPECT_EQ(d.g() * d.g_inv(), Fr::one());
    EXPECT_EQ(d.z_on_coset(), d.g().pow(d.size()) - Fr::one());
    const Fr x = Fr::random(rng);
    EXPECT_EQ(d.evaluate_vanishing(x), x.pow(d.size()) - Fr::one());
    EXPECT_TRUE(d.evaluate_vanishing(d.omega()).is_zero());
  }
}

TEST(EvaluationDomain, ForSizePicksTheSmallestPowerOfTwoHoldingTheElements) {
  EXPECT_EQ(EvaluationDomain::for_size(0).size(), 1u);
  EXPECT_EQ(EvaluationDomain::for_size(1).size(), 1u);
  EXPECT_EQ(EvaluationDomain::for_size(2).size(), 2u);
  EXPECT_EQ(EvaluationDomain::for_size(3).size(), 4u);
  EXPECT_EQ(EvaluationDomain::for_size(1000).size(), 1024u);
  EXPECT_EQ(EvaluationDomain::for_size(1024).size(), 1024u);
  EXPECT_EQ(EvaluationDomain::for_size(1025).log_size(), 11u);
  EXPECT_EQ(EvaluationDomain::for_size(size_t{1} << 28).log_size(), 28u);
  EXPECT_EQ(EvaluationDomain::for_size(5, snarkjs_two_adic_root()).omega(),
            EvaluationDomain(3, snarkjs_two_adic_root()).omega());
}

TEST(EvaluationDomain, RejectsSizesBeyondTwoToThe28NamingTheSize) {
  try {
    EvaluationDomain::for_size((size_t{1} << 28) + 1);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("268435457"), std::string::npos) << e.what();
  }
  EXPECT_THROW(EvaluationDomain(29), std::invalid_argument);
}

TEST(EvaluationDomain, RejectsARootWithoutOrderTwoToThe32AndACosetShiftInTheSubgroup) {
  EXPECT_THROW(EvaluationDomain(4, kFrTwoAdicRoot.sqr()), std::invalid_argument);
  EXPECT_THROW(EvaluationDomain(4, Fr::from_u64(7)), std::invalid_argument);
  const EvaluationDomain d(4);
  EXPECT_THROW(EvaluationDomain(4, kFrTwoAdicRoot, d.omega()), std::invalid_argument);
  EXPECT_THROW(EvaluationDomain(4, kFrTwoAdicRoot, Fr::zero()), std::invalid_argument);
  EXPECT_EQ(EvaluationDomain(4, kFrTwoAdicRoot, Fr::from_u64(5)).g(), Fr::from_u64(5));
}

TEST(EvaluationDomain, BellpersonRootsMatchTheVectorFile) {
  expect_omegas_match("g7", kFrTwoAdicRoot);
}

TEST(EvaluationDomain, SnarkjsRootsMatchTheVectorFileForEverySize) {
  expect_omegas_match("g5_snarkjs", snarkjs_two_adic_root());
  // The two conventions agree for n <= 4 (see the file) and differ from n = 8 on.
  EXPECT_NE(EvaluationDomain(3).omega(), EvaluationDomain(3, snarkjs_two_adic_root()).omega());
}

}  // namespace
}  // namespace cuzk
