// PoSt parameter files: every WinningPoSt and WindowPoSt file name of rust-fil-proofs'
// parameters.json (the oracle file's groth16_parameter_files) re-derived from the circuit's
// identifier string; the .meta form; test parameters written only where asked, never over an
// existing file unless told to, marked insecure with their seed; and read back with their input
// count checked.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "filecoin/sector_shape.hpp"
#include "groth16/bellperson_format.hpp"
#include "oracle_file.hpp"
#include "post/parameter_cache.hpp"
#include "post_test_util.hpp"

namespace cuzk::post {
namespace {

using filecoin::FallbackPoStParams;

TEST(PoStParameterCache, EveryPublishedPoStFileNameIsReDerived) {
  const auto& files = filecoin::test::oracles().at("groth16_parameter_files").at("files");
  size_t matched = 0;
  for (const auto& [name, f] : files.items()) {
    const std::string circuit = f.at("circuit").get<std::string>();
    if (circuit != "winning_post" && circuit != "window_post") continue;
    const filecoin::PoStKind kind =
        circuit == "winning_post" ? filecoin::PoStKind::kWinning : filecoin::PoStKind::kWindow;
    const FallbackPoStParams pp = filecoin::fallback_post_params(
        filecoin::post_config(kind, f.at("sector_size").get<uint64_t>()));
    const ParameterFiles p = parameter_files("/x", pp);
    const std::string ext = name.substr(name.rfind('.'));
    EXPECT_EQ((ext == ".vk" ? p.vk : p.params).filename().string(), name);
    ++matched;
  }
  EXPECT_EQ(matched, 20u);  // 5 sizes x 2 kinds x (.params, .vk)
  // The identifier spelling (vanilla.rs), e.g. WinningPoSt 2 KiB.
  const FallbackPoStParams winning =
      filecoin::fallback_post_params(filecoin::post_config(filecoin::PoStKind::kWinning, 2048));
  EXPECT_EQ(parameter_identifier(winning),
            "FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 1, sector_count: 66}");
  EXPECT_EQ(parameter_cache_id(winning),
            "proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
            "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e");
}

TEST(PoStParameterCache, TestParametersAreMarkedAndNeverOverwriteAFile) {
  const FallbackPoStParams pp = test::upstream_test_shape({8, 0, 0}, 1);
  ThreadPool pool(0);
  const groth16::Parameters params = generate_test_parameters(pp, "marked seed", pool);
  test::TempDir dir("post-params");
  const ParameterFiles files = filecoin::write_test_parameter_files(
      dir.path(), parameter_set(pp), params, "marked seed", Overwrite::kRefuse);
  std::ifstream meta_in(files.meta);
  const nlohmann::json meta = nlohmann::json::parse(meta_in);
  EXPECT_EQ(meta.at("sector_size").get<uint64_t>(), pp.sector_size);
  EXPECT_TRUE(meta.at("insecure").get<bool>());
  EXPECT_EQ(meta.at("seed").get<std::string>(), "marked seed");

  // A second write refuses, naming the file, and leaves the first intact.
  const auto before = std::filesystem::file_size(files.params);
  try {
    filecoin::write_test_parameter_files(dir.path(), parameter_set(pp), params, "other",
                                         Overwrite::kRefuse);
    FAIL() << "overwrote existing parameter files";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(files.params.filename().string()), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("not overwritten"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::filesystem::file_size(files.params), before);
  EXPECT_NO_THROW(filecoin::write_test_parameter_files(dir.path(), parameter_set(pp), params,
                                                       "other", Overwrite::kForce));
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();

  // Read back: the key fits this circuit and no other.
  const groth16::Parameters back = filecoin::read_parameter_file(dir.path(), parameter_set(pp),
                                                                 test::kTestParameterChecks, pool);
  EXPECT_EQ(back.vk.ic.size(), 1 + pp.public_input_count());
  EXPECT_EQ(groth16::serialize_verifying_key(back.vk), groth16::serialize_verifying_key(params.vk));
  // The same file under the name of the 2-slot circuit has the wrong input count.
  const FallbackPoStParams two = test::upstream_test_shape({8, 0, 0}, 2);
  std::filesystem::copy_file(files.vk, parameter_files(dir.path(), two).vk);
  try {
    filecoin::read_verifying_key_file(dir.path(), parameter_set(two), test::kTestParameterChecks);
    FAIL() << "a key of another circuit was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("7 IC points"), std::string::npos) << e.what();
  }
  test::TempDir empty("post-noparams");
  try {
    filecoin::read_parameter_file(empty.path(), parameter_set(pp), test::kTestParameterChecks,
                                  pool);
    FAIL() << "missing file not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(".params is missing"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::post
