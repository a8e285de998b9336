// The SDR parent cache file (storage-proofs-porep/src/stacked/vanilla/cache.rs; facts sheet 4.5).
//
// Content: for v = 0 .. nodes-1 the 14 parents of v (stacked_graph.hpp) as little-endian u32,
// 56 bytes per node, no header. Name: v28-sdr-parent-<hex>.cache with
// hex = SHA-256("poseidon_hasher" || graph identifier || the four Feistel keys as u64_le ||
// u32_le(nodes)) (`cache_path`; 28 = parameter_cache.rs VERSION). Directory: settings.rs
// `parent_cache`, i.e. $FIL_PROOFS_PARENT_CACHE, else $FIL_PROOFS_CACHE_DIR (default "/var/tmp/")
// with "filecoin-parents" appended as a plain string. The manifest parent_cache.json maps file
// stems of the published graphs to sector size and the SHA-256 of the whole file; upstream checks
// it only when FIL_PROOFS_VERIFY_CACHE is set (and always right after generating).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/graph/stacked_graph.hpp"
#include "filecoin/hash/sha256.hpp"
#include "util/function_ref.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kParameterCacheVersion = 28;
inline constexpr size_t kParentCacheNodeBytes = kTotalDegree * 4;  // 56

// "v28-sdr-parent-<hex>" and "<stem>.cache".
std::string parent_cache_file_stem(const StackedGraph& graph);
std::string parent_cache_file_name(const StackedGraph& graph);
// The directory rust-fil-proofs uses, from the environment as described above.
std::filesystem::path default_parent_cache_dir();

struct ParentCacheManifestEntry {
  std::string_view stem;
  uint64_t sector_size;
  std::string_view digest;  // lower-case hex SHA-256 of the file
};
// The upstream manifest (storage-proofs-porep/parent_cache.json at the pinned commit), embedded
// as upstream embeds it (`include_str!`); the tests compare it with the fixture copy.
std::span<const ParentCacheManifestEntry> parent_cache_manifest();
const ParentCacheManifestEntry* find_parent_cache_manifest_entry(std::string_view stem);

// Generates the cache content in node order, passing it to `sink` in chunks (bounded memory),
// and returns the SHA-256 of the whole content. With a pool, each chunk is filled in parallel.
Sha256Digest generate_parent_cache(const StackedGraph& graph,
                                   FunctionRef<void(std::span<const uint8_t>)> sink,
                                   ThreadPool* pool = nullptr);
// The whole content in memory (small graphs).
std::vector<uint8_t> generate_parent_cache_bytes(const StackedGraph& graph,
                                                 ThreadPool* pool = nullptr);
// Writes the cache to `path` (through a temporary file renamed into place) and returns its
// digest. Throws std::runtime_error naming the file on I/O errors.
Sha256Digest write_parent_cache_file(const std::filesystem::path& path, const StackedGraph& graph,
                                     ThreadPool* pool = nullptr);

// SHA-256 of a file's content, streamed.
Sha256Digest file_sha256(const std::filesystem::path& path);

struct ParentCacheVerification {
  std::string digest_hex;                      // of the file
  std::optional<std::string> manifest_digest;  // when the graph's stem is in the manifest
  bool size_ok = false;                        // nodes * 56 bytes
  bool ok() const { return size_ok && (!manifest_digest || *manifest_digest == digest_hex); }
};
// Checks the file's size and, for published graphs, its digest against the manifest.
ParentCacheVerification verify_parent_cache_file(const std::filesystem::path& path,
                                                 const StackedGraph& graph);

// ParentCache::new: returns <dir>/<name>, generating it when absent. With verify (upstream's
// FIL_PROOFS_VERIFY_CACHE) an existing file failing verification is regenerated. A freshly
// generated file whose digest contradicts the manifest is an error (std::runtime_error).
std::filesystem::path ensure_parent_cache(const std::filesystem::path& dir,
                                          const StackedGraph& graph, bool verify,
                                          ThreadPool* pool = nullptr);

}  // namespace cuzk::filecoin
