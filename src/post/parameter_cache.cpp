#include "post/parameter_cache.hpp"

#include <stdexcept>

#include "groth16/setup.hpp"
#include "post/fallback_circuit.hpp"

namespace cuzk::post {

namespace {

std::string circuit_name(const filecoin::FallbackPoStParams& pp) {
  return "the PoSt circuit of " + std::to_string(pp.sector_count) + " slot(s) x " +
         std::to_string(pp.challenge_count) + " challenge(s), sector size " +
         std::to_string(pp.sector_size);
}

}  // namespace

std::string parameter_identifier(const filecoin::FallbackPoStParams& pp) {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(pp.sector_size) +
         ", challenge_count: " + std::to_string(pp.challenge_count) +
         ", sector_count: " + std::to_string(pp.sector_count) + "}";
}

std::string parameter_cache_id(const filecoin::FallbackPoStParams& pp) {
  return filecoin::parameter_cache_id(
      "proof-of-spacetime-fallback-" + filecoin::poseidon_tree_display(pp.tree),
      parameter_identifier(pp));
}

ParameterFiles parameter_files(const std::filesystem::path& dir,
                               const filecoin::FallbackPoStParams& pp) {
  return filecoin::parameter_files(dir, parameter_cache_id(pp));
}

filecoin::CircuitParameterSet parameter_set(const filecoin::FallbackPoStParams& pp) {
  return {parameter_cache_id(pp),  pp.sector_size,
          pp.public_input_count(), "parameters for " + circuit_name(pp),
          circuit_name(pp),        "cuzk post params"};
}

groth16::Parameters generate_test_parameters(const filecoin::FallbackPoStParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing, const ProgressFn& progress) {
  return groth16::generate_test_parameters(FallbackPoStCircuit::blank(pp), seed, pool, timing,
                                           progress);
}

}  // namespace cuzk::post
