// C2's checks: a tampered C1 is refused before proving with a message naming the check, and
// missing parameter files are named. The proof itself (2 KiB, CPU and GPU) is proved as
// `cuzk porep c2` proves it in tests/engine/serial_porep_test.cpp.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "porep/parameter_cache.hpp"
#include "porep/seal_commit_phase2.hpp"
#include "porep_test_util.hpp"

namespace cuzk::porep {
namespace {

// A C1 the vanilla verifier refuses never reaches the prover: no parameters are needed.
TEST(SealCommitPhase2, TamperedC1IsRefusedBeforeProving) {
  const test::SealedSector& s = test::sealed_2kib();
  const PublicParams pp = PublicParams::from_config(s.config);
  ThreadPool pool(0);
  const auto refused = [&](const filecoin::SealCommitPhase1Output& c1) -> std::string {
    try {
      check_c1(c1, pp, &pool);
    } catch (const C1RejectedError& e) {
      return e.what();
    }
    return "not refused";
  };
  filecoin::SealCommitPhase1Output bad = s.c1;
  bad.vanilla_proofs[0][1].replica_column_proofs.exp_parents[4].column.rows[0][2] ^= 1;
  EXPECT_NE(refused(bad).find("C1 refused before proving: partition 0, challenge 1"),
            std::string::npos)
      << refused(bad);
  bad = s.c1;
  bad.seed[0] ^= 1;  // the proven nodes are not this seed's challenges
  EXPECT_NE(refused(bad).find("challenge"), std::string::npos) << refused(bad);
  bad = s.c1;
  bad.comm_r[1] ^= 1;
  EXPECT_NE(refused(bad).find("comm_r"), std::string::npos) << refused(bad);
  bad = s.c1;
  bad.seed.fill(0);
  EXPECT_NE(refused(bad).find("seed"), std::string::npos) << refused(bad);
  bad = s.c1;
  bad.comm_d.fill(0);
  EXPECT_NE(refused(bad).find("comm_d"), std::string::npos) << refused(bad);
}

TEST(SealCommitPhase2, MissingParameterFilesAreNamed) {
  test::TempDir dir("noparams");
  ThreadPool pool(1);
  const PublicParams pp = PublicParams::for_sector_size(2048);
  try {
    (void)filecoin::read_verifying_key_file(dir.path(), parameter_set(pp), {});
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(parameter_files(dir.path(), pp).vk.string()),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(filecoin::read_parameter_file(dir.path(), parameter_set(pp), {}, pool),
               std::runtime_error);
}

}  // namespace
}  // namespace cuzk::porep
