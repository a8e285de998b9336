// INSECURE test parameters of the SnapDeals circuits kept on disk between runs, in a directory
// named by the sector size and the digest of the blank circuit's R1CS (regenerated exactly when
// the circuit changes), under $CUZK_UPDATE_TEST_CACHE (default: the build tree). The CLI and
// daemon tests link the 2 KiB set from there (update_fixtures.sh), so a test run makes it once.
#pragma once

#include <filesystem>
#include <string>

#include "common/test_parameter_cache.hpp"
#include "update/parameter_cache.hpp"
#include "util/text.hpp"

namespace cuzk::update::test {

inline constexpr const char* kTestParameterSeed = "cuzk update tests";
// The tests read their own (marked insecure) parameters, whose points our setup made.
inline const filecoin::ParameterChecks kTestParameterChecks{
    .allow_insecure = true, .verify_params_digest = false, .check_bulk_points = false};

using cuzk::testing::TestParameters;

inline TestParameters cached_test_parameters(const filecoin::UpdateParams& pp, ThreadPool& pool) {
  return cuzk::testing::cached_test_parameters(
      *blank_update_circuit(pp),
      {"CUZK_UPDATE_TEST_CACHE", CUZK_UPDATE_TEST_CACHE,
       binary_size_name(pp.sector_size()) + (pp.poseidon ? "-poseidon-" : "-"), kTestParameterSeed,
       kTestParameterSeed,
       [&](const std::filesystem::path& dir, const groth16::Parameters& params) {
         filecoin::write_test_parameter_files(dir, parameter_set(pp), params, kTestParameterSeed,
                                              Overwrite::kRefuse);
       },
       [&](const std::filesystem::path& dir, ThreadPool& p) {
         return filecoin::read_parameter_file(dir, parameter_set(pp), kTestParameterChecks, p);
       }},
      pool);
}

}  // namespace cuzk::update::test
