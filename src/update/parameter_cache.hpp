// Groth16 parameter files of the SnapDeals circuits under Filecoin's names (rust-fil-proofs
// storage-proofs-core/src/parameter_cache.rs with storage-proofs-update compound.rs
// `cache_prefix`; facts sheet 2.4), and INSECURE test parameters for them:
//
//   identifier  = vanilla.rs `PublicParams::identifier`:
//                 "empty_sector_update::PublicParams{ sector_nodes: N }" (both variants);
//   cache id    = "empty-sector-update-merkletree-poseidon_hasher-A-B-C-" (Poseidon variant:
//                 "empty-sector-update-poseidon-merkletree-...") + hex SHA-256 of the identifier,
//                 A-B-C the tree_r shape;
//   files       = "v28-<cache id>.params" | ".vk" | ".meta"; the .meta of a test set is
//                 {"sector_size":N,"insecure":true,"seed":"<seed>"} (upstream reads only
//                 sector_size; serde ignores the rest).
//
// Test sets are written only where asked, and never over an existing file unless forced. The
// kind-neutral parameter-file module of the hardening work (filecoin/parameter_cache.hpp, not on
// main yet) is meant to replace the file handling here; the names stay.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "filecoin/update/update_params.hpp"
#include "groth16/types.hpp"
#include "porep/parameter_cache.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::update {

using porep::ParameterFiles;
using porep::SetupTiming;

std::string parameter_identifier(const filecoin::UpdateParams& pp);
std::string parameter_cache_id(const filecoin::UpdateParams& pp);
ParameterFiles parameter_files(const std::filesystem::path& dir, const filecoin::UpdateParams& pp);
// The .meta of a test set.
std::string test_parameter_metadata_json(const filecoin::UpdateParams& pp, std::string_view seed);

// The blank circuit of `pp` (either variant).
std::unique_ptr<const Circuit> blank_update_circuit(const filecoin::UpdateParams& pp);

// INSECURE test parameters for the blank circuit of `pp`: whoever knows `seed` can forge proofs.
groth16::Parameters generate_test_parameters(const filecoin::UpdateParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing = nullptr);

// A file of the set exists and overwriting was not asked for.
class ParameterFileExistsError : public std::runtime_error {
 public:
  explicit ParameterFileExistsError(const std::filesystem::path& p)
      : std::runtime_error(p.string() + " exists (not overwritten; pass --force to replace it)") {}
};

// ParameterFileExistsError (before anything is written) when a file of the set exists and
// !force.
void require_new_parameter_files(const ParameterFiles& files, bool force);

// Writes .params, .vk and the test .meta (creating `dir`), each through a temporary file that
// appears under its name only when complete; without `force` an existing name is never replaced.
ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const filecoin::UpdateParams& pp,
                                          const groth16::Parameters& params, std::string_view seed,
                                          bool force);

// Read back, std::runtime_error naming the expected file (and how to make test parameters) when
// it is missing, checking that the verifying key has 5 IC points. The .params points are read
// without the subgroup check (as rfp maps them); the .vk is fully checked.
groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const filecoin::UpdateParams& pp, ThreadPool& pool);
groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const filecoin::UpdateParams& pp);

}  // namespace cuzk::update
