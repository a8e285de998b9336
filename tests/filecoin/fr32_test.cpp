// Fr32 padding against the upstream vectors of rust-fil-proofs fr32/src/reader.rs and padding.rs,
// and against a bit-by-bit model of the reference `bit_vec_padding` used by those tests.
#include "filecoin/fr32.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

namespace cuzk::filecoin {
namespace {

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v)
    b = static_cast<uint8_t>(rng());
  return v;
}

// reader.rs `bit_vec_padding`: the input bits (LSB first) in 254-bit units, two zero bits after
// each full unit, zero-filled to a whole number of 256-bit elements.
std::vector<uint8_t> bit_model_padding(const std::vector<uint8_t>& raw) {
  std::vector<bool> bits;
  const size_t nbits = raw.size() * 8;
  for (size_t i = 0; i < nbits; ++i) {
    bits.push_back((raw[i / 8] >> (i % 8)) & 1);
    if ((i + 1) % 254 == 0) {
      bits.push_back(false);
      bits.push_back(false);
    }
  }
  while (bits.size() % 256 != 0)
    bits.push_back(false);
  std::vector<uint8_t> out(bits.size() / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i)
    if (bits[i]) out[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  return out;
}

TEST(Fr32, SizeConversionsFollowTheBitStream) {
  EXPECT_EQ(fr32_padded_bytes(127), 128u);
  EXPECT_EQ(fr32_unpadded_bytes(128), 127u);
  EXPECT_EQ(fr32_unpadded_bytes(2048), 2032u);  // a 2 KiB sector holds 2032 user bytes
  EXPECT_EQ(fr32_padded_bytes(1016), 1024u);    // padding.rs test_read_write_padded
  EXPECT_EQ(fr32_padded_bytes(32), 33u);        // 256 data bits + 2 pad bits
  EXPECT_EQ(fr32_padded_bytes(1), 1u);
  EXPECT_EQ(fr32_padded_len(30), 32u);  // the padder writes whole elements
  EXPECT_EQ(fr32_padded_len(32), 64u);
  EXPECT_EQ(fr32_padded_len(127), 128u);
  EXPECT_EQ(fr32_padded_len(0), 0u);
}

TEST(Fr32, PaddingOf127OnesMatchesTheUpstreamReaderVector) {
  // reader.rs test_simple_127.
  const std::vector<uint8_t> data(127, 0xff);
  const std::vector<uint8_t> padded = fr32_pad(data);
  ASSERT_EQ(padded.size(), 128u);
  for (int i = 0; i < 31; ++i)
    EXPECT_EQ(padded[i], 0xff);
  EXPECT_EQ(padded[31], 0b0011'1111);
  EXPECT_EQ(padded[32], 0b1111'1111);
  EXPECT_EQ(padded, bit_model_padding(data));
}

TEST(Fr32, PaddingOf32OnesSpillsTwoBitsIntoTheSecondElement) {
  // reader.rs test_simple_single.
  const std::vector<uint8_t> data(32, 0xff);
  const std::vector<uint8_t> padded = fr32_pad(data);
  ASSERT_EQ(padded.size(), 64u);
  for (int i = 0; i < 31; ++i)
    EXPECT_EQ(padded[i], 0xff);
  EXPECT_EQ(padded[31], 0b0011'1111);
  EXPECT_EQ(padded[32], 0b0000'0011);
  EXPECT_EQ(padded, bit_model_padding(data));
}

TEST(Fr32, ShortSourcesPadToOneWholeElement) {
  // reader.rs test_simple_short: 30 bytes fit in one element unchanged.
  const std::vector<uint8_t> data(30, 3);
  const std::vector<uint8_t> padded = fr32_pad(data);
  ASSERT_EQ(padded.size(), 32u);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), padded.begin()));
  EXPECT_EQ(padded, bit_model_padding(data));
}

TEST(Fr32, ExoticUpstreamVectorShiftsBytesAcrossElements) {
  // reader.rs test_exotic.
  std::vector<uint8_t> src;
  for (int round = 0; round < 2; ++round) {
    for (uint8_t i = 1; i <= 31; ++i)
      src.push_back(i);
    src.push_back(0xff);
  }
  for (uint8_t b : {9, 9, 9, 0xff})
    src.push_back(b);
  const std::vector<uint8_t> buf = fr32_pad(src);
  for (int i = 0; i < 31; ++i)
    EXPECT_EQ(buf[i], i + 1);
  EXPECT_EQ(buf[31], 63);
  EXPECT_EQ(buf[32], (1 << 2) | 0b11);
  for (int i = 33; i < 63; ++i)
    EXPECT_EQ(buf[i], static_cast<uint8_t>((i - 31) << 2)) << i;
  EXPECT_EQ(buf[63], 0x0f << 2);
  EXPECT_EQ(buf[64], 0x0f | 9 << 4);
  EXPECT_EQ(buf[65], 9 << 4);
  EXPECT_EQ(buf[66], 9 << 4);
  EXPECT_EQ(buf[67], 0xf0);
  EXPECT_EQ(buf[68], 0x0f);
  EXPECT_EQ(buf, bit_model_padding(src));
}

TEST(Fr32, PaddingMatchesTheBitModelForManyLengths) {
  // reader.rs test_long (ignored upstream for time): lengths i * j.
  for (size_t len : {1,   2,   31,  32,  33,  63,  64,   95,   96,   126,
                     127, 128, 200, 254, 255, 381, 1000, 1016, 4064, 4097}) {
    const std::vector<uint8_t> data = random_bytes(len, len);
    EXPECT_EQ(fr32_pad(data), bit_model_padding(data)) << "length " << len;
  }
}

TEST(Fr32, StreamingPadderEqualsOneShotForAnyChunking) {
  // reader.rs test_chained_byte_source, generalised to many split points and a long input.
  const std::vector<uint8_t> data = random_bytes(127 * 70 + 45, 7);
  const std::vector<uint8_t> expected = fr32_pad(data);
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    Fr32Padder p;
    std::vector<uint8_t> out;
    auto sink = [&](std::span<const uint8_t> s) { out.insert(out.end(), s.begin(), s.end()); };
    size_t off = 0;
    while (off < data.size()) {
      const size_t n = std::min<size_t>(data.size() - off, rng() % 400);
      p.write(std::span<const uint8_t>(data).subspan(off, n), sink);
      off += n;
    }
    p.finish(sink);
    ASSERT_EQ(out, expected) << "trial " << trial;
    EXPECT_EQ(p.bytes_in(), data.size());
    EXPECT_EQ(p.bytes_out(), expected.size());
  }
}

TEST(Fr32, UnpaddingRecoversTheDataAtAnyOffset) {
  // padding.rs test_read_write_padded and test_read_write_padded_offset.
  const std::vector<uint8_t> ones(1016, 0xff);
  const std::vector<uint8_t> padded_ones = fr32_pad(ones);
  EXPECT_EQ(padded_ones.size(), fr32_padded_bytes(1016));
  EXPECT_EQ(fr32_unpad(padded_ones, 0, 1016), ones);

  const std::vector<uint8_t> data = random_bytes(1016, 11);
  const std::vector<uint8_t> padded = fr32_pad(data);
  EXPECT_EQ(fr32_unpad(padded, 0, 1016), data);
  EXPECT_EQ(fr32_unpad(padded, 0, 44), std::vector<uint8_t>(data.begin(), data.begin() + 44));
  for (uint64_t off : {1, 31, 32, 126, 127, 128, 300, 1000}) {
    const uint64_t len = std::min<uint64_t>(200, 1016 - off);
    EXPECT_EQ(fr32_unpad(padded, off, len),
              std::vector<uint8_t>(data.begin() + static_cast<ptrdiff_t>(off),
                                   data.begin() + static_cast<ptrdiff_t>(off + len)))
        << "offset " << off;
  }
  // Excessive requests fail (test_read_write_padded_offset).
  for (uint64_t start = 1016 - 35 + 2; start < 1016; ++start)
    EXPECT_THROW(fr32_unpad(padded, start, 35), std::out_of_range) << "start " << start;
}

TEST(Fr32, UnpaddingWorksOnASourceThatEndsInsideAnElement) {
  // 40 raw bytes: one full element and 66 bits of an incomplete one (padding.rs docs example).
  const std::vector<uint8_t> data = random_bytes(40, 5);
  std::vector<uint8_t> padded = fr32_pad(data);
  padded.resize(fr32_padded_bytes(40));  // 41 bytes: 32 + 9 (2 data bits in the last byte)
  // 326 bits remain (66 data + 6 extra bits in the last byte); like upstream's bytes_needed,
  // the capacity rounds up, while to_unpadded_bytes rounds down.
  EXPECT_EQ(fr32_unpadded_capacity(padded.size(), 0), 41u);
  EXPECT_EQ(fr32_unpadded_bytes(padded.size()), 40u);
  EXPECT_EQ(fr32_unpad(padded, 0, 40), data);
  // Two whole elements hold 508 bits: the 64th byte has 4 data bits and zero high bits.
  const std::vector<uint8_t> ones(64, 0xff);
  std::vector<uint8_t> two = fr32_pad(ones);  // 96 bytes (3 elements)
  two.resize(64);
  const std::vector<uint8_t> back = fr32_unpad(two, 0, 64);
  EXPECT_EQ(back[62], 0xff);
  EXPECT_EQ(back[63], 0x0f);
}

TEST(Fr32, WrongOutputSizeIsRejected) {
  std::vector<uint8_t> out(31);
  EXPECT_THROW(fr32_pad(std::vector<uint8_t>(30), out), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
