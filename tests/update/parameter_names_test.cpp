// The SnapDeals parameter file names against the oracle file (facts sheet 2.4,
// groth16_parameter_files): for every registered size the identifier string and the file stem of
// both variants (the Poseidon variant only has published files for 32 and 64 GiB, with the same
// identifier hash under its own prefix), and every published SnapDeals file name is one of ours.
#include <gtest/gtest.h>

#include <set>

#include "filecoin/oracle_file.hpp"
#include "update/parameter_cache.hpp"

namespace cuzk::update {
namespace {

using filecoin::UpdateParams;

TEST(UpdateParameterNames, IdentifiersAndStemsMatchTheOracle) {
  const auto& files = filecoin::test::oracles().at("groth16_parameter_files");
  std::set<std::string> ours;
  size_t checked = 0;
  for (const auto& [size_name, kinds] : files.at("identifiers_by_size").items()) {
    for (const auto& [kind, entry] : kinds.items()) {
      if (kind != "snapdeals" && kind != "snapdeals_poseidon") continue;
      const std::string stem = entry.at("file_stem").get<std::string>();
      bool found = false;
      for (const uint64_t bytes : {uint64_t{2} << 10, uint64_t{8} << 20, uint64_t{512} << 20,
                                   uint64_t{32} << 30, uint64_t{64} << 30}) {
        const UpdateParams pp = kind == "snapdeals" ? UpdateParams::for_sector_size(bytes)
                                                    : UpdateParams::poseidon_for_sector_size(bytes);
        const ParameterFiles f = parameter_files("/p", pp);
        if (f.params.stem().string() != stem) continue;
        found = true;
        EXPECT_EQ(parameter_identifier(pp), entry.at("identifier").get<std::string>()) << stem;
        EXPECT_EQ(f.vk.filename().string(), stem + ".vk");
        EXPECT_EQ(f.meta.filename().string(), stem + ".meta");
        ours.insert(f.params.filename().string());
        ours.insert(f.vk.filename().string());
      }
      EXPECT_TRUE(found) << size_name << " " << kind << ": " << stem;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 7u);  // 5 sizes + the Poseidon variant's 32 and 64 GiB
  size_t published = 0;
  for (const auto& [name, info] : files.at("files").items()) {
    const std::string circuit = info.at("circuit").get<std::string>();
    if (circuit != "snapdeals" && circuit != "snapdeals_poseidon") continue;
    ++published;
    EXPECT_TRUE(ours.count(name)) << name;
  }
  EXPECT_EQ(published, 14u);
}

}  // namespace
}  // namespace cuzk::update
