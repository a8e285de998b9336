// PackedMatrix against oracles other than the packer: its groups decode to the CSR it came from
// (a recorded circuit's A, B, C and hand-made edge cases), its bytes are the header's format
// written out by hand, its evaluation equals pce::evaluate's CSR SpMV bit for bit, and bad
// matrices and corrupted packs are refused with std::invalid_argument.
#include "pce/packed_matrix.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cs/cs_test_circuits.hpp"
#include "pce/recording_cs.hpp"
#include "pce/spmv.hpp"
#include "pce/witness_cs.hpp"
#include "piece_circuit.hpp"

namespace cuzk::pce {
namespace {

const CircuitIdentity kId{"test", 0, "any", 1};

using Row = std::vector<std::pair<uint32_t, CoefficientIndex>>;

// A CsrMatrix with its own storage.
struct OwnedCsr {
  std::vector<uint32_t> row_ptr{0}, cols;
  std::vector<CoefficientIndex> coeffs;

  explicit OwnedCsr(const std::vector<Row>& rows) {
    for (const Row& row : rows) {
      for (const auto& [col, ci] : row) {
        cols.push_back(col);
        coeffs.push_back(ci);
      }
      row_ptr.push_back(static_cast<uint32_t>(cols.size()));
    }
  }
  CsrMatrix view() const { return {row_ptr, cols, coeffs}; }
};

// A pack with its own storage.
struct OwnedPack {
  size_t rows = 0;
  std::vector<uint64_t> offsets;
  std::vector<uint8_t> bytes;
  PackedMatrix view() const { return {rows, offsets, bytes}; }
};

OwnedPack pack(const CsrMatrix& m, ThreadPool* pool) {
  OwnedPack p{m.rows(), packed_group_offsets(m, pool), {}};
  p.bytes.resize(p.offsets.back());
  pack_matrix(m, p.offsets, p.bytes, pool);
  return p;
}

// Every group of `p` decodes to m's rows, columns and coefficient indices.
void expect_round_trip(const CsrMatrix& m, const OwnedPack& p, const std::string& what) {
  const PackedMatrix pm = p.view();
  ASSERT_EQ(pm.groups(), (m.rows() + 31) / 32) << what;
  for (size_t g = 0; g < pm.groups(); ++g) {
    const auto rows = unpack_group(pm, g);
    ASSERT_EQ(rows.size(), std::min<size_t>(32, m.rows() - g * 32)) << what << " group " << g;
    for (size_t i = 0; i < rows.size(); ++i) {
      const size_t r = g * 32 + i;
      ASSERT_EQ(rows[i].size(), m.row_ptr[r + 1] - m.row_ptr[r]) << what << " row " << r;
      for (size_t k = 0; k < rows[i].size(); ++k) {
        ASSERT_EQ(rows[i][k].col, m.cols[m.row_ptr[r] + k]) << what << " row " << r;
        ASSERT_EQ(rows[i][k].coeff, m.coeffs[m.row_ptr[r] + k]) << what << " row " << r;
      }
    }
  }
}

// A row of n entries from column `first`, `step` apart, coefficient indices cycling 0..3.
Row spaced_row(size_t n, uint32_t first, uint32_t step) {
  Row row;
  for (size_t k = 0; k < n; ++k)
    row.push_back({first + static_cast<uint32_t>(k) * step, static_cast<CoefficientIndex>(k % 4)});
  return row;
}

struct HandCase {
  std::string name;
  std::vector<Row> rows;
};

std::vector<HandCase> hand_cases() {
  std::vector<HandCase> cases;
  cases.push_back({"empty", {}});
  cases.push_back({"45 rows", {}});
  for (uint32_t r = 0; r < 45; ++r)
    cases.back().rows.push_back({{r * 3, 0}, {r * 3 + 1, 1}});
  // Row 0 empty, rows 32..63 (a whole group) empty, a few more empty ones.
  cases.push_back({"empty rows", std::vector<Row>(100)});
  for (size_t r = 1; r < 100; ++r)
    if ((r < 32 || r >= 64) && r % 5 != 0) cases.back().rows[r] = {{uint32_t(r * 7), 2}};
  cases.push_back({"first column below the previous row's",
                   {{{1000, 0}, {1001, 1}}, {{2, 0}}, {{999, 1}}, {}, {{0, 0}}}});
  cases.push_back({"column 0 and 0xFFFFFFFF",
                   {{{0, 0}, {0xFFFFFFFF, 1}},
                    {{0xFFFFFFFF, 2}},
                    {{0, 65535}},
                    {{0xFFFFFFFF, 0}},
                    {{0xFFFFFFFE, 0}, {0xFFFFFFFF, 1}}}});
  cases.push_back(
      {"coefficient indices", {{{5, 0}, {6, 1}, {7, 2}, {8, 65535}, {9, 3}, {1u << 20, 256}}}});
  // 300 entries 2^20 apart with a u16 index on every fourth: ~1000 bytes, a u32 length.
  cases.push_back({"a long row", {spaced_row(300, 17, 1u << 20)}});
  // Two long rows in one group with short and empty rows around them, and one in the next.
  std::vector<Row> two(40);
  two[1] = {{3, 0}};
  two[2] = spaced_row(300, 5, 1u << 22);
  two[7] = spaced_row(200, 1u << 30, 1);
  two[9] = {{1, 1}};
  two[35] = spaced_row(400, 0, 3);
  cases.push_back({"two long rows in a group", std::move(two)});
  return cases;
}

TEST(PackedMatrix, HandMadeMatricesRoundTrip) {
  for (const HandCase& c : hand_cases()) {
    const OwnedCsr m(c.rows);
    const OwnedPack p = pack(m.view(), nullptr);
    expect_round_trip(m.view(), p, c.name);
  }
}

TEST(PackedMatrix, LongRowsAreMarkedAndTheirLengthsFollowTheHeader) {
  const OwnedCsr m(hand_cases().back().rows);  // two long rows in a group
  const OwnedPack p = pack(m.view(), nullptr);
  // Group 0: rows 2 and 7 long, their lengths in that order after the header.
  for (size_t i = 0; i < 32; ++i)
    EXPECT_EQ(p.bytes[i] == kPackedLongRow, i == 2 || i == 7) << i;
  const auto u32_at = [&](size_t at) {
    return uint32_t{p.bytes[at]} | uint32_t{p.bytes[at + 1]} << 8 |
           uint32_t{p.bytes[at + 2]} << 16 | uint32_t{p.bytes[at + 3]} << 24;
  };
  // Row 2: 5 against row 1's 3 (zigzag 4, << 2: 1 byte), 299 deltas of 2^22 (<< 2 is 2^24: 4
  // bytes each) and a u16 after each of the 150 tag-2 entries (indices 2 and 3: k % 4 >= 2).
  EXPECT_EQ(u32_at(32), 1u + 299 * 4 + 150 * 2);
  // Row 7: 2^30 against row 2's 5 (zigzag ~2^31, << 2 ~2^33: 5 bytes), 199 one-byte deltas
  // (1 << 2 | tag) and 100 u16.
  EXPECT_EQ(u32_at(36), 5u + 199 + 100 * 2);
  // Row 9: 1 against 2^30: zigzag 2^31 - 3, << 2 | 1 > 2^32: 5 bytes.
  EXPECT_EQ(p.bytes[9], 5);
  EXPECT_EQ(p.bytes[40], 0x18);  // row 1 (zigzag(3) << 2) right after the two lengths
  // Group 1: row 35 (its row 3) long: 1 + 399 one-byte deltas + 200 u16.
  const size_t g1 = p.offsets[1];
  EXPECT_EQ(p.bytes[g1 + 3], kPackedLongRow);
  EXPECT_EQ(u32_at(g1 + 32), 1u + 399 + 200 * 2);
}

// Bytes written out by hand from the header's format.
TEST(PackedMatrix, TwoRowsPackToTheFormatsBytes) {
  // Row 0: 3 (index 0), 5 (index 7). Row 1: 1 (index 1), 300 (index 0), 301 (index 65535).
  const OwnedCsr m({{{3, 0}, {5, 7}}, {{1, 1}, {300, 0}, {301, 65535}}});
  const OwnedPack p = pack(m.view(), nullptr);
  std::vector<uint8_t> want(32, 0);
  want[0] = 4;  // row 0's bytes
  want[1] = 6;  // row 1's
  // Row 0: zigzag(3 - 0) = 6, 6 << 2 | 0 = 0x18; delta 2, 2 << 2 | 2 = 0x0a, then 7 as a u16.
  for (uint8_t b : {0x18, 0x0a, 0x07, 0x00})
    want.push_back(b);
  // Row 1: zigzag(1 - 3) = 3, 3 << 2 | 1 = 0x0d; delta 299, 299 << 2 = 1196 = 9 * 128 + 44:
  // 0xac 0x09; delta 1, 1 << 2 | 2 = 0x06, then 65535.
  for (uint8_t b : {0x0d, 0xac, 0x09, 0x06, 0xff, 0xff})
    want.push_back(b);
  EXPECT_EQ(p.offsets, (std::vector<uint64_t>{0, 42}));
  EXPECT_EQ(p.bytes, want);
}

TEST(PackedMatrix, EachGroupStartsFromBaseZeroAndRowsPastTheEndHaveNoLength) {
  std::vector<Row> rows(33);
  rows[31] = {{100, 0}};
  rows[32] = {{5, 0}};
  const OwnedCsr m(rows);
  const OwnedPack p = pack(m.view(), nullptr);
  std::vector<uint8_t> want(32, 0);
  want[31] = 2;
  // zigzag(100) = 200, 200 << 2 = 800 = 6 * 128 + 32: 0xa0 0x06.
  want.push_back(0xa0);
  want.push_back(0x06);
  // Group 1: one row, 5 against base 0: zigzag 10, 10 << 2 = 0x28; rows 33..63 length 0.
  want.push_back(1);
  want.insert(want.end(), 31, 0);
  want.push_back(0x28);
  EXPECT_EQ(p.offsets, (std::vector<uint64_t>{0, 34, 67}));
  EXPECT_EQ(p.bytes, want);
}

TEST(PackedMatrix, A255ByteRowIsLongAndA254ByteRowIsNot) {
  // Row 0: columns 0..253 (0x00, then 253 deltas of 1: 0x04): 254 bytes. Row 1: 0..254, 255.
  std::vector<Row> rows(2);
  for (uint32_t k = 0; k < 255; ++k) {
    if (k < 254) rows[0].push_back({k, 0});
    rows[1].push_back({k, 0});
  }
  const OwnedPack p = pack(OwnedCsr(rows).view(), nullptr);
  std::vector<uint8_t> want(32, 0);
  want[0] = 254;
  want[1] = 255;
  for (uint8_t b : {0xff, 0x00, 0x00, 0x00})  // row 1's length, 255, after the header
    want.push_back(b);
  for (size_t r = 0; r < 2; ++r) {
    want.push_back(0x00);  // zigzag(0 - 0) << 2 (row 1's base is row 0's first column, 0)
    want.insert(want.end(), 253 + r, 0x04);
  }
  EXPECT_EQ(p.bytes, want);
  EXPECT_EQ(p.offsets.back(), 32u + 4 + 254 + 255);
}

// A random matrix of `rows` rows in the shape of a recording (mostly 1-3 entries near the
// previous row's, a few long rows, mostly indices 0 and 1).
OwnedCsr random_matrix(size_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Row> out(rows);
  uint32_t near = 0;
  for (Row& row : out) {
    const uint64_t shape = rng() % 100;
    const size_t n = shape < 5 ? 0 : shape < 99 ? 1 + rng() % 3 : 50 + rng() % 400;
    uint32_t col = near + static_cast<uint32_t>(rng() % 64);
    if (rng() % 10 == 0) col = static_cast<uint32_t>(rng() >> 32);
    for (size_t k = 0; k < n && col < 0xFFFF0000u; ++k) {
      const uint64_t c = rng() % 10;
      row.push_back({col, static_cast<CoefficientIndex>(c < 7 ? c % 2 : rng() % 65536)});
      col += 1 + static_cast<uint32_t>(rng() % (rng() % 8 == 0 ? 100000 : 4));
    }
    near += static_cast<uint32_t>(rng() % 3);
  }
  return OwnedCsr(out);
}

TEST(PackedMatrix, SizesAreTheOffsetsAndThePoolPacksTheSameBytes) {
  ThreadPool pool(3);
  for (const size_t rows : {size_t{0}, size_t{1}, size_t{31}, size_t{32}, size_t{100000}}) {
    const OwnedCsr m = random_matrix(rows, rows + 7);
    const std::vector<uint64_t> offsets = packed_group_offsets(m.view(), nullptr);
    ASSERT_EQ(offsets, packed_group_offsets(m.view(), &pool)) << rows;
    ASSERT_EQ(offsets.size(), (rows + 31) / 32 + 1);
    EXPECT_EQ(offsets[0], 0u);
    for (size_t g = 0; g + 1 < offsets.size(); ++g)
      ASSERT_LE(offsets[g] + 32, offsets[g + 1]) << "group " << g;  // a header at least
    // pack_matrix fills exactly offsets.back() bytes: the guard after them stays untouched, and
    // every group decodes to its end (unpack_group refuses bytes left over).
    std::vector<uint8_t> serial(offsets.back() + 64, 0xcd), parallel(offsets.back() + 64, 0x5a);
    pack_matrix(m.view(), offsets, serial, nullptr);
    pack_matrix(m.view(), offsets, parallel, &pool);
    for (size_t k = offsets.back(); k < serial.size(); ++k)
      ASSERT_EQ(serial[k], 0xcd);
    serial.resize(offsets.back());
    parallel.resize(offsets.back());
    EXPECT_EQ(serial, parallel) << rows;
    OwnedPack p{rows, offsets, serial};
    expect_round_trip(m.view(), p, "random " + std::to_string(rows));
  }
}

// A recorded circuit with its witness (inputs | aux as Fr).
struct Recorded {
  RecordedCircuit rc;
  CompactWitness compact;
  std::vector<Fr> w;
};

Recorded record(const Circuit& with, const Circuit& blank, ThreadPool& pool) {
  RecordingCS rec;
  blank.synthesize(rec);
  Recorded r{std::move(rec).finish(kId), {}, {}};
  WitnessCS wcs(&pool);
  with.synthesize(wcs);
  r.compact = std::move(wcs).finish();
  r.w = r.compact.inputs;
  const std::vector<Fr> aux = r.compact.expand_aux();
  r.w.insert(r.w.end(), aux.begin(), aux.end());
  return r;
}

TEST(PackedMatrix, RecordedCircuitsMatricesRoundTrip) {
  ThreadPool pool(2);
  const test::Sha256Circuit sha(test::sample_message()), sha_blank(std::nullopt);
  const test::PieceCircuit pieces(5, 6, 2);
  for (const auto& [with, blank] :
       {std::pair<const Circuit*, const Circuit*>{&sha, &sha_blank}, {&pieces, &pieces}}) {
    RecordingCS rec;
    blank->synthesize(rec);
    const RecordedCircuit rc = std::move(rec).finish(kId);
    ASSERT_GT(rc.num_rows, 64u);
    for (const auto& [name, m] :
         {std::pair<const char*, const CsrMatrix*>{"A", &rc.a}, {"B", &rc.b}, {"C", &rc.c}}) {
      const OwnedPack p = pack(*m, &pool);
      EXPECT_EQ(p.bytes, pack(*m, nullptr).bytes) << name;
      expect_round_trip(*m, p, name);
    }
  }
}

TEST(PackedMatrix, EvaluationEqualsTheCsrSpmv) {
  ThreadPool pool(2);
  const test::Sha256Circuit sha(test::sample_message()), sha_blank(std::nullopt);
  const Recorded r = record(sha, sha_blank, pool);
  const RecordedCircuit& rc = r.rc;
  std::vector<Fr> a(rc.num_rows), b(rc.num_rows), c(rc.num_rows);
  evaluate(rc, r.compact, a, b, c, pool);
  ASSERT_FALSE(first_unsatisfied_row(a, b, c, pool).has_value());
  for (const auto& [m, want] :
       {std::pair<const CsrMatrix*, const std::vector<Fr>*>{&rc.a, &a}, {&rc.b, &b}, {&rc.c, &c}}) {
    const OwnedPack p = pack(*m, &pool);
    const PackedMatrix pm = p.view();
    ASSERT_GT(pm.groups(), 4u);
    std::vector<Fr> out(rc.num_rows + 5, Fr::from_u64(77));
    evaluate_packed_rows(pm, 0, pm.groups(), rc.coefficients, r.w, out);
    for (size_t row = 0; row < rc.num_rows; ++row)
      ASSERT_EQ(out[row], (*want)[row]) << "row " << row;
    EXPECT_EQ(out[rc.num_rows], Fr::from_u64(77));  // nothing past the rows
    // A middle range of groups: out[0] is row g0 * 32.
    const size_t g0 = pm.groups() / 3, g1 = 2 * pm.groups() / 3;
    std::vector<Fr> mid((g1 - g0) * 32);
    evaluate_packed_rows(pm, g0, g1, rc.coefficients, r.w, mid);
    for (size_t i = 0; i < mid.size(); ++i)
      ASSERT_EQ(mid[i], (*want)[g0 * 32 + i]) << "row " << g0 * 32 + i;
  }
}

// What `f` throws as std::invalid_argument ("" when it does not throw that).
template <class F>
std::string invalid_argument_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(PackedMatrix, AnEmptyMatrixHasNoGroups) {
  for (const CsrMatrix& m : {CsrMatrix{}, OwnedCsr({}).view()}) {
    const OwnedPack p = pack(m, nullptr);
    EXPECT_EQ(p.offsets, std::vector<uint64_t>{0});
    EXPECT_EQ(p.view().groups(), 0u);
    EXPECT_THROW(unpack_group(p.view(), 0), std::invalid_argument);
    evaluate_packed_rows(p.view(), 0, 0, {}, {}, {});
  }
}

TEST(PackedMatrix, RowsWhoseColumnsDoNotAscendAreRefused) {
  std::vector<Row> rows(50, Row{{1, 0}, {2, 1}});
  rows[40] = {{7, 0}, {9, 2}, {9, 0}};  // repeated
  const std::string repeated =
      invalid_argument_of([&] { packed_group_offsets(OwnedCsr(rows).view(), nullptr); });
  EXPECT_NE(repeated.find("row 40"), std::string::npos) << repeated;
  rows[40] = {{1, 0}, {2, 1}};
  rows[3] = {{8, 0}, {4, 1}};  // descending
  ThreadPool pool(2);
  const std::string descending =
      invalid_argument_of([&] { packed_group_offsets(OwnedCsr(rows).view(), &pool); });
  EXPECT_NE(descending.find("row 3"), std::string::npos) << descending;
}

TEST(PackedMatrix, PackingRefusesOffsetsOfAnotherMatrixOrTooFewBytes) {
  const OwnedCsr m({{{3, 0}, {5, 7}}, {{1, 1}, {300, 0}, {301, 65535}}});
  const OwnedCsr other({{{3, 0}}, {{1, 1}}});
  std::vector<uint8_t> out(100);
  const auto offsets = packed_group_offsets(m.view(), nullptr);
  EXPECT_THROW(pack_matrix(m.view(), packed_group_offsets(other.view(), nullptr), out, nullptr),
               std::invalid_argument);
  EXPECT_THROW(pack_matrix(m.view(), offsets, std::span(out).first(41), nullptr),
               std::invalid_argument);
  EXPECT_THROW(pack_matrix(m.view(), std::vector<uint64_t>{0}, out, nullptr),
               std::invalid_argument);
}

// The two-row pack of TwoRowsPackToTheFormatsBytes, changed by `edit`.
OwnedPack corrupted(const std::function<void(OwnedPack&)>& edit) {
  OwnedPack p =
      pack(OwnedCsr({{{3, 0}, {5, 7}}, {{1, 1}, {300, 0}, {301, 65535}}}).view(), nullptr);
  edit(p);
  return p;
}

TEST(PackedMatrix, CorruptedPacksAreRefused) {
  // The pack: header 04 06 0...; row 0 at 32: 18 0a 07 00; row 1 at 36: 0d ac 09 06 ff ff.
  const auto resize = [](OwnedPack& p, size_t n) {
    p.bytes.resize(n);
    p.offsets = {0, n};
  };
  const std::vector<std::pair<const char*, OwnedPack>> cases = {
      {"a length past the end", corrupted([](OwnedPack& p) { p.bytes[1] = 7; })},
      {"tag 3", corrupted([](OwnedPack& p) { p.bytes[32] = 0x1b; })},
      {"a truncated varint",  // row 1 cut after 0d ac
       corrupted([&](OwnedPack& p) {
         p.bytes[1] = 2;
         resize(p, 38);
       })},
      {"a truncated u16",  // row 1 cut after 0d ac 09 06 ff
       corrupted([&](OwnedPack& p) {
         p.bytes[1] = 5;
         resize(p, 41);
       })},
      {"a varint over 10 bytes",  // row 1: 0x80 x 10, 0x00
       corrupted([&](OwnedPack& p) {
         p.bytes[1] = 11;
         resize(p, 36);
         p.bytes.insert(p.bytes.end(), 10, 0x80);
         p.bytes.push_back(0);
         p.offsets = {0, p.bytes.size()};
       })},
      {"a first column of 2^32",  // row 1: zigzag(2^32 - 3) = 2^33 - 6, << 2 | 0
       corrupted([&](OwnedPack& p) {
         p.bytes[1] = 5;
         resize(p, 36);
         for (uint8_t b : {0xe8, 0xff, 0xff, 0xff, 0x7f})  // 104 + 128 * (2^28 - 1)
           p.bytes.push_back(b);
         p.offsets = {0, p.bytes.size()};
       })},
      {"a later column past 2^32",  // row 1's delta 299 made 2^32 - 1
       corrupted([&](OwnedPack& p) {
         p.bytes[1] = 9;
         resize(p, 37);
         for (uint8_t b : {0xfc, 0xff, 0xff, 0xff, 0x3f, 0x06, 0xff, 0xff})  // (2^32 - 1) << 2
           p.bytes.push_back(b);
         p.offsets = {0, p.bytes.size()};
       })},
      {"a delta of 0", corrupted([](OwnedPack& p) { p.bytes[33] = 0x02; })},
      {"tag 2 with index 1", corrupted([](OwnedPack& p) { p.bytes[34] = 1; })},
      {"a long row's length past the end", corrupted([&](OwnedPack& p) {
         p.bytes[0] = kPackedLongRow;
         p.bytes[1] = 0;
         resize(p, 34);
       })},
      {"a row past the matrix's end with a length", corrupted([](OwnedPack& p) {
         p.bytes[5] = 1;
         p.bytes.push_back(0);
         p.offsets = {0, p.bytes.size()};
       })},
      {"bytes after the last row", corrupted([](OwnedPack& p) {
         p.bytes.push_back(0);
         p.offsets = {0, p.bytes.size()};
       })},
      {"offsets past the bytes", corrupted([](OwnedPack& p) {
         p.offsets = {0, 50};
       })},
      {"a group shorter than its header", corrupted([&](OwnedPack& p) { resize(p, 20); })},
  };
  const std::vector<Fr> table(70000, Fr::one()), w(400, Fr::one());
  std::vector<Fr> out(2);
  for (const auto& [name, p] : cases) {
    const std::string what = invalid_argument_of([&] { unpack_group(p.view(), 0); });
    EXPECT_NE(what.find("group 0"), std::string::npos) << name << ": '" << what << "'";
    EXPECT_THROW(evaluate_packed_rows(p.view(), 0, 1, table, w, out), std::invalid_argument)
        << name;
  }
  EXPECT_THROW(unpack_group(corrupted([](OwnedPack&) {}).view(), 1), std::invalid_argument);
}

TEST(PackedMatrix, EvaluationChecksTheWitnessTableAndOutput) {
  const OwnedPack p = corrupted([](OwnedPack&) {});  // columns up to 301, index up to 65535
  std::vector<Fr> table(65536, Fr::from_u64(3)), w(302, Fr::from_u64(2)), out(2);
  evaluate_packed_rows(p.view(), 0, 1, table, w, out);
  // w is all 2, the table all 3. Row 0: 2 + 3 * 2 = 8; row 1: -2 + 2 + 3 * 2 = 6.
  EXPECT_EQ(out[0], Fr::from_u64(8));
  EXPECT_EQ(out[1], Fr::from_u64(6));
  EXPECT_THROW(evaluate_packed_rows(p.view(), 0, 1, table, std::span(w).first(301), out),
               std::invalid_argument);
  EXPECT_THROW(evaluate_packed_rows(p.view(), 0, 1, std::span(table).first(65535), w, out),
               std::invalid_argument);
  EXPECT_THROW(evaluate_packed_rows(p.view(), 0, 1, table, w, std::span(out).first(1)),
               std::invalid_argument);
  EXPECT_THROW(evaluate_packed_rows(p.view(), 0, 2, table, w, out), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::pce
