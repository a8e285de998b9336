// Piece commitments (comm_P) and the unsealed-sector commitment comm_d built from pieces, as
// rust-fil-proofs filecoin-proofs/src/pieces.rs and api/mod.rs do it.
//
// Sizes: a piece's `size` is its *unpadded* byte count (UnpaddedBytesAmount); its padded size is
// fr32_padded_bytes(size) and must be a power of two, so sizes are 127 * 2^k (>= 127, the
// MINIMUM_RESERVED_BYTES_FOR_PIECE_IN_FULLY_ALIGNED_SECTOR of filecoin-proofs/src/constants.rs).
// A sector size is given in padded bytes (SectorSize).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/fr32.hpp"
#include "filecoin/hash/sha256_tree.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::filecoin {

inline constexpr uint64_t kMinimumPieceSize = 127;  // unpadded bytes, 4 padded nodes

struct PieceInfo {
  Domain commitment{};
  uint64_t size = 0;  // unpadded bytes
  bool operator==(const PieceInfo&) const = default;
};

// PieceInfo::new: rejects an all-zero commitment (std::invalid_argument).
PieceInfo make_piece_info(const Domain& commitment, uint64_t unpadded_size);

// pieces.rs `piece_hash`: sha256_node of two commitments.
inline Domain piece_hash(const Domain& a, const Domain& b) {
  return sha256_node(a, b);
}

// pieces.rs `zero_padding`: the commitment of an all-zero piece of `unpadded_size` bytes (padded
// size a power of two >= 64, else std::invalid_argument naming it).
PieceInfo zero_padding(uint64_t unpadded_size);

// comm_d of an empty sector (`empty_comm_d`): zero_subtree_root(log2(sector_size / 32)). The
// sector size must be a power of two >= 64 padded bytes (std::invalid_argument otherwise).
Domain empty_comm_d(uint64_t sector_size);

// pieces.rs `compute_comm_d`: an empty list gives empty_comm_d. Otherwise the pieces are shifted
// onto a stack left to right; before each piece, the top is padded with zero pieces of its own
// size until it is at least as large as the new piece; equal-sized neighbours are joined with
// piece_hash whenever possible; at the end zero pieces pad the top until one entry remains.
// Checks, with std::invalid_argument naming the bad value: at most sector/127 pieces ("Too many
// pieces"), padded sizes summing to at most the sector size, each padded size a power of two.
// Like upstream, the result is the root over the pieces' own extent: it equals the sector's comm_d
// only when the pieces (as Lotus/Curio always supply them) fill the sector.
Domain compute_comm_d(uint64_t sector_size, std::span<const PieceInfo> pieces);
bool verify_pieces(const Domain& comm_d, std::span<const PieceInfo> pieces, uint64_t sector_size);

// comm_P of unpadded piece data (`generate_piece_commitment`): the data is Fr32-padded and the
// binary tree root over the padded nodes is taken. `data.size()` must equal `piece_size`, which
// must be >= 127 with a power-of-two padded size (std::invalid_argument otherwise).
PieceInfo generate_piece_commitment(std::span<const uint8_t> data, uint64_t piece_size,
                                    ThreadPool* pool = nullptr);
// comm_P of already padded piece data (a power-of-two number of nodes, >= 2).
Domain comm_p_from_padded(std::span<const uint8_t> padded, ThreadPool* pool = nullptr);

// Streaming comm_P: unpadded data in chunks of any size, padded and hashed on the fly with
// O(log n) memory. finish() checks that exactly piece_size bytes arrived.
class PieceCommitmentBuilder {
 public:
  explicit PieceCommitmentBuilder(uint64_t piece_size);
  void write(std::span<const uint8_t> data);
  PieceInfo finish();

 private:
  uint64_t piece_size_;
  Fr32Padder padder_;
  Sha256TreeBuilder tree_;
};

// Alignment of a piece written after `written` unpadded bytes (`get_piece_alignment`): the piece
// occupies the smallest 127 * 2^k slot that holds it, starting at a multiple of that slot size.
struct PieceAlignment {
  uint64_t left_bytes = 0;   // zero bytes before the piece (unpadded)
  uint64_t right_bytes = 0;  // zero bytes after it, up to the slot end (unpadded)
  uint64_t sum(uint64_t piece_bytes) const { return left_bytes + piece_bytes + right_bytes; }
};
PieceAlignment get_piece_alignment(uint64_t written_bytes, uint64_t piece_bytes);
// Total unpadded bytes taken by pieces written in order, alignment included.
uint64_t sum_piece_bytes_with_alignment(std::span<const uint64_t> pieces);
// Unpadded offset at which a piece of piece_bytes starts after `pieces`.
uint64_t get_piece_start_byte(std::span<const uint64_t> pieces, uint64_t piece_bytes);

}  // namespace cuzk::filecoin
