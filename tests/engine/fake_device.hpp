// A device in name for engine tests (EngineConfig::fake_devices): the CPU backend under a GPU's
// name, slowed, broken or held per prove by the test, with a log of its attempts.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fake_source_store.hpp"
#include "groth16/backend.hpp"
#include "groth16/point_source.hpp"
#include "pce/recorded_circuit.hpp"

namespace cuzk::engine::test {

// Which fake device ran how many prove attempts.
class DeviceLog {
 public:
  void add(const std::string& device) {
    std::lock_guard lock(mu_);
    ++attempts_[device];
  }
  int attempts(const std::string& device) const {
    std::lock_guard lock(mu_);
    const auto it = attempts_.find(device);
    return it == attempts_.end() ? 0 : it->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, int> attempts_;
};

// Proves a device may start: none until the test grants some (grant()), unlimited once it opens
// it (open()). The number of proves waiting for a permit is observable.
class ProvePermits {
 public:
  void acquire() {
    std::unique_lock<std::mutex> lock(mu_);
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return open_ || permits_ > 0; });
    --waiting_;
    if (!open_) --permits_;
    changed_.notify_all();
  }
  void grant(int n) {
    std::lock_guard<std::mutex> lock(mu_);
    permits_ += n;
    changed_.notify_all();
  }
  void open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    changed_.notify_all();
  }
  // Until `n` proves wait for a permit (false after a minute: the test fails, not hangs).
  bool wait_waiting(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    return changed_.wait_for(lock, std::chrono::minutes(1), [&] { return waiting_ >= n; });
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int permits_ = 0, waiting_ = 0;
  bool open_ = false;
};

// Warm steps a fake device reports (ProverBackend::warm_step): each waits for a permit, and the
// first `remaining` of them say more steps follow.
struct WarmSteps {
  ProvePermits permits;
  std::atomic<int> remaining{0};
};

// A device in name: the CPU backend, `delay` slower per partition, failing every prove while
// `broken` is set (as a device with a sticky CUDA error does), each prove waiting for a permit
// when given `permits`, readying itself by `warm` steps when given them.
class FakeDevice final : public groth16::ProverBackend {
 public:
  FakeDevice(std::string name, ThreadPool& pool, DeviceLog* log, std::chrono::milliseconds delay,
             const std::atomic<bool>* broken, ProvePermits* permits = nullptr,
             WarmSteps* warm = nullptr)
      : name_(std::move(name)),
        cpu_(pool),
        log_(log),
        delay_(delay),
        broken_(broken),
        permits_(permits),
        warm_(warm) {}
  std::string name() const override { return "fake " + name_; }
  // What it says its last proof left on the device (ProverBackend::device_holding).
  std::optional<groth16::DeviceHolding> holding;
  std::optional<groth16::DeviceHolding> device_holding() override {
    if (!holding || keeps_pinned == 0) return holding;
    groth16::DeviceHolding h = *holding;
    h.pinned_host_bytes = pinned_.bytes();
    return h;
  }
  // Host bytes it asks its HostAdmission for at its first proof and keeps until its caches are
  // dropped, as GpuBackend keeps the matrices' page-locked copy (0: none).
  uint64_t keeps_pinned = 0;
  void set_host_admission(groth16::HostAdmission a) override { admission_ = std::move(a); }
  // Page locks it takes when asked (ProverBackend::lock_streamed_points), counted in
  // `lock_calls`: one handle of `lock_bytes` whose release counts in `unlocked` (0: it streams
  // nothing and says so, empty).
  uint64_t lock_bytes = 0;
  std::atomic<int>* lock_calls = nullptr;
  std::atomic<int>* unlocked = nullptr;
  groth16::PageLocks lock_streamed_points(const groth16::Parameters&,
                                          const groth16::PartitionInput&) override {
    if (lock_calls != nullptr) ++*lock_calls;
    groth16::PageLocks locks;
    if (lock_bytes == 0 || unlocked == nullptr) return locks;
    locks.handles.emplace_back(static_cast<void*>(unlocked),
                               [](void* counter) { ++*static_cast<std::atomic<int>*>(counter); });
    locks.bytes = lock_bytes;
    return locks;
  }
  void leave_circuit() override { pinned_.reset(); }
  // Sets it still holds after circuit switches (ProverBackend::holds): the last `keeps_sets`
  // parameter sets it proved (0: none, a device that keeps one set at a time).
  size_t keeps_sets = 0;
  bool holds(const groth16::Parameters& params) override {
    std::lock_guard lock(held_mu_);
    return std::find(held_.begin(), held_.end(), &params) != held_.end();
  }
  // A device that keeps whole sets resident (ProverBackend::proves_from_source), its memory
  // `source_store` (null: it proves only from host points): a set behind a source fills it by
  // warm steps and is proved from it; `source_forecast_wrong`: it says it proves from the
  // source, then throws HostPointsNeeded at prove (a forecast memory taken since made wrong).
  SourceStore* source_store = nullptr;
  bool source_forecast_wrong = false;
  // When set with an msm_h_s, each proof reports that, its msm_h_parts (a device's split of
  // the H MSM) and its batch_allocate_s in place of the CPU's.
  const groth16::ProverTiming* msm_h_report = nullptr;
  bool proves_from_source(const groth16::Parameters&, const pce::RecordedCircuit*) override {
    return source_store != nullptr;
  }
  bool warm_step(const groth16::Parameters& params, const groth16::PartitionInput&) override {
    if (params.source != nullptr && source_store != nullptr && !source_forecast_wrong)
      return source_store->read_step(params);
    if (warm_ == nullptr || warm_->remaining.load() <= 0) return false;
    warm_->permits.acquire();
    return warm_->remaining.fetch_sub(1) > 0;
  }
  groth16::Proof prove(const groth16::Parameters& params, const groth16::PartitionInput& in,
                       const groth16::ProofRandomness& rand,
                       groth16::ProverTiming* timing) override {
    if (permits_ != nullptr) permits_->acquire();
    log_->add(name_);
    if (broken_->load()) throw std::runtime_error(name_ + ": an illegal memory access (fake)");
    if (keeps_pinned != 0 && pinned_.bytes() == 0) pinned_.admit(admission_, keeps_pinned);
    if (keeps_sets != 0) {
      std::lock_guard lock(held_mu_);
      std::erase(held_, &params);
      held_.insert(held_.begin(), &params);
      if (held_.size() > keeps_sets) held_.resize(keeps_sets);
    }
    std::this_thread::sleep_for(delay_);
    std::shared_ptr<const groth16::Parameters> whole;  // a source's set, read whole
    if (params.source != nullptr && source_store != nullptr) {
      if (source_forecast_wrong) throw groth16::HostPointsNeeded(name_ + ": the set does not fit");
      whole = source_store->whole(params);
    }
    groth16::Proof proof = cpu_.prove(whole != nullptr ? *whole : params, in, rand, timing);
    if (msm_h_report != nullptr && msm_h_report->msm_h_s > 0 && timing != nullptr) {
      timing->msm_h_s = msm_h_report->msm_h_s;
      timing->msm_h_parts = msm_h_report->msm_h_parts;
      timing->batch_allocate_s = msm_h_report->batch_allocate_s;
    }
    return proof;
  }
  std::vector<Fr> coset_ab_minus_c(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c,
                                   const EvaluationDomain& domain,
                                   QuotientTiming* timing) override {
    return cpu_.coset_ab_minus_c(std::move(a), std::move(b), std::move(c), domain, timing);
  }
  G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars) override {
    return cpu_.msm_g1(bases, scalars);
  }
  G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars) override {
    return cpu_.msm_g2(bases, scalars);
  }
  G1Jacobian msm_g1(std::span<const G1Affine> bases, const DensityTracker& density,
                    std::span<const Fr> scalars) override {
    return cpu_.msm_g1(bases, density, scalars);
  }
  G2Jacobian msm_g2(std::span<const G2Affine> bases, const DensityTracker& density,
                    std::span<const Fr> scalars) override {
    return cpu_.msm_g2(bases, density, scalars);
  }

 private:
  std::string name_;
  groth16::CpuBackend cpu_;
  DeviceLog* log_;
  std::chrono::milliseconds delay_;
  const std::atomic<bool>* broken_;
  ProvePermits* permits_;
  WarmSteps* warm_;
  groth16::HostAdmission admission_;
  groth16::AdmittedHostBytes pinned_;
  std::mutex held_mu_;
  std::vector<const groth16::Parameters*> held_;  // most recently proved first
};

}  // namespace cuzk::engine::test
