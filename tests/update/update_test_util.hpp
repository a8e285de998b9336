// INSECURE test parameters of the SnapDeals circuits kept on disk between runs, in a directory
// named by the sector size and the digest of the blank circuit's R1CS (regenerated exactly when
// the circuit changes), under $CUZK_UPDATE_TEST_CACHE (default: the build tree). The CLI and
// daemon tests link the 2 KiB set from there (update_fixtures.sh), so a test run makes it once.
#pragma once

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/r1cs_digest.hpp"
#include "cs/key_assembly.hpp"
#include "groth16/setup.hpp"
#include "porep/public_params.hpp"
#include "update/parameter_cache.hpp"

namespace cuzk::update::test {

inline constexpr const char* kTestParameterSeed = "cuzk update tests";
// The tests read their own (marked insecure) parameters, whose points our setup made.
inline constexpr filecoin::ParameterChecks kTestParameterChecks{
    .allow_insecure = true, .verify_params_digest = false, .check_bulk_points = false};

struct TestParameters {
  groth16::Parameters params;
  std::filesystem::path dir;
  bool generated = false;
  SetupTiming setup;
  double write_s = 0, read_s = 0;
};

inline TestParameters cached_test_parameters(const filecoin::UpdateParams& pp, ThreadPool& pool) {
  const char* env = std::getenv("CUZK_UPDATE_TEST_CACHE");
  const std::filesystem::path root = env != nullptr && *env != 0 ? env : CUZK_UPDATE_TEST_CACHE;
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  TestParameters out;
  auto t0 = Clock::now();
  KeyAssembly assembly;
  blank_update_circuit(pp)->synthesize(assembly);
  R1cs r1cs = assembly.finish();
  out.setup.synthesis_s = since(t0);
  out.setup.constraints = r1cs.num_constraints;
  out.setup.inputs = r1cs.num_inputs;
  out.setup.aux = r1cs.num_aux;
  const std::string prefix =
      porep::sector_size_name(pp.sector_size()) + (pp.poseidon ? "-poseidon-" : "-");
  out.dir = root / (prefix + testing::r1cs_digest(r1cs, kTestParameterSeed).substr(0, 16));
  const std::filesystem::path complete = out.dir / "complete";
  if (!std::filesystem::exists(complete)) {
    out.generated = true;
    std::error_code ec;
    if (std::filesystem::exists(root)) {
      for (const auto& e : std::filesystem::directory_iterator(root)) {
        if (e.path().filename().string().starts_with(prefix))
          std::filesystem::remove_all(e.path(), ec);
      }
    }
    t0 = Clock::now();
    const groth16::Parameters generated = groth16::generate_parameters_insecure(
        r1cs, groth16::ToxicWaste::insecure_from_seed(kTestParameterSeed), pool);
    out.setup.setup_s = since(t0);
    r1cs = {};
    t0 = Clock::now();
    write_test_parameter_files(out.dir, pp, generated, kTestParameterSeed, Overwrite::kRefuse);
    std::ofstream(complete) << "ok\n";
    out.write_s = since(t0);
  }
  t0 = Clock::now();
  out.params = read_parameter_file(out.dir, pp, kTestParameterChecks, pool);
  out.read_s = since(t0);
  return out;
}

}  // namespace cuzk::update::test
