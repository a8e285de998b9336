// ThreadPool: every index runs exactly once, errors reach the caller, and run() nests and runs
// concurrently from several threads (the witness synthesis of circuit pieces relies on both).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "util/thread_pool.hpp"

namespace cuzk {
namespace {

TEST(ThreadPool, RunsEveryIndexExactlyOnce) {
  ThreadPool pool(4);
  std::vector<std::atomic<int>> hits(10'000);
  pool.run(hits.size(), [&](size_t i) { hits[i].fetch_add(1); });
  for (const auto& h : hits)
    ASSERT_EQ(h.load(), 1);
}

TEST(ThreadPool, ParallelForCoversTheRangeInDisjointChunks) {
  ThreadPool pool(3);
  std::vector<int> seen(12'345, 0);
  pool.parallel_for(seen.size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      ++seen[i];
  });
  EXPECT_EQ(std::accumulate(seen.begin(), seen.end(), 0), 12'345);
  EXPECT_EQ(*std::min_element(seen.begin(), seen.end()), 1);
}

TEST(ThreadPool, NestedRunsCompleteAndCountEveryInnerIndex) {
  ThreadPool pool(4);
  std::atomic<size_t> inner{0};
  // Three levels, as a circuit's challenges -> parent openings / labels -> hashes would nest.
  pool.run(8, [&](size_t) {
    pool.run(7, [&](size_t) { pool.run(5, [&](size_t) { inner.fetch_add(1); }); });
  });
  EXPECT_EQ(inner.load(), 8u * 7u * 5u);
}

TEST(ThreadPool, ConcurrentCallersShareTheWorkers) {
  ThreadPool pool(2);
  std::atomic<size_t> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int r = 0; r < 50; ++r)
        pool.run(16, [&](size_t) { total.fetch_add(1); });
    });
  }
  for (auto& c : callers)
    c.join();
  EXPECT_EQ(total.load(), 4u * 50u * 16u);
}

TEST(ThreadPool, FirstErrorIsRethrownAfterTheOtherIndicesRan) {
  ThreadPool pool(3);
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.run(100,
                        [&](size_t i) {
                          ran.fetch_add(1);
                          if (i == 17) throw std::runtime_error("index 17");
                        }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 100);
  // The pool stays usable.
  std::atomic<int> after{0};
  pool.run(10, [&](size_t) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 10);
}

TEST(ThreadPool, ErrorInANestedRunReachesTheOuterCaller) {
  ThreadPool pool(4);
  EXPECT_THROW(pool.run(4,
                        [&](size_t i) {
                          pool.run(4, [&](size_t j) {
                            if (i == 2 && j == 3) throw std::invalid_argument("inner");
                          });
                        }),
               std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
