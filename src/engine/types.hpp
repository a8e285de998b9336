// The engine's public value types: proof kinds and priorities (cuzk.v1's numbers), requests, job
// states, results and status. Shared by the engine's interface (engine.hpp), its parts and the
// proof kinds' handlers, which need these without the Engine class.
#pragma once

#include <cstdint>
#include <map>
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

// Every kind a job can be, in the order the queues and metrics list them.
inline constexpr ProofKind kProofKinds[] = {
    ProofKind::kPorepSealCommit, ProofKind::kSnapDealsUpdate, ProofKind::kWindowPostPartition,
    ProofKind::kWinningPost};

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

// Milliseconds, as AwaitProofResponse reports them: the job's life from submission to its end,
// every instant in exactly one phase (engine/phase_clock.hpp), so the four phases add up to
// total_ms exactly.
struct JobTimings {
  uint64_t queue_wait_ms = 0;   // waiting: to be started, for memory, a worker or a prover
  uint64_t srs_load_ms = 0;     // waiting for this job's parameters to load (0 when resident)
  uint64_t synthesis_ms = 0;    // preparing (parse, checks) or synthesizing, none on a prover
  uint64_t gpu_compute_ms = 0;  // a partition on a prover: quotient, MSMs, assembly, verify
  uint64_t total_ms = 0;        // submit -> finished
  // What the partitions moved over PCIe (a capped device streams the proving key), and the
  // least time that takes at the device's measured pinned bandwidth.
  uint64_t pcie_h2d_bytes = 0, pcie_d2h_bytes = 0;
  uint64_t pcie_floor_ms = 0;
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
  std::string out_of_rotation;  // why the engine stopped giving it partitions ("" while it does)
};

enum class SrsTier { kHot = 0, kWarm = 1, kCold = 2 };  // as cuzk.v1 SRSStatus.Tier

struct SrsInfo {
  std::string circuit_id;
  SrsTier tier = SrsTier::kCold;
  // Host bytes: of the set as loaded (the vk, the recording, the points when they are in host
  // memory, a host copy loaded on demand), or as last loaded when it is not.
  uint64_t size_bytes = 0;
  uint32_t ref_count = 0;
  // Bytes of its points page-locked in place for a capped device that streams them (0: none).
  uint64_t page_locked_bytes = 0;
  uint64_t host_bytes = 0;  // what the host holds of it now (0: not loaded)
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
  std::map<std::string, uint64_t> completed_by_kind, failed_by_kind;  // by proof_kind_label
  uint64_t uptime_seconds = 0;
  uint64_t memory_in_use_bytes = 0, memory_budget_bytes = 0;
  uint64_t memory_peak_bytes = 0;     // highest reservation so far
  uint64_t queued_payload_bytes = 0;  // payloads of queued jobs held in memory
  uint64_t spooled_jobs = 0;          // queued jobs whose payload waits on disk
  std::string no_prover_reason;       // why the engine cannot prove at all ("" when it can)
  std::string backend;                // as configured: cpu | gpu | auto
  // Backend auto without a usable GPU: what the engine proves on instead and what it refuses
  // ("" when the provers are what was asked for).
  std::string cpu_fallback_reason;
};

struct PreloadResult {
  bool already_loaded = false;
  uint64_t load_time_ms = 0;
};
struct EvictResult {
  bool was_loaded = false;
  uint64_t freed_bytes = 0;
};

// The engine takes no jobs now: it is shutting down, or it has no prover (backend gpu and no
// device; EngineStatus::no_prover_reason). Clients should try another daemon.
class NotServingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A request_id already names a job whose request differs from this one (another kind or another
// payload): returning that job would hand one client another request's proof (issue 29: a
// WinningPoSt request got a WindowPoSt proof). The message names the earlier job.
class RequestIdConflictError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A known circuit whose parameter file is not in the parameter cache (fetch it, or fix
// param_cache); other refusals of preload_srs / evict_srs are plain std::invalid_argument.
class MissingParametersError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace cuzk::engine
