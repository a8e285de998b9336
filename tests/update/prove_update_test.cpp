// The update proof end to end on the CPU at 2 KiB, with INSECURE test parameters made once per
// build tree (update_test_util.hpp): vanilla proofs of a random update -> prove_update -> the
// partition proof verifies with the verifying key read back from its Filecoin-named file, and
// not against other commitments; bad vanilla proofs are refused before any proving; the
// parameter files carry Filecoin's names and the insecure marker, and are not overwritten.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "common/synthetic_update.hpp"
#include "common/temp_dir.hpp"
#include "groth16/proof_io.hpp"
#include "update/prove_update.hpp"
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
  EXPECT_THROW(require_new_parameter_files(f, false), ParameterFileExistsError);
}

TEST(UpdateProve, TwoKiBUpdateProofVerifiesAndOnlyForItsCommitments) {
  ThreadPool pool;
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2 * KiB, 51);
  const test::TestParameters t = test::cached_test_parameters(u.pp, pool);
  UpdateProveOptions o;
  o.pool = &pool;
  const UpdateProveResult r = prove_update(u.pp, u.in, u.proofs, t.params, o);
  ASSERT_EQ(r.proof.size(), 192u);
  const PartitionTiming& p = r.partitions[0];
  std::printf(
      "2 KiB update proof: vanilla %.3f | circuit %.3f | synthesis %.3f | prove %.3f | "
      "verify %.3f | total %.3f s (%s)\n",
      r.vanilla_verify_s, p.circuit_s, p.prover.synthesis_s,
      p.total_s - p.circuit_s - p.inputs_s - p.prover.synthesis_s - p.verify_s, p.verify_s,
      p.total_s, r.backend.c_str());

  const groth16::VerifyingKey vk = read_verifying_key_file(t.dir, u.pp);
  std::vector<bool> per;
  EXPECT_TRUE(verify_update_proof(u.pp, vk, u.in, r.proof, &per));
  EXPECT_EQ(per, std::vector<bool>{true});
  filecoin::UpdatePublicInputs other = u.in;
  other.comm_d_new[0] ^= 1;
  EXPECT_FALSE(verify_update_proof(u.pp, vk, other, r.proof));
  other = u.in;
  other.comm_r_old[3] ^= 1;
  EXPECT_FALSE(verify_update_proof(u.pp, vk, other, r.proof));
  EXPECT_THROW(verify_update_proof(u.pp, vk, u.in, std::span(r.proof).first(191)),
               std::invalid_argument);

  // A vanilla proof that fails its checks is refused before proving, naming the check.
  std::vector<filecoin::UpdatePartitionProof> bad = u.proofs;
  bad[0].comm_c[0] ^= 1;
  try {
    prove_update(u.pp, u.in, bad, t.params, o);
    FAIL() << "no error";
  } catch (const VanillaRejectedError& e) {
    EXPECT_NE(std::string(e.what()).find("comm_r_old != H(comm_c"), std::string::npos) << e.what();
  }
  EXPECT_THROW(prove_update(u.pp, u.in, {}, t.params, o), VanillaRejectedError);
}

TEST(UpdateTestParameters, WritingRefusesToReplaceAFileUnlessForced) {
  testing::TempDir dir("update-params");
  const UpdateParams pp = UpdateParams::for_sector_size(2 * KiB);
  const ParameterFiles f = parameter_files(dir.path(), pp);
  std::ofstream(f.vk) << "someone's file";
  groth16::Parameters empty;
  EXPECT_THROW(write_test_parameter_files(dir.path(), pp, empty, "s", false),
               ParameterFileExistsError);
  EXPECT_FALSE(std::filesystem::exists(f.params)) << "nothing written when one file exists";
  std::ifstream in(f.vk);
  std::string kept;
  std::getline(in, kept);
  EXPECT_EQ(kept, "someone's file");
  EXPECT_EQ(test_parameter_metadata_json(pp, "a\"b\\c\n"),
            "{\"sector_size\":2048,\"insecure\":true,\"seed\":\"a\\\"b\\\\c\"}");
}

}  // namespace
}  // namespace cuzk::update
