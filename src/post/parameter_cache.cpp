#include "post/parameter_cache.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "cs/key_assembly.hpp"
#include "filecoin/blake2b.hpp"
#include "filecoin/sha256.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/setup.hpp"
#include "post/fallback_circuit.hpp"

namespace cuzk::post {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// merkle/tree.rs `MerkleTreeWrapper::display`.
std::string tree_display(const filecoin::TreeShape& t) {
  return "merkletree-poseidon_hasher-" + std::to_string(t.base) + "-" + std::to_string(t.sub) +
         "-" + std::to_string(t.top);
}

std::string file_name(const filecoin::FallbackPoStParams& pp, const char* ext) {
  return "v" + std::to_string(kParameterCacheVersion) + "-" + parameter_cache_id(pp) + "." + ext;
}

std::string circuit_name(const filecoin::FallbackPoStParams& pp) {
  return "the PoSt circuit of " + std::to_string(pp.sector_count) + " slot(s) x " +
         std::to_string(pp.challenge_count) + " challenge(s), sector size " +
         std::to_string(pp.sector_size);
}

void require_file(const std::filesystem::path& p, const filecoin::FallbackPoStParams& pp) {
  if (!std::filesystem::exists(p)) {
    throw std::runtime_error("no parameters for " + circuit_name(pp) + ": " + p.string() +
                             " is missing (make test parameters with `cuzk post params`)");
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

// Writes through `<path>.tmp-<pid>`, renamed into place once complete.
template <class Write>
void write_atomically(const std::filesystem::path& path, Write&& write) {
  const std::filesystem::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  try {
    write(tmp);
    std::filesystem::rename(tmp, path);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
}

}  // namespace

std::string parameter_identifier(const filecoin::FallbackPoStParams& pp) {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(pp.sector_size) +
         ", challenge_count: " + std::to_string(pp.challenge_count) +
         ", sector_count: " + std::to_string(pp.sector_count) + "}";
}

std::string parameter_cache_id(const filecoin::FallbackPoStParams& pp) {
  const std::string id = parameter_identifier(pp);
  const filecoin::Sha256Digest d =
      filecoin::sha256(std::span(reinterpret_cast<const uint8_t*>(id.data()), id.size()));
  return "proof-of-spacetime-fallback-" + tree_display(pp.tree) + "-" + filecoin::to_hex(d);
}

ParameterFiles parameter_files(const std::filesystem::path& dir,
                               const filecoin::FallbackPoStParams& pp) {
  return {dir / file_name(pp, "params"), dir / file_name(pp, "vk"), dir / file_name(pp, "meta")};
}

std::string parameter_metadata_json(const filecoin::FallbackPoStParams& pp,
                                    std::optional<std::string_view> insecure_seed) {
  nlohmann::ordered_json j;
  j["sector_size"] = pp.sector_size;
  if (insecure_seed) {
    j["insecure"] = true;
    j["seed"] = std::string(*insecure_seed);
  }
  return j.dump();
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

groth16::Parameters generate_test_parameters(const filecoin::FallbackPoStParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing) {
  const auto t0 = Clock::now();
  KeyAssembly assembly;
  FallbackPoStCircuit::blank(pp).synthesize(assembly);
  const R1cs r1cs = assembly.finish();
  const auto t1 = Clock::now();
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

ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const filecoin::FallbackPoStParams& pp,
                                          const groth16::Parameters& params, std::string_view seed,
                                          bool overwrite) {
  const ParameterFiles files = parameter_files(dir, pp);
  if (!overwrite) {
    for (const auto& f : {files.params, files.vk, files.meta}) {
      if (std::filesystem::exists(f)) {
        throw std::runtime_error(f.string() + " exists; not overwritten (--force replaces it)");
      }
    }
  }
  std::filesystem::create_directories(dir);
  write_atomically(files.params,
                   [&](const std::filesystem::path& p) { groth16::write_parameters(p, params); });
  write_atomically(files.vk, [&](const std::filesystem::path& p) {
    groth16::write_verifying_key(p, params.vk);
  });
  write_atomically(files.meta, [&](const std::filesystem::path& p) {
    std::ofstream meta(p, std::ios::binary | std::ios::trunc);
    if (!meta || !(meta << parameter_metadata_json(pp, seed)) || !meta.flush()) {
      throw std::runtime_error(p.string() + ": cannot write");
    }
  });
  return files;
}

groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const filecoin::FallbackPoStParams& pp, ThreadPool& pool) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.params, pp);
  groth16::Parameters p = groth16::read_parameters(files.params, SubgroupCheck::kSkipTrusted, pool);
  check_ic(p.vk, pp, files.params);
  return p;
}

groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const filecoin::FallbackPoStParams& pp) {
  const ParameterFiles files = parameter_files(dir, pp);
  require_file(files.vk, pp);
  groth16::VerifyingKey vk = groth16::read_verifying_key(files.vk);
  check_ic(vk, pp, files.vk);
  return vk;
}

}  // namespace cuzk::post
