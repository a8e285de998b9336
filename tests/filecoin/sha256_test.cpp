// SHA-256 through OpenSSL and the Filecoin trunc254 forms (filecoin-hashers/src/sha256.rs).
#include "filecoin/hash/sha256.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

std::span<const uint8_t> bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(Sha256, FipsVectorsMatch) {
  // FIPS 180-2 examples.
  EXPECT_EQ(to_hex(sha256(bytes("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256(bytes(""))),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(to_hex(sha256(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, MultiPartHashingEqualsHashingTheConcatenation) {
  EXPECT_EQ(to_hex(sha256({bytes("a"), bytes(""), bytes("bc")})),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Sha256 h;
  h.update(bytes("ab")).update(bytes("c"));
  EXPECT_EQ(to_hex(h.finish()), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // finish() resets the context for reuse.
  EXPECT_EQ(to_hex(h.digest(bytes(""))),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Trunc254ClearsOnlyTheTwoTopBitsOfTheLastByte) {
  // SHA-256("abc") ends in 0xad; 0xad & 0x3f = 0x2d.
  const Domain d = sha256_trunc254(bytes("abc"));
  EXPECT_EQ(to_hex(d), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f200152d");
  EXPECT_TRUE(is_canonical_fr(d));
  EXPECT_EQ(sha256_trunc254({bytes("ab"), bytes("c")}), d);
}

TEST(Sha256, NodeOfTwoZeroNodesIsTheFirstZeroCommLevel) {
  const auto& levels = test::oracles().at("zero_comm_d").at("levels_0_to_36_hex");
  const Domain z0 = test::domain_hex(levels.at(0));
  EXPECT_EQ(sha256_node(z0, z0), test::domain_hex(levels.at(1)));
  Sha256 h;
  EXPECT_EQ(h.node(z0, z0), test::domain_hex(levels.at(1)));
  uint8_t pair[64] = {};
  EXPECT_EQ(h.node_pair(pair), test::domain_hex(levels.at(1)));
}

}  // namespace
}  // namespace cuzk::filecoin
