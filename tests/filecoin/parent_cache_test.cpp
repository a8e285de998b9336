// The parent cache: file names for all 20 registered porep ids (oracle parent_cache.files), the
// embedded manifest against the golden parent_cache.json, and whole-cache SHA-256 digests of the
// 2 KiB and 8 MiB graphs for API 1.0 and 1.1 against that manifest (rust-fil-proofs
// storage-proofs-porep/parent_cache.json); file writing, verification and regeneration.
#include "filecoin/graph/parent_cache.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "filecoin/registered_proof.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

const nlohmann::json& golden_manifest() {
  static const nlohmann::json j = [] {
    std::ifstream in(test::golden_file("parent_cache.json"));
    return nlohmann::json::parse(in);
  }();
  return j;
}

StackedGraph graph_of(uint32_t registered_id) {
  const SealProofInfo& info = seal_proof_info(seal_proof_from_id(registered_id));
  // Synthetic/NI ids 10..19 use the 1.1+ graph ordering like V1_1 (API 1.2).
  return StackedGraph(info.sector_size / 32, porep_id(seal_proof_from_id(registered_id)),
                      info.api_version);
}

TEST(ParentCache, FileNamesOfAllTwentyRegisteredProofsMatchTheOracle) {
  int checked = 0;
  for (const auto& [name, f] : test::oracles().at("parent_cache").at("files").items()) {
    const uint32_t id = f.at("porep_id_registered").get<uint32_t>();
    const StackedGraph g = graph_of(id);
    EXPECT_EQ(parent_cache_file_name(g), name) << "porep id " << id;
    EXPECT_EQ(g.nodes() * kParentCacheNodeBytes, f.at("file_size_bytes").get<uint64_t>());
    ++checked;
  }
  EXPECT_EQ(checked, 20);
}

TEST(ParentCache, EmbeddedManifestEqualsTheUpstreamParentCacheJson) {
  const nlohmann::json& m = golden_manifest();
  ASSERT_EQ(parent_cache_manifest().size(), m.size());
  for (const ParentCacheManifestEntry& e : parent_cache_manifest()) {
    const auto& g = m.at(std::string(e.stem));
    EXPECT_EQ(e.sector_size, g.at("sector_size").get<uint64_t>()) << e.stem;
    EXPECT_EQ(std::string(e.digest), g.at("digest").get<std::string>()) << e.stem;
  }
}

// The four small published graphs: 2 KiB and 8 MiB, API 1.0 (ids 0, 1) and 1.1 (ids 5, 6).
TEST(ParentCache, TwoKiBAndEightMiBCachesHashToTheManifestDigests) {
  ThreadPool pool(2);
  for (uint32_t id : {0u, 5u, 1u, 6u}) {
    const StackedGraph g = graph_of(id);
    const std::string stem = parent_cache_file_stem(g);
    ASSERT_TRUE(golden_manifest().contains(stem)) << "porep id " << id << ": " << stem;
    const std::string expected = golden_manifest().at(stem).at("digest").get<std::string>();
    uint64_t bytes = 0;
    const Sha256Digest d = generate_parent_cache(
        g, [&](std::span<const uint8_t> c) { bytes += c.size(); }, &pool);
    EXPECT_EQ(to_hex(d), expected) << "porep id " << id;
    EXPECT_EQ(bytes, g.nodes() * 56);
  }
}

TEST(ParentCache, TheCacheHoldsEachNodesFourteenParentsAsLittleEndianWords) {
  const StackedGraph g(64, porep_id(5, 0), ApiVersion::kV1_1_0);
  const std::vector<uint8_t> bytes = generate_parent_cache_bytes(g);
  ASSERT_EQ(bytes.size(), 3584u);  // facts 4.5: 2 KiB -> 3 584 bytes
  // Node 3 of the worked example (facts 4.4): 2 1 1 2 2 2 | 10 46 59 7 43 29 9 16.
  const uint32_t node3[14] = {2, 1, 1, 2, 2, 2, 10, 46, 59, 7, 43, 29, 9, 16};
  for (int k = 0; k < 14; ++k) {
    const size_t at = 3 * 56 + 4 * static_cast<size_t>(k);
    EXPECT_EQ(bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16 | bytes[at + 3] << 24,
              static_cast<int>(node3[k]));
  }
}

TEST(ParentCache, WrittenFilesVerifyAndCorruptedOnesAreRegenerated) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cuzk-parent-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const StackedGraph g(64, porep_id(0, 0), ApiVersion::kV1_0_0);
  const std::filesystem::path path = ensure_parent_cache(dir, g, /*verify=*/true);
  EXPECT_EQ(
      path.filename().string(),
      "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899.cache");
  ParentCacheVerification v = verify_parent_cache_file(path, g);
  EXPECT_TRUE(v.ok());
  EXPECT_EQ(v.digest_hex, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d");

  {  // flip one byte
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x7f');
  }
  v = verify_parent_cache_file(path, g);
  EXPECT_TRUE(v.size_ok);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(ensure_parent_cache(dir, g, /*verify=*/false), path);  // not checked: kept
  EXPECT_FALSE(verify_parent_cache_file(path, g).ok());
  ensure_parent_cache(dir, g, /*verify=*/true);  // checked: regenerated
  EXPECT_TRUE(verify_parent_cache_file(path, g).ok());
  std::filesystem::remove_all(dir);
}

TEST(ParentCache, DefaultDirectoryFollowsTheRustFilProofsSettings) {
  // settings.rs: FIL_PROOFS_PARENT_CACHE, else FIL_PROOFS_CACHE_DIR + "filecoin-parents".
  const char* saved_parent = std::getenv("FIL_PROOFS_PARENT_CACHE");
  const char* saved_dir = std::getenv("FIL_PROOFS_CACHE_DIR");
  if (saved_parent != nullptr || saved_dir != nullptr) GTEST_SKIP() << "environment overrides set";
  EXPECT_EQ(default_parent_cache_dir(), std::filesystem::path("/var/tmp/filecoin-parents"));
  ::setenv("FIL_PROOFS_CACHE_DIR", "/data/", 1);
  EXPECT_EQ(default_parent_cache_dir(), std::filesystem::path("/data/filecoin-parents"));
  ::setenv("FIL_PROOFS_PARENT_CACHE", "/p", 1);
  EXPECT_EQ(default_parent_cache_dir(), std::filesystem::path("/p"));
  ::unsetenv("FIL_PROOFS_PARENT_CACHE");
  ::unsetenv("FIL_PROOFS_CACHE_DIR");
}

}  // namespace
}  // namespace cuzk::filecoin
