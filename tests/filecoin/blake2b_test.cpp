// BLAKE2b-512 against RFC 7693, and keyed BLAKE2b-256 + ChaCha20 IETF end to end against the
// hard-coded synthetic PoRep vector of rust-fil-proofs (storage-proofs-porep/src/stacked/
// vanilla/challenges.rs test_synth_challenges_against_hardcoded; facts 6.2).
#include "filecoin/hash/blake2b.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "filecoin/chacha.hpp"
#include "filecoin/domain.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

std::span<const uint8_t> bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(Blake2b, Rfc7693VectorsMatch) {
  // RFC 7693 appendix A ("abc") and the empty message.
  EXPECT_EQ(to_hex(blake2b512(bytes("abc"))),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  EXPECT_EQ(to_hex(blake2b512(bytes(""))),
            "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
            "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
  Blake2b512 h;
  h.update(bytes("a")).update(bytes("bc"));
  EXPECT_EQ(h.finish(), blake2b512(bytes("abc")));
  EXPECT_EQ(h.digest(bytes("")), blake2b512(bytes("")));
}

// LE 256-bit integer mod a small modulus (the BigUint::from_bytes_le(..) % n of upstream).
uint64_t le_mod(std::span<const uint8_t> b, uint64_t n) {
  unsigned __int128 r = 0;
  for (size_t i = b.size(); i-- > 0;)
    r = (r * 256 + b[i]) % n;
  return static_cast<uint64_t>(r);
}

TEST(Blake2b, KeyedBlake2bAndChaCha20ReproduceTheSyntheticPorepVector) {
  const auto& v = test::oracles().at("synthetic_porep_vector");
  const auto& tags = test::oracles().at("string_constants");
  const uint64_t nodes = v.at("sector_nodes").get<uint64_t>();
  const Domain replica_id = fr_to_domain(Fr::from_u64(55));  // "Fr(55)"
  const Domain comm_r = fr_to_domain(Fr::from_u64(101));     // "Fr(101)"
  const std::string gen_tag = tags.at("synthetic_generation_blake2b_key").get<std::string>();
  const std::string sel_tag = tags.at("synthetic_selection_blake2b_key").get<std::string>();
  const std::vector<uint8_t> nonce_bytes =
      bytes_from_hex(tags.at("synthetic_chacha20_nonce_hex").get<std::string>());
  std::array<uint8_t, 12> nonce;
  std::copy(nonce_bytes.begin(), nonce_bytes.end(), nonce.begin());

  // Generation: key = BLAKE2b-256 keyed with the tag over replica_id || comm_r.
  ChaCha20Ietf gen(blake2b256_keyed(bytes(gen_tag), {replica_id, comm_r}), nonce);
  std::vector<uint64_t> synth;
  for (size_t i = 0; i < v.at("num_synth_challenges").get<size_t>(); ++i) {
    uint8_t buf[32];
    gen.keystream(buf);
    synth.push_back(le_mod(buf, nodes - 1) + 1);
  }
  EXPECT_EQ(synth, v.at("synth_challenges").get<std::vector<uint64_t>>());

  // Selection: u32_le keystream words mod num_synth index the synthetic challenges.
  Domain seed;
  seed.fill(1);  // porep_randomness [1; 32]
  ChaCha20Ietf sel(blake2b256_keyed(bytes(sel_tag), {replica_id, seed}), nonce);
  std::vector<uint64_t> porep;
  for (size_t j = 0; j < v.at("num_porep_challenges").get<size_t>(); ++j) {
    uint8_t w[4];
    sel.keystream(w);
    const uint32_t index =
        uint32_t{w[0]} | uint32_t{w[1]} << 8 | uint32_t{w[2]} << 16 | uint32_t{w[3]} << 24;
    porep.push_back(synth[index % synth.size()]);
  }
  EXPECT_EQ(porep, v.at("porep_challenges").get<std::vector<uint64_t>>());

  // Random access by seek gives the same synthetic challenge (gen_synth_challenge).
  ChaCha20Ietf again(blake2b256_keyed(bytes(gen_tag), {replica_id, comm_r}), nonce);
  again.seek(7 * 32);
  uint8_t buf[32];
  again.keystream(buf);
  EXPECT_EQ(le_mod(buf, nodes - 1) + 1, synth[7]);
}

TEST(Blake2b, KeyLengthIsChecked) {
  EXPECT_THROW(blake2b256_keyed({}, {bytes("x")}), std::invalid_argument);
  const std::vector<uint8_t> long_key(65, 1);
  EXPECT_THROW(blake2b256_keyed(long_key, {bytes("x")}), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
