// How the engine finds a circuit's set (engine/handlers/circuit_handler.hpp, SrsSpec): `load`
// reads it with its points, `open` opens the same set without them (its points read from the
// file when asked), under the same checks; the fake proof kind's spec does the same over the
// .params it writes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/temp_dir.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "fake_handler.hpp"
#include "groth16/point_source.hpp"
#include "groth16/setup.hpp"
#include "random_circuit.hpp"

namespace cuzk::engine {
namespace {

// Every point `opened` reads through its source equals `loaded`'s vectors.
void expect_opened_is_loaded(const groth16::Parameters& opened, const groth16::Parameters& loaded) {
  ASSERT_NE(opened.source, nullptr);
  ASSERT_TRUE(groth16::has_host_points(loaded));
  EXPECT_EQ(opened.vk, loaded.vk);
  EXPECT_EQ(groth16::section_counts(opened), groth16::section_counts(loaded));
  const std::pair<groth16::Section, const std::vector<G1Affine>*> g1[] = {
      {groth16::Section::kH, &loaded.h},
      {groth16::Section::kL, &loaded.l},
      {groth16::Section::kA, &loaded.a},
      {groth16::Section::kBG1, &loaded.b_g1}};
  for (const auto& [section, want] : g1) {
    std::vector<G1Affine> got(want->size());
    opened.source->read_g1(section, 0, got, nullptr);
    EXPECT_EQ(got, *want) << groth16::section_name(section);
  }
  std::vector<G2Affine> b_g2(loaded.b_g2.size());
  opened.source->read_g2(groth16::Section::kBG2, 0, b_g2, nullptr);
  EXPECT_EQ(b_g2, loaded.b_g2);
}

TEST(SrsSpec, OpenIsLoadWithoutTheHostPointsUnderTheSameChecks) {
  const testing::TempDir dir("srs-spec");
  ThreadPool pool(2);
  filecoin::CircuitParameterSet set;
  set.cache_id = "srs-spec-test";
  set.sector_size = 2048;
  set.public_inputs = 3;
  set.missing = "test parameters";
  set.circuit = "the test circuit";
  set.test_command = "cuzk test params";
  filecoin::write_test_parameter_files(
      dir.path(), set,
      groth16::generate_parameters_insecure(testing::RandomCircuit(150, 3, 4),
                                            groth16::ToxicWaste::insecure_from_seed("spec"), pool),
      "spec", Overwrite::kRefuse);
  const SrsSpec allowed = srs_spec_of("test-2k", {dir.path(), {.allow_insecure = true}}, set);
  ASSERT_TRUE(allowed.load && allowed.open);
  expect_opened_is_loaded(allowed.open(pool), allowed.load(pool));
  // Not allowed: both refuse the marked set, with one message.
  const SrsSpec refused = srs_spec_of("test-2k", {dir.path(), {}}, set);
  std::string load_error, open_error;
  try {
    (void)refused.load(pool);
  } catch (const filecoin::ParameterFileError& e) {
    load_error = e.what();
  }
  try {
    (void)refused.open(pool);
  } catch (const filecoin::ParameterFileError& e) {
    open_error = e.what();
  }
  EXPECT_NE(load_error.find("INSECURE"), std::string::npos) << load_error;
  EXPECT_EQ(open_error, load_error);
}

TEST(SrsSpec, TheFakeKindOpensTheSetItLoads) {
  const testing::TempDir dir("srs-spec");
  test::SynthesisLog log;
  const test::FakeHandler fake(dir.path(), &log);
  const std::optional<SrsSpec> spec = fake.srs_spec("fake-2048", {});
  ASSERT_TRUE(spec.has_value());
  ThreadPool pool(1);
  expect_opened_is_loaded(spec->open(pool), spec->load(pool));
  EXPECT_FALSE(fake.srs_spec("other-2048", {}).has_value());
}

}  // namespace
}  // namespace cuzk::engine
