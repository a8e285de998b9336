// Filecoin's parameter files for every proof kind: names from identifier strings and the
// published digests (both against ../shared/reference/filecoin-oracles.json, from upstream's
// parameters.json), the .meta marker of test sets, BLAKE2b digests (RFC 7693 vectors), writing
// that never replaces a file unless forced, and the checks that refuse a marked set, a .vk
// under a published name whose bytes differ, and (when asked) such a .params.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "common/temp_dir.hpp"
#include "filecoin/hash/blake2b.hpp"
#include "filecoin/parameter_cache.hpp"
#include "groth16/bellperson_format.hpp"
#include "oracle_file.hpp"

namespace cuzk::filecoin {
namespace {

using cuzk::testing::TempDir;

void write_bytes(const std::filesystem::path& p, std::string_view bytes) {
  std::ofstream(p, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}
std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

groth16::Parameters tiny_parameters() {
  groth16::Parameters p;
  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  p.vk = {g1, g1, g2, g2, g1, g2, {g1, g1}};
  p.h = {g1, g1};
  p.l = {g1};
  p.a = {g1};
  p.b_g1 = {g1};
  p.b_g2 = {g2};
  return p;
}

TEST(FilecoinParameterCache, PublishedDigestsAreParametersJson) {
  const auto& files = test::oracles()["groth16_parameter_files"]["files"];
  ASSERT_EQ(files.size(), 44u);
  EXPECT_EQ(published_parameter_files().size(), files.size());
  for (const auto& [name, entry] : files.items()) {
    const auto d = published_digest(name);
    ASSERT_TRUE(d) << name;
    EXPECT_EQ(*d, entry["digest"].get<std::string>()) << name;
  }
  EXPECT_FALSE(published_digest("v28-something-else.vk"));
}

TEST(FilecoinParameterCache, FileStemsFromIdentifiersOfEveryKind) {
  // The prefix of each kind (facts sheet 2.4) + SHA-256 of the identifier = the published stem.
  const auto& by_size = test::oracles()["groth16_parameter_files"]["identifiers_by_size"];
  size_t checked = 0;
  for (const auto& [size, kinds] : by_size.items()) {
    for (const auto& [kind, entry] : kinds.items()) {
      const std::string stem = entry["file_stem"].get<std::string>();
      // "v28-" + prefix + "-" + 64 hex digits: the prefix is what lies between.
      ASSERT_GT(stem.size(), 4u + 65u) << stem;
      const std::string prefix = stem.substr(4, stem.size() - 4 - 65);
      const std::string id = parameter_cache_id(prefix, entry["identifier"].get<std::string>());
      EXPECT_EQ("v28-" + id, stem) << size << " " << kind;
      const ParameterFiles f = parameter_files("/p", id);
      EXPECT_EQ(f.params, "/p/" + stem + ".params");
      EXPECT_EQ(f.vk, "/p/" + stem + ".vk");
      EXPECT_EQ(f.meta, "/p/" + stem + ".meta");
      EXPECT_TRUE(published_digest(f.vk.filename().string())) << stem;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u);
}

TEST(FilecoinParameterCache, MetadataOfRealAndTestSets) {
  EXPECT_EQ(parameter_metadata_json({2048, false, "ignored"}), "{\"sector_size\":2048}");
  const std::string marked = parameter_metadata_json({2048, true, "s\"eed"});
  EXPECT_EQ(marked, "{\"sector_size\":2048,\"insecure\":true,\"seed\":\"s\\\"eed\"}");
  const ParameterMetadata m = parse_parameter_metadata(marked, "x.meta");
  EXPECT_TRUE(m.insecure);
  EXPECT_EQ(m.seed, "s\"eed");
  EXPECT_EQ(m.sector_size, 2048u);
  EXPECT_FALSE(parse_parameter_metadata("{\"sector_size\": 34359738368}", "x").insecure);
  EXPECT_THROW(parse_parameter_metadata("[1]", "x"), ParameterFileError);
  EXPECT_THROW(parse_parameter_metadata("{\"sector_size\":{\"a\":[1]}}", "x"), ParameterFileError);
  EXPECT_THROW(parse_parameter_metadata("{\"insecure\":true}", "x"), ParameterFileError);
}

TEST(FilecoinParameterCache, DigestIsBlake2b512FirstSixteenBytes) {
  // RFC 7693 appendix A ("abc") and the empty message.
  TempDir dir("digest");
  write_bytes(dir.path() / "abc", "abc");
  EXPECT_EQ(parameter_file_digest(dir.path() / "abc"), "ba80a53f981c4d0d6a2797b69f12f6e9");
  write_bytes(dir.path() / "empty", "");
  EXPECT_EQ(parameter_file_digest(dir.path() / "empty"), "786a02f742015903c6c6fd852552d272");
  // Larger than the read-ahead chunks (64 MiB), ending mid-chunk: the pipelined reader gives
  // what one BLAKE2b over the whole buffer gives.
  std::string big((size_t{64} << 20) * 2 + 12345, '\0');
  std::mt19937_64 rng(5);
  for (char& c : big)
    c = static_cast<char>(rng());
  write_bytes(dir.path() / "big", big);
  DigestTiming t;
  std::vector<uint64_t> reported;  // progress after each chunk, ending at the file's size
  const std::string d = parameter_file_digest(
      dir.path() / "big", &t, [&](std::string_view phase, uint64_t done, uint64_t total) {
        EXPECT_EQ(phase, "digest big");
        EXPECT_EQ(total, big.size());
        reported.push_back(done);
      });
  const Blake2b512Digest whole =
      blake2b512(std::span(reinterpret_cast<const uint8_t*>(big.data()), big.size()));
  EXPECT_EQ(d, to_hex(std::span(whole).first(16)));
  EXPECT_EQ(t.bytes, big.size());
  EXPECT_GT(t.seconds, 0.0);
  EXPECT_EQ(reported, (std::vector<uint64_t>{uint64_t{64} << 20, uint64_t{128} << 20, big.size()}));
}

TEST(FilecoinParameterCache, WritingNeverReplacesAFileUnlessForced) {
  TempDir dir("write");
  const ParameterFiles f = parameter_files(dir.path() / "sub", "test-id");
  const groth16::Parameters p = tiny_parameters();
  write_parameter_set(f, p, {2048, true, "seed 1"}, Overwrite::kRefuse);
  EXPECT_EQ(read_text(f.meta), "{\"sector_size\":2048,\"insecure\":true,\"seed\":\"seed 1\"}");
  const std::string params_bytes = read_text(f.params);
  EXPECT_THROW(write_parameter_set(f, p, {2048, true, "seed 2"}, Overwrite::kRefuse),
               FileExistsError);
  EXPECT_EQ(read_text(f.meta), "{\"sector_size\":2048,\"insecure\":true,\"seed\":\"seed 1\"}");
  // One file of the three is enough to refuse the whole set, and nothing new appears.
  std::filesystem::remove(f.params);
  std::filesystem::remove(f.vk);
  EXPECT_THROW(write_parameter_set(f, p, {2048, true, "seed 2"}, Overwrite::kRefuse),
               FileExistsError);
  EXPECT_FALSE(std::filesystem::exists(f.params));
  write_parameter_set(f, p, {2048, true, "seed 3"}, Overwrite::kForce);
  EXPECT_EQ(read_text(f.params), params_bytes);
  EXPECT_NE(read_text(f.meta).find("seed 3"), std::string::npos);
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path() / "sub"))
    ++entries;
  EXPECT_EQ(entries, 3u);  // no temporaries left behind
}

TEST(FilecoinParameterCache, AtomicWriterLeavesNothingWithoutCommit) {
  TempDir dir("atomic");
  const auto p = dir.path() / "out.bin";
  {
    AtomicFileWriter w(p, Overwrite::kRefuse);
    w.write(std::string_view("partial"));
  }  // destroyed without commit (an exception mid-write)
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  write_file_atomically(p, std::span<const uint8_t>(), Overwrite::kRefuse);
  EXPECT_THROW(AtomicFileWriter(p, Overwrite::kRefuse), FileExistsError);
  // Created after the writer started: commit still refuses to replace it.
  std::filesystem::remove(p);
  AtomicFileWriter late(p, Overwrite::kRefuse);
  write_bytes(p, "someone else's");
  late.write(std::string_view("ours"));
  EXPECT_THROW(late.commit(), FileExistsError);
  EXPECT_EQ(read_text(p), "someone else's");
}

TEST(FilecoinParameterCache, MarkedSetsAreRefusedUnlessAllowed) {
  TempDir dir("marked");
  // Under the published 2 KiB PoRep name: a marked set is refused before its (non-matching)
  // digests are even looked at, and accepted when allowed.
  const ParameterFiles f =
      parameter_files(dir.path(),
                      "stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                      "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f");
  const groth16::Parameters p = tiny_parameters();
  write_parameter_set(f, p, {2048, true, "known seed"}, Overwrite::kRefuse);
  ThreadPool pool(1);
  try {
    (void)read_parameter_set(f, {}, pool);
    FAIL() << "a marked set was loaded";
  } catch (const ParameterFileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("INSECURE"), std::string::npos) << what;
    EXPECT_NE(what.find("known seed"), std::string::npos) << what;
    EXPECT_NE(what.find("--allow-insecure-params"), std::string::npos) << what;
  }
  EXPECT_THROW((void)read_verifying_key_set(f, {}), ParameterFileError);
  ParameterVerdict v;
  const groth16::Parameters back = read_parameter_set(f, {.allow_insecure = true}, pool, &v);
  EXPECT_EQ(back, p);
  EXPECT_TRUE(v.insecure);
  EXPECT_EQ(v.bulk_check, SubgroupCheck::kCheck);
  (void)read_parameter_set(f, {.allow_insecure = true, .check_bulk_points = false}, pool, &v);
  EXPECT_EQ(v.bulk_check, SubgroupCheck::kSkipTrusted);
}

TEST(FilecoinParameterCache, VkUnderAPublishedNameMustHaveItsDigest) {
  TempDir dir("published");
  // The real 2 KiB PoRep names without a marker: our tiny key is not Filecoin's, and the
  // refusal names both digests (the published one from the facts sheet).
  const ParameterFiles f =
      parameter_files(dir.path(),
                      "stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                      "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f");
  groth16::write_parameters(f.params, tiny_parameters());
  groth16::write_verifying_key(f.vk, tiny_parameters().vk);
  ThreadPool pool(1);
  const std::string actual = parameter_file_digest(f.vk);
  try {
    (void)read_verifying_key_set(f, {});
    FAIL() << "a .vk with another digest was accepted";
  } catch (const ParameterFileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("dc1ade9929ade1708238f155343044ac"), std::string::npos) << what;
    EXPECT_NE(what.find(actual), std::string::npos) << what;
  }
  EXPECT_THROW((void)read_parameter_set(f, {}, pool), ParameterFileError);

  // A table in which the file is the published one: accepted; one byte changed: refused.
  std::string vk = read_text(f.vk);
  const std::string name = f.vk.filename().string();
  const std::string digest = actual;
  const PublishedParameterFile table[] = {{name, digest}};
  EXPECT_TRUE(check_parameter_set(f, {}, false, table).vk_digest_verified);
  vk[vk.size() / 2] ^= 1;
  write_bytes(f.vk, vk);
  EXPECT_THROW(check_parameter_set(f, {}, false, table), ParameterFileError);
}

TEST(FilecoinParameterCache, ParamsDigestOnlyWhenAsked) {
  TempDir dir("params-digest");
  const ParameterFiles f = parameter_files(dir.path(), "kind-neutral-id");
  groth16::write_parameters(f.params, tiny_parameters());
  const std::string params_name = f.params.filename().string();
  const std::string good = parameter_file_digest(f.params);
  const PublishedParameterFile right[] = {{params_name, good}};
  const PublishedParameterFile wrong[] = {{params_name, "00000000000000000000000000000000"}};
  // Not asked: a wrong published digest is not looked at; bulk points are checked.
  ParameterVerdict v = check_parameter_set(f, {}, true, wrong);
  EXPECT_FALSE(v.params_digest_verified);
  EXPECT_EQ(v.bulk_check, SubgroupCheck::kCheck);
  // Asked: matched -> verified and trusted (no subgroup checks needed); mismatched -> refused.
  v = check_parameter_set(f, {.verify_params_digest = true}, true, right);
  EXPECT_TRUE(v.params_digest_verified);
  EXPECT_EQ(v.bulk_check, SubgroupCheck::kSkipTrusted);
  EXPECT_EQ(v.params_hash.bytes, std::filesystem::file_size(f.params));
  try {
    (void)check_parameter_set(f, {.verify_params_digest = true}, true, wrong);
    FAIL() << "a mismatching .params was accepted";
  } catch (const ParameterFileError& e) {
    EXPECT_NE(std::string(e.what()).find(good), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("00000000000000000000000000000000"), std::string::npos);
  }
  // Asked, but nothing is published under the name: refused rather than silently unchecked.
  EXPECT_THROW(check_parameter_set(f, {.verify_params_digest = true}, true, {}),
               ParameterFileError);
}

}  // namespace
}  // namespace cuzk::filecoin
