// The SnapDeals (EmptySectorUpdate) shape of a sector size, as rust-fil-proofs
// storage-proofs-update/src/constants.rs and vanilla.rs `PublicParams::from_sector_size` /
// `from_sector_size_poseidon` fix it (facts sheet 2.3), by sector size in 32-byte nodes N:
//
//   partitions        1 (N <= 8 KiB), 2 (<= 32 KiB), 4 (<= 16 MiB), else 16;
//   challenges        10 per partition (N <= 16 MiB), else 86;
//   apex leafs        8 per partition (N <= 8 KiB), else 128;
//   hs                the six allowed h (high bits of a node index that select its rho):
//                     [1; 6] (N <= 32 KiB), else [7, 8, 9, 10, 11, 12]; h = hs[3] by default
//                     (10 for production sizes), h_select = 1 << (first index of h in hs);
//   tree_r shape      8-4-0 (1 KiB), 8-0-0 (2 KiB), 8-2-0 (4 KiB), 8-4-0 (8 KiB), 8-8-0 (16 KiB),
//                     8-8-2 (32 KiB), 8-0-0 (8 MiB), 8-2-0 (16 MiB), 8-0-0 (512 MiB), 8-8-0
//                     (32 GiB), 8-8-2 (64 GiB) (`validate_tree_r_shape`); tree_d is binary SHA-256.
//
// Allowed sizes (ALLOWED_SECTOR_SIZES): 1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB (tests) and
// 32, 64 GiB. The Poseidon variant is one partition of challenges x partitions challenges, no apex
// tree, and tree_d with the tree_r shape.
#pragma once

#include <array>
#include <cstdint>

#include "filecoin/domain.hpp"
#include "filecoin/merkle/tree_shape.hpp"

namespace cuzk::filecoin {

inline constexpr size_t kUpdateHCount = 6;  // hs(sector_nodes).len()
using UpdateHs = std::array<unsigned, kUpdateHCount>;

// vanilla.rs `PublicParams`.
struct UpdateParams {
  uint64_t sector_nodes = 0;
  unsigned challenge_count = 0;    // per partition (the Poseidon variant: all of them)
  unsigned challenge_bit_len = 0;  // log2(sector_nodes), the height of tree_d
  unsigned partition_count = 1;
  unsigned partition_bit_len = 0;  // log2(partition_count)
  unsigned apex_leaf_count = 0;    // per partition (0 in the Poseidon variant)
  unsigned apex_leaf_bit_len = 0;
  bool poseidon = false;  // EmptySectorUpdate-Poseidon

  // std::invalid_argument naming the size when it is not an allowed one.
  static UpdateParams for_sector_size(uint64_t sector_bytes);
  static UpdateParams poseidon_for_sector_size(uint64_t sector_bytes);

  uint64_t sector_size() const { return sector_nodes * kNodeSize; }
  TreeShape tree_r_shape() const;
  UpdateHs hs() const;
  unsigned h_default() const { return hs()[3]; }
  // 1 << (first index of h in hs()); std::invalid_argument when h is not allowed.
  uint64_t h_select(unsigned h) const;
  // Random bits of each challenge (the partition index fills the bits above them).
  unsigned random_bits_per_challenge() const { return challenge_bit_len - partition_bit_len; }
  // The tree_d row that holds the apex leafs (rows counted from the leaves).
  unsigned apex_leafs_height() const { return random_bits_per_challenge() - apex_leaf_bit_len; }

  bool operator==(const UpdateParams&) const = default;
};

// Whether `sector_nodes` is one of ALLOWED_SECTOR_SIZES.
bool is_update_sector_nodes(uint64_t sector_nodes);

}  // namespace cuzk::filecoin
