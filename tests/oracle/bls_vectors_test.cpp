// The ff and ec layers against vectors from an independent implementation (@noble/curves).
// The directory comes from CUZK_VECTORS_DIR (default ../shared/vectors/bls12_381); a missing
// file is a failure, never a skip.
#include "oracle/bls_vectors.hpp"

#include <gtest/gtest.h>

namespace cuzk::oracle {
namespace {

void expect_clean(const CheckReport& rep, size_t min_checks) {
  EXPECT_GE(rep.checked, min_checks) << rep.file << ": too few checks ran";
  EXPECT_EQ(rep.failed, 0u) << rep.file << ": " << rep.failed << " of " << rep.checked
                            << " checks failed";
  for (const std::string& f : rep.failures)
    ADD_FAILURE() << rep.file << ": " << f;
}

TEST(BlsVectors, FrFileAgrees) {
  expect_clean(check_fr(default_vectors_dir()), 1000);
}
TEST(BlsVectors, FpFileAgrees) {
  expect_clean(check_fp(default_vectors_dir()), 1000);
}
TEST(BlsVectors, Fp2FileAgrees) {
  expect_clean(check_fp2(default_vectors_dir()), 800);
}
TEST(BlsVectors, Fp6FileAgrees) {
  expect_clean(check_fp6(default_vectors_dir()), 100);
}
TEST(BlsVectors, Fp12FileAgrees) {
  expect_clean(check_fp12(default_vectors_dir()), 100);
}
TEST(BlsVectors, G1FileAgrees) {
  expect_clean(check_g1(default_vectors_dir()), 100);
}
TEST(BlsVectors, G2FileAgrees) {
  expect_clean(check_g2(default_vectors_dir()), 100);
}
TEST(BlsVectors, MsmFileAgrees) {
  expect_clean(check_msm(default_vectors_dir()), 10);
}
TEST(BlsVectors, PairingFileAgrees) {
  expect_clean(check_pairing(default_vectors_dir()), 30);
}

TEST(BlsVectors, MissingDirectoryFailsLoudly) {
  EXPECT_THROW(check_fp("/nonexistent/cuzk-vectors"), std::runtime_error);
}

}  // namespace
}  // namespace cuzk::oracle
