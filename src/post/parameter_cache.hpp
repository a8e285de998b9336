// Groth16 parameter files of the FallbackPoSt circuit under Filecoin's names (rust-fil-proofs
// storage-proofs-core/src/parameter_cache.rs, facts sheet 2.4), and INSECURE test parameters for
// them (our setup over the blank circuit, toxic waste from a seed). Names, the .meta marker,
// safe writing and checked reading are filecoin/parameter_cache.hpp's (every proof kind's); this
// file supplies the PoSt identifier:
//
//   identifier  = fallback/vanilla.rs `PublicParams::identifier`:
//                 "FallbackPoSt::PublicParams{sector_size: N, challenge_count: C, sector_count: S}"
//                 (Winning: C = 1, S = 66; Window: C = 10, S = sectors per partition; the API
//                 version is not part of it, so Window V1 and V1_2 share their files);
//   cache id    = "proof-of-spacetime-fallback-merkletree-poseidon_hasher-A-B-C-" + lower-case hex
//                 SHA-256 of the identifier (compound.rs `cache_prefix`, `cache_identifier`).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "filecoin/circuit_parameters.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/setup.hpp"
#include "groth16/types.hpp"
#include "post/vanilla/post_config.hpp"
#include "util/atomic_file.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::post {

using filecoin::ParameterFiles;

std::string parameter_identifier(const filecoin::FallbackPoStParams& pp);
std::string parameter_cache_id(const filecoin::FallbackPoStParams& pp);

ParameterFiles parameter_files(const std::filesystem::path& dir,
                               const filecoin::FallbackPoStParams& pp);
// What filecoin/circuit_parameters.hpp reads and writes for `pp`: callers write and read this
// kind's files with filecoin::write_test_parameter_files / read_parameter_file /
// read_verifying_key_file on parameter_set(pp).
filecoin::CircuitParameterSet parameter_set(const filecoin::FallbackPoStParams& pp);

using groth16::SetupTiming;

// INSECURE test parameters for the blank circuit of `pp`: whoever knows `seed` can forge proofs.
groth16::Parameters generate_test_parameters(const filecoin::FallbackPoStParams& pp,
                                             std::string_view seed, ThreadPool& pool,
                                             SetupTiming* timing = nullptr,
                                             const ProgressFn& progress = nullptr);

}  // namespace cuzk::post
