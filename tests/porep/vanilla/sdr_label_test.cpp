// SDR labels (facts sheet 5.2): the SHA-NI and portable block compressions against OpenSSL; the
// fast labeler form against the verifier's form over 37 repeated parents; whole layers of the
// all-zero 2 KiB V1_1 sector against the oracle's derived_sdr_2KiB_example (labels and layer
// digests), with one thread and with the producer thread.
#include "porep/vanilla/sdr_label.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "common/temp_dir.hpp"
#include "filecoin/graph/parent_cache.hpp"
#include "filecoin/hash/sha256.hpp"
#include "filecoin/hash/sha256_compress.hpp"
#include "filecoin/replica_id.hpp"
#include "oracle_file.hpp"
#include "porep/vanilla/porep_config.hpp"
#include "porep/vanilla/sdr_labeler.hpp"
#include "util/mapped_file.hpp"

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
  return trim_to_fr32(d);
}

// A message of whole blocks already padded by hand (so the compression alone can be compared).
std::vector<uint8_t> padded(std::span<const uint8_t> m) {
  std::vector<uint8_t> out(m.begin(), m.end());
  out.push_back(0x80);
  while (out.size() % 64 != 56)
    out.push_back(0);
  const uint64_t bits = m.size() * 8;
  for (int i = 7; i >= 0; --i)
    out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  return out;
}

TEST(Sha256Compress, BothImplementationsEqualOpenSslOnMessagesOfManyLengths) {
  for (size_t len : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 119u, 1248u, 4096u}) {
    const auto m = random_bytes(len, len + 7);
    const auto blocks = padded(m);
    Sha256State a = kSha256InitialState, b = kSha256InitialState;
    sha256_compress(a, blocks.data(), blocks.size() / 64);
    sha256_compress_portable(b, blocks.data(), blocks.size() / 64);
    EXPECT_EQ(sha256_state_bytes(a), sha256(m)) << "length " << len;
    EXPECT_EQ(sha256_state_bytes(b), sha256(m)) << "length " << len;
  }
  std::printf("SHA-NI %s\n", sha256_compress_uses_shani() ? "used" : "not available");
}

TEST(SdrLabel, FastFormEqualsTheVerifierFormOverThirtySevenRepeatedParents) {
  std::mt19937_64 rng(3);
  const Domain replica_id = random_domain(rng);
  for (unsigned count : {6u, 14u}) {
    std::vector<Domain> distinct(count);
    std::vector<uint8_t> bytes;
    for (auto& d : distinct) {
      d = random_domain(rng);
      bytes.insert(bytes.end(), d.begin(), d.end());
    }
    const auto q = repeat_label_parents(distinct);
    ASSERT_EQ(q.size(), 37u);
    // Layer 1 cycles the 6 DRG parents, later layers the 14 (facts sheet 5.2).
    EXPECT_EQ(q[36], distinct[36 % count]);
    const uint32_t layer = count == 6 ? 1 : 7;
    EXPECT_EQ(sdr_label(replica_id, layer, 12345, bytes),
              create_label(replica_id, layer, 12345, q));
  }
  EXPECT_EQ(sdr_label(replica_id, 3, 0, {}), create_label(replica_id, 3, 0, {}));
  EXPECT_THROW(sdr_label(replica_id, 1, 5, std::vector<uint8_t>(5 * 32)), std::invalid_argument);
}

TEST(SdrLabel, PrefixIsReplicaIdThenBigEndianLayerAndNodeThenZeros) {
  Domain r{};
  r[0] = 0xaa;
  const LabelPrefix p = label_prefix(r, 0x01020304, 0x0506070809101112ULL);
  EXPECT_EQ(p[0], 0xaa);
  EXPECT_EQ(p[32], 0x01);
  EXPECT_EQ(p[35], 0x04);
  EXPECT_EQ(p[36], 0x05);
  EXPECT_EQ(p[43], 0x12);
  for (int i = 44; i < 64; ++i)
    EXPECT_EQ(p[i], 0) << i;
}

using cuzk::testing::TempDir;

TEST(SdrLabeler, AllZeroTwoKiBSectorLayersMatchTheOracleExampleWithOneAndTwoThreads) {
  const auto& ex = test::oracles().at("derived_sdr_2KiB_example");
  const PorepConfig cfg = porep_config(RegisteredSealProof::kStackedDrg2KiBV1_1);
  ASSERT_EQ(to_hex(cfg.porep_id), ex.at("porep_id").get<std::string>());
  Ticket ticket;
  const Domain t = test::domain_hex(ex.at("ticket"));
  std::copy(t.begin(), t.end(), ticket.begin());
  const Domain replica_id =
      generate_replica_id(test::domain_hex(ex.at("prover_id")), ex.at("sector_id").get<uint64_t>(),
                          ticket, test::domain_hex(ex.at("comm_d")), cfg.porep_id);
  ASSERT_EQ(to_hex(replica_id), ex.at("replica_id").get<std::string>());

  TempDir dir;
  const auto cache = dir.path() / "parents.cache";
  write_parent_cache_file(cache, cfg.graph());
  for (unsigned threads : {1u, 2u}) {
    LabelingOptions o;
    o.threads = threads;
    const auto configs = generate_sdr_labels(cache, cfg.nodes(), 2, replica_id, dir.path(), o);
    ASSERT_EQ(configs.size(), 2u);
    EXPECT_EQ(configs[0].id, "layer-1");
    EXPECT_EQ(configs[1].size, std::optional<uint64_t>(64));
    const MappedFile l1(dir.path() / "sc-02-data-layer-1.dat");
    const MappedFile l2(dir.path() / "sc-02-data-layer-2.dat");
    EXPECT_EQ(to_hex(l1.bytes().subspan(0, 32)), ex.at("layer1_label0").get<std::string>());
    EXPECT_EQ(to_hex(l1.bytes().subspan(32, 32)), ex.at("layer1_label1").get<std::string>());
    EXPECT_EQ(to_hex(l2.bytes().subspan(63 * 32, 32)), ex.at("layer2_label63").get<std::string>());
    EXPECT_EQ(to_hex(sha256(l1.bytes())), ex.at("layer1_sha256").get<std::string>());
    EXPECT_EQ(to_hex(sha256(l2.bytes())), ex.at("layer2_sha256").get<std::string>());
  }
}

TEST(SdrLabeler, RefusesAParentCacheOfTheWrongSize) {
  TempDir dir;
  const auto cache = dir.path() / "short.cache";
  { std::ofstream(cache) << "short"; }
  EXPECT_THROW(generate_sdr_labels(cache, 64, 2, Domain{}, dir.path()), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
