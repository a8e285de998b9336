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
// What filecoin/circuit_parameters.hpp reads and writes for `pp`. The functions below are this
// kind's entry to it (parameter_set, then one call), declared alike by porep, post and update for
// their own parameter types: the callers (commands, handlers, tests) name the kind, not the set.
filecoin::CircuitParameterSet parameter_set(const filecoin::UpdateParams& pp);

// The blank circuit of `pp` (either variant).
std::unique_ptr<const Circuit> blank_update_circuit(const filecoin::UpdateParams& pp);

// INSECURE test parameters for the blank circuit of `pp`: whoever knows `seed` can forge proofs.
groth16::Parameters generate_test_parameters(const filecoin::UpdateParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing = nullptr,
                                             const ProgressFn& progress = nullptr);

// Writes .params, .vk and a .meta marking them insecure with `seed`, under their Filecoin names
// (creating `dir`); with kRefuse, FileExistsError before anything is written when one exists.
ParameterFiles write_test_parameter_files(const std::filesystem::path& dir,
                                          const filecoin::UpdateParams& pp,
                                          const groth16::Parameters& params, std::string_view seed,
                                          Overwrite mode);

// Read back through filecoin::read_parameter_set's checks, std::runtime_error naming the
// expected file (and how to make test parameters) when it is missing, and checking that the
// verifying key has 5 IC points.
groth16::Parameters read_parameter_file(const std::filesystem::path& dir,
                                        const filecoin::UpdateParams& pp,
                                        const filecoin::ParameterChecks& checks, ThreadPool& pool,
                                        filecoin::ParameterVerdict* verdict = nullptr);
groth16::VerifyingKey read_verifying_key_file(const std::filesystem::path& dir,
                                              const filecoin::UpdateParams& pp,
                                              const filecoin::ParameterChecks& checks);

}  // namespace cuzk::update
