// Progress lines: what a person reads in a log while a long command runs.
#include "util/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace cuzk {
namespace {

TEST(Progress, LinesNameThePhaseDoneTotalRateAndTimeLeft) {
  EXPECT_EQ(Progress::format("pce record", 52'100'000, 130'278'869, "constraints", 40.0, false),
            "pce record: 52.10 M / 130.28 M constraints (40%), 1.30 M constraints/s, 60 s left");
  EXPECT_EQ(Progress::format("setup H", 134'217'727, 134'217'727, "points", 150.0, true),
            "setup H: 134.22 M / 134.22 M points (100%), 894.8 k points/s, done in 2 min 30 s");
  EXPECT_EQ(Progress::format("witness", 512, 0, "pieces", 2.0, false),
            "witness: 512 pieces, 256 pieces/s");
}

TEST(Progress, ATerminalGetsABar) {
  EXPECT_EQ(
      Progress::format("prove", 3, 10, "partitions", 30.0, false, true),
      "[#######.................] prove: 3 / 10 partitions (30%), 0.10 partitions/s, 70 s left");
  EXPECT_EQ(Progress::format("prove", 10, 10, "partitions", 100.0, true, true).substr(0, 27),
            "[########################] ");
  // No total: no bar.
  EXPECT_EQ(Progress::format("witness", 512, 0, "pieces", 2.0, false, true),
            "witness: 512 pieces, 256 pieces/s");
}

// Workers on many threads: the listener hears every total once, in increasing order.
TEST(ProgressCounter, ReportsRunningTotalsInOrderFromManyThreads) {
  std::vector<uint64_t> heard;
  const ProgressFn fn = [&](std::string_view phase, uint64_t done, uint64_t total) {
    EXPECT_EQ(phase, "setup h");
    EXPECT_EQ(total, 4000u);
    heard.push_back(done);
  };
  ProgressCounter counter(fn, "setup h", 4000);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i)
        counter.add(10);
    });
  for (auto& t : threads)
    t.join();
  ASSERT_EQ(heard.size(), 400u);
  for (size_t i = 0; i < heard.size(); ++i)
    EXPECT_EQ(heard[i], 10 * (i + 1));
  ProgressCounter silent(nullptr, "x", 1);
  silent.add(1);  // no listener: nothing happens
}

TEST(Progress, ALogGetsTheFinalLineOnce) {
  std::FILE* f = std::tmpfile();
  {
    Progress p("count", 10, "items", f);
    p.add(4);
    p.add(6);
    p.finish();
  }  // the destructor prints nothing more
  std::rewind(f);
  char buf[512] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  const std::string text(buf, n);
  EXPECT_NE(text.find("count: 10 / 10 items (100%)"), std::string::npos) << text;
  EXPECT_EQ(text.find("done in"), text.rfind("done in")) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos) << "no terminal control in a file";
}

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string text;
  char buf[512];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
    text.append(buf, n);
  std::fclose(f);
  return text;
}

TEST(PhasedProgress, OneFinalLinePerPhaseFromRunningTotals) {
  std::FILE* f = std::tmpfile();
  {
    PhasedProgress p("nodes", false, f);
    p("layer 1/2", 0, 100);
    p("layer 1/2", 60, 100);
    p("layer 1/2", 100, 100);
    p("layer 1/2", 100, 100);  // a repeated end prints nothing more
    p("layer 2/2", 30, 100);
    p("tree_d", 0, 64);  // a new phase ends the last one where it stood
  }
  const std::string text = read_all(f);
  EXPECT_NE(text.find("layer 1/2: 100 / 100 nodes (100%)"), std::string::npos) << text;
  EXPECT_EQ(text.find("layer 1/2: 100 / 100"), text.rfind("layer 1/2: 100 / 100")) << text;
  EXPECT_NE(text.find("layer 2/2: 30 / 100 nodes (30%)"), std::string::npos) << text;
  EXPECT_NE(text.find("tree_d: 0 / 64 nodes (0%)"), std::string::npos) << text;
}

TEST(PhasedProgress, QuietPrintsNothing) {
  std::FILE* f = std::tmpfile();
  {
    PhasedProgress p("bytes", true, f);
    p("parent cache", 10, 20);
    p("parent cache", 20, 20);
  }
  EXPECT_EQ(read_all(f), "");
}

}  // namespace
}  // namespace cuzk
