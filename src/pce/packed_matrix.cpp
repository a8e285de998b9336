// PackedMatrix (pce/packed_matrix.hpp): the encoder by ranges of groups, the checked decoder, and
// the CPU twin of the device decoder's product.
#include "pce/packed_matrix.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <stdexcept>
#include <string>

namespace cuzk::pce {

namespace {

constexpr uint64_t kColumnLimit = uint64_t{1} << 32;
constexpr size_t kMaxVarintBytes = 10;  // 64 bits at 7 a byte
// Groups a task of the pool packs: ~4 million groups at 32 GiB, so the split stays fine enough
// for every thread while each task is a few hundred KB of output.
constexpr size_t kGroupsPerTask = 1024;

uint64_t zigzag(int64_t x) {
  return (static_cast<uint64_t>(x) << 1) ^ static_cast<uint64_t>(x >> 63);
}

int64_t unzigzag(uint64_t z) {
  return static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
}

uint64_t tag_of(CoefficientIndex ci) {
  return ci < 2 ? ci : 2;
}

size_t varint_bytes(uint64_t v) {
  return (static_cast<size_t>(std::bit_width(v | 1)) + 6) / 7;
}

// The bytes an entry takes: its varint, and the coefficient index after a tag 2.
size_t entry_bytes(uint64_t varint) {
  return varint_bytes(varint) + ((varint & 3) == 2 ? 2 : 0);
}

// Calls emit(varint, coefficient index) for each entry of row r, whose first column is coded
// against `base`. Returns the row's first column (base when the row is empty).
template <class Emit>
uint32_t for_each_entry(const CsrMatrix& m, size_t r, uint32_t base, Emit&& emit) {
  const uint32_t k0 = m.row_ptr[r], k1 = m.row_ptr[r + 1];
  if (k1 < k0 || k1 > m.nnz()) {
    throw std::invalid_argument("pce pack: row " + std::to_string(r) + "'s entries [" +
                                std::to_string(k0) + ", " + std::to_string(k1) +
                                ") are not within the matrix's " + std::to_string(m.nnz()));
  }
  if (k0 == k1) return base;
  const uint32_t first = m.cols[k0];
  const int64_t from_base = static_cast<int64_t>(first) - static_cast<int64_t>(base);
  emit(zigzag(from_base) << 2 | tag_of(m.coeffs[k0]), m.coeffs[k0]);
  uint32_t prev = first;
  for (uint32_t k = k0 + 1; k < k1; ++k) {
    const uint32_t col = m.cols[k];
    if (col <= prev) {
      throw std::invalid_argument("pce pack: row " + std::to_string(r) +
                                  "'s columns do not strictly ascend (" + std::to_string(col) +
                                  " after " + std::to_string(prev) + ")");
    }
    emit(uint64_t{col - prev} << 2 | tag_of(m.coeffs[k]), m.coeffs[k]);
    prev = col;
  }
  return first;
}

// Group g's row byte lengths (0 past the matrix's end) into `lens`; returns the group's bytes.
uint64_t size_group(const CsrMatrix& m, size_t g, uint32_t (&lens)[kPackedGroupRows]) {
  uint64_t total = kPackedGroupRows;
  uint32_t base = 0;
  for (size_t i = 0; i < kPackedGroupRows; ++i) {
    const size_t r = g * kPackedGroupRows + i;
    lens[i] = 0;
    if (r >= m.rows()) continue;
    uint64_t len = 0;
    base = for_each_entry(m, r, base, [&](uint64_t v, CoefficientIndex) { len += entry_bytes(v); });
    if (len >= kColumnLimit)
      throw std::invalid_argument("pce pack: row " + std::to_string(r) + " needs 4 GiB or more");
    lens[i] = static_cast<uint32_t>(len);
    total += len + (len >= kPackedLongRow ? 4 : 0);
  }
  return total;
}

void put_u32(uint8_t*& p, uint32_t v) {
  for (int s = 0; s < 32; s += 8)
    *p++ = static_cast<uint8_t>(v >> s);
}

void put_varint(uint8_t*& p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
}

// Writes group g into its slot [out, out + slot).
void write_group(const CsrMatrix& m, size_t g, uint8_t* out, uint64_t slot) {
  uint32_t lens[kPackedGroupRows];
  const uint64_t total = size_group(m, g, lens);
  if (total != slot) {
    throw std::invalid_argument("pce pack: group " + std::to_string(g) + " takes " +
                                std::to_string(total) + " bytes, its offsets give " +
                                std::to_string(slot) + " (offsets of another matrix?)");
  }
  uint8_t* p = out;
  for (size_t i = 0; i < kPackedGroupRows; ++i)
    *p++ = static_cast<uint8_t>(std::min<uint32_t>(lens[i], kPackedLongRow));
  for (size_t i = 0; i < kPackedGroupRows; ++i)
    if (lens[i] >= kPackedLongRow) put_u32(p, lens[i]);
  uint32_t base = 0;
  const size_t end = std::min(m.rows(), (g + 1) * kPackedGroupRows);
  for (size_t r = g * kPackedGroupRows; r < end; ++r) {
    base = for_each_entry(m, r, base, [&](uint64_t v, CoefficientIndex ci) {
      put_varint(p, v);
      if ((v & 3) == 2) {
        *p++ = static_cast<uint8_t>(ci);
        *p++ = static_cast<uint8_t>(ci >> 8);
      }
    });
  }
}

// Runs body(begin, end) over ranges of [0, n) groups, on the pool when there is one.
void for_groups(size_t n, ThreadPool* pool, const std::function<void(size_t, size_t)>& body) {
  if (pool == nullptr) {
    body(0, n);
  } else {
    pool->parallel_for(n, body, kGroupsPerTask);
  }
}

[[noreturn]] void bad_group(size_t g, const std::string& what) {
  throw std::invalid_argument("pce packed matrix: group " + std::to_string(g) + ": " + what);
}

// Row i of group g.
[[noreturn]] void bad_row(size_t g, size_t i, const std::string& what) {
  bad_group(g, "row " + std::to_string(g * kPackedGroupRows + i) + ": " + what);
}

// Decodes group g of m, checking every bound: on_entry(i, col, ci) for each entry of the
// group's row i, in row then column order.
template <class OnEntry>
void decode_group(const PackedMatrix& m, size_t g, OnEntry&& on_entry) {
  if (g >= m.groups()) {
    bad_group(g, "the matrix has " + std::to_string(m.groups()) + " groups");
  }
  if (m.group_offsets.size() != m.groups() + 1) {
    bad_group(g, std::to_string(m.group_offsets.size()) + " offsets for " +
                     std::to_string(m.groups()) + " groups");
  }
  const uint64_t begin = m.group_offsets[g], end = m.group_offsets[g + 1];
  if (begin > end || end > m.bytes.size()) {
    bad_group(g, "bytes [" + std::to_string(begin) + ", " + std::to_string(end) +
                     ") are not within the pack's " + std::to_string(m.bytes.size()));
  }
  const uint8_t* p = m.bytes.data() + begin;
  const uint64_t size = end - begin;
  if (size < kPackedGroupRows) {
    bad_group(g, std::to_string(size) + " bytes, shorter than its header");
  }
  const size_t rows = std::min(kPackedGroupRows, m.rows - g * kPackedGroupRows);
  uint64_t pos = kPackedGroupRows;
  for (size_t i = 0; i < kPackedGroupRows; ++i) {
    if (i >= rows && p[i] != 0) bad_row(g, i, "past the matrix's end with a length");
    if (p[i] == kPackedLongRow) pos += 4;
  }
  if (pos > size) bad_group(g, "the long rows' lengths run past the group's end");
  uint64_t long_at = kPackedGroupRows;
  uint32_t base = 0;
  for (size_t i = 0; i < rows; ++i) {
    uint64_t len = p[i];
    if (len == kPackedLongRow) {
      len = 0;
      for (int s = 0; s < 4; ++s)
        len |= uint64_t{p[long_at++]} << (8 * s);
      if (len < kPackedLongRow) bad_row(g, i, "a long row of " + std::to_string(len) + " bytes");
    }
    if (len > size - pos) {
      bad_row(g, i,
              "length " + std::to_string(len) + " runs past the group's end (" +
                  std::to_string(size - pos) + " bytes left)");
    }
    const uint64_t row_end = pos + len;
    bool first = true;
    uint64_t col = 0;
    while (pos < row_end) {
      uint64_t v = 0;
      for (size_t n = 0;; ++n) {
        if (pos == row_end) bad_row(g, i, "a varint runs past the row's end");
        if (n == kMaxVarintBytes) bad_row(g, i, "a varint longer than 10 bytes");
        const uint8_t b = p[pos++];
        if (n == kMaxVarintBytes - 1 && b > 1) bad_row(g, i, "a varint past 64 bits");
        v |= uint64_t{b & 0x7fu} << (7 * n);
        if ((b & 0x80) == 0) break;
      }
      const uint64_t tag = v & 3, delta = v >> 2;
      if (tag == 3) bad_row(g, i, "an entry with tag 3");
      if (first) {
        const int64_t c = static_cast<int64_t>(base) + unzigzag(delta);
        if (c < 0 || static_cast<uint64_t>(c) >= kColumnLimit)
          bad_row(g, i, "first column " + std::to_string(c) + " outside [0, 2^32)");
        col = static_cast<uint64_t>(c);
        base = static_cast<uint32_t>(col);
        first = false;
      } else {
        if (delta == 0) bad_row(g, i, "a column repeated (delta 0)");
        if (delta >= kColumnLimit - col)
          bad_row(g, i,
                  "column " + std::to_string(col) + " + " + std::to_string(delta) +
                      " outside [0, 2^32)");
        col += delta;
      }
      CoefficientIndex ci = static_cast<CoefficientIndex>(tag);
      if (tag == 2) {
        if (row_end - pos < 2) bad_row(g, i, "a coefficient index truncated");
        ci = static_cast<CoefficientIndex>(p[pos] | p[pos + 1] << 8);
        pos += 2;
        if (ci < 2) bad_row(g, i, "coefficient index " + std::to_string(ci) + " after tag 2");
      }
      on_entry(i, static_cast<uint32_t>(col), ci);
    }
  }
  if (pos != size) bad_group(g, std::to_string(size - pos) + " bytes after its last row");
}

}  // namespace

std::vector<uint64_t> packed_group_offsets(const CsrMatrix& m, ThreadPool* pool) {
  if (m.cols.size() != m.coeffs.size())
    throw std::invalid_argument("pce pack: a matrix of " + std::to_string(m.cols.size()) +
                                " columns and " + std::to_string(m.coeffs.size()) +
                                " coefficients");
  const size_t groups = (m.rows() + kPackedGroupRows - 1) / kPackedGroupRows;
  std::vector<uint64_t> offsets(groups + 1, 0);
  for_groups(groups, pool, [&](size_t g0, size_t g1) {
    uint32_t lens[kPackedGroupRows];
    for (size_t g = g0; g < g1; ++g)
      offsets[g + 1] = size_group(m, g, lens);
  });
  for (size_t g = 0; g < groups; ++g)
    offsets[g + 1] += offsets[g];
  return offsets;
}

void pack_matrix(const CsrMatrix& m, std::span<const uint64_t> offsets, std::span<uint8_t> out,
                 ThreadPool* pool) {
  const size_t groups = (m.rows() + kPackedGroupRows - 1) / kPackedGroupRows;
  if (offsets.size() != groups + 1 || offsets[0] != 0)
    throw std::invalid_argument("pce pack: " + std::to_string(offsets.size()) +
                                " offsets for a matrix of " + std::to_string(groups) + " groups");
  if (out.size() < offsets.back())
    throw std::invalid_argument("pce pack: " + std::to_string(out.size()) +
                                " bytes for a pack of " + std::to_string(offsets.back()));
  for (size_t g = 0; g < groups; ++g) {
    if (offsets[g + 1] < offsets[g])
      throw std::invalid_argument("pce pack: offsets descend at group " + std::to_string(g));
  }
  for_groups(groups, pool, [&](size_t g0, size_t g1) {
    for (size_t g = g0; g < g1; ++g)
      write_group(m, g, out.data() + offsets[g], offsets[g + 1] - offsets[g]);
  });
}

std::vector<std::vector<PackedEntry>> unpack_group(const PackedMatrix& m, size_t g) {
  std::vector<std::vector<PackedEntry>> rows;
  if (g < m.groups()) rows.resize(std::min(kPackedGroupRows, m.rows - g * kPackedGroupRows));
  decode_group(m, g, [&](size_t i, uint32_t col, CoefficientIndex ci) {
    rows[i].push_back({col, ci});
  });
  return rows;
}

void evaluate_packed_rows(const PackedMatrix& m, size_t g0, size_t g1,
                          std::span<const Fr> coefficients, std::span<const Fr> w,
                          std::span<Fr> out) {
  if (g0 > g1 || g1 > m.groups())
    throw std::invalid_argument("pce packed evaluate: groups [" + std::to_string(g0) + ", " +
                                std::to_string(g1) + ") of " + std::to_string(m.groups()));
  const size_t rows =
      std::min(m.rows, g1 * kPackedGroupRows) - std::min(m.rows, g0 * kPackedGroupRows);
  if (out.size() < rows)
    throw std::invalid_argument("pce packed evaluate: " + std::to_string(out.size()) +
                                " outputs for " + std::to_string(rows) + " rows");
  std::fill(out.begin(), out.begin() + static_cast<ptrdiff_t>(rows), Fr::zero());
  for (size_t g = g0; g < g1; ++g) {
    Fr* acc = out.data() + (g - g0) * kPackedGroupRows;
    decode_group(m, g, [&](size_t i, uint32_t col, CoefficientIndex ci) {
      if (col >= w.size() || ci >= coefficients.size()) {
        bad_row(g, i,
                "column " + std::to_string(col) + " or coefficient index " + std::to_string(ci) +
                    " past the witness's " + std::to_string(w.size()) + " or the table's " +
                    std::to_string(coefficients.size()));
      }
      // spmv.cpp's operations: 1 adds, -1 subtracts, others multiply-add. Elements are fully
      // reduced, so its products by 1 and -1 (input columns) are these same bits.
      if (ci == 0) {
        acc[i] += w[col];
      } else if (ci == 1) {
        acc[i] -= w[col];
      } else {
        acc[i] += coefficients[ci] * w[col];
      }
    });
  }
}

}  // namespace cuzk::pce
