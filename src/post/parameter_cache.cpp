#include "post/parameter_cache.hpp"

#include <stdexcept>

#include "groth16/setup.hpp"
#include "post/fallback_circuit.hpp"

namespace cuzk::post {

namespace {

// merkle/tree.rs `MerkleTreeWrapper::display`.
std::string tree_display(const filecoin::TreeShape& t) {
  return "merkletree-poseidon_hasher-" + std::to_string(t.base) + "-" + std::to_string(t.sub) +
         "-" + std::to_string(t.top);
}

std::string circuit_name(const filecoin::FallbackPoStParams& pp) {
  return "the PoSt circuit of " + std::to_string(pp.sector_count) + " slot(s) x " +
         std::to_string(pp.challenge_count) + " challenge(s), sector size " +
         std::to_string(pp.sector_size);
}

void require_file(const std::filesystem::path& p, const filecoin::FallbackPoStParams& pp) {
  if (!std::filesystem::exists(p)) {
    throw std::runtime_error("no parameters for " + circuit_name(pp) + ": " + p.string() +
                             " is missing (" + filecoin::fetch_parameters_hint(pp.sector_size) +
                             "; a test network can use INSECURE sets from `cuzk post params`)");
  }
}

void check_ic(const groth16::VerifyingKey& vk, const filecoin::FallbackPoStParams& pp,
              const std::filesystem::path& file) {
  const uint64_t want = 1 + pp.public_input_count();
  if (vk.ic.size() != want) {
    throw std::runtime_error(file.string() + ": " + std::to_string(vk.ic.size()) + " IC points, " +
                             circuit_name(pp) + " has " + std::to_string(want) + " inputs");
  }
}

}  // namespace

std::string parameter_identifier(const filecoin::FallbackPoStParams& pp) {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(pp.sector_size) +
         ", challenge_count: " + std::to_string(pp.challenge_count) +
         ", sector_count: " + std::to_string(pp.sector_count) + "}";
}

std::string parameter_cache_id(const filecoin::FallbackPoStParams& pp) {
  return filecoin::parameter_cache_id("proof-of-spacetime-fallback-" + tree_display(pp.tree),
                                      parameter_identifier(pp));
}

ParameterFiles parameter_files(const std::filesystem::path& dir,
                               const filecoin::FallbackPoStParams& pp) {
  return filecoin::parameter_files(dir, parameter_cache_id(pp));
}

groth16::Parameters generate_test_parameters(const filecoin::FallbackPoStParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing, const ProgressFn& progress) {
  return groth16::generate_test_parameters(FallbackPoStCircuit::blank(pp), seed, pool, timing,
                                           progress);
}

ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const filecoin::FallbackPoStParams& pp,
                                          const groth16::Parameters& params, std::string_view seed,
                                          Overwrite mode) {
  const ParameterFiles files = parameter_files(dir, pp);
  filecoin::write_parameter_set(files, params, {pp.sector_size, true, std::string(seed)}, mode);
  return files;
}

groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const filecoin::FallbackPoStParams& pp,
                                        const filecoin::ParameterChecks& checks, ThreadPool& pool,
                                        filecoin::ParameterVerdict* verdict) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.params, pp);
  groth16::Parameters p = filecoin::read_parameter_set(files, checks, pool, verdict);
  check_ic(p.vk, pp, files.params);
  return p;
}

groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const filecoin::FallbackPoStParams& pp,
                                              const filecoin::ParameterChecks& checks) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.vk, pp);
  groth16::VerifyingKey vk = filecoin::read_verifying_key_set(files, checks);
  check_ic(vk, pp, files.vk);
  return vk;
}

}  // namespace cuzk::post
