// The proving engine behind cuzk-daemon: jobs, priority scheduling with a same-circuit batch
// collector, the per-partition pipeline (synthesis workers -> bounded queue -> prover workers ->
// finisher), admission by a memory budget, the SRS manager and metrics. The gRPC layer (server/)
// only translates messages; everything a client can observe is decided here, so the engine is
// tested without a socket.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/activity.hpp"
#include "engine/types.hpp"

namespace cuzk {
class ThreadPool;
namespace groth16 {
class ProverBackend;
struct ProofRandomness;
}  // namespace groth16
}  // namespace cuzk

namespace cuzk::engine {

// A prover that failed this many attempts in a row is taken out of rotation while another one
// is in it (the last one stays, its partitions falling back to the CPU): a device in a state it
// does not recover from (a sticky CUDA error) would otherwise fail every partition it takes.
inline constexpr unsigned kOutOfRotationAfter = 3;

struct EngineConfig {
  std::filesystem::path param_cache;  // Groth16 parameter files (FIL_PROOFS_PARAMETER_CACHE)
  // How parameter files are checked on load (filecoin/parameter_cache.hpp): a set whose .meta
  // marks it insecure is refused unless allowed; a .vk under a published name always has to
  // match its digest, a .params only when verify_param_digests; bulk points are subgroup-checked
  // when check_param_subgroups (the parameter cache is the operator's, trusted as rust-fil-proofs
  // trusts it, unless asked) and the digest did not match a published one.
  bool allow_insecure_params = false;
  bool verify_param_digests = false;
  bool check_param_subgroups = false;
  // [srs] host_points: whether a parameter set's points are kept in host memory. kAlways: every
  // loaded set has its host copy. kAuto: a set every prover worker can prove from the file (its
  // device keeps the whole set: ProverBackend::proves_from_source) is opened without its points;
  // a host copy is then loaded only for whoever needs one (the CPU fallback). The default: the
  // uncapped 32 GiB PoRep daemon's VmHWM 54.4 -> 8.7 GB at the same s/proof (H100, perf-log
  // session 22).
  enum class HostPoints { kAlways, kAuto };
  HostPoints srs_host_points = HostPoints::kAuto;
  uint64_t memory_budget_bytes = 0;  // 0: no limit
  std::string backend = "auto";      // cpu | gpu | auto
  std::vector<int> gpus;             // device ordinals; empty: all
  // [gpus] memory_limit: device bytes each GPU backend may use (0: the device's memory). Under
  // it a proof streams the proving key's bases from host memory (gpu/plan/memory_plan.hpp).
  uint64_t gpu_memory_limit = 0;
  unsigned cpu_workers = 1;  // prover workers when there is no GPU
  // Backend "auto" that found no usable GPU proves on the CPU only jobs of sector sizes up to
  // this (0: any); larger ones are refused (NotServingError) rather than proved for hours.
  // Backend "cpu", chosen on purpose, takes every size.
  uint64_t cpu_fallback_max_sector_size = uint64_t{512} << 20;
  unsigned synthesis_workers = 1;  // partitions synthesized concurrently
  unsigned synthesis_lookahead =
      1;                 // synthesized partitions waiting for a prover, plus one per worker
  unsigned threads = 0;  // thread pool size for synthesis/CPU proving; 0: all cores
  unsigned max_batch_size = 1;
  uint64_t max_batch_wait_ms = 0;
  bool sort_by_type = false;
  // Every partition proof is verified before it is returned; one that does not verify is
  // retried like a prove that threw (false: unchecked proofs, the daemon warns at start).
  bool verify_proofs = true;
  // Faults injected on purpose (util/fault_injector.hpp: "prove:2", "gpu-alloc:1-3,..."); empty:
  // none. A partition whose prove fails or whose proof does not verify is retried on the same
  // backend once, then on another prover worker (another GPU) when there is one, else on the CPU.
  std::string faults;
  uint64_t finished_job_ttl_s = 3600;  // results kept for AwaitProof after completion
  // Pre-compiled constraints: every circuit's R1CS recorded once (kept in pce_dir) and its
  // partitions synthesized witness-only, a, b, c evaluated by the prover (on the device for the
  // GPU backend). false: the classic proving assignment.
  bool pce_enabled = true;
  std::filesystem::path pce_dir;  // empty: "cuzk-pce" beside param_cache
  // What the engine has to say outside a job (a PCE file recorded or refused, ...): an event name
  // and a message. Null: nothing is said.
  std::function<void(const std::string& event, const std::string& message)> on_event;
  // Queued payloads (C1 JSON, ~50 MB for 32 GiB) are held in memory up to 1/16 of the budget,
  // a share reserved from it; the rest wait on disk here until their job starts. Empty: a
  // directory under the system's temporary directory, removed at the end. A directory given
  // here outlives the engine: one started on it resumes the jobs a previous one left there.
  std::filesystem::path spool_dir;
  // Disk the spool may use (0: no limit). Beyond it a submission fails with the reason.
  uint64_t spool_max_bytes = uint64_t{16} << 30;
  // Tests only: provers as if these devices were there ("gpu:0", "gpu:1"), each backend made by
  // `make` (a fake device over the CPU backend), in place of the devices plan_provers finds.
  struct FakeDevices {
    std::vector<std::string> names;
    std::function<std::unique_ptr<groth16::ProverBackend>(const std::string& name, ThreadPool&)>
        make;
  };
  FakeDevices fake_devices;
  // Tests only: the blinding factors of partition `k` of the job with request id `request_id`,
  // so that proofs made by different prover paths can be compared byte for byte. Null (always in
  // production): fresh r, s from the OS CSPRNG for every proof.
  std::function<groth16::ProofRandomness(const std::string& request_id, unsigned k)>
      test_randomness;
};

class CircuitHandler;  // engine/circuit_handler.hpp

class Engine {
 public:
  // Serves the proof kinds of default_handlers(); std::invalid_argument for an unusable config
  // (unknown GPU ordinal). Backend gpu without a device is not a config error: the engine is
  // built without provers, status() says why, and submit() refuses every job.
  explicit Engine(EngineConfig config);
  // Serves exactly `handlers`, one per kind (tests inject their own circuits).
  Engine(EngineConfig config, std::vector<std::shared_ptr<const CircuitHandler>> handlers);
  ~Engine();  // shutdown(false) if not done
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Never throws for bad job input: such a job exists and FAILS with the reason. Throws
  // NotServingError when the engine is shutting down or has no prover. A request_id already
  // given returns its job (duplicate) when the request is the same (request_digest: kind and
  // every field but the priority), else throws RequestIdConflictError.
  SubmitResult submit(ProofRequest request);

  // Whether `job_id` names a job the engine still knows (a finished one until its TTL passes).
  bool has_job(const std::string& job_id) const;

  // The job's result once it is final, or nullopt when `timeout` passes first (zero: wait
  // forever). An unknown id returns a FAILED result naming it.
  std::optional<JobResult> await(const std::string& job_id, std::chrono::milliseconds timeout);

  CancelResult cancel(const std::string& job_id);

  EngineStatus status() const;
  std::string metrics_text() const;  // Prometheus text exposition format 0.0.4
  // The last `window_s` seconds of the workers' lanes, jobs and memory (the status page).
  EngineActivity activity(double window_s) const;

  // std::invalid_argument for an unknown circuit id, MissingParametersError for missing files,
  // NotServingError when the engine has no prover.
  PreloadResult preload_srs(const std::string& circuit_id);
  EvictResult evict_srs(const std::string& circuit_id);

  // Stops accepting jobs; with cancel_running, cancels pending and running jobs at the next
  // partition boundary, otherwise finishes all of them. Returns when the workers are idle.
  void shutdown(bool cancel_running);
  bool accepting() const;

  // The engine's state and stages (engine_impl.hpp, internal to the engine; named here so that
  // the stages' tests drive them step by step without the engine's threads).
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::engine
