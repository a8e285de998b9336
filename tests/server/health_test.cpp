// The daemon's health: NOT_SERVING for load balancers while draining, with its GPU provers gone
// or backend gpu without one; degraded (still SERVING for gRPC) when auto fell back to the CPU or
// a GPU is lost; and that the reporter sets the standard health service only on a
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

engine::EngineStatus with_gpus(const std::string& backend, std::vector<uint64_t> vram_totals) {
  engine::EngineStatus s;
  s.backend = backend;
  for (size_t i = 0; i < vram_totals.size(); ++i) {
    engine::GpuInfo g;
    g.ordinal = static_cast<uint32_t>(i);
    g.vram_total_bytes = vram_totals[i];
    s.gpus.push_back(g);
  }
  return s;
}

// "serving", "degraded: why", "not_serving: why".
std::string health(const engine::EngineStatus& s, bool accepting = true) {
  return describe(health_of(s, accepting));
}

constexpr uint64_t k80G = uint64_t{80} << 30;

TEST(Health, ServingUnlessDrainingOrWithoutAUsableGpu) {
  EXPECT_EQ(health(with_gpus("cpu", {})), "serving");
  EXPECT_EQ(health(with_gpus("gpu", {k80G})), "serving");
  EXPECT_EQ(health(with_gpus("cpu", {}), false),
            "not_serving: draining: the engine accepts no new jobs");
  EXPECT_EQ(health(with_gpus("gpu", {})),
            "not_serving: backend gpu needs a GPU and none of 0 is usable");
  // Provers on GPUs whose devices are no longer listed (fell off the bus): nothing can prove.
  EXPECT_EQ(health(with_gpus("auto", {0, 0})),
            "not_serving: backend auto needs a GPU and none of 2 is usable");
  // Both out of rotation: none usable.
  engine::EngineStatus two = with_gpus("gpu", {k80G, k80G});
  two.gpus[0].out_of_rotation = two.gpus[1].out_of_rotation = "3 attempts failed in a row";
  EXPECT_EQ(health(two), "not_serving: backend gpu needs a GPU and none of 2 is usable");
  // Backend gpu and no device at start: the engine's own reason.
  engine::EngineStatus none = with_gpus("gpu", {});
  none.no_prover_reason = "backend gpu: no CUDA device found";
  EXPECT_EQ(health(none), "not_serving: backend gpu: no CUDA device found");
  EXPECT_EQ(health(none, false), "not_serving: draining: the engine accepts no new jobs");
}

// Proving, but not as configured: what a dashboard must not show as green.
TEST(Health, DegradedWhenAutoFellBackToTheCpuOrAGpuIsLost) {
  engine::EngineStatus fallback = with_gpus("auto", {});
  fallback.cpu_fallback_reason = "backend auto found no usable GPU (no CUDA device found)";
  const Health h = health_of(fallback, true);
  EXPECT_EQ(h.state, HealthState::kDegraded);
  EXPECT_EQ(h.reason, fallback.cpu_fallback_reason);
  EXPECT_EQ(health(fallback, false), "not_serving: draining: the engine accepts no new jobs");
  // One of two out of rotation, or no longer listed: the other proves.
  engine::EngineStatus two = with_gpus("gpu", {k80G, k80G});
  two.gpus[1].out_of_rotation = "3 attempts failed in a row";
  EXPECT_EQ(health(two),
            "degraded: 1 of 2 GPUs prove; gpu:1 out of rotation: 3 attempts failed in a row");
  EXPECT_EQ(health(with_gpus("auto", {0, k80G})),
            "degraded: 1 of 2 GPUs prove; gpu:0 not listed by the driver");
  EXPECT_STREQ(health_state_name(HealthState::kNotServing), "not_serving");
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

// gRPC's health is set only when SERVING / NOT_SERVING changes (every set reaches the Watch
// streams); the log hears every change of state or reason, degraded included.
TEST(Health, ReporterSetsBothNamesOnEachChangeOnly) {
  RecordingHealth service;
  std::mutex mu;
  Health now;
  std::vector<std::string> heard;
  HealthReporter reporter(
      service,
      [&] {
        std::lock_guard<std::mutex> lock(mu);
        return now;
      },
      [&](const Health& h) { heard.push_back(describe(h)); },
      std::chrono::hours(1));  // only the explicit refreshes below
  using Sets = std::vector<std::pair<std::string, bool>>;
  EXPECT_EQ(service.taken(), (Sets{{"", true}, {"cuzk.v1.ProvingEngine", true}}));
  reporter.refresh();
  EXPECT_TRUE(service.taken().empty());
  const auto set = [&](HealthState state, const std::string& reason) {
    std::lock_guard<std::mutex> lock(mu);
    now = {state, reason};
  };
  set(HealthState::kDegraded, "gpu:1 out of rotation");
  reporter.refresh();
  EXPECT_TRUE(service.taken().empty());  // still SERVING for gRPC
  set(HealthState::kNotServing, "no GPU");
  reporter.refresh();
  reporter.refresh();
  EXPECT_EQ(service.taken(), (Sets{{"", false}, {"cuzk.v1.ProvingEngine", false}}));
  reporter.stop();
  EXPECT_EQ(heard, (std::vector<std::string>{"serving", "degraded: gpu:1 out of rotation",
                                             "not_serving: no GPU"}));
}

}  // namespace
}  // namespace cuzk::server
