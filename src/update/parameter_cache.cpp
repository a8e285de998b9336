#include "update/parameter_cache.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>

#include "cs/key_assembly.hpp"
#include "filecoin/sha256.hpp"
#include "groth16/bellperson_format.hpp"
#include "porep/public_params.hpp"
#include "update/poseidon_circuit.hpp"
#include "update/public_inputs.hpp"
#include "update/update_circuit.hpp"

namespace cuzk::update {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

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

// `write(tmp)` fills a temporary beside `path`, which then takes the name: renamed over it with
// `force`, else hard-linked (which fails when the name is taken, so nothing is replaced).
void write_new_file(const std::filesystem::path& path, bool force,
                    const std::function<void(const std::filesystem::path&)>& write) {
  std::filesystem::path tmp = path;
  tmp += ".tmp-" + std::to_string(::getpid());
  std::filesystem::remove(tmp);
  try {
    write(tmp);
    if (force) {
      std::filesystem::rename(tmp, path);
      return;
    }
    std::error_code ec;
    std::filesystem::create_hard_link(tmp, path, ec);
    if (ec == std::errc::file_exists) throw ParameterFileExistsError(path);
    if (ec) throw std::runtime_error(path.string() + ": " + ec.message());
    std::filesystem::remove(tmp);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
}

void require_file(const std::filesystem::path& p, const filecoin::UpdateParams& pp) {
  if (!std::filesystem::exists(p)) {
    throw std::runtime_error("no " + name_of(pp) + " parameters: " + p.string() +
                             " is missing (make test parameters with `cuzk update params " +
                             "--sector-size " + porep::sector_size_name(pp.sector_size()) +
                             (pp.poseidon ? " --poseidon" : "") + " --out " +
                             p.parent_path().string() + "`)");
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
  const std::string id = parameter_identifier(pp);
  const filecoin::Sha256Digest d =
      filecoin::sha256(std::span(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  return prefix(pp) + "-" + filecoin::to_hex(d);
}

ParameterFiles parameter_files(const std::filesystem::path& dir, const filecoin::UpdateParams& pp) {
  const std::string stem =
      "v" + std::to_string(porep::kParameterCacheVersion) + "-" + parameter_cache_id(pp);
  return {dir / (stem + ".params"), dir / (stem + ".vk"), dir / (stem + ".meta")};
}

std::string test_parameter_metadata_json(const filecoin::UpdateParams& pp, std::string_view seed) {
  std::string escaped;
  for (const char ch : seed) {
    if (ch == '"' || ch == '\\') escaped += '\\';
    if (static_cast<unsigned char>(ch) < 0x20) continue;  // no control characters in the .meta
    escaped += ch;
  }
  return "{\"sector_size\":" + std::to_string(pp.sector_size()) + ",\"insecure\":true,\"seed\":\"" +
         escaped + "\"}";
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
                                             SetupTiming* timing) {
  const auto t0 = std::chrono::steady_clock::now();
  KeyAssembly assembly;
  blank_update_circuit(pp)->synthesize(assembly);
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

void require_new_parameter_files(const ParameterFiles& files, bool force) {
  if (force) return;
  for (const auto& f : {files.params, files.vk, files.meta})
    if (std::filesystem::exists(f)) throw ParameterFileExistsError(f);
}

ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const filecoin::UpdateParams& pp,
                                          const groth16::Parameters& params, std::string_view seed,
                                          bool force) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_new_parameter_files(files, force);
  std::filesystem::create_directories(dir);
  write_new_file(files.params, force,
                 [&](const std::filesystem::path& p) { groth16::write_parameters(p, params); });
  write_new_file(files.vk, force, [&](const std::filesystem::path& p) {
    groth16::write_verifying_key(p, params.vk);
  });
  write_new_file(files.meta, force, [&](const std::filesystem::path& p) {
    std::ofstream meta(p, std::ios::binary | std::ios::trunc);
    if (!meta || !(meta << test_parameter_metadata_json(pp, seed)) || !meta.flush()) {
      throw std::runtime_error(p.string() + ": cannot write");
    }
  });
  return files;
}

groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const filecoin::UpdateParams& pp, ThreadPool& pool) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.params, pp);
  groth16::Parameters p = groth16::read_parameters(files.params, SubgroupCheck::kSkipTrusted, pool);
  check_ic(p.vk, pp, files.params);
  return p;
}

groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const filecoin::UpdateParams& pp) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.vk, pp);
  groth16::VerifyingKey vk = groth16::read_verifying_key(files.vk);
  check_ic(vk, pp, files.vk);
  return vk;
}

}  // namespace cuzk::update
