// INSECURE 2 KiB update test parameters made once per build tree (update_test_util.hpp) under
// Filecoin's name with the insecure marker, refused when read without allowing insecure sets,
// never written over an existing file unless forced; the refusals of bad vanilla proofs.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "common/synthetic_update.hpp"
#include "common/temp_dir.hpp"
#include "update/update_proof.hpp"
#include "update_test_util.hpp"

namespace cuzk::update {
namespace {

using filecoin::UpdateParams;
constexpr uint64_t KiB = 1024;

TEST(UpdateTestParameters, TwoKiBSetIsMadeOrReadBackWithFilecoinNames) {
  ThreadPool pool;
  const UpdateParams pp = UpdateParams::for_sector_size(2 * KiB);
  const test::TestParameters t = test::cached_test_parameters(pp, pool);
  std::printf(
      "2 KiB update test parameters %s: %zu constraints with input rows, %zu inputs, %zu aux; "
      "key assembly %.2f s, setup %.2f s, write %.2f s, read %.2f s (%s)\n",
      t.generated ? "generated" : "cached", t.setup.constraints, t.setup.inputs, t.setup.aux,
      t.setup.synthesis_s, t.setup.setup_s, t.write_s, t.read_s, t.dir.string().c_str());
  EXPECT_EQ(t.setup.constraints, 1'705'039u + 5u);
  EXPECT_EQ(t.params.vk.ic.size(), 5u);
  // Facts sheet 2.4: the 2 KiB SnapDeals stem.
  const ParameterFiles f = parameter_files(t.dir, pp);
  EXPECT_EQ(f.params.filename().string(),
            "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
            "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params");
  std::ifstream meta(f.meta);
  const std::string text((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "{\"sector_size\":2048,\"insecure\":true,\"seed\":\"cuzk update tests\"}");
  // The marker is read back: without allow_insecure the set is refused, naming the seed and how
  // to allow it (the daemon's [srs] key, the CLI's flag).
  for (const bool want_params : {false, true}) {
    try {
      if (want_params) {
        (void)filecoin::read_parameter_file(t.dir, parameter_set(pp), filecoin::ParameterChecks{},
                                            pool);
      } else {
        (void)filecoin::read_verifying_key_file(t.dir, parameter_set(pp),
                                                filecoin::ParameterChecks{});
      }
      FAIL() << "an insecure set was read without allow_insecure";
    } catch (const filecoin::ParameterFileError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("cuzk update tests"), std::string::npos) << what;
      EXPECT_NE(what.find("allow_insecure_params"), std::string::npos) << what;
      EXPECT_NE(what.find("--allow-insecure-params"), std::string::npos) << what;
    }
  }
}

// The proof itself is made and checked by the CLI and daemon tests (cuzk update prove / verify,
// SNAP_DEALS_UPDATE; parameters of another circuit: tests/engine/serial_update_test.cpp); here
// what needs no proving: bad vanilla proofs are refused before the parameters are touched,
// naming the check, and proof bytes of the wrong size are refused.
TEST(UpdateProve, BadVanillaProofsAreRefusedBeforeProving) {
  ThreadPool pool;
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2 * KiB, 51);
  std::vector<filecoin::UpdatePartitionProof> bad = u.proofs;
  bad[0].comm_c[0] ^= 1;
  try {
    check_update_vanilla(u.pp, u.in, bad, &pool);
    FAIL() << "no error";
  } catch (const VanillaRejectedError& e) {
    EXPECT_NE(std::string(e.what()).find("comm_r_old != H(comm_c"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_update_vanilla(u.pp, u.in, {}, &pool), VanillaRejectedError);
  filecoin::UpdatePublicInputs other = u.in;
  other.comm_d_new[0] ^= 1;
  EXPECT_THROW(check_update_vanilla(u.pp, other, u.proofs, &pool), VanillaRejectedError);
  EXPECT_NO_THROW(check_update_vanilla(u.pp, u.in, u.proofs, &pool));

  const test::TestParameters t = test::cached_test_parameters(u.pp, pool);
  const groth16::VerifyingKey vk =
      filecoin::read_verifying_key_file(t.dir, parameter_set(u.pp), test::kTestParameterChecks);
  EXPECT_THROW(verify_update_proof(u.pp, vk, u.in, std::vector<uint8_t>(191)),
               std::invalid_argument);
  EXPECT_THROW(verify_update_proof(u.pp, vk, u.in, std::vector<uint8_t>(384)),
               std::invalid_argument);
}

TEST(UpdateTestParameters, WritingRefusesToReplaceAFileUnlessForced) {
  testing::TempDir dir("update-params");
  const UpdateParams pp = UpdateParams::for_sector_size(2 * KiB);
  const ParameterFiles f = parameter_files(dir.path(), pp);
  std::ofstream(f.vk) << "someone's file";
  groth16::Parameters empty;
  try {
    filecoin::write_test_parameter_files(dir.path(), parameter_set(pp), empty, "s",
                                         Overwrite::kRefuse);
    FAIL() << "wrote over an existing file";
  } catch (const FileExistsError& e) {
    EXPECT_EQ(e.path(), f.vk);
  }
  EXPECT_FALSE(std::filesystem::exists(f.params)) << "nothing written when one file exists";
  std::ifstream in(f.vk);
  std::string kept;
  std::getline(in, kept);
  EXPECT_EQ(kept, "someone's file");
}

}  // namespace
}  // namespace cuzk::update
