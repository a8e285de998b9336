// Per-sector-size constants of rust-fil-proofs filecoin-proofs/src/constants.rs and
// parameters.rs (facts sheet 2): tree shape, SDR layers, PoRep partitions and challenges, PoSt
// counts. All ten supported sizes are covered: the published 2 KiB, 8 MiB, 512 MiB, 32 GiB,
// 64 GiB and the test sizes 4 KiB, 16 KiB, 32 KiB, 16 MiB, 1 GiB.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "filecoin/merkle/tree_shape.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

struct SectorShape {
  uint64_t sector_size = 0;               // bytes
  uint64_t nodes = 0;                     // sector_size / 32
  TreeShape tree;                         // tree_c and tree_r_last (SectorShape* aliases)
  unsigned layers = 0;                    // LAYERS
  unsigned window_post_sector_count = 0;  // WINDOW_POST_SECTOR_COUNT (sectors per partition)

  uint64_t base_tree_count() const { return tree.base_tree_count(); }
  uint64_t nodes_per_base_tree() const { return nodes / tree.base_tree_count(); }
};

// Throws std::invalid_argument naming the size if it is not one of the ten supported ones.
const SectorShape& sector_shape(uint64_t sector_size);

// Parses "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (also "2kib", "2048", "32G") into bytes: the
// one parser of every command's --sector-size. std::invalid_argument naming the text otherwise.
// Sizes are named back by binary_size_name (util/text.hpp).
uint64_t parse_sector_size(std::string_view text);

inline constexpr unsigned kWinningPostChallengeCount = 66;
inline constexpr unsigned kWinningPostSectorCount = 1;
inline constexpr unsigned kWindowPostChallengeCount = 10;
inline constexpr unsigned kMaxChallengesPerPartition = 18;
inline constexpr uint64_t kDefaultSynthChallengeCount = uint64_t{1} << 18;

// PoRep partition count: POREP_PARTITIONS (1, or 10 for 32/64 GiB) for interactive and synthetic
// proofs; get_porep_non_interactive_partitions (13, or 126) with NonInteractivePoRep.
unsigned porep_partitions(uint64_t sector_size, std::optional<ApiFeature> feature);
// minimum_challenges: 2 (176 for 32/64 GiB) interactive/synthetic; 26 (2253) non-interactive.
unsigned porep_minimum_challenges(uint64_t sector_size, std::optional<ApiFeature> feature);
// parameters.rs select_challenges: ceil(minimum / partitions) (2 or 18 for every size).
unsigned porep_challenges_per_partition(uint64_t sector_size, std::optional<ApiFeature> feature,
                                        unsigned partitions);

}  // namespace cuzk::filecoin
