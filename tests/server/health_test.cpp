// When the daemon tells load balancers it is NOT_SERVING (draining; its GPU provers gone, or
// backend gpu without one), and that the reporter sets the standard health service only on a
// change (every set reaches the Watch streams: a once-a-second repeat would flood them), for
// both names, and says why. The real service, its Watch and reflection are checked from Python
// against Debian's health.proto in ops_test.py.
#include <grpcpp/health_check_service_interface.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "server/health.hpp"

namespace cuzk::server {
namespace {

engine::EngineStatus with_gpus(std::vector<uint64_t> vram_totals) {
  engine::EngineStatus s;
  for (size_t i = 0; i < vram_totals.size(); ++i) {
    engine::GpuInfo g;
    g.ordinal = static_cast<uint32_t>(i);
    g.vram_total_bytes = vram_totals[i];
    s.gpus.push_back(g);
  }
  return s;
}

TEST(Health, ServingUnlessDrainingOrWithoutAUsableGpu) {
  EXPECT_EQ(not_serving_reason("cpu", with_gpus({}), true), "");
  EXPECT_EQ(not_serving_reason("auto", with_gpus({}), true), "");  // auto fell back to the CPU
  EXPECT_EQ(not_serving_reason("gpu", with_gpus({uint64_t{80} << 30}), true), "");
  EXPECT_EQ(not_serving_reason("auto", with_gpus({0, uint64_t{16} << 30}), true), "");
  EXPECT_EQ(not_serving_reason("cpu", with_gpus({}), false),
            "draining: the engine accepts no new jobs");
  EXPECT_EQ(not_serving_reason("gpu", with_gpus({}), true),
            "backend gpu needs a GPU and none of 0 is usable");
  // Provers on GPUs whose devices are no longer listed (fell off the bus): nothing can prove.
  EXPECT_EQ(not_serving_reason("auto", with_gpus({0, 0}), true),
            "backend auto needs a GPU and none of 2 is usable");
  // One of two out of rotation: the other serves. Both out (or listed but out): none usable.
  engine::EngineStatus two = with_gpus({uint64_t{80} << 30, uint64_t{80} << 30});
  two.gpus[1].out_of_rotation = "3 attempts failed in a row";
  EXPECT_EQ(not_serving_reason("gpu", two, true), "");
  two.gpus[0].out_of_rotation = "3 attempts failed in a row";
  EXPECT_EQ(not_serving_reason("gpu", two, true),
            "backend gpu needs a GPU and none of 2 is usable");
  // Backend gpu and no device at start: the engine's own reason.
  engine::EngineStatus none;
  none.no_prover_reason = "backend gpu: no CUDA device found";
  EXPECT_EQ(not_serving_reason("gpu", none, true), "backend gpu: no CUDA device found");
  EXPECT_EQ(not_serving_reason("gpu", none, false), "draining: the engine accepts no new jobs");
}

class RecordingHealth : public grpc::HealthCheckServiceInterface {
 public:
  void SetServingStatus(const std::string& name, bool serving) override {
    std::lock_guard<std::mutex> lock(mu);
    sets.emplace_back(name, serving);
  }
  void SetServingStatus(bool) override { ADD_FAILURE() << "every name is set by name"; }
  std::vector<std::pair<std::string, bool>> taken() {
    std::lock_guard<std::mutex> lock(mu);
    return std::exchange(sets, {});
  }
  std::mutex mu;
  std::vector<std::pair<std::string, bool>> sets;
};

TEST(Health, ReporterSetsBothNamesOnEachChangeOnly) {
  RecordingHealth health;
  std::mutex mu;
  std::string problem;
  std::vector<std::string> heard;
  HealthReporter reporter(
      health,
      [&] {
        std::lock_guard<std::mutex> lock(mu);
        return problem;
      },
      [&](bool serving, const std::string& reason) {
        heard.push_back(serving ? "SERVING" : "NOT_SERVING: " + reason);
      },
      std::chrono::hours(1));  // only the explicit refreshes below
  using Sets = std::vector<std::pair<std::string, bool>>;
  EXPECT_EQ(health.taken(), (Sets{{"", true}, {"cuzk.v1.ProvingEngine", true}}));
  reporter.refresh();
  EXPECT_TRUE(health.taken().empty());
  {
    std::lock_guard<std::mutex> lock(mu);
    problem = "no GPU";
  }
  reporter.refresh();
  reporter.refresh();
  EXPECT_EQ(health.taken(), (Sets{{"", false}, {"cuzk.v1.ProvingEngine", false}}));
  reporter.stop();
  EXPECT_EQ(heard, (std::vector<std::string>{"SERVING", "NOT_SERVING: no GPU"}));
}

}  // namespace
}  // namespace cuzk::server
