// `cuzk update prove`'s path below the vanilla check: the partitions from the engine's update
// handler (make_update_job) through the serial driver. Parameters that are not the circuit's are
// refused, naming the mismatch, before anything is synthesized or proved. (The 2 KiB proof itself
// is made and verified by update_cli_info_encode_prove_verify.)
#include <gtest/gtest.h>

#include <string>

#include "common/synthetic_update.hpp"
#include "engine/handlers/update_handler.hpp"
#include "engine/serial_prover.hpp"
#include "update/update_proof.hpp"

namespace cuzk::update {
namespace {

TEST(UpdateProve, ParametersOfAnotherCircuitAreRefusedBeforeProving) {
  ThreadPool pool;
  const testing::SyntheticUpdate u = testing::make_synthetic_update(2048, 51);
  check_update_vanilla(u.pp, u.in, u.proofs, &pool);  // the vanilla proofs are fine
  const std::unique_ptr<engine::PreparedJob> job = engine::make_update_job(u.pp, u.in, u.proofs, 0);
  ASSERT_EQ(job->partitions(), 1u);
  const groth16::Parameters none;  // no IC points: not the 5-input update circuit's
  groth16::CpuBackend cpu(pool);
  try {
    (void)engine::prove_serially(*job, none, cpu, pool);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("0 IC points, the circuit has 5 inputs"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cuzk::update
