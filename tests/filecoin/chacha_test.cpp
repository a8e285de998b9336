// ChaCha against published vectors:
//   * ChaCha8 (8 rounds, 256-bit key, 64-bit IV = rand_chacha's stream id): draft-strombergson-
//     chacha-test-vectors-01 TC1, TC2, TC3, TC7, TC8 (the 8-round sections), and the DRG parents
//     of the oracle graph vectors (ChaCha8Rng as drgraph.rs consumes it);
//   * ChaCha20Rng: every value test of rand_chacha 0.3.1 src/chacha.rs (true_values_a/b/c,
//     multiple_blocks, true_bytes, nonce, construction, clone_streams, word_pos wraps);
//   * ChaCha20 IETF: RFC 8439 sections 2.3.2 and 2.4.2, and OpenSSL's EVP_chacha20 on random data.
#include "filecoin/chacha.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "filecoin/domain.hpp"
#include "filecoin/hash/sha256.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

ChaChaKey key_from_hex(std::string_view hex) {
  const std::vector<uint8_t> b = bytes_from_hex(hex);
  ChaChaKey k;
  std::copy(b.begin(), b.end(), k.begin());
  return k;
}

uint64_t u64_le(std::string_view hex) {
  const std::vector<uint8_t> b = bytes_from_hex(hex);
  uint64_t v = 0;
  for (size_t i = 8; i-- > 0;)
    v = v << 8 | b[i];
  return v;
}

std::string keystream_hex(ChaCha8Rng& rng, size_t n) {
  std::vector<uint8_t> out(n);
  rng.fill_bytes(out);
  return to_hex(out);
}

struct Tc {
  const char* name;
  const char* key;
  const char* iv;
  const char* stream;  // first 128 keystream bytes
};

TEST(ChaCha8Rng, StrombergsonEightRoundVectorsMatch) {
  const Tc cases[] = {
      {"TC1", "0000000000000000000000000000000000000000000000000000000000000000",
       "0000000000000000",
       "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
       "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
       "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
       "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa"},
      {"TC2", "0100000000000000000000000000000000000000000000000000000000000000",
       "0000000000000000",
       "cf5ee9a0494aa9613e05d5ed725b804b12f4a465ee635acc3a311de8740489ea"
       "289d04f43c7518db56eb4433e498a1238cd8464d3763ddbb9222ee3bd8fae3c8"
       "b4355a7d93dd8867089ee643558b95754efa2bd1a8a1e2d75bcdb32015542638"
       "291941feb49965587c4fdfe219cf0ec132a6cd4dc067392e67982fe53278c0b4"},
      {"TC3", "0000000000000000000000000000000000000000000000000000000000000000",
       "0100000000000000",
       "2b8f4bb3798306ca5130d47c4f8d4ed13aa0edccc1be6942090faeeca0d7599b"
       "7ff0fe616bb25aa0153ad6fdc88b954903c22426d478b97b22b8f9b1db00cf06"
       "470bdffbc488a8b7c701ebf4061d75c5969186497c95367809afa80bd843b040"
       "a79abc6e73a91757f1db73c8eacfa543b38f289d065ab2f3032d377b8c37fe46"},
      {"TC7", "00112233445566778899aabbccddeeffffeeddccbbaa99887766554433221100",
       "0f1e2d3c4b596877",
       "60fdedbd1a280cb741d0593b6ea0309010acf18e1471f68968f4c9e311dca149"
       "b8e027b47c81e0353db013891aa5f68ea3b13dd2f3b8dd0873bf3746e7d6c567"
       "fe882395601ce8aded444867fe62ed8741420002e5d28bb573113a418c1f4008"
       "e954c188f38ec4f26bb8555e2b7c92bf4380e2ea9e553187fdd42821794416de"},
      {"TC8", "c46ec1b18ce8a878725a37e780dfb7351f68ed2e194c79fbc6aebee1a667975d",
       "1ada31d5cf688221",
       "838751b42d8ddd8a3d77f48825a2ba752cf4047cb308a5978ef274973be374c9"
       "6ad848065871417b08f034e681fe46a93f7d5c61d1306614d4aaf257a7cff08b"
       "16f2fda170cc18a4b58a2667ed962774af792a6e7f3c77992540711a7a136d7e"
       "8a2f8d3f93816709d45a3fa5f8ce72fde15be7b841acba3a2abd557228d9fe4f"},
  };
  for (const Tc& tc : cases) {
    ChaCha8Rng rng(key_from_hex(tc.key));
    rng.set_stream(u64_le(tc.iv));  // the 64-bit IV in words 14-15, little endian
    EXPECT_EQ(keystream_hex(rng, 128), tc.stream) << tc.name;
  }
}

TEST(ChaCha8Rng, NextU64IsTwoConsecutiveWordsLowFirstAcrossBlocks) {
  // TC1 again, consumed as rand_core BlockRng does: u64s straddle the block boundary after an
  // odd number of u32s.
  ChaCha8Rng a(ChaChaKey{});
  EXPECT_EQ(a.next_u64(), 0xd6405f892fef003eULL);  // bytes 3e00ef2f 895f40d6, little endian
  ChaCha8Rng b(ChaChaKey{});
  for (int i = 0; i < 15; ++i)
    b.next_u32();
  // word 15 of block 0 = bytes 60..63 "0e0cfe42", word 0 of block 1 = "d2aefa0d".
  EXPECT_EQ(b.next_u64(), 0x0dfaaed242fe0c0eULL);
  EXPECT_EQ(b.get_word_pos(), 17u);
}

// The six DRG parents of node v >= 2 as storage-proofs-core/src/drgraph.rs draws them (API >= 1.1,
// facts 4.2): ChaCha8Rng seeded with drg_seed || u32_le(v), each parent from two gen::<u64>().
std::vector<uint64_t> drg_parents(const std::vector<uint8_t>& drg_seed, uint32_t v) {
  ChaChaKey seed{};
  std::copy(drg_seed.begin(), drg_seed.end(), seed.begin());
  for (int i = 0; i < 4; ++i)
    seed[28 + i] = static_cast<uint8_t>(v >> (8 * i));
  ChaCha8Rng rng(seed);
  const uint64_t meta = uint64_t{v} * 5;
  const uint64_t buckets = static_cast<uint64_t>(std::ceil(std::log2(static_cast<double>(meta))));
  std::vector<uint64_t> parents = {v - 1};
  for (int i = 0; i < 5; ++i) {
    const uint64_t bucket = rng.next_u64() % buckets + 1;
    const uint64_t hi = std::min(meta, uint64_t{1} << bucket);
    const uint64_t lo = std::max<uint64_t>(2, hi >> 1);
    const uint64_t q = (meta - (lo + rng.next_u64() % (hi - lo + 1))) / 5;
    parents.push_back(q == v ? v - 1 : q);
  }
  return parents;
}

TEST(ChaCha8Rng, DrivesDrgBucketSamplingToTheOracleParents) {
  // Oracle graph_vectors (derived by a generator whose 2 KiB and 8 MiB parent caches hash to the
  // upstream parent_cache.json digests): the first six entries of each list are the DRG parents.
  const auto& g = test::oracles().at("graph_vectors");
  const std::pair<const char*, const char*> graphs[] = {
      {"2KiB_V1_1_porep_id5", "2KiB_V1_1_porep_id5_seeds"},
      {"32GiB_V1_1_porep_id8", "32GiB_V1_1_porep_id8_seeds"},
      {"64GiB_V1_1_porep_id9", "64GiB_V1_1_porep_id9_seeds"}};
  int checked = 0;
  for (const auto& [name, seeds] : graphs) {
    const std::vector<uint8_t> drg_seed =
        bytes_from_hex(g.at(seeds).at("drg_seed_hex").get<std::string>());
    ASSERT_EQ(drg_seed.size(), 28u);
    for (const auto& [node, parents] : g.at(name).items()) {
      const uint64_t v = std::stoull(node);
      if (v < 2) continue;
      const std::vector<uint64_t> expected(parents.begin(), parents.begin() + 6);
      EXPECT_EQ(drg_parents(drg_seed, static_cast<uint32_t>(v)), expected) << name << " node " << v;
      ++checked;
    }
  }
  EXPECT_GE(checked, 10);
  // drg_seed = SHA-256("Filecoin_DRSample" || porep_id)[0..28] for porep_id 5.
  Domain porep_id{};
  porep_id[0] = 5;
  const std::string dst = "Filecoin_DRSample";
  const Sha256Digest h =
      sha256({std::span(reinterpret_cast<const uint8_t*>(dst.data()), dst.size()), porep_id});
  EXPECT_EQ(to_hex(std::span(h).first(28)),
            g.at("2KiB_V1_1_porep_id5_seeds").at("drg_seed_hex").get<std::string>());
}

TEST(ChaCha20Rng, ReproducesRandChachaTrueValuesAAndTrueBytes) {
  ChaCha20Rng rng(ChaChaKey{});
  const uint32_t expected_a[16] = {0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653,
                                   0xb819d2bd, 0x1aed8da0, 0xccef36a8, 0xc70d778b,
                                   0x7c5941da, 0x8d485751, 0x3fe02477, 0x374ad8b8,
                                   0xf4b8436a, 0x1ca11815, 0x69b687c3, 0x8665eeb2};
  for (uint32_t e : expected_a)
    EXPECT_EQ(rng.next_u32(), e);
  const uint32_t expected_b[16] = {0xbee7079f, 0x7a385155, 0x7c97ba98, 0x0d082d73,
                                   0xa0290fcb, 0x6965e348, 0x3e53c612, 0xed7aee32,
                                   0x7621b729, 0x434ee69c, 0xb03371d5, 0xd539d874,
                                   0x281fed31, 0x45fb0a51, 0x1f0ae1ac, 0x6f4d794b};
  for (uint32_t e : expected_b)
    EXPECT_EQ(rng.next_u32(), e);

  ChaCha20Rng bytes_rng(ChaChaKey{});
  std::vector<uint8_t> out(32);
  bytes_rng.fill_bytes(out);
  const uint8_t expected_bytes[32] = {118, 184, 224, 173, 160, 241, 61,  144, 64,  93,  106,
                                      229, 83,  134, 189, 40,  189, 210, 25,  184, 160, 141,
                                      237, 26,  168, 54,  239, 204, 139, 119, 13,  199};
  EXPECT_TRUE(std::equal(out.begin(), out.end(), expected_bytes));
}

TEST(ChaCha20Rng, ReproducesRandChachaTrueValuesBAfterSkippingABlock) {
  ChaChaKey seed{};
  seed[31] = 1;
  ChaCha20Rng rng(seed);
  for (int i = 0; i < 16; ++i)
    rng.next_u32();
  const uint32_t expected[16] = {0x2452eb3a, 0x9249f8ec, 0x8d829d9b, 0xddd4ceb1,
                                 0xe8252083, 0x60818b01, 0xf38422b8, 0x5aaa49c9,
                                 0xbb00ca8e, 0xda3ba7b4, 0xc4b592d1, 0xfdf2732f,
                                 0x4436274e, 0x2561b3c8, 0xebdd4aa6, 0xa0136c00};
  for (uint32_t e : expected)
    EXPECT_EQ(rng.next_u32(), e);
}

TEST(ChaCha20Rng, ReproducesRandChachaTrueValuesCAndItsWordPositions) {
  ChaChaKey seed{};
  seed[1] = 0xff;
  const uint32_t expected[16] = {0xfb4dd572, 0x4bc42ef1, 0xdf922636, 0x327f1394,
                                 0xa78dea8f, 0x5e269039, 0xa1bebbc1, 0xcaf09aae,
                                 0xa25ab213, 0x48a6b46c, 0x1b9d9bcb, 0x092c5be6,
                                 0x546ca624, 0x1bec45d5, 0x87f47473, 0x96f0992e};
  const unsigned __int128 expected_end = 3 * 16;
  ChaCha20Rng rng1(seed);
  for (int i = 0; i < 32; ++i)
    rng1.next_u32();
  for (uint32_t e : expected)
    EXPECT_EQ(rng1.next_u32(), e);
  EXPECT_TRUE(rng1.get_word_pos() == expected_end);

  ChaCha20Rng rng2(seed);
  rng2.set_word_pos(2 * 16);
  for (uint32_t e : expected)
    EXPECT_EQ(rng2.next_u32(), e);
  EXPECT_TRUE(rng2.get_word_pos() == expected_end);
  // fill_bytes consumes whole words, next_u64 two.
  std::vector<uint8_t> buf(32);
  rng2.fill_bytes(buf);
  EXPECT_TRUE(rng2.get_word_pos() == expected_end + 8);
  rng2.fill_bytes(std::span(buf).first(25));
  EXPECT_TRUE(rng2.get_word_pos() == expected_end + 15);
  rng2.next_u64();
  EXPECT_TRUE(rng2.get_word_pos() == expected_end + 17);
  rng2.next_u32();
  rng2.next_u64();
  EXPECT_TRUE(rng2.get_word_pos() == expected_end + 20);
  rng2.fill_bytes(std::span(buf).first(1));
  EXPECT_TRUE(rng2.get_word_pos() == expected_end + 21);
}

TEST(ChaCha20Rng, ReproducesRandChachaMultipleBlocksNonceAndConstruction) {
  const ChaChaKey seed =
      key_from_hex("0000000001000000020000000300000004000000050000000600000007000000");
  ChaCha20Rng rng(seed);
  const uint32_t expected[16] = {0xf225c81a, 0x6ab1be57, 0x04d42951, 0x70858036,
                                 0x49884684, 0x64efec72, 0x4be2d186, 0x3615b384,
                                 0x11cfa18e, 0xd3c50049, 0x75c775f6, 0x434c6530,
                                 0x2c5bad8f, 0x898881dc, 0x5f1c86d9, 0xc1f8e7f4};
  for (uint32_t e : expected) {
    EXPECT_EQ(rng.next_u32(), e);
    for (int i = 0; i < 16; ++i)
      rng.next_u32();
  }

  ChaCha20Rng nonce_rng(ChaChaKey{});
  nonce_rng.set_stream(uint64_t{2} << (24 + 32));
  const uint32_t expected_nonce[16] = {0x374dc6c2, 0x3736d58c, 0xb904e24a, 0xcd3f93ef,
                                       0x88228b1a, 0x96a4dfb3, 0x5b76ab72, 0xc727ee54,
                                       0x0e0e978a, 0xf3145c95, 0x1b748ea8, 0xf786c297,
                                       0x99c28f5f, 0x628314e8, 0x398a19fa, 0x6ded1b53};
  for (uint32_t e : expected_nonce)
    EXPECT_EQ(nonce_rng.next_u32(), e);

  // test_chacha_construction, with from_rng = from_seed(32 bytes filled from the first rng).
  const ChaChaKey seed2 =
      key_from_hex("0000000000000000010000000000000002000000000000000300000000000000");
  ChaCha20Rng rng1(seed2);
  EXPECT_EQ(rng1.next_u32(), 137206642u);
  ChaChaKey derived;
  rng1.fill_bytes(derived);
  ChaCha20Rng rng2(derived);
  EXPECT_EQ(rng2.next_u32(), 1325750369u);
}

TEST(ChaCha20Rng, SwitchesStreamsPartWayThroughABlockLikeRandChacha) {
  // test_chacha_clone_streams.
  const ChaChaKey seed =
      key_from_hex("0000000001000000020000000300000004000000050000000600000007000000");
  ChaCha20Rng rng(seed);
  ChaCha20Rng clone = rng;
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(rng.next_u64(), clone.next_u64());
  rng.set_stream(51);
  for (int i = 0; i < 7; ++i)
    EXPECT_NE(rng.next_u32(), clone.next_u32());
  clone.set_stream(51);
  for (int i = 7; i < 16; ++i)
    EXPECT_EQ(rng.next_u32(), clone.next_u32());
}

TEST(ChaCha20Rng, WrapsWordPositionsAt2To68) {
  // test_chacha_word_pos_wrap_exact / _excess / _zero.
  const unsigned __int128 top = static_cast<unsigned __int128>(1) << 68;
  for (unsigned __int128 pos : {top - 4 * 16, top - 16, static_cast<unsigned __int128>(0)}) {
    ChaCha20Rng rng(ChaChaKey{});
    if (pos == 0) {
      EXPECT_TRUE(rng.get_word_pos() == 0);
    }
    rng.set_word_pos(pos);
    EXPECT_TRUE(rng.get_word_pos() == pos);
  }
}

TEST(ChaCha20Ietf, MatchesTheRfc8439BlockAndEncryptionVectors) {
  const ChaChaKey key =
      key_from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  // 2.3.2: nonce 000000090000004a00000000, block counter 1.
  ChaCha20Ietf block({key}, {0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0});
  block.seek(64);
  std::vector<uint8_t> ks(64);
  block.keystream(ks);
  EXPECT_EQ(to_hex(ks),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
  EXPECT_EQ(block.position(), 128u);
  // 2.4.2: nonce 000000000000004a00000000, counter 1, the "sunscreen" plaintext.
  const std::string pt =
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
      "future, sunscreen would be it.";
  std::vector<uint8_t> data(pt.begin(), pt.end());
  ChaCha20Ietf enc(key, {0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0});
  enc.seek(64);
  enc.apply_keystream(data);
  EXPECT_EQ(to_hex(data),
            "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
            "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
            "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
            "5af90bbf74a35be6b40b8eedf2785e42874d");
}

TEST(ChaCha20Ietf, AgreesWithOpenSslAtArbitraryOffsetsAndSplits) {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 10; ++trial) {
    ChaChaKey key;
    std::array<uint8_t, 12> nonce;
    for (auto& b : key)
      b = static_cast<uint8_t>(rng());
    for (auto& b : nonce)
      b = static_cast<uint8_t>(rng());
    const uint32_t start_block = static_cast<uint32_t>(rng() % 1000);
    std::vector<uint8_t> expected(1000, 0);
    // OpenSSL's IV: 32-bit little-endian block counter, then the 96-bit nonce.
    uint8_t iv[16] = {static_cast<uint8_t>(start_block), static_cast<uint8_t>(start_block >> 8),
                      static_cast<uint8_t>(start_block >> 16),
                      static_cast<uint8_t>(start_block >> 24)};
    std::copy(nonce.begin(), nonce.end(), iv + 4);
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    int len = 0;
    ASSERT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key.data(), iv), 1);
    ASSERT_EQ(EVP_EncryptUpdate(ctx, expected.data(), &len, expected.data(), 1000), 1);
    EVP_CIPHER_CTX_free(ctx);

    ChaCha20Ietf c(key, nonce);
    c.seek(uint64_t{start_block} * 64);
    std::vector<uint8_t> got(1000, 0);
    size_t off = 0;
    while (off < got.size()) {
      const size_t n = std::min<size_t>(got.size() - off, rng() % 150);
      c.apply_keystream(std::span(got).subspan(off, n));
      off += n;
    }
    EXPECT_EQ(got, expected) << "trial " << trial;
  }
}

TEST(ChaCha20Ietf, ThrowsWhenRunningPastTheKeystream) {
  ChaCha20Ietf c(ChaChaKey{}, {});
  c.seek((uint64_t{1} << 32) * 64 - 10);
  std::vector<uint8_t> buf(11);
  EXPECT_THROW(c.apply_keystream(buf), std::out_of_range);
  EXPECT_THROW(c.seek((uint64_t{1} << 32) * 64 + 1), std::out_of_range);
}

}  // namespace
}  // namespace cuzk::filecoin
