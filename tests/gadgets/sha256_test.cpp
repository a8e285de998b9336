// The SHA-256 circuit against bellperson 0.27 sha256.rs and against OpenSSL: its published
// constraint counts (25,840 per allocated block, 44,874 for a padded 512-bit message, 0 for
// constants), the blank hash, bellperson's length sweep, the NIST messages, and failures of
// tampered variables named by path.
#include "gadgets/sha256.hpp"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "cs/proving_assignment.hpp"
#include "cs/test_cs.hpp"
#include "gadget_test_util.hpp"
#include "gadgets/scope.hpp"

namespace cuzk::gadgets {
namespace {

using test::alloc_message_bits;
using test::bits_to_bytes_be;
using test::openssl_sha256;

// Native compression (FIPS 180-4), the twin of the circuit for a single block.
std::array<uint32_t, 8> native_compress(std::array<uint32_t, 8> h,
                                        std::span<const uint8_t, 64> block) {
  static constexpr uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
      0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
      0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
      0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
      0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
      0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
      0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
      0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = uint32_t{block[4 * i]} << 24 | uint32_t{block[4 * i + 1]} << 16 |
           uint32_t{block[4 * i + 2]} << 8 | block[4 * i + 3];
  }
  for (int i = 16; i < 64; ++i) {
    const uint32_t s0 = std::rotr(w[i - 15], 7) ^ std::rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = std::rotr(w[i - 2], 17) ^ std::rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int i = 0; i < 64; ++i) {
    const uint32_t t1 = hh + (std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25)) +
                        ((e & f) ^ (~e & g)) + k[i] + w[i];
    const uint32_t t2 =
        (std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  const uint32_t add[8] = {a, b, c, d, e, f, g, hh};
  for (int i = 0; i < 8; ++i)
    h[i] += add[i];
  return h;
}

std::vector<uint8_t> words_be(const std::array<uint32_t, 8>& h) {
  std::vector<uint8_t> out;
  for (uint32_t x : h) {
    for (int s = 24; s >= 0; s -= 8)
      out.push_back(static_cast<uint8_t>(x >> s));
  }
  return out;
}

std::vector<uint8_t> digest_vec(std::span<const uint8_t> data) {
  const auto d = openssl_sha256(data);
  return {d.begin(), d.end()};
}

TEST(Sha256Native, CompressionTwinAgreesWithOpenSsl) {
  // "abc" padded by hand into one block.
  std::array<uint8_t, 64> block{};
  block[0] = 'a', block[1] = 'b', block[2] = 'c', block[3] = 0x80, block[63] = 24;
  const auto msg = test::to_vec("abc");
  EXPECT_EQ(words_be(native_compress(kSha256Iv, block)), digest_vec(msg));
}

TEST(Sha256, BlankHashOfConstantsCostsNothingAndIsTheEmptyDigest) {
  // bellperson's test_blank_hash: the padded empty message as constants, one compression.
  TestConstraintSystem cs;
  std::vector<Boolean> input(512, Boolean::constant(false));
  input[0] = Boolean::constant(true);
  const std::vector<UInt32> out = sha256_compression_function(cs, input, sha256_iv());
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_EQ(cs.num_aux(), 0u);
  std::vector<Boolean> bits;
  for (const UInt32& w : out) {
    const auto be = w.into_bits_be();
    bits.insert(bits.end(), be.begin(), be.end());
  }
  for (const Boolean& b : bits)
    EXPECT_TRUE(b.is_constant());
  EXPECT_EQ(bits_to_bytes_be(bits), digest_vec({}));
  // The same through the padding gadget.
  TestConstraintSystem cs2;
  EXPECT_EQ(bits_to_bytes_be(sha256(cs2, {})), digest_vec({}));
  EXPECT_EQ(cs2.num_constraints(), 0u);
}

TEST(Sha256, CompressionOfOneAllocatedBlockCosts25840Constraints) {
  // bellperson's test_full_block: 512 allocated bits, then compression under "sha256".
  auto rng = test::rng_for(1);
  const auto block = test::random_bytes(rng, 64);
  TestConstraintSystem cs;
  const std::vector<Boolean> bits = alloc_message_bits(cs, block);
  EXPECT_EQ(cs.num_constraints(), 512u);
  const std::vector<UInt32> out =
      sha256_compression_function(Ns(cs, Name{"sha256"}), bits, sha256_iv());
  EXPECT_EQ(cs.num_constraints() - 512, 25840u);
  EXPECT_TRUE(cs.is_satisfied());
  std::array<uint32_t, 8> words{};
  for (size_t i = 0; i < 8; ++i)
    words[i] = require_value(out[i].value());
  EXPECT_EQ(words, native_compress(kSha256Iv, std::span<const uint8_t, 64>(block.data(), 64)));
}

TEST(Sha256, BlockWithoutPaddingIsOneCompressionFromTheIv) {
  auto rng = test::rng_for(2);
  const auto block = test::random_bytes(rng, 64);
  TestConstraintSystem cs;
  const std::vector<Boolean> bits = alloc_message_bits(cs, block);
  const std::vector<Boolean> out = sha256_block_no_padding(Ns(cs, Name{"block"}), bits);
  EXPECT_EQ(cs.num_constraints() - 512, 25840u);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(bits_to_bytes_be(out),
            words_be(native_compress(kSha256Iv, std::span<const uint8_t, 64>(block.data(), 64))));
}

TEST(Sha256, PaddedHashOfA512BitAllocatedMessageCosts44874Constraints) {
  // bellperson's test_full_hash: the second block is constant padding.
  auto rng = test::rng_for(3);
  const auto msg = test::random_bytes(rng, 64);
  TestConstraintSystem cs;
  const std::vector<Boolean> bits = alloc_message_bits(cs, msg);
  const std::vector<Boolean> out = sha256(Ns(cs, Name{"sha256"}), bits);
  EXPECT_EQ(cs.num_constraints() - 512, 44874u);
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(bits_to_bytes_be(out), digest_vec(msg));
}

// Every row of a ProvingAssignment satisfies a * b = c (the prover's own view of satisfaction).
bool rows_satisfied(const ProvingAssignment& pa) {
  for (size_t i = 0; i < pa.a.size(); ++i) {
    if (pa.a[i] * pa.b[i] != pa.c[i]) return false;
  }
  return true;
}

TEST(Sha256, MatchesOpenSslOverBellpersonsLengthSweep) {
  // Lengths 0..31 bytes and 32..248 in steps of 8, as bellperson's test_against_vectors. The
  // prover's assignment (no names, no stored constraints) keeps the 112 blocks fast.
  auto rng = test::rng_for(4);
  std::vector<size_t> lengths;
  for (size_t n = 0; n < 32; ++n)
    lengths.push_back(n);
  for (size_t n = 32; n < 256; n += 8)
    lengths.push_back(n);
  for (size_t n : lengths) {
    const auto msg = test::random_bytes(rng, n);
    ProvingAssignment pa;
    const std::vector<Boolean> bits = alloc_message_bits(pa, msg);
    const std::vector<Boolean> out = sha256(pa, bits);
    ASSERT_TRUE(rows_satisfied(pa)) << n;
    ASSERT_EQ(bits_to_bytes_be(out), digest_vec(msg)) << n;
    if (n == 0) {
      EXPECT_EQ(pa.a.size(), 0u);  // all-constant input: nothing to prove
    }
    for (const Boolean& b : out)
      EXPECT_EQ(b.is_constant(), n == 0);
  }
}

TEST(Sha256, MatchesTheNistExampleMessages) {
  struct Vector {
    const char* msg;
    const char* digest;
  };
  const Vector vectors[] = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmn"
       "opq"
       "rsmnopqrstnopqrstu",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
  };
  for (const Vector& v : vectors) {
    const auto msg = test::to_vec(v.msg);
    TestConstraintSystem cs;
    const std::vector<Boolean> out = sha256(cs, alloc_message_bits(cs, msg));
    EXPECT_TRUE(cs.is_satisfied());
    const auto got = bits_to_bytes_be(out);
    std::string hex;
    for (uint8_t byte : got) {
      static constexpr char kDigits[] = "0123456789abcdef";
      hex += kDigits[byte >> 4];
      hex += kDigits[byte & 15];
    }
    EXPECT_EQ(hex, v.digest) << v.msg;
    EXPECT_EQ(got, digest_vec(msg));
  }
}

TEST(Sha256, TamperedChBitFailsItsChComputation) {
  auto rng = test::rng_for(5);
  const auto block = test::random_bytes(rng, 64);
  TestConstraintSystem cs;
  const std::vector<Boolean> bits = alloc_message_bits(cs, block);
  sha256_compression_function(Ns(cs, Name{"sha256"}), bits, sha256_iv());
  ASSERT_TRUE(cs.is_satisfied());
  const std::string path = "sha256/compression round 10/ch/ch 5/ch";
  cs.set(path, Fr::one() - cs.get(path));
  EXPECT_EQ(cs.which_is_unsatisfied(), path + " computation");
}

TEST(Sha256, FlippedScheduleSumBitFailsItsFirstConsumerBeforeItsMultieqBatch) {
  // w[16]'s result bits are checked by a MultiEq batch emitted only with w[23]; the first user of
  // its bit 0 is w[18]'s s1 = (w16 >>> 17) ^ (w16 >>> 19) ^ (w16 >> 10), whose bit 13 reads it.
  auto rng = test::rng_for(6);
  const auto block = test::random_bytes(rng, 64);
  TestConstraintSystem cs;
  const std::vector<Boolean> bits = alloc_message_bits(cs, block);
  sha256_compression_function(Ns(cs, Name{"sha256"}), bits, sha256_iv());
  ASSERT_TRUE(cs.is_satisfied());
  const std::string bit = "sha256/w extension 16/computation of w[i]/result bit 0/boolean";
  cs.set(bit, Fr::one() - cs.get(bit));
  EXPECT_EQ(cs.which_is_unsatisfied(),
            "sha256/w extension 18/first xor for s1/xor of bit 13/xor constraint");
}

}  // namespace
}  // namespace cuzk::gadgets
