// PackedMatrix: a recorded matrix (CsrMatrix) in the byte form a capped device streams by row
// blocks, 0.32x the bytes of its CSR at 32 GiB PoRep (2.63 GB a partition instead of 8.11 with C
// streamed twice: `cuzk-bench pack-matrices` on the real recording, docs/perf-log.md session 27).
// The CSR spends 4 bytes a column and 2 a coefficient index on rows of ~2 entries whose columns lie
// close to the previous row's, and 70% of whose coefficients are 1 or -1; here a column is a varint
// delta and 1 / -1 cost 2 bits.
//
// Rows go in groups of kPackedGroupRows, each group decodable alone (a warp decodes one, a lane a
// row: gpu/spmv/packed_spmv.cu). A group's bytes, at group_offsets[g]:
//   header: kPackedGroupRows bytes, row i's byte length, or kPackedLongRow when it is 255 bytes or
//           more (then its length is the next u32, little endian, after the header, in row order);
//           rows past the matrix's end (the last group's) have length 0;
//   then each row's bytes in row order.
// A row's bytes are its entries in column order, each varint(delta << 2 | tag) (LEB128: 7 bits a
// byte, low first, the high bit set on all but the last), then for tag 2 the coefficient index as
// a little-endian u16:
//   tag 0: coefficient index 0 (1); tag 1: index 1 (-1); tag 2: the index follows; 3: never made;
//   delta: later entries, column - the row's previous column (>= 1, columns ascend);
//          the first entry, zigzag(column - base) where base is the first column of the group's
//          previous non-empty row (0 for none), so that a warp finds every row's first column by
//          one prefix sum of these deltas (an empty row adds 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "pce/recorded_circuit.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::pce {

inline constexpr size_t kPackedGroupRows = 32;
inline constexpr uint8_t kPackedLongRow = 255;

// A view of a packed matrix: groups() = ceil(rows / kPackedGroupRows) groups, group g's bytes
// [group_offsets[g], group_offsets[g + 1]) of `bytes`.
struct PackedMatrix {
  size_t rows = 0;
  std::span<const uint64_t> group_offsets;  // groups() + 1, from 0; the last is bytes.size()
  std::span<const uint8_t> bytes;

  size_t groups() const { return (rows + kPackedGroupRows - 1) / kPackedGroupRows; }
  // Bytes of groups [g0, g1): the row-block unit a streamer copies.
  uint64_t group_bytes(size_t g0, size_t g1) const { return group_offsets[g1] - group_offsets[g0]; }
};

// The group offsets of m's pack (groups + 1 entries; the last is the pack's size), on the pool
// when there is one. std::invalid_argument naming the row when a row's columns do not strictly
// ascend (a recording's always do).
std::vector<uint64_t> packed_group_offsets(const CsrMatrix& m, ThreadPool* pool);

// Writes m's pack into `out` (offsets.back() bytes) at the offsets packed_group_offsets gave.
void pack_matrix(const CsrMatrix& m, std::span<const uint64_t> offsets, std::span<uint8_t> out,
                 ThreadPool* pool);

// One entry of a decoded row.
struct PackedEntry {
  uint32_t col;
  CoefficientIndex coeff;
};

// The rows of group g, decoded: rows[i] for row g * kPackedGroupRows + i (as many as the matrix
// has). std::invalid_argument when the group's bytes are not a pack (a length past its end, a
// tag 3, a varint past its row, a column past 2^32).
std::vector<std::vector<PackedEntry>> unpack_group(const PackedMatrix& m, size_t g);

// The CPU twin of the device decoder's product (gpu/spmv/packed_spmv.cu): out[i] = row
// g0 * kPackedGroupRows + i times w, for the rows of groups [g0, g1), with `coefficients` the
// circuit's table. Equal bit for bit to pce::evaluate's rows of the same CSR.
void evaluate_packed_rows(const PackedMatrix& m, size_t g0, size_t g1,
                          std::span<const Fr> coefficients, std::span<const Fr> w,
                          std::span<Fr> out);

}  // namespace cuzk::pce
