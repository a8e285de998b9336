// Groth16 parameter files of the PoRep circuit under Filecoin's names (rust-fil-proofs
// storage-proofs-core/src/parameter_cache.rs, facts sheet 2.4), and INSECURE test parameters for
// them (our setup over the blank circuit, toxic waste from a seed). Names, the .meta marker,
// safe writing and checked reading are filecoin/parameter_cache.hpp's (every proof kind's); this
// file supplies the PoRep identifier:
//
//   identifier  = stacked/vanilla/params.rs `PublicParams::identifier`:
//                 "layered_drgporep::PublicParams{ graph: <StackedGraph identifier>, challenges:
//                 LayerChallenges { layers: L, max_count: C }, tree: merkletree-poseidon_hasher-
//                 A-B-C }" (porep_id is not part of it);
//   cache id    = "stacked-proof-of-replication-merkletree-poseidon_hasher-A-B-C-sha256_hasher-"
//                 + lower-case hex SHA-256 of the identifier (`cache_identifier`).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "filecoin/circuit_parameters.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/setup.hpp"
#include "groth16/types.hpp"
#include "porep/public_params.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::porep {

using filecoin::kParameterCacheVersion;
using filecoin::ParameterFiles;

std::string parameter_identifier(const PublicParams& pp);
std::string parameter_cache_id(const PublicParams& pp);

ParameterFiles parameter_files(const std::filesystem::path& dir, const PublicParams& pp);
// What filecoin/circuit_parameters.hpp reads and writes for `pp`: callers write and read this
// kind's files with filecoin::write_test_parameter_files / read_parameter_file /
// read_verifying_key_file on parameter_set(pp).
filecoin::CircuitParameterSet parameter_set(const PublicParams& pp);
// The .meta of a real (published) set: {"sector_size":N}.
std::string parameter_metadata_json(const PublicParams& pp);

using groth16::SetupTiming;

// INSECURE test parameters for the blank circuit of `pp`: whoever knows `seed` can forge proofs.
groth16::Parameters generate_test_parameters(const PublicParams& pp, std::string_view seed,
                                             ThreadPool& pool, SetupTiming* timing = nullptr,
                                             const ProgressFn& progress = nullptr);

}  // namespace cuzk::porep
