#include "filecoin/circuit_parameters.hpp"

#include <stdexcept>

namespace cuzk::filecoin {

namespace {

void require_file(const std::filesystem::path& p, const CircuitParameterSet& set) {
  if (!std::filesystem::exists(p)) {
    throw std::runtime_error("no " + set.missing + ": " + p.string() + " is missing (" +
                             fetch_parameters_hint(set.sector_size) +
                             "; a test network can use INSECURE sets from `" + set.test_command +
                             "`)");
  }
}

void check_ic(const groth16::VerifyingKey& vk, const CircuitParameterSet& set,
              const std::filesystem::path& file) {
  const size_t want = 1 + set.public_inputs;
  if (vk.ic.size() != want) {
    throw std::runtime_error(file.string() + ": " + std::to_string(vk.ic.size()) + " IC points, " +
                             set.circuit + " has " + std::to_string(want) + " inputs");
  }
}

}  // namespace

std::string poseidon_tree_display(const TreeShape& t) {
  return "merkletree-poseidon_hasher-" + std::to_string(t.base) + "-" + std::to_string(t.sub) +
         "-" + std::to_string(t.top);
}

ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const CircuitParameterSet& set,
                                          const groth16::Parameters& params, std::string_view seed,
                                          Overwrite mode) {
  const ParameterFiles files = parameter_files(dir, set.cache_id);
  write_parameter_set(files, params, {set.sector_size, true, std::string(seed)}, mode);
  return files;
}

groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const CircuitParameterSet& set,
                                        const ParameterChecks& checks, ThreadPool& pool,
                                        ParameterVerdict* verdict) {
  const ParameterFiles files = parameter_files(dir, set.cache_id);
  require_file(files.params, set);
  groth16::Parameters p = read_parameter_set(files, checks, pool, verdict);
  check_ic(p.vk, set, files.params);
  return p;
}

groth16::Parameters open_parameter_file(const std::filesystem::path& dir,
                                        const CircuitParameterSet& set,
                                        const ParameterChecks& checks, ParameterVerdict* verdict) {
  const ParameterFiles files = parameter_files(dir, set.cache_id);
  require_file(files.params, set);
  groth16::Parameters p = open_parameter_set(files, checks, verdict);
  check_ic(p.vk, set, files.params);
  return p;
}

groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const CircuitParameterSet& set,
                                              const ParameterChecks& checks) {
  const ParameterFiles files = parameter_files(dir, set.cache_id);
  require_file(files.vk, set);
  groth16::VerifyingKey vk = read_verifying_key_set(files, checks);
  check_ic(vk, set, files.vk);
  return vk;
}

}  // namespace cuzk::filecoin
