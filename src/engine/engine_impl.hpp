// Engine::Impl: the engine's state and its stages, one file each: engine.cpp (the job table: the
// public calls and job completion), preparer.cpp, synthesizer.cpp, prover_worker.cpp and
// prover_retry.cpp (the prover pool), pipeline.cpp (the stages' threads started and stopped),
// engine_status.cpp (status and metrics). A job's life: job_lifecycle.hpp; a partition's place
// in the pipeline: partition_ticket.hpp. Internal to the engine.
#pragma once

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.hpp"
#include "engine/event_history.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "engine/job.hpp"
#include "engine/job_table.hpp"
#include "engine/metrics.hpp"
#include "engine/partition_ticket.hpp"
#include "engine/resources/memory_budget.hpp"
#include "engine/resources/payload_spool.hpp"
#include "engine/resources/srs_manager.hpp"
#include "engine/scheduler.hpp"
#include "groth16/backend.hpp"
#include "util/fault_injector.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

// One prover: a device ("gpu:0") or a CPU backend ("cpu:1"), with its thread.
struct ProverWorker {
  std::string name;
  bool gpu = false;
  int ordinal = -1;
  std::unique_ptr<ThreadPool> pool;
  std::unique_ptr<groth16::ProverBackend> backend;
  std::string current_job, current_kind, last_circuit;
  double busy_s = 0;
  unsigned failed_in_a_row = 0;  // its own thread only: attempts since the last success
  std::string out_of_rotation;   // mu: why it takes no more partitions ("" while it does)
  // Its backend's batch_limit per circuit id (its own thread only).
  std::map<std::string, size_t> batch_limits;
  // What its backend's last proof left on the device (its own thread; nullopt: not said).
  std::optional<groth16::DeviceHolding> holding;
  std::thread thread;
};

struct Engine::Impl {
  Impl(EngineConfig c, std::vector<std::shared_ptr<const CircuitHandler>> hs);

  EngineConfig config;
  std::map<ProofKind, std::shared_ptr<const CircuitHandler>> handlers;
  const Clock::time_point started_at = Clock::now();

  MemoryBudget budget;
  ThreadPool pool;  // preparation (vanilla checks), parameter loading, witness synthesis
  // The same for CRITICAL jobs only, so that their work never queues behind another job's tasks
  // (a caller of ThreadPool::run helps with other calls' tasks while its own finish elsewhere).
  ThreadPool critical_pool;
  SrsManager srs;
  Metrics metrics;
  EventHistory history{started_at};  // the workers' recent spans and finished jobs

  mutable std::mutex mu;
  std::condition_variable work_cv;   // synthesis workers, preparer: a task or a batch deadline
  std::condition_variable done_cv;   // awaiters: a job became final
  std::condition_variable queue_cv;  // prover queue: item pushed / popped
  JobTable jobs;
  Scheduler scheduler;
  std::deque<ProverItem> prover_queue;
  // Partitions handed to synthesis workers and not yet in (or dropped before) the prover queue:
  // with the queue they make up the lookahead that next_task keeps to synthesis_lookahead.
  size_t partitions_synthesizing = 0;
  bool accepting = true, stopping = false, cancel_on_stop = false;
  // Queued payloads in memory, bounded by payload_cap (a share reserved from the budget); the
  // rest wait in the spool.
  uint64_t payload_cap = 0, payload_in_memory = 0, spooled = 0;
  PayloadSpool spool;

  // The synthesis workers, and last the critical lane: a worker that takes CRITICAL jobs only
  // (their preparation and partitions), so that one always starts at once whatever the other
  // workers are doing. While it is busy the other workers take CRITICAL work too.
  std::vector<std::thread> synth_threads;
  static constexpr const char* kCriticalLane = "synth:critical";
  bool critical_lane_busy = false;  // mu
  // Preparation (parse, then parameters: a 47 GB load takes a minute) runs on its own thread,
  // which takes its jobs from the scheduler, so that a loading job does not hold a synthesis
  // worker: on the H200 a CRITICAL WinningPoSt waited 58.6 s behind two PoRep jobs' parameter
  // load when it did.
  std::vector<std::thread> prepare_threads;
  unsigned idle_preparers = 0;  // mu
  std::vector<std::unique_ptr<ProverWorker>> provers;
  bool gpu_provers = false;  // every prover is a device (set once in start())
  // Set once in start() when backend "gpu" found no device: no prover runs, submissions are
  // refused with it, spooled jobs stay on disk for a daemon that has one.
  std::string no_prover_reason;
  // Set once in start() when backend "auto" found no usable GPU: the provers are the CPU's, and
  // jobs above config.cpu_fallback_max_sector_size are refused with it (EngineStatus).
  std::string cpu_fallback_reason;
  // Why a job or preload of `circuit_id` is refused on the CPU fallback ("" when it is not).
  std::string refused_on_cpu_fallback(const std::string& circuit_id) const;
  // The last resort of a partition that failed twice on its worker when there is no other: a CPU
  // backend on the shared pool (set once in start()).
  std::unique_ptr<groth16::ProverBackend> cpu_fallback;
  std::unique_ptr<FaultInjector> faults;  // null unless config.faults names some

  // ---- engine.cpp: parameters, recordings, completion (caller holds mu where noted) ----
  // A job for `request` (its fields, not its payload); *error says why it cannot be served.
  std::shared_ptr<Job> new_job(const ProofRequest& request, Clock::time_point now,
                               std::string* error) const;
  // Queues again the jobs a previous engine left in a configured spool directory (their ids,
  // request ids and order kept); unreadable files are removed, with an event.
  void resume_spooled();
  SrsSpec resolve_srs(const std::string& id) const;
  std::shared_ptr<const pce::RecordedCircuit> load_pce(const std::string& id);
  // [srs] host_points = auto: whether a set opened without its points (`meta`) needs its host
  // copy: yes unless every prover is a device that proves it from the file.
  bool wants_host_points(const groth16::Parameters& meta,
                         const pce::RecordedCircuit* recording) const;
  // Host bytes a partition holds from its synthesis until its proof is out: the compact
  // witness for a device prover (reserved at its bound, one Fr per variable, and settled on the
  // real size once synthesized), the classic working set otherwise.
  uint64_t partition_reservation(const LoadedSrs& s) const;
  // `job` ends in `state` (kCompleted, kFailed or kCancelled; nothing when it is final already):
  // its result, counts and metrics; its resources are released once no partition of it is in
  // the pipeline (caller holds mu).
  void finish(const std::shared_ptr<Job>& job, JobState state, const std::string& error);
  // The payload accounting of a request that is gone (caller holds mu).
  void drop_payload(uint64_t& bytes, std::filesystem::path& spool_file);

  // ---- the work a lane takes from the scheduler ----
  struct Task {
    std::shared_ptr<Job> job;
    bool prepare = false;
    // prepare: the request moved out of the job (finish() may reset the job's meanwhile), the
    // spool file holding its payload if it is not in `request`, its payload bytes in memory.
    ProofRequest request;
    std::filesystem::path spool_file;
    uint64_t payload_bytes = 0;
    PartitionTicket ticket;  // a partition: its place in the pipeline
  };

  // ---- pipeline.cpp: the stages' threads ----
  void start();
  void stop_threads();

  // ---- preparer.cpp ----
  void prepare_loop();
  // A wait for memory: evict parameters that became unreferenced meanwhile (jobs of another
  // circuit finished), then ask whether to give up. Called without any lock held.
  bool reclaim_or(uint64_t bytes, const std::function<bool()>& abandon);
  void run_prepare(Task& task);

  // ---- synthesizer.cpp ----
  // The scheduler's next task for a lane, with the lookahead's partition room (caller holds mu).
  bool next_task(Task* task, std::optional<Clock::time_point>* deadline, Scheduler::Take take,
                 Scheduler::Preparations preparations);
  // A synthesis worker on `lane` ("synth:<n>"), or the critical lane.
  void synthesis_loop(const std::string& lane, bool critical_lane);
  ThreadPool& pool_for(const Job& job);  // critical_pool for CRITICAL jobs, else pool
  // Synthesizes the ticket's partition into the prover queue (or it leaves the pipeline).
  void run_partition(PartitionTicket ticket, const std::string& lane);

  // ---- prover_retry.cpp: a partition proved alone, with its retries ----
  // Whether a prover other than `w` still takes partitions (caller holds mu).
  bool another_in_rotation(const ProverWorker& w) const;
  // `w` failed kOutOfRotationAfter attempts in a row: out of rotation if another prover is in
  // it; queued partitions that only `w` was to avoid go to whoever is left (caller holds mu).
  void consider_rotation(ProverWorker& w, const std::string& last_error);
  // The next item for `w` (highest priority, then oldest; not one waiting for another worker),
  // or prover_queue.end() (caller holds mu).
  std::deque<ProverItem>::iterator next_item_for(const ProverWorker& w);
  // One prove of a partition, self-verified: the proof bytes, or the error.
  struct Attempt {
    std::vector<uint8_t> proof;
    std::string error;
    bool verify_failed = false;
    // The device needs the set's points in host memory (groth16::HostPointsNeeded); no retry
    // mends what failed (a bad point in the file, no memory for the host copy).
    bool host_points_needed = false;
    bool no_retry = false;
    bool on_cpu_fallback = false;  // proved (or failed) by the CPU fallback, not the worker
    // The last attempt's prover phases and self-verification, for the status page's spans.
    groth16::ProverTiming timing;
    Clock::time_point started, verify_started, verify_ended;
    bool ok() const { return error.empty(); }
  };
  // r, s for a proof of `item` (the OS CSPRNG unless a test fixed them).
  groth16::ProofRandomness randomness_for(const ProverItem& item) const;
  // Proves `item` on `w` with the retries: the same backend once, then another worker in
  // rotation, else the CPU fallback. Returns true when it is to be requeued for another worker.
  bool prove_with_retries(ProverWorker& w, ProverItem& item, Attempt* result);
  // Counts a failed attempt of `item` on `where` and the retry that follows (target "same",
  // "other" or "cpu"; empty: none follows).
  void note_failure(ProverItem& item, const std::string& where, const Attempt& a,
                    const char* retry_target);
  // The prover's phases of one partition (histogram cuzk_partition_phase_seconds).
  void observe_prover_phases(const std::string& kind, const groth16::ProverTiming& t);

  // ---- prover_worker.cpp: the prover workers ----
  void prover_loop(ProverWorker& w);
  // The queue's item at `it`, removed (caller holds mu).
  ProverItem take_item(std::deque<ProverItem>::iterator it);
  // One SRS on a device: a partition of another circuit drops the previous device copy.
  void switch_circuit(ProverWorker& w, const LoadedSrs& srs_ref);
  // The points of item's set, and its recorded matrices, page-locked in place where w's device
  // streams them (once per load and worker: SrsManager::lock_points; unlocked, the 32 GiB PoRep
  // set's first proof took 1.2 s longer on an H100, and at 16 GiB the prover kept a 5.9 GB
  // page-locked copy of the matrices, 2026-12-06).
  void lock_streamed_points(ProverWorker& w, ProverItem& item);
  // The parameters `w` proves `item` with: the lease's, unless they are behind a source
  // (opened without the points) and w's backend cannot prove from it (a CPU, or a device that
  // says so): then the set's host copy (SrsManager::acquire_host), kept with the item so that
  // every step of its proof (warm steps, a batch's front and sections) sees the same set.
  // Throws acquire_host's refusal. Not under mu (a host copy loads).
  const groth16::Parameters& params_for(ProverWorker& w, ProverItem& item);
  // After a proof on w: w.holding from its backend, and the set HOT on w unless it streams.
  void note_device_holding(ProverWorker& w, const LoadedSrs& srs_ref);
  // The sets w's device no longer holds are no longer HOT there.
  void forget_dropped_sets(ProverWorker& w);
  // The backend's batch_limit for item's circuit (1 for a partition without a recording).
  size_t batch_limit_for(ProverWorker& w, ProverItem& item);
  // Proves `item` alone with its retries and completes it; `lock` (on mu) is held on entry and
  // on return, released while proving.
  void prove_alone(ProverWorker& w, ProverItem item, std::unique_lock<std::mutex>& lock);
  // Partitions of a priority above `job`'s waiting for `w`: each proved alone now, then the
  // device switched back to `srs_ref` (holds mu; released while proving).
  void preempt_for(ProverWorker& w, const Job& job, const LoadedSrs& srs_ref,
                   std::unique_lock<std::mutex>& lock);
  // The backend's warm steps for item's circuit (a piece of its bases on the device each), with
  // preempt_for between them: a WinningPoSt waits for one step, not a 47 GB upload. Same locking.
  void warm_device(ProverWorker& w, ProverItem& item, std::unique_lock<std::mutex>& lock);
  // `first` and the next partitions of its job, up to `limit`, as one batch (fronts, then the
  // aux sections); a higher-priority partition is proved alone between two steps. Same locking.
  void prove_batch(ProverWorker& w, ProverItem first, size_t limit,
                   std::unique_lock<std::mutex>& lock);
  // Whether more partitions of `job` may still reach `w`'s batch (caller holds mu).
  bool more_for_batch(const Job& job, const ProverWorker& w) const;
  // A batched attempt failed: counted; the partition is proved alone with its retries next.
  void note_batch_failure(const ProverItem& item, const Attempt& a);
  // The outcome of a prove (requeued for another worker, failed, or its proof kept); caller
  // holds mu.
  void complete_item(ProverWorker& w, ProverItem& item, const Attempt& attempt, bool requeue,
                     double prove_s);

  // ---- engine_status.cpp ----
  void declare_metrics();
};

}  // namespace cuzk::engine
