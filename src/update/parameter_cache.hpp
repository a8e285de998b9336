// Groth16 parameter files of the SnapDeals circuits under Filecoin's names (rust-fil-proofs
// storage-proofs-core/src/parameter_cache.rs with storage-proofs-update compound.rs
// `cache_prefix`; facts sheet 2.4), and INSECURE test parameters for them (our setup over the
// blank circuit, toxic waste from a seed). Names, the .meta marker, safe writing and checked
// reading are filecoin/parameter_cache.hpp's (every proof kind's); this file supplies the
// SnapDeals identifier:
//
//   identifier  = vanilla.rs `PublicParams::identifier`:
//                 "empty_sector_update::PublicParams{ sector_nodes: N }" (both variants);
//   cache id    = "empty-sector-update-merkletree-poseidon_hasher-A-B-C-" (Poseidon variant:
//                 "empty-sector-update-poseidon-merkletree-...") + hex SHA-256 of the identifier,
//                 A-B-C the tree_r shape.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "filecoin/circuit_parameters.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/setup.hpp"
#include "groth16/types.hpp"
#include "update/vanilla/update_params.hpp"
#include "util/atomic_file.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::update {

using filecoin::ParameterFiles;
using groth16::SetupTiming;

std::string parameter_identifier(const filecoin::UpdateParams& pp);
std::string parameter_cache_id(const filecoin::UpdateParams& pp);
ParameterFiles parameter_files(const std::filesystem::path& dir, const filecoin::UpdateParams& pp);
// What filecoin/circuit_parameters.hpp reads and writes for `pp`: callers write and read this
// kind's files with filecoin::write_test_parameter_files / read_parameter_file /
// read_verifying_key_file on parameter_set(pp).
filecoin::CircuitParameterSet parameter_set(const filecoin::UpdateParams& pp);

// The blank circuit of `pp` (either variant).
std::unique_ptr<const Circuit> blank_update_circuit(const filecoin::UpdateParams& pp);

// INSECURE test parameters for the blank circuit of `pp`: whoever knows `seed` can forge proofs.
groth16::Parameters generate_test_parameters(const filecoin::UpdateParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing = nullptr,
                                             const ProgressFn& progress = nullptr);

}  // namespace cuzk::update
