// The sealing cache directory as rust-fil-proofs lays it out: file names, p_aux / t_aux, and the
// on-disk form of the trees.
//
// Names (merkletree store/mod.rs StoreConfig::data_path with DEFAULT_STORE_CONFIG_DATA_VERSION 2;
// storage-proofs-core/src/cache_key.rs; merkle/builders.rs split_config):
//   sc-02-data-<id>.dat with id = "tree-d", "layer-<l>" (l = 1..layers), and for tree_c and
//   tree_r_last "tree-c" / "tree-r-last" when the shape has one base tree, else "tree-c-<j>" /
//   "tree-r-last-<j>" for base trees j = 0..count-1; plus "p_aux" and "t_aux" (no extension).
// Contents:
//   * tree_d, tree_c-*: every row of the base tree (DiskStore): leaves first, root last
//     (tree_d of N nodes holds 2N - 1 nodes);
//   * tree_r_last-*: only the rows above the leaves and the `rows_to_discard` lowest inner rows
//     (LevelCacheStore written with an external reader; the leaves are the replica's nodes at
//     offset j * nodes-per-base-tree). rows_to_discard is default_rows_to_discard(nodes per base
//     tree, 8) = 2 for 8 MiB and larger, 1 for 2 KiB (storage-proofs-porep vanilla/proof.rs);
//   * layer-<l>: N labels of 32 bytes;
//   * p_aux: bincode of PersistentAux { comm_c, comm_r_last } = 64 raw bytes;
//   * t_aux: bincode of TemporaryAux { labels: [StoreConfig], tree_d_config, tree_r_last_config,
//     tree_c_config } with StoreConfig { path: string, id: string, size: Option<u64>,
//     rows_to_discard: u64 } (vanilla/params.rs, merkletree StoreConfig).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/merkle_tree.hpp"
#include "filecoin/merkle/tree_shape.hpp"
#include "filecoin/sector_shape.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kStoreConfigDataVersion = 2;

namespace cache_key {
inline constexpr std::string_view kPAux = "p_aux";
inline constexpr std::string_view kTAux = "t_aux";
inline constexpr std::string_view kTreeD = "tree-d";
inline constexpr std::string_view kTreeC = "tree-c";
inline constexpr std::string_view kTreeRLast = "tree-r-last";
std::string label_layer(unsigned layer);  // "layer-<l>"
}  // namespace cache_key

// "sc-02-data-<id>.dat".
std::string store_data_file_name(std::string_view id);
// split_config: {id} for one base tree, else id-0 .. id-(count-1).
std::vector<std::string> split_store_ids(std::string_view id, uint64_t count);
std::string tree_d_file_name();
std::string layer_file_name(unsigned layer);
std::vector<std::string> tree_c_file_names(uint64_t base_tree_count);
std::vector<std::string> tree_r_last_file_names(uint64_t base_tree_count);

// ---- p_aux / t_aux
// -------------------------------------------------------------------------------

struct PersistentAux {
  Domain comm_c{};
  Domain comm_r_last{};
  bool operator==(const PersistentAux&) const = default;
};
std::vector<uint8_t> encode_p_aux(const PersistentAux& aux);
// Exactly 64 bytes (std::invalid_argument otherwise).
PersistentAux decode_p_aux(std::span<const uint8_t> bytes);
void write_p_aux(const std::filesystem::path& cache_dir, const PersistentAux& aux);
PersistentAux read_p_aux(const std::filesystem::path& cache_dir);

struct StoreConfig {
  std::string path;  // the cache directory
  std::string id;
  std::optional<uint64_t> size;  // nodes
  uint64_t rows_to_discard = 0;
  bool operator==(const StoreConfig&) const = default;
};
struct TemporaryAux {
  std::vector<StoreConfig> labels;
  StoreConfig tree_d_config, tree_r_last_config, tree_c_config;
  bool operator==(const TemporaryAux&) const = default;
};
// TemporaryAux::new (vanilla/params.rs): layer configs of `sector_nodes` nodes, tree_d of
// 2N - 1 nodes, tree_c / tree_r_last configs (un-split ids) sized for one base tree, tree_r_last
// with default_rows_to_discard(nodes per base tree, base arity).
TemporaryAux default_t_aux(uint64_t sector_nodes, unsigned layers, const TreeShape& shape,
                           const std::string& cache_dir);
std::vector<uint8_t> encode_t_aux(const TemporaryAux& aux);
TemporaryAux decode_t_aux(std::span<const uint8_t> bytes);
// tree_r_last's rows_to_discard from the t_aux in `cache_dir`, or the default for base trees of
// `nodes_per_base_tree` leaves when there is none. std::invalid_argument naming the file when it
// does not decode.
unsigned tree_r_last_rows_to_discard(const std::filesystem::path& cache_dir,
                                     uint64_t nodes_per_base_tree, uint32_t arity);

// ---- tree files
// ----------------------------------------------------------------------------------

// Writes every row of `tree` (which must store every row) to `path` (replaced if present).
void write_tree_file(const std::filesystem::path& path, const BaseTree& tree);
// Writes the level-cache file of `tree` for `rows_to_discard`.
void write_level_cache_file(const std::filesystem::path& path, const BaseTree& tree,
                            unsigned rows_to_discard);
// Maps a full tree file. Throws std::runtime_error naming the file on I/O errors and
// std::invalid_argument when its size does not fit `leaves` and `arity`.
BaseTree open_tree_file(const std::filesystem::path& path, uint64_t leaves, uint32_t arity,
                        TreeHasher hasher);

// tree_d of a sector of `nodes` nodes from `cache_dir` (binary SHA-256).
MerkleTree open_tree_d(const std::filesystem::path& cache_dir, uint64_t nodes);
// tree_c (Poseidon) from its base-tree files.
MerkleTree open_tree_c(const std::filesystem::path& cache_dir, uint64_t nodes,
                       const TreeShape& shape);
// tree_r_last from its level-cache files and the sealed replica file.
MerkleTree open_tree_r_last(const std::filesystem::path& cache_dir,
                            const std::filesystem::path& replica_path, uint64_t nodes,
                            const TreeShape& shape, unsigned rows_to_discard);
// Writes tree_c-* (all rows) / tree_r_last-* (level cache) of a built compound tree.
void write_tree_c(const std::filesystem::path& cache_dir, const MerkleTree& tree);
void write_tree_r_last(const std::filesystem::path& cache_dir, const MerkleTree& tree,
                       unsigned rows_to_discard);
void write_tree_d(const std::filesystem::path& cache_dir, const MerkleTree& tree);

}  // namespace cuzk::filecoin
