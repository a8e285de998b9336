#include "update/parameter_cache.hpp"

#include <stdexcept>

#include "groth16/setup.hpp"
#include "porep/public_params.hpp"
#include "update/poseidon_circuit.hpp"
#include "update/public_inputs.hpp"
#include "update/update_circuit.hpp"

namespace cuzk::update {

namespace {

std::string prefix(const filecoin::UpdateParams& pp) {
  const filecoin::TreeShape t = pp.tree_r_shape();
  return std::string(pp.poseidon ? "empty-sector-update-poseidon" : "empty-sector-update") +
         "-merkletree-poseidon_hasher-" + std::to_string(t.base) + "-" + std::to_string(t.sub) +
         "-" + std::to_string(t.top);
}

std::string name_of(const filecoin::UpdateParams& pp) {
  return porep::sector_size_name(pp.sector_size()) +
         (pp.poseidon ? " SnapDeals-Poseidon" : " SnapDeals");
}

void require_file(const std::filesystem::path& p, const filecoin::UpdateParams& pp) {
  if (!std::filesystem::exists(p)) {
    throw std::runtime_error("no " + name_of(pp) + " parameters: " + p.string() + " is missing (" +
                             filecoin::fetch_parameters_hint(pp.sector_size()) +
                             "; a test network can use INSECURE sets from `cuzk update params "
                             "--sector-size " +
                             porep::sector_size_name(pp.sector_size()) +
                             (pp.poseidon ? " --poseidon" : "") + " --out DIR`)");
  }
}

void check_ic(const groth16::VerifyingKey& vk, const filecoin::UpdateParams& pp,
              const std::filesystem::path& file) {
  if (vk.ic.size() != 1 + kUpdatePublicInputCount) {
    throw std::runtime_error(file.string() + ": " + std::to_string(vk.ic.size()) +
                             " IC points, the " + name_of(pp) + " circuit has " +
                             std::to_string(1 + kUpdatePublicInputCount) + " inputs");
  }
}

}  // namespace

std::string parameter_identifier(const filecoin::UpdateParams& pp) {
  return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(pp.sector_nodes) +
         " }";
}

std::string parameter_cache_id(const filecoin::UpdateParams& pp) {
  return filecoin::parameter_cache_id(prefix(pp), parameter_identifier(pp));
}

ParameterFiles parameter_files(const std::filesystem::path& dir, const filecoin::UpdateParams& pp) {
  return filecoin::parameter_files(dir, parameter_cache_id(pp));
}

std::unique_ptr<const Circuit> blank_update_circuit(const filecoin::UpdateParams& pp) {
  if (pp.poseidon) {
    return std::make_unique<EmptySectorUpdatePoseidonCircuit>(
        EmptySectorUpdatePoseidonCircuit::blank(pp));
  }
  return std::make_unique<EmptySectorUpdateCircuit>(EmptySectorUpdateCircuit::blank(pp));
}

groth16::Parameters generate_test_parameters(const filecoin::UpdateParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing, const ProgressFn& progress) {
  return groth16::generate_test_parameters(*blank_update_circuit(pp), seed, pool, timing, progress);
}

ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const filecoin::UpdateParams& pp,
                                          const groth16::Parameters& params, std::string_view seed,
                                          Overwrite mode) {
  const ParameterFiles files = parameter_files(dir, pp);
  filecoin::write_parameter_set(files, params, {pp.sector_size(), true, std::string(seed)}, mode);
  return files;
}

groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const filecoin::UpdateParams& pp,
                                        const filecoin::ParameterChecks& checks, ThreadPool& pool,
                                        filecoin::ParameterVerdict* verdict) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.params, pp);
  groth16::Parameters p = filecoin::read_parameter_set(files, checks, pool, verdict);
  check_ic(p.vk, pp, files.params);
  return p;
}

groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const filecoin::UpdateParams& pp,
                                              const filecoin::ParameterChecks& checks) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.vk, pp);
  groth16::VerifyingKey vk = filecoin::read_verifying_key_set(files, checks);
  check_ic(vk, pp, files.vk);
  return vk;
}

}  // namespace cuzk::update
