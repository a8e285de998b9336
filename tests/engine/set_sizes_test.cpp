// The sizes the engine takes of a parameter set (engine/handlers/circuit_handler.hpp) when its
// points are behind a source (a .params file, groth16/params_file.hpp): the shape and the working
// set come from the counts, equal to its host twin's; its host bytes are the vk's ic only; and
// the whole set's bytes, what a device holding it holds, are the file less the vk's fixed 868
// bytes and the five length words (facts sheet 8.3), as for the host set.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/temp_dir.hpp"
#include "engine/event_history.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "engine/resources/srs_manager.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/params_file.hpp"
#include "groth16/setup.hpp"
#include "random_circuit.hpp"

namespace cuzk::engine {
namespace {

TEST(SetSizes, ASourcedSetHasItsHostTwinsShapeAndWorkingSetButNotItsHostBytes) {
  ThreadPool pool(1);
  const groth16::Parameters host = groth16::generate_parameters_insecure(
      testing::RandomCircuit(300, 3, 17), groth16::ToxicWaste::insecure_from_seed("sizes"), pool);
  const testing::TempDir dir("set-sizes");
  const auto path = dir.path() / "set.params";
  groth16::write_parameters(path, host);
  const groth16::Parameters sourced = groth16::open_parameters(path, SubgroupCheck::kCheck);

  const ShapeHint want = shape_of(host), got = shape_of(sourced);
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_EQ(got.inputs, want.inputs);
  EXPECT_EQ(got.aux, want.aux);
  EXPECT_EQ(want.rows, host.h.size() + 1);
  EXPECT_EQ(want.aux, host.l.size());
  EXPECT_EQ(partition_working_set(sourced), partition_working_set(host));

  const uint64_t file = std::filesystem::file_size(path);
  EXPECT_EQ(set_bytes(host), file - 868 - 5 * 4);
  EXPECT_EQ(set_bytes(sourced), set_bytes(host));
  EXPECT_EQ(parameters_bytes(host), set_bytes(host));
  EXPECT_EQ(parameters_bytes(sourced), host.vk.ic.size() * 96);

  // A device that does not say what it keeps holds the whole set, wherever its host points are.
  for (const groth16::Parameters* p : {&host, &sourced}) {
    LoadedSrs srs;
    srs.params = *p;
    EXPECT_EQ(device_use("gpu0", srs, false, std::nullopt).srs_bytes, set_bytes(host));
  }
}

}  // namespace
}  // namespace cuzk::engine
