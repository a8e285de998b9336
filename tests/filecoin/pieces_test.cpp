// Piece commitments and comm_d from pieces, against rust-fil-proofs filecoin-proofs/tests/pieces.rs
// and the zero comm_d table of the facts sheet (section 5.7).
#include "filecoin/pieces.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v)
    b = static_cast<uint8_t>(rng());
  return v;
}

Domain random_domain(std::mt19937_64& rng) {
  Domain d;
  for (auto& b : d)
    b = static_cast<uint8_t>(rng());
  return d;
}

Domain filled(uint8_t v) {
  Domain d;
  d.fill(v);
  return d;
}

TEST(Pieces, EmptyPieceListsGiveTheUpstreamEmptyCommD) {
  // pieces.rs test_compute_comm_d_empty.
  EXPECT_EQ(to_hex(compute_comm_d(2048, {})),
            "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  EXPECT_EQ(to_hex(compute_comm_d(128, {})),
            "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333");
}

TEST(Pieces, ZeroSectorCommDMatchesTheOracleForEverySectorSize) {
  const auto& sizes = test::oracles().at("zero_comm_d").at("sizes");
  const std::pair<const char*, uint64_t> table[] = {{"2KiB", uint64_t{1} << 11},
                                                    {"8MiB", uint64_t{1} << 23},
                                                    {"512MiB", uint64_t{1} << 29},
                                                    {"32GiB", uint64_t{1} << 35},
                                                    {"64GiB", uint64_t{1} << 36}};
  for (const auto& [name, bytes] : table) {
    const Domain expected = test::domain_hex(sizes.at(name).at("comm_d_hex"));
    EXPECT_EQ(empty_comm_d(bytes), expected) << name;
    EXPECT_EQ(compute_comm_d(bytes, {}), expected) << name;
  }
}

TEST(Pieces, CommitmentOfZeroDataIsTheZeroCommitment) {
  // generate_piece_commitment over 2032 zero bytes Fr32-pads to a zero 2 KiB sector.
  const PieceInfo p = generate_piece_commitment(std::vector<uint8_t>(2032, 0), 2032);
  EXPECT_EQ(
      p.commitment,
      test::domain_hex(test::oracles().at("zero_comm_d").at("sizes").at("2KiB").at("comm_d_hex")));
  EXPECT_EQ(zero_padding(127).commitment, zero_subtree_root(2));
  EXPECT_EQ(zero_padding(2032).commitment, p.commitment);
}

TEST(Pieces, PieceAlignmentFollowsTheUpstreamTable) {
  // pieces.rs test_get_piece_alignment: (written, piece) -> (left, right).
  const uint64_t table[][4] = {{0, 0, 0, 127},     {0, 127, 0, 0},      {0, 254, 0, 0},
                               {0, 508, 0, 0},     {0, 1016, 0, 0},     {127, 127, 0, 0},
                               {127, 254, 127, 0}, {127, 508, 381, 0},  {100, 100, 27, 27},
                               {200, 200, 54, 54}, {300, 300, 208, 208}};
  for (const auto& row : table) {
    const PieceAlignment a = get_piece_alignment(row[0], row[1]);
    EXPECT_EQ(a.left_bytes, row[2]) << row[0] << " " << row[1];
    EXPECT_EQ(a.right_bytes, row[3]) << row[0] << " " << row[1];
  }
  // pieces.rs test_get_piece_start_byte.
  const std::vector<uint64_t> pieces = {31, 32, 33};
  EXPECT_EQ(get_piece_start_byte(std::span(pieces).first(0), pieces[0]), 0u);
  EXPECT_EQ(get_piece_start_byte(std::span(pieces).first(1), pieces[1]), 127u);
  EXPECT_EQ(get_piece_start_byte(std::span(pieces).first(2), pieces[2]), 254u);
}

TEST(Pieces, SimplePiecesVerifyInEveryGrouping) {
  // pieces.rs test_verify_simple_pieces: g = H(H(a,b), H(c,d)) over a 512-byte sector.
  std::mt19937_64 rng(5);
  const Domain a = random_domain(rng), b = random_domain(rng), c = random_domain(rng),
               d = random_domain(rng);
  const Domain e = piece_hash(a, b), f = piece_hash(c, d), g = piece_hash(e, f);
  const PieceInfo A{a, 127}, B{b, 127}, C{c, 127}, D{d, 127}, E{e, 254}, F{f, 254}, G{g, 508};
  const uint64_t sector = 4 * 128;
  EXPECT_TRUE(verify_pieces(g, std::vector{A, B, C, D}, sector));
  EXPECT_TRUE(verify_pieces(g, std::vector{E, C, D}, sector));
  EXPECT_TRUE(verify_pieces(g, std::vector{E, F}, sector));
  EXPECT_TRUE(verify_pieces(g, std::vector{A, B, F}, sector));
  EXPECT_TRUE(verify_pieces(g, std::vector{G}, sector));
  EXPECT_FALSE(verify_pieces(g, std::vector{B, A, F}, sector));
}

TEST(Pieces, PaddedPiecesAreAlignedWithZeroPieces) {
  // pieces.rs test_verify_padded_pieces: A(1) B(4) C(2) D(8) in a 32-node-unit sector.
  const uint64_t sector = 32 * 128;
  const PieceInfo pad = zero_padding(127);
  const std::vector<PieceInfo> pieces = {
      {filled(1), 127}, {filled(2), 4 * 127}, {filled(3), 2 * 127}, {filled(4), 8 * 127}};
  std::vector<PieceInfo> padded = {pieces[0], pad, pad, pad, pieces[1], pieces[2]};
  for (int i = 0; i < 6; ++i)
    padded.push_back(pad);
  padded.push_back(pieces[3]);
  for (int i = 0; i < 8; ++i)
    padded.push_back(pad);
  auto h = [](const PieceInfo& x, const PieceInfo& y) {
    return piece_hash(x.commitment, y.commitment);
  };
  const Domain l1[] = {
      h(padded[0], padded[1]),   h(padded[2], padded[3]),   padded[4].commitment,
      padded[5].commitment,      h(padded[6], padded[7]),   h(padded[8], padded[9]),
      h(padded[10], padded[11]), padded[12].commitment,     h(padded[13], padded[14]),
      h(padded[15], padded[16]), h(padded[17], padded[18]), h(padded[19], padded[20])};
  const Domain l2[] = {piece_hash(l1[0], l1[1]),  l1[2], piece_hash(l1[3], l1[4]),
                       piece_hash(l1[5], l1[6]),  l1[7], piece_hash(l1[8], l1[9]),
                       piece_hash(l1[10], l1[11])};
  const Domain l3[] = {piece_hash(l2[0], l2[1]), piece_hash(l2[2], l2[3]), l2[4],
                       piece_hash(l2[5], l2[6])};
  const Domain comm_d = piece_hash(piece_hash(l3[0], l3[1]), piece_hash(l3[2], l3[3]));
  EXPECT_TRUE(verify_pieces(comm_d, pieces, sector));
}

TEST(Pieces, CommDFromPiecesEqualsTheTreeOfTheAssembledSector) {
  // build_sector in pieces.rs: add_piece writes aligned, padded pieces; comm_d over the staged
  // sector must equal compute_comm_d of the piece infos.
  const uint64_t sector = 32 * 128;
  const std::vector<uint64_t> sizes = {127, 4 * 127, 2 * 127, 127, 8 * 127};
  std::vector<uint8_t> staged;
  std::vector<PieceInfo> infos;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const std::vector<uint8_t> data = random_bytes(sizes[i], 100 + i);
    const PieceAlignment a =
        get_piece_alignment(sum_piece_bytes_with_alignment(std::span(sizes).first(i)), sizes[i]);
    staged.resize(staged.size() + fr32_padded_bytes(a.left_bytes), 0);
    const std::vector<uint8_t> padded = fr32_pad(data);
    staged.insert(staged.end(), padded.begin(), padded.end());
    staged.resize(staged.size() + fr32_padded_bytes(a.right_bytes), 0);
    infos.push_back(generate_piece_commitment(data, sizes[i]));
  }
  staged.resize(sector, 0);
  EXPECT_EQ(compute_comm_d(sector, infos), sha256_tree_root(staged));
}

TEST(Pieces, StreamingAndParallelPieceCommitmentsAgree) {
  const uint64_t size = 127 * 1024;
  const std::vector<uint8_t> data = random_bytes(size, 9);
  const PieceInfo one_shot = generate_piece_commitment(data, size);
  EXPECT_EQ(one_shot.size, size);
  EXPECT_EQ(one_shot.commitment, comm_p_from_padded(fr32_pad(data)));
  ThreadPool pool(2);
  EXPECT_EQ(generate_piece_commitment(data, size, &pool), one_shot);
  PieceCommitmentBuilder b(size);
  for (size_t off = 0; off < size; off += 1000)
    b.write(std::span(data).subspan(off, std::min<size_t>(1000, size - off)));
  EXPECT_EQ(b.finish(), one_shot);
}

TEST(Pieces, InvalidPieceListsAndSizesAreRejected) {
  EXPECT_THROW(generate_piece_commitment(std::vector<uint8_t>(126), 126), std::invalid_argument);
  EXPECT_THROW(generate_piece_commitment(std::vector<uint8_t>(200), 200), std::invalid_argument);
  EXPECT_THROW(generate_piece_commitment(std::vector<uint8_t>(100), 127), std::invalid_argument);
  EXPECT_THROW(make_piece_info(Domain{}, 127), std::invalid_argument);
  const PieceInfo p{filled(1), 127};
  EXPECT_THROW(compute_comm_d(256, std::vector{p, p, p}), std::invalid_argument);  // too many
  EXPECT_THROW(compute_comm_d(128, std::vector{PieceInfo{filled(1), 254}}),
               std::invalid_argument);  // larger than the sector
  EXPECT_THROW(compute_comm_d(2048, std::vector{PieceInfo{filled(1), 3 * 127}}),
               std::invalid_argument);  // not a power of two
  EXPECT_THROW(empty_comm_d(3000), std::invalid_argument);
  PieceCommitmentBuilder b(127);
  b.write(std::vector<uint8_t>(100));
  EXPECT_THROW(b.write(std::vector<uint8_t>(28)), std::invalid_argument);
  EXPECT_THROW(b.finish(), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
