// Progress lines: what a person reads in a log while a long command runs.
#include "util/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

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

}  // namespace
}  // namespace cuzk
