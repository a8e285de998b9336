// PC1 labeling: every SDR layer of a sector, written to the cache directory as rust-fil-proofs
// writes it (storage-proofs-porep/src/stacked/vanilla/create_label/{single,multi}.rs,
// proof.rs `replicate_phase1`): layer l goes to sc-02-data-layer-<l>.dat, N labels of 32 bytes.
//
// Each layer reads the parent cache file once, sequentially, in chunks (never whole), and labels
// nodes in increasing order (label v needs label v - 1, so a layer is inherently sequential).
// Memory is bounded by the two mapped layers (the current one written in place, the previous one
// read for expander parents) plus a few MiB of buffers.
//
// Threads: as in rust-fil-proofs' multicore SDR, the hashing itself stays on one thread while a
// producer thread works ahead of it, reading the parent cache and gathering each node's parent
// labels into a ring of per-node buffers: all expander parents (previous layer, complete) and
// those DRG parents the hasher has already produced; the hasher fills in the few DRG parents that
// were not ready (typically v - 1) and hashes. Results are identical with one thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/tree_store.hpp"

namespace cuzk::filecoin {

struct LabelingOptions {
  // 1: everything on the calling thread; >= 2: a producer thread gathers parents ahead.
  unsigned threads = 2;
  // Called after each chunk of nodes with (layer, nodes done in the layer, nodes per layer).
  std::function<void(unsigned, uint64_t, uint64_t)> progress;
};

// Labels `layers` layers of a sector of `nodes` nodes into `cache_dir` (which must exist), using
// the parent cache file at `parent_cache` (nodes * 56 bytes; std::invalid_argument naming it when
// the size differs). Returns the layers' StoreConfigs (id "layer-<l>", size N, rows_to_discard 0,
// path = cache_dir), as SealPreCommitPhase1Output.labels holds them. Throws std::runtime_error
// naming the file on I/O errors.
std::vector<StoreConfig> generate_sdr_labels(const std::filesystem::path& parent_cache,
                                             uint64_t nodes, unsigned layers,
                                             const Domain& replica_id,
                                             const std::filesystem::path& cache_dir,
                                             const LabelingOptions& options = {});

}  // namespace cuzk::filecoin
