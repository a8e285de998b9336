// FaultInjector: failures on purpose, to test what the engine does when a partition's prove
// fails or its proof is wrong. Compiled in, off unless a plan is given ([faults] inject in the
// daemon's TOML, or CUZK_FAULT in its environment). The plan's syntax, one or more rules joined
// by ',':
//
//   SITE:N      the Nth occurrence of SITE fails (1-based)
//   SITE:N-M    the Nth through the Mth fail
//   SITE:N+     the Nth and every later one fail
//
// SITE is gpu-alloc (a cudaMalloc / cudaHostAlloc), gpu-launch (a kernel launch), gpu-copy (a
// cudaMemcpy*), prove (a partition prove, on any backend: the CPU one in CI), corrupt-proof (a
// partition's finished proof gets a wrong A point: a valid encoding that does not verify) or
// hold-prove (not a failure: a synthesized partition waits at its prover, its job running and
// never completing, until the job is cancelled, by a client or by a shutdown that cancels; so
// tests hold a job at a known point instead of counting on a proof being slow).
// Occurrences are counted per injector, i.e. per engine, across its workers.
//
// The injector belongs to the engine, which passes it to each prove. The CUDA sites are counted
// at the single point every CUDA call is checked (gpu/device/cuda_check.hpp), a free function
// called from some sixty places that take no context; so the engine installs its injector for the
// calling thread for the duration of one prove (Scope) and the check point asks current(). That
// thread-local pointer is the one piece of process state this adds: null outside a Scope, so
// nothing else (the CLI, the benches, other engines' threads) ever sees a fault.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk {

enum class FaultSite { kGpuAlloc = 0, kGpuLaunch, kGpuCopy, kProve, kCorruptProof, kHoldProve };
inline constexpr size_t kFaultSiteCount = 6;

// "gpu-alloc", "gpu-launch", "gpu-copy", "prove", "corrupt-proof", "hold-prove".
const char* fault_site_name(FaultSite site);

struct FaultRule {
  FaultSite site = FaultSite::kProve;
  uint64_t first = 1, last = 1;  // occurrences first..last fail (last: UINT64_MAX for "N+")
};

// The rules of a plan; std::invalid_argument naming the bad rule and the syntax otherwise. An
// empty plan is no rules.
std::vector<FaultRule> parse_fault_plan(std::string_view plan);

// What an injected prove fault throws (an injected CUDA fault is a gpu::CudaError like any).
class InjectedFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class FaultInjector {
 public:
  explicit FaultInjector(std::string_view plan) : rules_(parse_fault_plan(plan)) {}
  FaultInjector(const FaultInjector&) = delete;
  FaultInjector& operator=(const FaultInjector&) = delete;

  bool armed(FaultSite site) const;
  // Counts one occurrence of `site`; its number when it is to fail, nullopt otherwise.
  std::optional<uint64_t> hit(FaultSite site);
  uint64_t occurrences(FaultSite site) const { return seen_[index(site)].load(); }
  uint64_t fired(FaultSite site) const { return fired_[index(site)].load(); }

  // Scope is the same thread-local "current" pattern as DeviceMemoryCap::Scope (gpu/device):
  // util sits below gpu and the two point at different types.
  // The injector the calling thread's current prove runs under (null outside a Scope).
  static FaultInjector* current();
  class Scope {
   public:
    explicit Scope(FaultInjector* injector);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    FaultInjector* previous_;
  };

 private:
  static size_t index(FaultSite s) { return static_cast<size_t>(s); }
  std::vector<FaultRule> rules_;
  std::array<std::atomic<uint64_t>, kFaultSiteCount> seen_{}, fired_{};
};

}  // namespace cuzk
