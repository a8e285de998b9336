#include "porep/parameter_cache.hpp"

#include <stdexcept>

#include "porep/public_inputs.hpp"
#include "porep/stacked_circuit.hpp"
#include "util/text.hpp"

namespace cuzk::porep {

std::string parameter_identifier(const PublicParams& pp) {
  // graph.rs `StackedGraph::identifier` around drgraph.rs `BucketGraph::identifier` (the
  // BucketGraph's spelling is reused; a StackedGraph would also tabulate its Feistel network).
  const filecoin::BucketGraph base(pp.nodes, pp.porep_id, pp.api_version);
  return "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: " +
         std::to_string(filecoin::kExpansionDegree) + " base_graph: " + base.identifier() +
         " }, challenges: LayerChallenges { layers: " + std::to_string(pp.layers) +
         ", max_count: " + std::to_string(pp.challenges_per_partition) +
         " }, tree: " + filecoin::poseidon_tree_display(pp.tree) + " }";
}

std::string parameter_cache_id(const PublicParams& pp) {
  return filecoin::parameter_cache_id(
      "stacked-proof-of-replication-" + filecoin::poseidon_tree_display(pp.tree) + "-sha256_hasher",
      parameter_identifier(pp));
}

ParameterFiles parameter_files(const std::filesystem::path& dir, const PublicParams& pp) {
  return filecoin::parameter_files(dir, parameter_cache_id(pp));
}

filecoin::CircuitParameterSet parameter_set(const PublicParams& pp) {
  const std::string size = binary_size_name(pp.sector_size());
  return {parameter_cache_id(pp),         pp.sector_size(),
          public_input_count(pp),         "PoRep parameters for " + size,
          "the PoRep circuit of " + size, "cuzk porep params --sector-size " + size + " --out DIR"};
}

std::string parameter_metadata_json(const PublicParams& pp) {
  return filecoin::parameter_metadata_json({pp.sector_size(), false, ""});
}

groth16::Parameters generate_test_parameters(const PublicParams& pp, std::string_view seed,
                                             ThreadPool& pool, SetupTiming* timing,
                                             const ProgressFn& progress) {
  return groth16::generate_test_parameters(StackedCircuit::blank(pp), seed, pool, timing, progress);
}

}  // namespace cuzk::porep
