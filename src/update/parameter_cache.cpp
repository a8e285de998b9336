#include "update/parameter_cache.hpp"

#include <stdexcept>

#include "groth16/setup.hpp"
#include "update/poseidon_circuit.hpp"
#include "update/public_inputs.hpp"
#include "update/update_circuit.hpp"
#include "util/text.hpp"

namespace cuzk::update {

namespace {

std::string prefix(const filecoin::UpdateParams& pp) {
  return std::string(pp.poseidon ? "empty-sector-update-poseidon" : "empty-sector-update") + "-" +
         filecoin::poseidon_tree_display(pp.tree_r_shape());
}

std::string name_of(const filecoin::UpdateParams& pp) {
  return binary_size_name(pp.sector_size()) + (pp.poseidon ? " SnapDeals-Poseidon" : " SnapDeals");
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

filecoin::CircuitParameterSet parameter_set(const filecoin::UpdateParams& pp) {
  return {parameter_cache_id(pp),
          pp.sector_size(),
          kUpdatePublicInputCount,
          name_of(pp) + " parameters",
          "the " + name_of(pp) + " circuit",
          "cuzk update params --sector-size " + binary_size_name(pp.sector_size()) +
              (pp.poseidon ? " --poseidon" : "") + " --out DIR"};
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

}  // namespace cuzk::update
