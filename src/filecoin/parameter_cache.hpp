// Groth16 parameter files under Filecoin's names, for every proof kind (rust-fil-proofs
// storage-proofs-core/src/parameter_cache.rs; facts sheet 2.4):
//
//   cache id = <kind prefix> + "-" + lower-case hex SHA-256 of the public parameters' identifier
//              (PoRep "stacked-proof-of-replication-merkletree-poseidon_hasher-A-B-C-
//              sha256_hasher", PoSt "proof-of-spacetime-fallback-merkletree-poseidon_hasher-A-B-C",
//              SnapDeals "empty-sector-update-merkletree-poseidon_hasher-A-B-C");
//   files    = "v28-<cache id>.params" | ".vk" | ".meta" in the parameter directory;
//   .meta    = serde_json of CacheEntryMetadata {"sector_size":N}; our INSECURE test sets add
//              "insecure":true and the "seed" of their toxic waste (serde ignores unknown fields);
//   digest   = parameters.json: the first 32 hex digits of BLAKE2b-512 of the whole file.
//
// Writing never replaces a file unless told to (util/atomic_file.hpp). Reading checks, before any
// point is decoded: a set marked insecure is refused unless allowed; a .vk under a published name
// must have its published digest; a .params under a published name is hashed when asked. A
// refusal names the file and both digests; nothing is loaded.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "ec/encoding.hpp"
#include "groth16/types.hpp"
#include "util/atomic_file.hpp"
#include "util/progress.hpp"
#include "util/read_only_file.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kParameterCacheVersion = 28;  // parameter_cache.rs VERSION

// `prefix` + "-" + hex SHA-256 of `identifier` (hashed as its UTF-8 bytes).
std::string parameter_cache_id(std::string_view prefix, std::string_view identifier);

struct ParameterFiles {
  std::filesystem::path params, vk, meta;
};
ParameterFiles parameter_files(const std::filesystem::path& dir, std::string_view cache_id);

// $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters (settings.rs default).
std::filesystem::path default_parameter_dir();

// What to do about a missing published parameter file, for a sector size in bytes: "fetch
// Filecoin's published parameters with `curio fetch-params 32GiB` (into
// $FIL_PROOFS_PARAMETER_CACHE, default /var/tmp/filecoin-proof-parameters)".
std::string fetch_parameters_hint(uint64_t sector_size);

struct ParameterMetadata {
  uint64_t sector_size = 0;
  bool insecure = false;  // made from a known seed: whoever knows it can forge proofs
  std::string seed;       // when insecure
};
std::string parameter_metadata_json(const ParameterMetadata& meta);
// ParameterFileError naming `name` when the text is not such an object.
ParameterMetadata parse_parameter_metadata(std::string_view text, const std::string& name);

// The first 32 hex digits of BLAKE2b-512 of the file. BLAKE2b is one sequential chain, so the
// file is read ahead in large chunks on another thread while this one hashes.
struct DigestTiming {
  uint64_t bytes = 0;
  double seconds = 0;
};
// (phase, bytes hashed, file size) after each chunk: a 47 GB .params takes most of a minute.
using DigestProgress = ProgressFn;
std::string parameter_file_digest(const std::filesystem::path& file, DigestTiming* timing = nullptr,
                                  const DigestProgress& progress = nullptr);
// The same through a file held open: what was hashed is what that descriptor reads later.
std::string parameter_file_digest(const ReadOnlyFile& file, DigestTiming* timing = nullptr,
                                  const DigestProgress& progress = nullptr);

struct PublishedParameterFile {
  std::string_view name, digest;
};
// Every file parameters.json lists (published_parameters.cpp).
std::span<const PublishedParameterFile> published_parameter_files();
std::optional<std::string_view> published_digest(
    std::string_view file_name,
    std::span<const PublishedParameterFile> published = published_parameter_files());

// A parameter set that must not be used (marked insecure and not allowed, a digest mismatch, an
// unreadable .meta). std::invalid_argument: the request's circuit cannot be served as configured.
class ParameterFileError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct ParameterChecks {
  bool allow_insecure = false;        // accept sets whose .meta says "insecure": true
  bool verify_params_digest = false;  // hash a published .params against parameters.json
  // Subgroup-check the bulk points of a .params (batched over the pool) unless its digest
  // matched a published one. The vk points are always fully checked.
  bool check_bulk_points = true;
  // Hears the .params being hashed ("BLAKE2b ...", bytes) and its points decoded and checked
  // (groth16::parse_parameters' phases, points): the commands show it; empty: silent.
  ProgressFn progress = nullptr;
};

struct ParameterVerdict {
  std::optional<ParameterMetadata> meta;  // the .meta, when there is one
  bool insecure = false;                  // marked, and allowed by the checks
  bool vk_digest_verified = false, params_digest_verified = false;
  SubgroupCheck bulk_check = SubgroupCheck::kCheck;
  DigestTiming params_hash;  // when the .params was hashed
};

// The checks of the file comment, for the set `files` (its .params need not exist when only
// the verifying key is wanted: pass want_params = false), against `published` (tests pass their
// own table).
ParameterVerdict check_parameter_set(
    const ParameterFiles& files, const ParameterChecks& checks, bool want_params = true,
    std::span<const PublishedParameterFile> published = published_parameter_files());

// Writes .params, .vk and .meta through temporary files; with kRefuse nothing is written when any
// of the three exists (FileExistsError naming it). Creates `dir`.
void write_parameter_set(const ParameterFiles& files, const groth16::Parameters& params,
                         const ParameterMetadata& meta, Overwrite mode);

// The streamed form, for a set too large to hold (a 32 GiB PoRep .params is 47 GB):
// `write_params` writes the .params bytes into the writer it is given and returns the verifying
// key; the same refusals and order as above.
void write_parameter_set(
    const ParameterFiles& files, const ParameterMetadata& meta, Overwrite mode,
    const std::function<groth16::VerifyingKey(AtomicFileWriter&)>& write_params);

// check_parameter_set, then the file itself (bellperson format). std::runtime_error naming the
// missing file; groth16::FormatError for a malformed one.
groth16::Parameters read_parameter_set(const ParameterFiles& files, const ParameterChecks& checks,
                                       ThreadPool& pool, ParameterVerdict* verdict = nullptr);
// The same checks, then the set without its points: the vk, and a groth16::ParamsFileSource
// (groth16/params_file.hpp) over the .params, whose points are read, and checked as the verdict
// says, when asked for. The .params is opened first and its digest (when asked) taken through
// that descriptor, which the source keeps: a file replaced after the check is never what is read.
// Only the vk's pages and the five length words are read here.
groth16::Parameters open_parameter_set(
    const ParameterFiles& files, const ParameterChecks& checks, ParameterVerdict* verdict = nullptr,
    std::span<const PublishedParameterFile> published = published_parameter_files());
groth16::VerifyingKey read_verifying_key_set(const ParameterFiles& files,
                                             const ParameterChecks& checks,
                                             ParameterVerdict* verdict = nullptr);

}  // namespace cuzk::filecoin
