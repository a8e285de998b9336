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

namespace cuzk::engine {

// Numbers as in cuzk.v1 ProofKind / Priority (proto/cuzk/v1/proving.proto).
enum class ProofKind : int {
  kUnspecified = 0,
  kPorepSealCommit = 1,
  kSnapDealsUpdate = 2,
  kWindowPostPartition = 3,
  kWinningPost = 4,
};
enum class Priority : int { kUnspecified = 0, kLow = 1, kNormal = 2, kHigh = 3, kCritical = 4 };

// "porep", "snap", "wpost", "winning", "unspecified" (queue and metric labels).
const char* proof_kind_label(ProofKind kind);

// What SubmitProof carries (cuzk.v1 SubmitProofRequest).
struct ProofRequest {
  std::string request_id;  // idempotency key; empty: none
  ProofKind kind = ProofKind::kUnspecified;
  uint64_t sector_size = 0;
  uint64_t registered_proof = 0;
  Priority priority = Priority::kUnspecified;  // unspecified is treated as NORMAL
  std::vector<uint8_t> vanilla_proof;          // PoRep: C1 output JSON (bare or c1.json wrapper)
  std::vector<std::vector<uint8_t>> vanilla_proofs;
  uint64_t sector_number = 0;
  uint64_t miner_id = 0;
  std::vector<uint8_t> randomness;
  uint32_t partition_index = 0;
  std::vector<uint8_t> comm_r_old, comm_r_new, comm_d_new;
};

enum class JobState { kPending, kRunning, kCompleted, kFailed, kCancelled };
const char* job_state_name(JobState state);

// Milliseconds, as AwaitProofResponse reports them.
struct JobTimings {
  uint64_t queue_wait_ms = 0;   // submit -> first partition starts
  uint64_t srs_load_ms = 0;     // waiting for this job's parameters to load (0 when resident)
  uint64_t synthesis_ms = 0;    // sum over partitions: circuit, public inputs, witness
  uint64_t gpu_compute_ms = 0;  // sum over partitions: quotient, MSMs, assembly, self-verify
  uint64_t total_ms = 0;        // submit -> finished
};

struct JobResult {
  std::string job_id;
  JobState state = JobState::kPending;
  std::vector<uint8_t> proof;  // partition proofs concatenated, 192 bytes each
  std::string error_message;
  JobTimings timings;
  unsigned batch_size = 0;  // jobs released together with this one (0: not released yet)
};

struct SubmitResult {
  std::string job_id;
  uint32_t queue_position = 0;  // jobs ahead of this one when it was queued
  std::string assigned_gpu;     // empty until a worker takes it
  bool duplicate = false;       // request_id seen before: the earlier job is returned
};

struct CancelResult {
  bool found = false;
  bool was_running = false;
};

struct GpuInfo {
  uint32_t ordinal = 0;
  std::string name;
  uint64_t vram_total_bytes = 0, vram_free_bytes = 0;
  std::string current_job_id, current_proof_kind;
};

enum class SrsTier { kHot = 0, kWarm = 1, kCold = 2 };  // as cuzk.v1 SRSStatus.Tier

struct SrsInfo {
  std::string circuit_id;
  SrsTier tier = SrsTier::kCold;
  uint64_t size_bytes = 0;
  uint32_t ref_count = 0;
};

struct QueueInfo {
  std::string proof_kind;
  uint32_t pending = 0, in_progress = 0;
};

struct EngineStatus {
  std::vector<GpuInfo> gpus;
  std::vector<SrsInfo> srs;
  std::vector<QueueInfo> queues;
  uint64_t completed = 0, failed = 0, cancelled = 0;
  uint64_t uptime_seconds = 0;
  uint64_t memory_in_use_bytes = 0, memory_budget_bytes = 0;
  uint64_t memory_peak_bytes = 0;     // highest reservation so far
  uint64_t queued_payload_bytes = 0;  // payloads of queued jobs held in memory
  uint64_t spooled_jobs = 0;          // queued jobs whose payload waits on disk
};

struct PreloadResult {
  bool already_loaded = false;
  uint64_t load_time_ms = 0;
};
struct EvictResult {
  bool was_loaded = false;
  uint64_t freed_bytes = 0;
};

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
  uint64_t memory_budget_bytes = 0;  // 0: no limit
  std::string backend = "auto";      // cpu | gpu | auto
  std::vector<int> gpus;             // device ordinals; empty: all
  unsigned cpu_workers = 1;          // prover workers when there is no GPU
  unsigned synthesis_workers = 1;    // partitions synthesized concurrently
  unsigned synthesis_lookahead = 1;  // synthesized partitions waiting for a prover (queue bound)
  unsigned threads = 0;              // thread pool size for synthesis/CPU proving; 0: all cores
  unsigned max_batch_size = 1;
  uint64_t max_batch_wait_ms = 0;
  bool sort_by_type = false;
  bool verify_proofs = true;           // every partition proof is verified before it is returned
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
  // directory under the system's temporary directory.
  std::filesystem::path spool_dir;
};

class CircuitHandler;  // engine/circuit_handler.hpp

// A known circuit whose parameter file is not in the parameter cache (fetch it, or fix
// param_cache); other refusals of preload_srs / evict_srs are plain std::invalid_argument.
class MissingParametersError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class Engine {
 public:
  // Serves the proof kinds of default_handlers(); std::invalid_argument for an unusable config
  // (backend gpu without a device, unknown GPU ordinal).
  explicit Engine(EngineConfig config);
  // Serves exactly `handlers`, one per kind (tests inject their own circuits).
  Engine(EngineConfig config, std::vector<std::shared_ptr<const CircuitHandler>> handlers);
  ~Engine();  // shutdown(false) if not done
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Never throws for bad job input: such a job exists and FAILS with the reason. Throws
  // std::runtime_error only when the engine is shutting down.
  SubmitResult submit(ProofRequest request);

  // The job's result once it is final, or nullopt when `timeout` passes first (zero: wait
  // forever). An unknown id returns a FAILED result naming it.
  std::optional<JobResult> await(const std::string& job_id, std::chrono::milliseconds timeout);

  CancelResult cancel(const std::string& job_id);

  EngineStatus status() const;
  std::string metrics_text() const;  // Prometheus text exposition format 0.0.4

  // std::invalid_argument for an unknown circuit id, MissingParametersError for missing files.
  PreloadResult preload_srs(const std::string& circuit_id);
  EvictResult evict_srs(const std::string& circuit_id);

  // Stops accepting jobs; with cancel_running, cancels pending and running jobs at the next
  // partition boundary, otherwise finishes all of them. Returns when the workers are idle.
  void shutdown(bool cancel_running);
  bool accepting() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::engine
