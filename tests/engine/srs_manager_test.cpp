// The SRS manager's map of circuit ids: a load that fails for an id never loaded leaves no entry
// behind (issue 29: PreloadSRS with 3,000 unknown 64 KiB ids grew the daemon by 188 MiB, one
// entry each, kept for ever).
#include "engine/resources/srs_manager.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace cuzk::engine {
namespace {

TEST(SrsManager, AFailedLoadOfAnIdNeverLoadedKeepsNoEntry) {
  MemoryBudget budget(0);
  ThreadPool pool(1);
  SrsManager srs(
      [](const std::string& id) -> SrsSpec {
        throw std::invalid_argument("unknown circuit id \"" + id + "\"");
      },
      budget, pool);
  for (int i = 0; i < 100; ++i) {
    EXPECT_THROW(srs.preload("bogus-" + std::to_string(i)), std::invalid_argument);
    EXPECT_THROW(srs.acquire("other-" + std::to_string(i), nullptr, nullptr),
                 std::invalid_argument);
  }
  EXPECT_EQ(srs.entry_count(), 0u);
  EXPECT_TRUE(srs.list().empty());
}

}  // namespace
}  // namespace cuzk::engine
