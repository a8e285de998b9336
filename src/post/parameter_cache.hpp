// Groth16 parameter files of the FallbackPoSt circuit under Filecoin's names (rust-fil-proofs
// storage-proofs-core/src/parameter_cache.rs, facts sheet 2.4), and INSECURE test parameters for
// them (our setup over the blank circuit, toxic waste from a seed).
//
//   identifier  = fallback/vanilla.rs `PublicParams::identifier`:
//                 "FallbackPoSt::PublicParams{sector_size: N, challenge_count: C, sector_count: S}"
//                 (Winning: C = 1, S = 66; Window: C = 10, S = sectors per partition; the API
//                 version is not part of it, so Window V1 and V1_2 share their files);
//   cache id    = "proof-of-spacetime-fallback-merkletree-poseidon_hasher-A-B-C-" + lower-case hex
//                 SHA-256 of the identifier (compound.rs `cache_prefix`, `cache_identifier`);
//   files       = "v28-<cache id>.params" | ".vk" | ".meta"; .meta is {"sector_size":N}.
//
// Test parameters follow the parameter-file rules of the project: they are written only into a
// directory the caller names, never over an existing file unless told to, and their .meta says
// {"sector_size":N,"insecure":true,"seed":"..."} (extra fields upstream's serde ignores).
// (Kept in this layer until a kind-neutral parameter-file module exists; porep/parameter_cache
// has the same rules for the PoRep files.)
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "filecoin/post/post_config.hpp"
#include "groth16/types.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::post {

inline constexpr unsigned kParameterCacheVersion = 28;  // parameter_cache.rs VERSION

std::string parameter_identifier(const filecoin::FallbackPoStParams& pp);
std::string parameter_cache_id(const filecoin::FallbackPoStParams& pp);

struct ParameterFiles {
  std::filesystem::path params, vk, meta;
};
ParameterFiles parameter_files(const std::filesystem::path& dir,
                               const filecoin::FallbackPoStParams& pp);
// {"sector_size":N}, with "insecure":true and the seed for test parameters.
std::string parameter_metadata_json(const filecoin::FallbackPoStParams& pp,
                                    std::optional<std::string_view> insecure_seed);

// parameters.json `digest`: the first 32 hex digits of BLAKE2b-512 of the file.
std::string parameter_file_digest(const std::filesystem::path& file);

struct SetupTiming {
  double synthesis_s = 0;  // KeyAssembly over the blank circuit
  double setup_s = 0;      // the QAP at tau and the fixed-base multiplications
  size_t constraints = 0;  // with the input rows
  size_t inputs = 0, aux = 0;
};

// INSECURE test parameters for the blank circuit of `pp`: whoever knows `seed` can forge proofs.
groth16::Parameters generate_test_parameters(const filecoin::FallbackPoStParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing = nullptr);

// Writes .params, .vk and the marked .meta under their Filecoin names into `dir` (created),
// each through a temporary file renamed into place. std::runtime_error naming the file when one
// of the three exists and `overwrite` is false, or on a write error.
ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const filecoin::FallbackPoStParams& pp,
                                          const groth16::Parameters& params, std::string_view seed,
                                          bool overwrite);

// Read back; std::runtime_error naming the expected file when it is missing, and checking that
// the verifying key has one IC point per public input of `pp` (plus ONE). The .params points are
// read without the subgroup check (rfp maps them unchecked); the .vk is fully checked.
groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const filecoin::FallbackPoStParams& pp, ThreadPool& pool);
groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const filecoin::FallbackPoStParams& pp);

}  // namespace cuzk::post
