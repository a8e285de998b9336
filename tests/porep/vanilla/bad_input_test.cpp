// Bad input to the readers of outside bytes in this layer (issue 18, "Bad input"): the C1 JSON and
// its c1.json wrapper refuse deep nesting by depth (before: parsed into a tree, ~1 GB per 20 MB
// of "[[[["), every message that quotes payload bytes is valid UTF-8 (before: nlohmann's "last
// read" and base64's symbol were raw bytes, which protobuf cannot carry), and the vanilla-proof
// bincode reader bounds a MerkleProof count by the smallest proof (76 bytes; before: 4, so a
// corrupt count reserved up to ~35x the payload). Well-formed input: the curio golden WindowPoSt
// proof (shared/fixtures/filecoin-golden).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "common/error_of.hpp"
#include "filecoin/base64.hpp"
#include "oracle_file.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "porep/vanilla/c1_wrapper.hpp"
#include "post/vanilla/post_vanilla_proof.hpp"
#include "util/utf8.hpp"

namespace cuzk::filecoin {
namespace {

// The refusal's message; a failure of the test when the input was accepted.
template <class F>
std::string error_of(F&& f) {
  std::string e = cuzk::testing::error_of(std::forward<F>(f));
  if (e.empty()) ADD_FAILURE() << "accepted";
  return e;
}

TEST(BadInput, DeeplyNestedC1IsRefusedByDepth) {
  for (const std::string& deep : {std::string(4 << 20, '['), "{\"a\":" + std::string(100, '[')}) {
    const std::string e = error_of([&] { (void)parse_c1_document(deep); });
    EXPECT_NE(e.find("nested deeper than 32 levels"), std::string::npos) << e.substr(0, 200);
  }
  const std::string wrapper = "{\"Phase1Out\":[[[\"x\"]]],\"SectorNum\":1}";
  const std::string e = error_of([&] { (void)parse_c1_document(wrapper); });
  EXPECT_NE(e.find("nested deeper than 2 levels"), std::string::npos) << e;
}

TEST(BadInput, MessagesQuotingPayloadBytesAreValidUtf8) {
  const std::string cases[] = {
      "{\"registered_proof\":\"\xff\xfe\"}",             // not UTF-8 inside a string
      "{\"registered_proof\":\"StackedDrg\xc3\"}",       // a cut two-byte sequence
      "\xef\xbb\xbf\xc0\xaf",                            // a BOM, then an overlong '/'
      "{\"registered_proof\":\"Stacked\xed\xa0\x80\"}",  // a UTF-16 surrogate
  };
  for (const std::string& bad : cases) {
    const std::string e = error_of([&] { (void)parse_c1_document(bad); });
    EXPECT_FALSE(e.empty());
    EXPECT_TRUE(is_valid_utf8(e)) << escape_invalid_utf8(e);
  }
  // A valid string that names no proof is quoted as it is (escaped where it must be).
  std::string e = error_of(
      [&] { (void)parse_c1_document("{\"registered_proof\":\"\\u0001Stacked\\u00e9\"}"); });
  EXPECT_NE(e.find("unknown registered seal proof \"\\x01Stacked\xc3\xa9\""), std::string::npos)
      << e;
  // Base64 symbols: printable ones quoted, any other byte by value (here the first byte of an
  // "é" the wrapper's JSON string carried in).
  e = error_of([] { (void)base64_decode("AA\xc3\xa9"); });
  EXPECT_NE(e.find("invalid symbol byte 0xc3 at character 2"), std::string::npos) << e;
  EXPECT_TRUE(is_valid_utf8(e));
  e = error_of([] { (void)base64_decode("AA*A"); });
  EXPECT_NE(e.find("invalid symbol '*' at character 2"), std::string::npos) << e;
  e = error_of([] {
    (void)parse_c1_document("{\"SectorNum\":1,\"SectorSize\":2048,\"Phase1Out\":\"AA\\u00e9\"}");
  });
  EXPECT_NE(e.find("Phase1Out"), std::string::npos) << e;
  EXPECT_TRUE(is_valid_utf8(e)) << escape_invalid_utf8(e);
}

TEST(BadInput, Utf8HelpersFollowRfc3629) {
  EXPECT_TRUE(is_valid_utf8("plain \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  for (const char* bad : {"\x80", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                          "\xf5\x80\x80\x80", "\xc3", "\xe2\x82"}) {
    EXPECT_FALSE(is_valid_utf8(bad)) << escape_invalid_utf8(bad);
    EXPECT_TRUE(is_valid_utf8(escape_invalid_utf8(bad)));
  }
  EXPECT_EQ(escape_invalid_utf8("a\xff\x01\tb\n"), "a\\xff\\x01\tb\n");
  EXPECT_EQ(quote_bytes("abcdef", 3), "abc...");
  EXPECT_EQ(quote_bytes("ab\xc3\xa9", 3), "ab...");  // never half a character
}

TEST(BadInput, VanillaProofCountsAreBoundedByTheSmallestProof) {
  const std::vector<uint8_t> golden =
      test::read_file_bytes(test::golden_file("window-post-32g-sector1.vproof"));
  ASSERT_NO_THROW((void)decode_fallback_post_sector_proof(golden));
  // sector_id, comm_r, one sector, then an inclusion_proofs count the bytes cannot hold with
  // 76-byte proofs (they could with 4-byte ones).
  std::vector<uint8_t> b(golden.begin(), golden.begin() + 8 + 32 + 8);
  const uint64_t n = 1000;
  for (int i = 0; i < 8; ++i)
    b.push_back(static_cast<uint8_t>(n >> (8 * i)));
  b.resize(b.size() + 20 * n, 0);  // 20 bytes per claimed proof
  const std::string e = error_of([&] { (void)decode_fallback_post_sector_proof(b); });
  EXPECT_NE(e.find("inclusion_proofs length at byte 48: length 1000 exceeds"), std::string::npos)
      << e;
  // Every truncation of the golden proof is refused with an offset, never a crash.
  for (size_t cut = 0; cut < golden.size(); cut += 97) {
    EXPECT_THROW((void)decode_fallback_post_sector_proof(std::span(golden).first(cut)),
                 std::invalid_argument)
        << cut;
  }
}

}  // namespace
}  // namespace cuzk::filecoin
