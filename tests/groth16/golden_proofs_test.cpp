// The Groth16 verifier against real Filecoin proofs (../shared/fixtures/filecoin-golden, layout
// in its README): ten 32 GiB PoRep partition proofs (327 public inputs each) and one 32 GiB
// WinningPoSt proof (132 inputs), made by rust-fil-proofs with the published v27 parameters,
// each file carrying its verifying key. Oracles no one here wrote: the key files' BLAKE2b-512
// digests as parameters.json published them for v27, and proofs that the network accepted (they
// verify under @noble/curves as well). Every proof verifies alone and in a batch (one multi-
// pairing under random weights); one changed public input, one changed proof byte or inputs
// swapped between proofs fail. The fixtures are found through ../shared (CUZK_FILECOIN_GOLDEN
// overrides the directory); a missing one fails under CI=true and skips elsewhere.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "filecoin/hash/blake2b.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::groth16 {
namespace {

// parameters.json before v28: "digest" is the first 16 bytes of the .vk file's BLAKE2b-512.
constexpr const char* kPorepV27VkDigest = "7a139d82b8a02e35279d657e197f5c1f";    // ...82a357d2
constexpr const char* kWinningV27VkDigest = "2306247a1e616dbe07f01b88196c2044";  // ...559e581f

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

std::filesystem::path golden_dir() {
  const char* env = std::getenv("CUZK_FILECOIN_GOLDEN");
  return env != nullptr ? std::filesystem::path(env)
                        : std::filesystem::path(CUZK_FILECOIN_GOLDEN_DEFAULT);
}

// The file's bytes, or nullopt when it is not there (the caller skips, or fails under CI).
std::optional<std::vector<uint8_t>> golden_bytes(const std::string& name) {
  std::ifstream in(golden_dir() / name, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

#define LOAD_GOLDEN(var, name)                                                                   \
  const std::optional<std::vector<uint8_t>> var = golden_bytes(name);                            \
  if (!var) {                                                                                    \
    if (in_ci()) FAIL() << "CI=true and " << (golden_dir() / name) << " is missing";             \
    GTEST_SKIP() << (golden_dir() / name) << " is missing (../shared/fixtures/filecoin-golden)"; \
  }

// Big-endian integers and points, bounded by what is there.
class Reader {
 public:
  explicit Reader(std::span<const uint8_t> b) : b_(b) {}
  std::span<const uint8_t> take(size_t n) {
    if (n > b_.size() - at_)
      throw std::runtime_error("golden file truncated at " + std::to_string(at_));
    const auto out = b_.subspan(at_, n);
    at_ += n;
    return out;
  }
  uint64_t u64() {
    uint64_t v = 0;
    for (uint8_t byte : take(8))
      v = v << 8 | byte;
    return v;
  }
  uint32_t u32_at(size_t offset) const {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i)
      v = v << 8 | b_[at_ + offset + i];
    return v;
  }
  std::vector<Fr> inputs(uint64_t n) {
    std::vector<Fr> out;
    for (uint64_t i = 0; i < n; ++i) {
      const auto fr = Fr::from_bytes_be(take(32).first<32>());
      if (!fr) throw std::runtime_error("a public input is not a canonical field element");
      out.push_back(*fr);
    }
    return out;
  }
  // A .vk as bellperson writes it: six points, then u32 n and n ic points (all uncompressed).
  std::span<const uint8_t> vk() {
    constexpr size_t kFixed = 96 + 96 + 192 + 192 + 96 + 192;
    if (b_.size() - at_ < kFixed + 4) throw std::runtime_error("golden file: no key");
    return take(kFixed + 4 + size_t{u32_at(kFixed)} * 96);
  }
  bool done() const { return at_ == b_.size(); }

 private:
  std::span<const uint8_t> b_;
  size_t at_ = 0;
};

std::string digest_hex(std::span<const uint8_t> vk_bytes) {
  const auto d = filecoin::blake2b512(vk_bytes);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < 16; ++i) {
    out += hex[d[i] >> 4];
    out += hex[d[i] & 15];
  }
  return out;
}

struct Golden {
  std::vector<uint8_t> vk_bytes;
  VerifyingKey vk;
  std::vector<std::array<uint8_t, kProofBytes>> proofs;  // as they came
  std::vector<std::vector<Fr>> inputs;
};

Golden read_porep(std::span<const uint8_t> file) {
  Reader r(file);
  Golden g;
  const uint64_t count = r.u64(), n = r.u64();
  EXPECT_EQ(count, 10u);
  EXPECT_EQ(n, 327u);
  const auto vk = r.vk();
  g.vk_bytes.assign(vk.begin(), vk.end());
  for (uint64_t i = 0; i < count; ++i) {
    const auto p = r.take(kProofBytes);
    g.proofs.emplace_back();
    std::copy(p.begin(), p.end(), g.proofs.back().begin());
    g.inputs.push_back(r.inputs(n));
  }
  EXPECT_TRUE(r.done());
  g.vk = parse_verifying_key(g.vk_bytes, "porep-32g-v27-x10.prf");
  return g;
}

Golden read_winning(std::span<const uint8_t> file) {
  Reader r(file);
  Golden g;
  const auto p = r.take(kProofBytes);
  g.proofs.emplace_back();
  std::copy(p.begin(), p.end(), g.proofs.back().begin());
  const uint64_t n = r.u64();
  EXPECT_EQ(n, 132u);
  g.inputs.push_back(r.inputs(n));
  const auto vk = r.vk();
  g.vk_bytes.assign(vk.begin(), vk.end());
  EXPECT_TRUE(r.done());
  g.vk = parse_verifying_key(g.vk_bytes, "winning-32g-v27.prf");
  return g;
}

std::vector<Proof> decoded(const Golden& g) {
  std::vector<Proof> out;
  for (const auto& bytes : g.proofs) {
    auto p = decode_proof(bytes);
    EXPECT_TRUE(p) << p.error().message();
    out.push_back(*p);
  }
  return out;
}

// Whether `bytes` decodes to a proof that verifies for `inputs` (a byte change may also make a
// point that is not on the curve or not in the subgroup: refused at decoding).
bool accepts(const PreparedVerifyingKey& pvk, std::span<const uint8_t> bytes,
             const std::vector<Fr>& inputs) {
  const auto p = decode_proof(bytes);
  return p && verify_proof(pvk, *p, inputs);
}

// Every proof alone and all in a batch; then each kind of change fails alone and in the batch.
void check_golden(const Golden& g) {
  const PreparedVerifyingKey pvk = prepare_verifying_key(g.vk);
  EXPECT_EQ(pvk.ic.size(), g.inputs[0].size() + 1);
  std::vector<Proof> proofs = decoded(g);
  for (size_t i = 0; i < proofs.size(); ++i) {
    EXPECT_TRUE(verify_proof(pvk, proofs[i], g.inputs[i])) << "proof " << i;
    EXPECT_EQ(encode_proof(proofs[i]), g.proofs[i]) << "proof " << i << " re-encodes";
  }
  EXPECT_TRUE(verify_proofs_batch(pvk, proofs, g.inputs));

  // One public input changed: the first, one in the middle, the last.
  for (const size_t k : {size_t{0}, g.inputs[0].size() / 2, g.inputs[0].size() - 1}) {
    std::vector<std::vector<Fr>> inputs = g.inputs;
    inputs.back()[k] += Fr::one();
    EXPECT_FALSE(verify_proof(pvk, proofs.back(), inputs.back())) << "input " << k;
    EXPECT_FALSE(verify_proofs_batch(pvk, proofs, inputs)) << "input " << k;
  }
  // One byte changed in A, B and C (a low bit of the x coordinate's last byte, and a byte in the
  // middle of each point).
  for (const size_t at :
       {size_t{47}, size_t{20}, size_t{48 + 95}, size_t{48 + 50}, size_t{191}, size_t{144 + 20}}) {
    std::array<uint8_t, kProofBytes> bytes = g.proofs[0];
    bytes[at] ^= 0x01;
    EXPECT_FALSE(accepts(pvk, bytes, g.inputs[0])) << "byte " << at;
    const auto changed = decode_proof(bytes);
    if (changed) {
      std::vector<Proof> batch = proofs;
      batch[0] = *changed;
      EXPECT_FALSE(verify_proofs_batch(pvk, batch, g.inputs)) << "byte " << at;
    }
  }
  if (proofs.size() > 1) {  // inputs swapped between two proofs
    std::vector<std::vector<Fr>> swapped = g.inputs;
    std::swap(swapped[0], swapped[1]);
    EXPECT_FALSE(verify_proof(pvk, proofs[0], swapped[0]));
    EXPECT_FALSE(verify_proofs_batch(pvk, proofs, swapped));
  }
  // A wrong number of inputs is an error, not a failed proof.
  std::vector<Fr> short_inputs(g.inputs[0].begin(), g.inputs[0].end() - 1);
  EXPECT_THROW(verify_proof(pvk, proofs[0], short_inputs), std::invalid_argument);
}

TEST(Groth16Golden, RealPoRep32GiBProofsVerifyUnderThePublishedV27Key) {
  LOAD_GOLDEN(file, "porep-32g-v27-x10.prf");
  const Golden g = read_porep(*file);
  EXPECT_EQ(g.vk_bytes.size(), 32'356u);
  EXPECT_EQ(digest_hex(g.vk_bytes), kPorepV27VkDigest);
  EXPECT_EQ(serialize_verifying_key(g.vk), g.vk_bytes);
  ASSERT_EQ(g.proofs.size(), 10u);
  check_golden(g);
}

TEST(Groth16Golden, RealWinningPoSt32GiBProofVerifiesUnderThePublishedV27Key) {
  LOAD_GOLDEN(file, "winning-32g-v27.prf");
  const Golden g = read_winning(*file);
  EXPECT_EQ(g.vk_bytes.size(), 13'636u);
  EXPECT_EQ(digest_hex(g.vk_bytes), kWinningV27VkDigest);
  EXPECT_EQ(serialize_verifying_key(g.vk), g.vk_bytes);
  check_golden(g);
  // Under the other circuit's key the proof is not accepted (another input count: an error).
  LOAD_GOLDEN(porep, "porep-32g-v27-x10.prf");
  const PreparedVerifyingKey porep_pvk = prepare_verifying_key(read_porep(*porep).vk);
  EXPECT_THROW(verify_proof(porep_pvk, decoded(g)[0], g.inputs[0]), std::invalid_argument);
}

// The two keys' digests differ from each other and from a changed key: the digest check above
// could fail.
TEST(Groth16Golden, AChangedKeyByteChangesItsDigest) {
  LOAD_GOLDEN(file, "winning-32g-v27.prf");
  std::vector<uint8_t> vk = read_winning(*file).vk_bytes;
  vk[vk.size() - 1] ^= 1;
  EXPECT_NE(digest_hex(vk), kWinningV27VkDigest);
}

}  // namespace
}  // namespace cuzk::groth16
