// Bad input to the Groth16 file readers (issue 18, "Bad input"): every length field is bounded by
// the bytes that are there before anything is reserved, so a huge count is a FormatError naming
// the file and the offset (before the fix: std::bad_alloc / std::length_error, or a wrapped
// nPublic + 1 accepted); bulk points of a .zkey are subgroup-checked by default; JSON keys are
// refused by count (and size, and depth) before any point is decoded. The well-formed inputs
// are the circom/snarkjs fixture (shared/fixtures/circom-bls12381).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "groth16/bellperson_format.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_json.hpp"
#include "point_outside_g1.hpp"
#include "util/utf8.hpp"

namespace cuzk::groth16 {
namespace {

using cuzk::testing::point_outside_g1;

namespace fs = std::filesystem;

fs::path fixture(const char* file) {
  const char* env = std::getenv("CUZK_SHARED_DIR");
  const fs::path shared =
      env != nullptr && *env != '\0' ? fs::path(env) : fs::path(CUZK_SOURCE_DIR) / ".." / "shared";
  return shared / "fixtures" / "circom-bls12381" / file;
}

// The fixture's bytes; a missing one is a failure that names it (the edits below index into it).
std::vector<uint8_t> bytes_of(const char* file) {
  std::ifstream in(fixture(file), std::ios::binary);
  if (!in) throw std::runtime_error("fixture missing or unreadable: " + fixture(file).string());
  return {std::istreambuf_iterator<char>(in), {}};
}

// iden3 binfile: section id -> offset of its data.
std::map<uint32_t, size_t> sections(const std::vector<uint8_t>& f) {
  const auto u32 = [&](size_t at) {
    return uint32_t{f[at]} | uint32_t{f[at + 1]} << 8 | uint32_t{f[at + 2]} << 16 |
           uint32_t{f[at + 3]} << 24;
  };
  std::map<uint32_t, size_t> out;
  size_t at = 12;
  for (uint32_t i = 0, n = u32(8); i < n; ++i) {
    const uint64_t size = u32(at + 4) | uint64_t{u32(at + 8)} << 32;
    out[u32(at)] = at + 12;
    at += 12 + size;
  }
  return out;
}

void put_u32_le(std::vector<uint8_t>& f, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    f[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// The error, which must be a FormatError whose message names `name` and an offset.
template <class F>
std::string format_error(F&& f, const std::string& name) {
  try {
    f();
  } catch (const FormatError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(name + ": at byte "), std::string::npos) << what;
    return what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a FormatError: " << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

TEST(ReaderBounds, ZkeyWithNPublicTwoToTheThirtyTwoMinusOneIsRefused) {
  std::vector<uint8_t> z = bytes_of("circuit_final.zkey");
  put_u32_le(z, sections(z).at(2) + 92, 0xffffffffu);  // nPublic: nPublic + 1 wraps to 0
  const std::string e = format_error(
      [&] { (void)parse_zkey(z, "wrap.zkey", SubgroupCheck::kSkipTrusted); }, "wrap.zkey");
  EXPECT_NE(e.find("nPublic 4294967295"), std::string::npos) << e;
}

TEST(ReaderBounds, ZkeyHugeCountsAreRefusedBeforeAllocating) {
  const std::vector<uint8_t> fixture_bytes = bytes_of("circuit_final.zkey");
  const auto s = sections(fixture_bytes);
  {
    std::vector<uint8_t> z = fixture_bytes;
    put_u32_le(z, s.at(4), 0xffffffffu);  // coefficient count
    const std::string e = format_error(
        [&] { (void)parse_zkey(z, "coef.zkey", SubgroupCheck::kSkipTrusted); }, "coef.zkey");
    EXPECT_NE(e.find("coefficient count 4294967295"), std::string::npos) << e;
  }
  {
    std::vector<uint8_t> z = fixture_bytes;
    put_u32_le(z, s.at(2) + 96, 1u << 31);  // domainSize: the H section would hold 2^31 points
    const std::string e = format_error(
        [&] { (void)parse_zkey(z, "dom.zkey", SubgroupCheck::kSkipTrusted); }, "dom.zkey");
    EXPECT_NE(e.find("the header's 2147483648 points"), std::string::npos) << e;
  }
  {
    std::vector<uint8_t> z = fixture_bytes;
    put_u32_le(z, s.at(2) + 88, 0xfffffff0u);  // nVars
    (void)format_error([&] { (void)parse_zkey(z, "vars.zkey", SubgroupCheck::kSkipTrusted); },
                       "vars.zkey");
  }
}

TEST(ReaderBounds, WtnsAndR1csCountsAreBounded) {
  std::vector<uint8_t> w = bytes_of("witness.wtns");
  put_u32_le(w, sections(w).at(1) + 36, 0xffffffffu);  // nWitness
  std::string e = format_error([&] { (void)parse_wtns(w, "big.wtns"); }, "big.wtns");
  EXPECT_NE(e.find("nWitness 4294967295"), std::string::npos) << e;

  const std::vector<uint8_t> r1cs = bytes_of("circuit.r1cs");
  const size_t header = sections(r1cs).at(1);
  std::vector<uint8_t> r = r1cs;
  put_u32_le(r, header + 40, 0xffffffffu);  // nPubOut + nPubIn wraps to nPubIn - 1 in 32 bits
  e = format_error([&] { (void)parse_r1cs(r, "wrap.r1cs"); }, "wrap.r1cs");
  EXPECT_NE(e.find("wire counts inconsistent"), std::string::npos) << e;
  r = r1cs;
  put_u32_le(r, header + 60, 0xffffffffu);  // nConstraints
  e = format_error([&] { (void)parse_r1cs(r, "rows.r1cs"); }, "rows.r1cs");
  EXPECT_NE(e.find("4294967295 constraints cannot fit"), std::string::npos) << e;
  r = r1cs;
  put_u32_le(r, sections(r).at(2), 0xffffffffu);  // the first row's A term count
  e = format_error([&] { (void)parse_r1cs(r, "terms.r1cs"); }, "terms.r1cs");
  EXPECT_NE(e.find("4294967295 terms cannot fit"), std::string::npos) << e;
}

TEST(ReaderBounds, BellpersonVkIcLengthIsBoundedByTheFile) {
  VerifyingKey vk;
  vk.alpha_g1 = vk.beta_g1 = vk.delta_g1 = G1Affine::generator();
  vk.beta_g2 = vk.gamma_g2 = vk.delta_g2 = G2Affine::generator();
  vk.ic = {G1Affine::generator()};
  std::vector<uint8_t> b = serialize_verifying_key(vk);
  const size_t at = 3 * kG1UncompressedBytes + 3 * kG2UncompressedBytes;
  b[at] = b[at + 1] = b[at + 2] = b[at + 3] = 0xff;  // u32 big-endian IC length
  const std::string e = format_error([&] { (void)parse_verifying_key(b, "big.vk"); }, "big.vk");
  EXPECT_NE(e.find("at byte " + std::to_string(at)), std::string::npos) << e;
  EXPECT_NE(e.find("4294967295"), std::string::npos) << e;
}

TEST(ReaderBounds, ZkeyBulkPointsAreSubgroupCheckedByDefault) {
  std::vector<uint8_t> z = bytes_of("circuit_final.zkey");
  const size_t a = sections(z).at(5);  // A: 96-byte points (x, y in 48-byte Montgomery LE)
  const G1Affine bad = point_outside_g1();
  size_t at = a;
  while (std::all_of(z.begin() + at, z.begin() + at + 96, [](uint8_t v) { return v == 0; }))
    at += 96;  // the first A point that is not the identity
  for (int c = 0; c < 2; ++c) {
    const auto& limbs = (c == 0 ? bad.x : bad.y).mont();
    for (size_t i = 0; i < 48; ++i)
      z[at + 48 * c + i] = static_cast<uint8_t>(limbs.w[i / 8] >> (8 * (i % 8)));
  }
  const fs::path file = fs::temp_directory_path() / ("cuzk-bounds-" + std::to_string(::getpid()));
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(z.data()), static_cast<std::streamsize>(z.size()));
  ThreadPool pool(2);
  // The default (a user-supplied file) checks; only a caller that vouches for it skips.
  const std::string e =
      format_error([&] { (void)read_zkey(file, SubgroupCheck::kCheck, &pool); }, file.string());
  EXPECT_NE(e.find("not in the prime-order subgroup"), std::string::npos) << e;
  EXPECT_NE(e.find("at byte " + std::to_string(at)), std::string::npos) << e;
  EXPECT_THROW((void)read_zkey(file), FormatError);
  EXPECT_NO_THROW((void)read_zkey(file, SubgroupCheck::kSkipTrusted));
  fs::remove(file);
}

std::string g1_json_text(const G1Affine& p) {
  return "[\"" + to_decimal(p.x.to_canonical()) + "\",\"" + to_decimal(p.y.to_canonical()) +
         "\",\"1\"]";
}

TEST(JsonBounds, VerifyingKeyWithTooManyIcEntriesIsRefusedByCount) {
  // A valid key, then the same key with 70,000 IC entries (each a valid point): refused by its
  // count before the points (70,000 subgroup checks, seconds) are decoded.
  const std::string vk = [] {
    std::ifstream in(fixture("verification_key.json"));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  ASSERT_NO_THROW((void)parse_verifying_key_json(vk, "vk.json"));
  const size_t ic = vk.find("\"IC\"");
  ASSERT_NE(ic, std::string::npos);
  std::string big = vk.substr(0, ic) + "\"IC\": [";
  const std::string entry = g1_json_text(G1Affine::generator());
  for (int i = 0; i < 70000; ++i)
    big += (i == 0 ? "" : ",") + entry;
  big += "]}";
  big.erase(big.find("\"nPublic\""),
            big.find(',', big.find("\"nPublic\"")) + 1 - big.find("\"nPublic\""));
  const auto t0 = std::chrono::steady_clock::now();
  try {
    (void)parse_verifying_key_json(big, "big.json");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("IC: 70000 entries"), std::string::npos) << e.what();
  }
  std::printf("70,000-entry IC refused in %.2f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  // A million entries is refused by its size before it is parsed at all.
  const std::string million(size_t{200} << 20, ' ');
  try {
    (void)parse_verifying_key_json(million, "million.json");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bytes, more than"), std::string::npos) << e.what();
  }
}

TEST(JsonBounds, DeepNestingAndBytesThatAreNotUtf8) {
  const std::string deep(1 << 20, '[');
  try {
    (void)parse_public_json(deep, "deep.json");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than"), std::string::npos) << e.what();
  }
  for (const std::string& bad : {std::string("[\"1\xff\"]"), std::string("[\"\xc3\"]"),
                                 std::string("{\"pi_a\":[\"\xed\xa0\x80\"]}")}) {
    try {
      (void)parse_proof_json(bad, "p.json");
      FAIL() << "accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(is_valid_utf8(e.what())) << escape_invalid_utf8(e.what());
    }
  }
}

}  // namespace
}  // namespace cuzk::groth16
