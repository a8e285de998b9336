#include "porep/parameter_cache.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "cs/key_assembly.hpp"
#include "filecoin/blake2b.hpp"
#include "filecoin/sha256.hpp"
#include "groth16/bellperson_format.hpp"
#include "porep/public_inputs.hpp"
#include "porep/stacked_circuit.hpp"

namespace cuzk::porep {

namespace {

// merkle/tree.rs `MerkleTreeWrapper::display`.
std::string tree_display(const filecoin::TreeShape& t) {
  return "merkletree-poseidon_hasher-" + std::to_string(t.base) + "-" + std::to_string(t.sub) +
         "-" + std::to_string(t.top);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string file_name(const PublicParams& pp, const char* ext) {
  return "v" + std::to_string(kParameterCacheVersion) + "-" + parameter_cache_id(pp) + "." + ext;
}

void require_file(const std::filesystem::path& p, const PublicParams& pp) {
  if (!std::filesystem::exists(p)) {
    throw std::runtime_error("no PoRep parameters for " + sector_size_name(pp.sector_size()) +
                             ": " + p.string() + " is missing (make test parameters with `cuzk " +
                             "porep params --sector-size " + sector_size_name(pp.sector_size()) +
                             " --out " + p.parent_path().string() + "`)");
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
  const std::string id = parameter_identifier(pp);
  const filecoin::Sha256Digest d =
      filecoin::sha256(std::span(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  return "stacked-proof-of-replication-" + tree_display(pp.tree) + "-sha256_hasher-" +
         filecoin::to_hex(d);
}

ParameterFiles parameter_files(const std::filesystem::path& dir, const PublicParams& pp) {
  return {dir / file_name(pp, "params"), dir / file_name(pp, "vk"), dir / file_name(pp, "meta")};
}

std::string parameter_metadata_json(const PublicParams& pp) {
  return "{\"sector_size\":" + std::to_string(pp.sector_size()) + "}";
}

std::filesystem::path default_parameter_dir() {
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env != nullptr && *env != 0) {
    return env;
  }
  return "/var/tmp/filecoin-proof-parameters";
}

std::string parameter_file_digest(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.string() + ": cannot open");
  filecoin::Blake2b512 h;
  std::vector<char> buf(size_t{1} << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<size_t>(in.gcount());
    if (n > 0) h.update(std::span(reinterpret_cast<const uint8_t*>(buf.data()), n));
  }
  const filecoin::Blake2b512Digest d = h.finish();
  return filecoin::to_hex(std::span(d).first(16));
}

groth16::Parameters generate_test_parameters(const PublicParams& pp, std::string_view seed,
                                             ThreadPool& pool, SetupTiming* timing) {
  const auto t0 = std::chrono::steady_clock::now();
  KeyAssembly assembly;
  StackedCircuit::blank(pp).synthesize(assembly);
  const R1cs r1cs = assembly.finish();
  const auto t1 = std::chrono::steady_clock::now();
  groth16::Parameters params = groth16::generate_parameters_insecure(
      r1cs, groth16::ToxicWaste::insecure_from_seed(seed), pool);
  if (timing != nullptr) {
    timing->synthesis_s = std::chrono::duration<double>(t1 - t0).count();
    timing->setup_s = seconds_since(t1);
    timing->constraints = r1cs.num_constraints;
    timing->inputs = r1cs.num_inputs;
    timing->aux = r1cs.num_aux;
  }
  return params;
}

ParameterFiles write_parameter_files(const std::filesystem::path& dir, const PublicParams& pp,
                                     const groth16::Parameters& params) {
  std::filesystem::create_directories(dir);
  const ParameterFiles files = parameter_files(dir, pp);
  groth16::write_parameters(files.params, params);
  groth16::write_verifying_key(files.vk, params.vk);
  std::ofstream meta(files.meta, std::ios::binary | std::ios::trunc);
  if (!meta || !(meta << parameter_metadata_json(pp))) {
    throw std::runtime_error(files.meta.string() + ": cannot write");
  }
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
                                        ThreadPool& pool) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.params, pp);
  groth16::Parameters p = groth16::read_parameters(files.params, SubgroupCheck::kSkipTrusted, pool);
  check_ic(p.vk, pp, files.params);
  return p;
}

groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const PublicParams& pp) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.vk, pp);
  groth16::VerifyingKey vk = groth16::read_verifying_key(files.vk);
  check_ic(vk, pp, files.vk);
  return vk;
}

}  // namespace cuzk::porep
