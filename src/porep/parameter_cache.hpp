// Groth16 parameter files of the PoRep circuit under Filecoin's names (rust-fil-proofs
// storage-proofs-core/src/parameter_cache.rs, facts sheet 2.4), and INSECURE test parameters for
// them (our setup over the blank circuit, toxic waste from a seed).
//
//   identifier  = stacked/vanilla/params.rs `PublicParams::identifier`:
//                 "layered_drgporep::PublicParams{ graph: <StackedGraph identifier>, challenges:
//                 LayerChallenges { layers: L, max_count: C }, tree: merkletree-poseidon_hasher-
//                 A-B-C }" (porep_id is not part of it);
//   cache id    = "stacked-proof-of-replication-merkletree-poseidon_hasher-A-B-C-sha256_hasher-"
//                 + lower-case hex SHA-256 of the identifier (`cache_identifier`);
//   files       = "v28-<cache id>.params" | ".vk" | ".meta" in the parameter directory; .meta is
//                 serde_json of CacheEntryMetadata: {"sector_size":N}.
//
// The .params/.vk layout is bellperson's (groth16/bellperson_format.hpp). parameters.json lists a
// digest per file: the first 32 hex digits of BLAKE2b-512 of the whole file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "groth16/setup.hpp"
#include "groth16/types.hpp"
#include "porep/public_params.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::porep {

inline constexpr unsigned kParameterCacheVersion = 28;  // parameter_cache.rs VERSION

std::string parameter_identifier(const PublicParams& pp);
std::string parameter_cache_id(const PublicParams& pp);

struct ParameterFiles {
  std::filesystem::path params, vk, meta;
};
ParameterFiles parameter_files(const std::filesystem::path& dir, const PublicParams& pp);
std::string parameter_metadata_json(const PublicParams& pp);

// $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters (settings.rs default).
std::filesystem::path default_parameter_dir();

// parameters.json `digest`: the first 32 hex digits of BLAKE2b-512 of the file.
std::string parameter_file_digest(const std::filesystem::path& file);

struct SetupTiming {
  double synthesis_s = 0;  // KeyAssembly over the blank circuit
  double setup_s = 0;      // the QAP at tau and the fixed-base multiplications
  size_t constraints = 0;  // with the input rows
  size_t inputs = 0, aux = 0;
};

// INSECURE test parameters for the blank circuit of `pp`: whoever knows `seed` can forge proofs.
groth16::Parameters generate_test_parameters(const PublicParams& pp, std::string_view seed,
                                             ThreadPool& pool, SetupTiming* timing = nullptr);

// Writes .params, .vk and .meta under their Filecoin names (creating `dir`); returns the paths.
ParameterFiles write_parameter_files(const std::filesystem::path& dir, const PublicParams& pp,
                                     const groth16::Parameters& params);

// Read back, std::runtime_error naming the expected file when it is missing, and checking that
// the verifying key has one IC point per public input of `pp` (plus ONE). The .params points are
// read without the subgroup check (rfp maps them unchecked); the .vk is fully checked.
groth16::Parameters read_parameter_file(const std::filesystem::path& dir, const PublicParams& pp,
                                        ThreadPool& pool);
groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const PublicParams& pp);

}  // namespace cuzk::porep
