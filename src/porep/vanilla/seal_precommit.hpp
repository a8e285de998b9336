// Sealing, pre-commit phases, as filecoin-proofs/src/api/seal.rs `seal_pre_commit_phase1` / `_2`
// and storage-proofs-porep/src/stacked/vanilla/proof.rs `replicate_phase1` /
// `transform_and_replicate_layers` do them, with the same files in the cache directory
// (tree_store.hpp names them):
//
//   PC1: the staged sector (Fr32-padded data, zero-extended to the sector size; all zeros for a
//        CC sector) is copied to the sealed file; tree_d is built over it (sc-02-data-tree-d.dat,
//        root comm_d); replica_id follows (replica_id.hpp); every SDR layer is labeled
//        (sdr_labeler.hpp) with the graph's parent cache, generated first when absent.
//   PC2: tree_c over the column hashes of the labels (sc-02-data-tree-c[-j].dat, root comm_c);
//        the sealed file is encoded in place, replica(v) = data(v) + label_L(v) mod r; tree_r_last
//        over the replica as level-cache files (sc-02-data-tree-r-last[-j].dat, root
//        comm_r_last); comm_r = Poseidon_2(comm_c, comm_r_last); p_aux and t_aux are written.
//
// Everything sector-sized goes through mapped files, so the process holds no sector-sized buffer
// (tree_r_last keeps its rows above the leaves in memory: about 1/7 of the sector).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/tree_store.hpp"
#include "filecoin/replica_id.hpp"
#include "porep/vanilla/porep_config.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

// (stage, done, total): a stage name such as "tree_d" or "layer 3/11", and its progress.
using SealProgress = std::function<void(std::string_view, uint64_t, uint64_t)>;

struct SealOptions {
  ThreadPool* pool = nullptr;  // tree building, column hashes, encoding, parent cache
  unsigned labeling_threads = 2;
  // Where the parent cache lives (default_parent_cache_dir() when empty) and whether an
  // existing one is checked against the manifest first (FIL_PROOFS_VERIFY_CACHE).
  std::filesystem::path parent_cache_dir;
  bool verify_parent_cache = false;
  SealProgress progress;
};

struct PreCommit1Output {
  std::vector<StoreConfig> labels;  // layer-1 .. layer-L
  StoreConfig tree_d_config;        // tree-d, 2N - 1 nodes
  Domain comm_d{};
  Domain replica_id{};
  std::filesystem::path parent_cache;  // the file the labels were made with
};

// `staged`: the staged sector file (Fr32-padded, at most sector_size bytes; shorter is
// zero-extended) or nullopt for a zero (CC) sector. `cache_dir` is created when missing;
// `sealed_path` is created or overwritten. Throws std::invalid_argument naming a bad input and
// std::runtime_error naming a file on I/O errors.
PreCommit1Output seal_pre_commit_phase1(const PorepConfig& config,
                                        const std::filesystem::path& cache_dir,
                                        const std::optional<std::filesystem::path>& staged,
                                        const std::filesystem::path& sealed_path,
                                        const Domain& prover_id, uint64_t sector_id,
                                        const Ticket& ticket, const SealOptions& options = {});

struct PreCommit2Output {
  Domain comm_r{};
  Domain comm_d{};
  PersistentAux p_aux;
};

// Reads the layer files and tree_d root named by `pc1` (relative to `cache_dir`), encodes
// `sealed_path` in place. A data node that is not a canonical field element is an error naming
// the node (upstream fails the same way).
PreCommit2Output seal_pre_commit_phase2(const PorepConfig& config, const PreCommit1Output& pc1,
                                        const std::filesystem::path& cache_dir,
                                        const std::filesystem::path& sealed_path,
                                        const SealOptions& options = {});

// The tree files PC1 and PC2 write, for any data (SnapDeals builds its new trees with them):
// tree_d over `data` (a power of two of nodes) as sc-02-data-tree-d.dat with every row, returning
// its root; tree_r_last over `replica` as the level-cache files of `shape` (rows_to_discard the
// default), returning comm_r_last. The files in `cache_dir` are replaced.
Domain write_tree_d_file(const std::filesystem::path& cache_dir, std::span<const uint8_t> data,
                         const SealOptions& options = {});
Domain write_tree_r_last_files(const std::filesystem::path& cache_dir,
                               std::span<const uint8_t> replica, const TreeShape& shape,
                               const SealOptions& options = {});

// The root of a compound tree from its base-tree roots (merkletree from_trees /
// from_sub_trees_as_trees): the roots themselves for one base tree, else sub- and top-level
// Poseidon hashes. Throws std::invalid_argument when the count does not fit the shape.
Domain compound_root(std::span<const Domain> base_roots, const TreeShape& shape);

}  // namespace cuzk::filecoin
