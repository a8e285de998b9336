// The SRS manager's map of circuit ids: a load that fails for an id never loaded leaves no entry
// behind (issue 29: PreloadSRS with 3,000 unknown 64 KiB ids grew the daemon by 188 MiB, one
// entry each, kept for ever). A set its host policy opens without its points: the budget holds
// its host bytes only; its host copy (acquire_host) is loaded once, reserves exactly its points'
// bytes, is refused with the reason when they do not fit, goes before whole sets when room is
// made, and goes with its set.
#include "engine/resources/srs_manager.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/temp_dir.hpp"
#include "fake_handler.hpp"
#include "groth16/point_source.hpp"

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

// A manager over the fake handler's sets ("fake-<n>"), opened without their points.
struct SourceSets {
  cuzk::testing::TempDir dir{"srs-host-copy"};
  test::SynthesisLog log;
  test::FakeHandler handler{dir.path(), &log};
  ThreadPool pool{1};
  MemoryBudget budget;
  SrsManager srs;

  explicit SourceSets(uint64_t limit)
      : budget(limit),
        srs([this](const std::string& id) { return *handler.srs_spec(id, {}); }, budget, pool,
            nullptr,
            [](const groth16::Parameters&, const pce::RecordedCircuit*) { return false; }) {}
};

TEST(SrsManager, AHostCopyIsLoadedOnceReservingItsPointsAndGoesWithItsSet) {
  SourceSets t(0);
  SrsLease lease = t.srs.acquire("fake-1", nullptr, nullptr);
  ASSERT_NE(lease->params.source, nullptr);  // opened without its points
  EXPECT_EQ(t.handler.loads(), 0);
  const uint64_t points = groth16::points_bytes(groth16::section_counts(lease->params));
  EXPECT_EQ(lease->points_bytes, points);
  EXPECT_EQ(t.budget.in_use(), lease->bytes);
  EXPECT_LT(lease->bytes, points);
  const auto host = t.srs.acquire_host(lease);
  const auto again = t.srs.acquire_host(lease);
  EXPECT_EQ(host, again);
  EXPECT_EQ(t.handler.loads(), 0);  // read through the opened file, not loaded again
  EXPECT_TRUE(groth16::has_host_points(*host));
  EXPECT_EQ(*host, t.handler.srs_spec("fake-1", {})->load(t.pool));  // the parse path's set
  EXPECT_EQ(groth16::section_counts(*host), groth16::section_counts(lease->params));
  EXPECT_EQ(t.budget.in_use(), lease->bytes + points);
  ASSERT_EQ(t.srs.list().size(), 1u);
  EXPECT_EQ(t.srs.list()[0].host_bytes, lease->bytes + points);
  EXPECT_EQ(t.srs.list()[0].tier, SrsTier::kWarm);
  const uint64_t meta = lease->bytes;
  lease.reset();
  const EvictResult e = t.srs.evict("fake-1");  // the copy goes with its set
  EXPECT_TRUE(e.was_loaded);
  EXPECT_EQ(e.freed_bytes, meta + points);
  EXPECT_EQ(t.budget.in_use(), 0u);
}

TEST(SrsManager, AHostCopyTheBudgetCannotAdmitIsRefusedWithTheReason) {
  uint64_t meta = 0;
  {
    SourceSets probe(0);
    meta = probe.srs.acquire("fake-1", nullptr, nullptr)->bytes;
  }
  SourceSets t(meta + 1024);
  SrsLease lease = t.srs.acquire("fake-1", nullptr, nullptr);
  try {
    t.srs.acquire_host(lease);
    FAIL() << "admitted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "no memory for the host copy of fake-1 (" +
                  std::to_string((lease->points_bytes + (1 << 20) - 1) >> 20) + " MiB)");
  }
  EXPECT_EQ(t.handler.loads(), 0);
  EXPECT_EQ(t.budget.in_use(), meta);
}

// Making room, an unreferenced host copy goes before any unreferenced set.
TEST(SrsManager, UnreferencedHostCopiesAreEvictedBeforeSets) {
  uint64_t meta = 0, points = 0;
  {
    SourceSets probe(0);
    SrsLease l = probe.srs.acquire("fake-1", nullptr, nullptr);
    meta = l->bytes;
    points = l->points_bytes;
  }
  // Two sets and one host copy fit; a second copy only once the first goes.
  SourceSets t(2 * meta + points + points / 2);
  {
    SrsLease one = t.srs.acquire("fake-1", nullptr, nullptr);
    ASSERT_NE(t.srs.acquire_host(one), nullptr);
  }
  SrsLease two = t.srs.acquire("fake-2", nullptr, nullptr);
  ASSERT_NE(t.srs.acquire_host(two), nullptr);
  EXPECT_EQ(t.handler.loads(), 0);
  const std::vector<SrsInfo> list = t.srs.list();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].circuit_id, "fake-1");
  EXPECT_EQ(list[0].host_bytes, meta) << "fake-1 lost its set, not only its host copy";
  EXPECT_EQ(list[1].host_bytes, meta + points);
}

}  // namespace
}  // namespace cuzk::engine
