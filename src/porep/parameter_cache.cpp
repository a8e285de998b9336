#include "porep/parameter_cache.hpp"

#include <stdexcept>

#include "porep/public_inputs.hpp"
#include "porep/stacked_circuit.hpp"

namespace cuzk::porep {

namespace {

// merkle/tree.rs `MerkleTreeWrapper::display`.
std::string tree_display(const filecoin::TreeShape& t) {
  return "merkletree-poseidon_hasher-" + std::to_string(t.base) + "-" + std::to_string(t.sub) +
         "-" + std::to_string(t.top);
}

void require_file(const std::filesystem::path& p, const PublicParams& pp) {
  if (!std::filesystem::exists(p)) {
    throw std::runtime_error("no PoRep parameters for " + sector_size_name(pp.sector_size()) +
                             ": " + p.string() + " is missing (" +
                             filecoin::fetch_parameters_hint(pp.sector_size()) +
                             "; a test network can use INSECURE sets from `cuzk porep params "
                             "--sector-size " +
                             sector_size_name(pp.sector_size()) + " --out DIR`)");
  }
}

}  // namespace

std::string parameter_identifier(const PublicParams& pp) {
  // graph.rs `StackedGraph::identifier` around drgraph.rs `BucketGraph::identifier` (the
  // BucketGraph's spelling is reused; a StackedGraph would also tabulate its Feistel network).
  const filecoin::BucketGraph base(pp.nodes, pp.porep_id, pp.api_version);
  return "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: " +
         std::to_string(filecoin::kExpansionDegree) + " base_graph: " + base.identifier() +
         " }, challenges: LayerChallenges { layers: " + std::to_string(pp.layers) +
         ", max_count: " + std::to_string(pp.challenges_per_partition) +
         " }, tree: " + tree_display(pp.tree) + " }";
}

std::string parameter_cache_id(const PublicParams& pp) {
  return filecoin::parameter_cache_id(
      "stacked-proof-of-replication-" + tree_display(pp.tree) + "-sha256_hasher",
      parameter_identifier(pp));
}

ParameterFiles parameter_files(const std::filesystem::path& dir, const PublicParams& pp) {
  return filecoin::parameter_files(dir, parameter_cache_id(pp));
}

std::string parameter_metadata_json(const PublicParams& pp) {
  return filecoin::parameter_metadata_json({pp.sector_size(), false, ""});
}

groth16::Parameters generate_test_parameters(const PublicParams& pp, std::string_view seed,
                                             ThreadPool& pool, SetupTiming* timing,
                                             const ProgressFn& progress) {
  return groth16::generate_test_parameters(StackedCircuit::blank(pp), seed, pool, timing, progress);
}

ParameterFiles write_test_parameter_files(const std::filesystem::path& dir, const PublicParams& pp,
                                          const groth16::Parameters& params, std::string_view seed,
                                          Overwrite mode) {
  const ParameterFiles files = parameter_files(dir, pp);
  filecoin::write_parameter_set(files, params, {pp.sector_size(), true, std::string(seed)}, mode);
  return files;
}

namespace {

void check_ic(const groth16::VerifyingKey& vk, const PublicParams& pp,
              const std::filesystem::path& file) {
  const size_t want = 1 + public_input_count(pp);
  if (vk.ic.size() != want) {
    throw std::runtime_error(
        file.string() + ": " + std::to_string(vk.ic.size()) + " IC points, the PoRep circuit of " +
        sector_size_name(pp.sector_size()) + " has " + std::to_string(want) + " inputs");
  }
}

}  // namespace

groth16::Parameters read_parameter_file(const std::filesystem::path& dir, const PublicParams& pp,
                                        const filecoin::ParameterChecks& checks, ThreadPool& pool,
                                        filecoin::ParameterVerdict* verdict) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.params, pp);
  groth16::Parameters p = filecoin::read_parameter_set(files, checks, pool, verdict);
  check_ic(p.vk, pp, files.params);
  return p;
}

groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const PublicParams& pp,
                                              const filecoin::ParameterChecks& checks) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.vk, pp);
  groth16::VerifyingKey vk = filecoin::read_verifying_key_set(files, checks);
  check_ic(vk, pp, files.vk);
  return vk;
}

}  // namespace cuzk::porep
