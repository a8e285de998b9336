#include "engine/engine.hpp"

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "cs/proving_assignment.hpp"
#include "engine/circuit_handler.hpp"
#include "engine/memory_budget.hpp"
#include "engine/metrics.hpp"
#include "engine/pce_loader.hpp"
#include "engine/srs_manager.hpp"
#include "gpu/backend_factory.hpp"
#include "groth16/backend.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "pce/spmv.hpp"
#include "pce/witness_cs.hpp"

#if defined(CUZK_HAVE_CUDA)
#include "gpu/device_info.hpp"
#endif

namespace cuzk::engine {

const char* proof_kind_label(ProofKind kind) {
  switch (kind) {
    case ProofKind::kPorepSealCommit:
      return "porep";
    case ProofKind::kSnapDealsUpdate:
      return "snap";
    case ProofKind::kWindowPostPartition:
      return "wpost";
    case ProofKind::kWinningPost:
      return "winning";
    case ProofKind::kUnspecified:
      break;
  }
  return "unspecified";
}

const char* job_state_name(JobState state) {
  switch (state) {
    case JobState::kPending:
      return "pending";
    case JobState::kRunning:
      return "running";
    case JobState::kCompleted:
      return "completed";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

namespace {

using Clock = std::chrono::steady_clock;

uint64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return b <= a ? 0
                : static_cast<uint64_t>(
                      std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count());
}
double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

bool is_final(JobState s) {
  return s == JobState::kCompleted || s == JobState::kFailed || s == JobState::kCancelled;
}

int effective_priority(Priority p) {
  return p == Priority::kUnspecified ? static_cast<int>(Priority::kNormal) : static_cast<int>(p);
}

uint64_t payload_size(const ProofRequest& r) {
  uint64_t n = r.vanilla_proof.size();
  for (const auto& p : r.vanilla_proofs)
    n += p.size();
  return n;
}

// Spool file: [u64 length][bytes] of vanilla_proof, [u64 count], then count x [u64 length][bytes].
void write_bytes(std::ofstream& out, const std::vector<uint8_t>& b) {
  const uint64_t n = b.size();
  out.write(reinterpret_cast<const char*>(&n), sizeof n);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(n));
}

std::vector<uint8_t> read_bytes(std::ifstream& in) {
  uint64_t n = 0;
  if (!in.read(reinterpret_cast<char*>(&n), sizeof n)) throw std::runtime_error("truncated");
  std::vector<uint8_t> b(n);
  if (!in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(n))) {
    throw std::runtime_error("truncated");
  }
  return b;
}

void write_spool(const std::filesystem::path& file, const ProofRequest& r) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  write_bytes(out, r.vanilla_proof);
  const uint64_t count = r.vanilla_proofs.size();
  out.write(reinterpret_cast<const char*>(&count), sizeof count);
  for (const auto& p : r.vanilla_proofs)
    write_bytes(out, p);
  out.close();
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

void read_spool(const std::filesystem::path& file, ProofRequest& r) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  r.vanilla_proof = read_bytes(in);
  uint64_t count = 0;
  if (!in.read(reinterpret_cast<char*>(&count), sizeof count))
    throw std::runtime_error("truncated");
  r.vanilla_proofs.clear();
  for (uint64_t i = 0; i < count; ++i)
    r.vanilla_proofs.push_back(read_bytes(in));
}

const std::vector<double> kDurationBuckets = {0.05, 0.1, 0.25, 0.5, 1,   2.5,  5,   10,
                                              25,   50,  100,  250, 500, 1000, 2500};

}  // namespace

struct Job {
  std::string id;
  std::string request_id;
  ProofRequest request;  // the payload is dropped once prepared
  // Until a worker takes the request: its payload bytes counted in memory, or the spool file
  // holding the payload (then request's payload fields are empty).
  uint64_t payload_bytes = 0;
  std::filesystem::path spool_file;
  ProofKind kind = ProofKind::kUnspecified;
  std::string kind_label;
  std::string circuit_id;
  std::shared_ptr<const CircuitHandler> handler;
  int priority = 0;
  uint64_t seq = 0;          // submission order
  uint64_t release_seq = 0;  // order of release into the pipeline
  Clock::time_point submitted, started, finished;

  JobState state = JobState::kPending;
  bool released = false, preparing = false, prepared = false;
  bool flush = false;  // a higher priority job arrived while this one's batch was collecting
  std::shared_ptr<const PreparedJob> work;
  std::shared_ptr<SrsLease> srs;
  Reservation resident;  // the prepared job's bytes
  unsigned partitions = 0, next_partition = 0, done_partitions = 0, in_flight = 0;
  std::vector<std::vector<uint8_t>> partition_proofs;
  JobResult result;
  std::string assigned_gpu;
};

// A synthesized partition: the prover's input (the compact witness of a recorded circuit, or
// the classic assignment) and the public inputs its proof must verify for.
struct SynthesizedPartition {
  std::optional<pce::CompactWitness> witness;
  ProvingAssignment assignment;
  std::vector<Fr> public_inputs;
};

// A synthesized partition waiting for a prover, with its memory reservation.
struct ProverItem {
  std::shared_ptr<Job> job;
  std::shared_ptr<SrsLease> srs;
  unsigned index = 0;
  std::unique_ptr<SynthesizedPartition> partition;
  Reservation reservation;
};

struct ProverWorker {
  std::string name;  // "gpu:0", "cpu:1"
  bool gpu = false;
  int ordinal = -1;
  std::unique_ptr<ThreadPool> pool;
  std::unique_ptr<groth16::ProverBackend> backend;
  std::string current_job, current_kind, last_circuit;
  double busy_s = 0;
  std::thread thread;
};

struct Engine::Impl {
  EngineConfig config;
  std::map<ProofKind, std::shared_ptr<const CircuitHandler>> handlers;
  const Clock::time_point started_at = Clock::now();

  MemoryBudget budget;
  ThreadPool pool;  // preparation (vanilla checks), parameter loading
  SrsManager srs;
  Metrics metrics;

  mutable std::mutex mu;
  std::condition_variable work_cv;   // synthesis workers: a task or a batch deadline
  std::condition_variable done_cv;   // awaiters: a job became final
  std::condition_variable queue_cv;  // prover queue: item pushed / popped
  std::map<std::string, std::shared_ptr<Job>> jobs;
  std::map<std::string, std::string> by_request_id;
  std::vector<std::shared_ptr<Job>> pending;   // submitted, not released (any order)
  std::vector<std::shared_ptr<Job>> released;  // released, not final
  std::deque<ProverItem> prover_queue;
  uint64_t next_seq = 0, next_release = 0, next_job_number = 0;
  std::string last_released_circuit;
  bool accepting = true, stopping = false, cancel_on_stop = false;
  uint64_t completed = 0, failed = 0, cancelled = 0;
  // Queued payloads in memory, bounded by payload_cap (a share reserved from the budget).
  uint64_t payload_cap = 0, payload_in_memory = 0, spooled = 0, next_spool = 0;
  std::filesystem::path spool_dir;
  bool own_spool_dir = false;

  std::vector<std::thread> synth_threads;
  std::vector<std::unique_ptr<ProverWorker>> provers;
  bool gpu_provers = false;  // every prover is a device (set once in start())

  Impl(EngineConfig c, std::vector<std::shared_ptr<const CircuitHandler>> hs)
      : config(std::move(c)),
        budget(config.memory_budget_bytes),
        pool(config.threads),
        srs([this](const std::string& id) { return resolve_srs(id); }, budget, pool,
            config.pce_enabled
                ? SrsManager::PceLoader([this](const std::string& id) { return load_pce(id); })
                : nullptr) {
    for (auto& h : hs)
      handlers[h->kind()] = std::move(h);
    declare_metrics();
    if (budget.limit() != 0) {
      payload_cap = budget.limit() / 16;
      budget.pin(payload_cap);  // the budget is empty here: always fits
    }
    spool_dir = config.spool_dir;
    if (spool_dir.empty()) {
      own_spool_dir = true;
      spool_dir = std::filesystem::temp_directory_path() /
                  ("cuzk-spool-" + std::to_string(::getpid()) + "-" +
                   std::to_string(reinterpret_cast<uintptr_t>(this)));
    }
  }

  ~Impl() {
    std::error_code ec;
    if (own_spool_dir) std::filesystem::remove_all(spool_dir, ec);
  }

  std::shared_ptr<const pce::RecordedCircuit> load_pce(const std::string& id) {
    std::vector<std::shared_ptr<const CircuitHandler>> hs;
    for (const auto& [kind, h] : handlers)
      hs.push_back(h);
    const BlankCircuit blank = find_blank_circuit(hs, id);
    const std::filesystem::path dir =
        config.pce_dir.empty() ? default_pce_dir(config.param_cache) : config.pce_dir;
    return load_or_record_pce(blank, dir, pool, config.on_event);
  }

  // Host bytes a partition holds from its synthesis until its proof is out: the compact witness
  // for a device prover (reserved at its bound, one Fr per variable, and settled on the real size
  // once synthesized), the classic working set otherwise.
  uint64_t partition_reservation(const LoadedSrs& s) const {
    if (s.pce == nullptr || !gpu_provers) return s.partition_working_set;
    return (s.pce->num_columns() + 1) * sizeof(Fr) + s.pce->num_aux / 4;
  }

  SrsSpec resolve_srs(const std::string& id) const {
    for (const auto& [kind, h] : handlers) {
      if (auto spec = h->srs_spec(id, parameter_source(config))) return *spec;
    }
    throw std::invalid_argument("unknown circuit id \"" + id + "\"");
  }

  void declare_metrics() {
    using T = Metrics::Type;
    metrics.declare("cuzk_proofs_total", "Proof jobs finished, by kind and outcome.", T::kCounter);
    metrics.declare("cuzk_partitions_total", "Partition proofs produced, by kind.", T::kCounter);
    metrics.declare("cuzk_job_phase_seconds",
                    "Per-job time by phase (queue, srs_load, synthesis, gpu, total).",
                    T::kHistogram, kDurationBuckets);
    metrics.declare(
        "cuzk_partition_phase_seconds",
        "Per-partition time by phase (synthesis, prove; within prove: upload, spmv, h_chain, msm).",
        T::kHistogram, kDurationBuckets);
    metrics.declare("cuzk_queue_jobs", "Jobs by kind and state (pending, in_progress).", T::kGauge);
    metrics.declare("cuzk_prover_queue_partitions", "Synthesized partitions waiting for a prover.",
                    T::kGauge);
    metrics.declare("cuzk_memory_reserved_bytes", "Bytes reserved against the memory budget.",
                    T::kGauge);
    metrics.declare("cuzk_memory_reserved_peak_bytes", "Highest reservation so far.", T::kGauge);
    metrics.declare("cuzk_memory_budget_bytes", "The memory budget (0: unlimited).", T::kGauge);
    metrics.declare("cuzk_process_resident_bytes", "Resident set size of the process.", T::kGauge);
    metrics.declare("cuzk_prover_busy_seconds_total",
                    "Seconds each prover worker (GPU or CPU) spent proving.", T::kCounter);
    metrics.declare("cuzk_srs_loaded_bytes", "Loaded parameters by circuit id and tier.",
                    T::kGauge);
    metrics.declare("cuzk_uptime_seconds", "Seconds since the engine started.", T::kGauge);
    metrics.declare("cuzk_queued_payload_bytes", "Payload bytes of queued jobs held in memory.",
                    T::kGauge);
    metrics.declare("cuzk_spooled_jobs", "Queued jobs whose payload waits on disk.", T::kGauge);
  }

  // ---- scheduling (caller holds mu) ----

  // The pending job to release next: highest priority, then (sort_by_type) the circuit released
  // last, then submission order.
  std::shared_ptr<Job> pending_head() const {
    std::shared_ptr<Job> best;
    for (const auto& j : pending) {
      if (!best) {
        best = j;
        continue;
      }
      if (j->priority != best->priority) {
        if (j->priority > best->priority) best = j;
        continue;
      }
      if (config.sort_by_type) {
        const bool jm = j->circuit_id == last_released_circuit;
        const bool bm = best->circuit_id == last_released_circuit;
        if (jm != bm) {
          if (jm) best = j;
          continue;
        }
      }
      if (j->seq < best->seq) best = j;
    }
    return best;
  }

  // The group the head collects: pending jobs of its circuit and priority, in submission order,
  // at most max_batch_size.
  std::vector<std::shared_ptr<Job>> collecting_group(const std::shared_ptr<Job>& head) const {
    std::vector<std::shared_ptr<Job>> group;
    for (const auto& j : pending)
      if (j->circuit_id == head->circuit_id && j->priority == head->priority) group.push_back(j);
    std::sort(group.begin(), group.end(),
              [](const auto& a, const auto& b) { return a->seq < b->seq; });
    const size_t max = std::max(1u, config.max_batch_size);
    if (group.size() > max) group.resize(max);
    return group;
  }

  // Releases the head's group when it is full, has waited max_batch_wait_ms, a higher priority
  // job arrived while it collected, or the engine stops. Only NORMAL and LOW jobs wait to be
  // batched (the anchor's rule): HIGH and CRITICAL ones are released at once. Otherwise
  // `deadline` gets the time the group will be released.
  bool try_release(Clock::time_point now, std::optional<Clock::time_point>* deadline) {
    const std::shared_ptr<Job> head = pending_head();
    if (!head) return false;
    std::vector<std::shared_ptr<Job>> group = collecting_group(head);
    const auto due = head->submitted + std::chrono::milliseconds(config.max_batch_wait_ms);
    const bool ready =
        group.size() >= std::max(1u, config.max_batch_size) || config.max_batch_wait_ms == 0 ||
        now >= due || stopping || head->priority > static_cast<int>(Priority::kNormal) ||
        std::any_of(group.begin(), group.end(), [](const auto& j) { return j->flush; });
    if (!ready) {
      if (deadline != nullptr) *deadline = due;
      return false;
    }
    for (const auto& j : group) {
      pending.erase(std::find(pending.begin(), pending.end(), j));
      j->released = true;
      j->release_seq = next_release++;
      j->result.batch_size = static_cast<unsigned>(group.size());
      released.push_back(j);
    }
    last_released_circuit = head->circuit_id;
    return true;
  }

  struct Task {
    std::shared_ptr<Job> job;
    bool prepare = false;
    // prepare: the request moved out of the job (finish() may reset the job's meanwhile), the
    // spool file holding its payload if it is not in `request`, its payload bytes in memory.
    ProofRequest request;
    std::filesystem::path spool_file;
    uint64_t payload_bytes = 0;
    unsigned partition = 0;
  };

  // The released job a synthesis worker should serve: highest priority, then release order.
  std::shared_ptr<Job> best_released() const {
    std::shared_ptr<Job> best;
    for (const auto& j : released) {
      if (is_final(j->state) || j->preparing) continue;
      if (j->prepared && j->next_partition >= j->partitions) continue;
      if (!best || j->priority > best->priority ||
          (j->priority == best->priority && j->release_seq < best->release_seq)) {
        best = j;
      }
    }
    return best;
  }

  bool next_task(Task* task, std::optional<Clock::time_point>* deadline) {
    const auto now = Clock::now();
    std::shared_ptr<Job> job = best_released();
    const std::shared_ptr<Job> head = pending_head();
    if (head && (!job || head->priority > job->priority)) {
      if (try_release(now, deadline)) job = best_released();
    }
    if (!job) return false;
    task->job = job;
    if (!job->prepared) {
      job->preparing = true;
      job->state = JobState::kRunning;
      job->started = now;
      task->prepare = true;
      task->request = std::move(job->request);
      task->spool_file = std::exchange(job->spool_file, {});
      task->payload_bytes = std::exchange(job->payload_bytes, 0);
    } else {
      task->partition = job->next_partition++;
      ++job->in_flight;
    }
    return true;
  }

  // ---- job completion (caller holds mu) ----

  void finish(const std::shared_ptr<Job>& job, JobState state, const std::string& error) {
    if (is_final(job->state)) return;
    job->state = state;
    job->finished = Clock::now();
    job->result.state = state;
    job->result.error_message = error;
    if (job->started == Clock::time_point{}) job->started = job->finished;
    JobTimings& t = job->result.timings;
    t.queue_wait_ms = ms_between(job->submitted, job->started);
    t.total_ms = ms_between(job->submitted, job->finished);
    if (state == JobState::kCompleted) {
      for (const auto& p : job->partition_proofs)
        job->result.proof.insert(job->result.proof.end(), p.begin(), p.end());
      ++completed;
    } else if (state == JobState::kFailed) {
      ++failed;
    } else {
      ++cancelled;
    }
    job->partition_proofs.clear();
    job->request = ProofRequest{};  // the payload is not needed any more
    drop_payload(job->payload_bytes, job->spool_file);
    pending.erase(std::remove(pending.begin(), pending.end(), job), pending.end());
    released.erase(std::remove(released.begin(), released.end(), job), released.end());
    if (job->in_flight == 0) release_job_resources(job);

    metrics.add("cuzk_proofs_total",
                {{"kind", job->kind_label}, {"outcome", job_state_name(state)}}, 1);
    const auto phase = [&](const char* name, double s) {
      metrics.observe("cuzk_job_phase_seconds", {{"kind", job->kind_label}, {"phase", name}}, s);
    };
    phase("queue", t.queue_wait_ms / 1e3);
    if (state == JobState::kCompleted) {
      phase("srs_load", t.srs_load_ms / 1e3);
      phase("synthesis", t.synthesis_ms / 1e3);
      phase("gpu", t.gpu_compute_ms / 1e3);
    }
    phase("total", t.total_ms / 1e3);
    done_cv.notify_all();
    work_cv.notify_all();
  }

  // The payload accounting of a request that is gone (caller holds mu).
  void drop_payload(uint64_t& bytes, std::filesystem::path& spool_file) {
    payload_in_memory -= std::min(bytes, payload_in_memory);
    bytes = 0;
    if (!spool_file.empty()) {
      std::error_code ec;
      std::filesystem::remove(spool_file, ec);
      spool_file.clear();
      --spooled;
    }
  }

  void release_job_resources(const std::shared_ptr<Job>& job) {
    job->work.reset();
    job->srs.reset();
    job->resident.reset();
  }

  void fail(const std::shared_ptr<Job>& job, const std::string& error) {
    finish(job, JobState::kFailed, error);
  }

  void drop_expired(Clock::time_point now) {
    const auto ttl = std::chrono::seconds(config.finished_job_ttl_s);
    for (auto it = jobs.begin(); it != jobs.end();) {
      const Job& j = *it->second;
      if (is_final(j.state) && now - j.finished > ttl) {
        if (!j.request_id.empty()) by_request_id.erase(j.request_id);
        it = jobs.erase(it);
      } else {
        ++it;
      }
    }
  }

  // The prover's phases of one partition (histogram cuzk_partition_phase_seconds).
  void observe_prover_phases(const std::string& kind, const groth16::ProverTiming& t) {
    const std::pair<const char*, double> phases[] = {
        {"upload", t.upload_s},
        {"spmv", t.spmv_s},
        {"h_chain", t.quotient_s},
        {"msm", t.msm_h_s + t.msm_l_s + t.msm_a_s + t.msm_b_g1_s + t.msm_b_g2_s}};
    for (const auto& [name, s] : phases) {
      if (s > 0)
        metrics.observe("cuzk_partition_phase_seconds", {{"kind", kind}, {"phase", name}}, s);
    }
  }

  // ---- workers ----

  void synthesis_loop() {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      Task task;
      std::optional<Clock::time_point> deadline;
      while (!next_task(&task, &deadline)) {
        if (stopping && pending.empty() && released.empty()) return;
        if (deadline) {
          work_cv.wait_until(lock, *deadline);
        } else {
          work_cv.wait_for(lock, std::chrono::milliseconds(200));
        }
        deadline.reset();
      }
      lock.unlock();
      if (task.prepare) {
        run_prepare(task);
      } else {
        run_partition(task.job, task.partition);
      }
      lock.lock();
    }
  }

  // A wait for memory: evict parameters that became unreferenced meanwhile (jobs of another
  // circuit finished), then ask whether to give up. Called without any lock held.
  bool reclaim_or(uint64_t bytes, const std::function<bool()>& abandon) {
    srs.reclaim(bytes);
    return abandon();
  }

  void run_prepare(Task& task) {
    const std::shared_ptr<Job>& job = task.job;
    ProofRequest& request = task.request;
    const auto abandon = [this, job] {
      std::lock_guard<std::mutex> g(mu);
      return is_final(job->state) || (stopping && cancel_on_stop);
    };
    std::shared_ptr<const PreparedJob> work;
    std::shared_ptr<SrsLease> lease;
    Reservation resident;
    uint64_t load_ms = 0;
    std::string error;
    try {
      if (!task.spool_file.empty()) {
        try {
          read_spool(task.spool_file, request);
        } catch (const std::exception& e) {
          throw std::runtime_error(std::string("the spooled payload is unreadable: ") + e.what());
        }
      }
      // The parameters first: a missing file fails the job before its payload is parsed.
      lease = std::make_shared<SrsLease>(srs.acquire(job->circuit_id, &load_ms, abandon));
      work = job->handler->prepare(request, pool);
      const uint64_t bytes = work->resident_bytes();
      const uint64_t need = (*lease)->bytes + bytes + partition_reservation(**lease);
      if (budget.limit() != 0 && need > budget.capacity()) {
        throw std::invalid_argument(
            job->circuit_id + " needs about " + std::to_string(need >> 20) +
            " MiB (parameters, the parsed payload and one partition's working set); the memory "
            "budget is " +
            std::to_string(budget.capacity() >> 20) + " MiB");
      }
      if (!budget.reserve(bytes, [&] { return reclaim_or(bytes, abandon); })) {
        throw std::runtime_error("the prepared job (" + std::to_string(bytes) +
                                 " bytes) does not fit the memory budget");
      }
      resident = Reservation(&budget, bytes);
    } catch (const std::exception& e) {
      error = e.what();
    }
    request = ProofRequest{};
    std::lock_guard<std::mutex> lock(mu);
    drop_payload(task.payload_bytes, task.spool_file);
    job->preparing = false;
    job->result.timings.srs_load_ms = load_ms;
    if (!error.empty()) {
      fail(job, error);
      return;
    }
    if (is_final(job->state)) return;  // cancelled meanwhile
    job->work = std::move(work);
    job->srs = std::move(lease);
    job->resident = std::move(resident);
    job->partitions = job->work->partitions();
    job->partition_proofs.assign(job->partitions, {});
    job->prepared = true;
    work_cv.notify_all();
  }

  // A partition task ends here without a prover: drop it, finishing cleanup of a final job.
  void partition_abandoned(const std::shared_ptr<Job>& job) {
    std::lock_guard<std::mutex> lock(mu);
    if (--job->in_flight == 0 && is_final(job->state)) release_job_resources(job);
  }

  void run_partition(const std::shared_ptr<Job>& job, unsigned k) {
    std::shared_ptr<const PreparedJob> work;
    std::shared_ptr<SrsLease> lease;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (is_final(job->state)) {
        if (--job->in_flight == 0) release_job_resources(job);
        return;
      }
      work = job->work;
      lease = job->srs;
    }
    const auto abandon = [this, job] {
      std::lock_guard<std::mutex> g(mu);
      return is_final(job->state) || (stopping && cancel_on_stop);
    };
    const uint64_t bytes = partition_reservation(**lease);
    if (!budget.reserve(bytes, [&] { return reclaim_or(bytes, abandon); })) {
      partition_abandoned(job);
      return;
    }
    ProverItem item{job, lease, k, nullptr, Reservation(&budget, bytes)};
    const auto t0 = Clock::now();
    try {
      PartitionCircuit pc = work->partition(k);
      auto synthesized = std::make_unique<SynthesizedPartition>();
      synthesized->public_inputs = std::move(pc.public_inputs);
      if (const auto& rc = (*lease)->pce) {
        // Witness only, the circuit's pieces on the shared pool.
        pce::WitnessCS cs(&pool);
        cs.reserve(rc->num_inputs, rc->num_aux);
        pc.circuit->synthesize(cs);
        synthesized->witness = std::move(cs).finish();
        pce::check_witness_shape(*rc, *synthesized->witness);
        if (gpu_provers) item.reservation.shrink_to(synthesized->witness->bytes());
      } else {
        const ShapeHint& shape = (*lease)->shape;
        synthesized->assignment.reserve(shape.rows, shape.inputs, shape.aux);
        pc.circuit->synthesize(synthesized->assignment);
        synthesized->assignment.add_input_constraints();
      }
      item.partition = std::move(synthesized);
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mu);
      --job->in_flight;
      fail(job, "partition " + std::to_string(k) + " synthesis: " + e.what());
      if (job->in_flight == 0) release_job_resources(job);
      return;
    }
    const double synth_s = seconds_between(t0, Clock::now());
    metrics.observe("cuzk_partition_phase_seconds",
                    {{"kind", job->kind_label}, {"phase", "synthesis"}}, synth_s);
    std::unique_lock<std::mutex> lock(mu);
    job->result.timings.synthesis_ms += static_cast<uint64_t>(synth_s * 1e3);
    const size_t bound = std::max(1u, config.synthesis_lookahead);
    queue_cv.wait(lock, [&] {
      return prover_queue.size() < bound || is_final(job->state) || (stopping && cancel_on_stop);
    });
    if (is_final(job->state)) {
      if (--job->in_flight == 0) release_job_resources(job);
      return;
    }
    prover_queue.push_back(std::move(item));
    queue_cv.notify_all();
  }

  void prover_loop(ProverWorker& w) {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      queue_cv.wait(lock, [&] {
        return !prover_queue.empty() || (stopping && pending.empty() && released.empty());
      });
      if (prover_queue.empty()) return;
      ProverItem item = std::move(prover_queue.front());
      prover_queue.pop_front();
      queue_cv.notify_all();
      const std::shared_ptr<Job> job = item.job;
      if (is_final(job->state)) {
        item.reservation.reset();
        if (--job->in_flight == 0) release_job_resources(job);
        continue;
      }
      w.current_job = job->id;
      w.current_kind = job->kind_label;
      if (job->assigned_gpu.empty()) job->assigned_gpu = w.name;
      lock.unlock();

      const LoadedSrs& srs_ref = **item.srs;
      if (w.gpu && w.last_circuit != srs_ref.circuit_id) {
        // One SRS resident per device: switching circuits drops the previous device copy.
        w.backend->drop_caches();
        w.last_circuit = srs_ref.circuit_id;
      }
      const auto t0 = Clock::now();
      std::string error;
      std::vector<uint8_t> bytes;
      try {
        const groth16::ProofRandomness rand = groth16::ProofRandomness::from_os();
        groth16::ProverTiming pt;
        const groth16::Proof proof =
            item.partition->witness
                ? w.backend->prove(
                      srs_ref.params,
                      groth16::PartitionInput::recorded(*item.partition->witness, *srs_ref.pce),
                      rand, &pt)
                : groth16::create_proof(srs_ref.params, item.partition->assignment, rand,
                                        *w.backend, &pt);
        observe_prover_phases(job->kind_label, pt);
        const std::vector<Fr> inputs = std::move(item.partition->public_inputs);
        item.partition.reset();  // a, b, c and the assignment are not needed any more
        if (config.verify_proofs && !groth16::verify_proof(srs_ref.pvk, proof, inputs)) {
          throw std::runtime_error("the proof does not verify against its public inputs");
        }
        const auto enc = groth16::encode_proof(proof);
        bytes.assign(enc.begin(), enc.end());
      } catch (const std::exception& e) {
        error = e.what();
      }
      const double prove_s = seconds_between(t0, Clock::now());
      if (w.gpu && error.empty()) srs.mark_on_device(srs_ref.circuit_id);
      item.reservation.reset();
      metrics.add("cuzk_prover_busy_seconds_total", {{"worker", w.name}}, prove_s);
      lock.lock();
      w.busy_s += prove_s;
      w.current_job.clear();
      w.current_kind.clear();
      --job->in_flight;
      job->result.timings.gpu_compute_ms += static_cast<uint64_t>(prove_s * 1e3);
      const unsigned k = item.index;
      if (!error.empty()) {
        fail(job, "partition " + std::to_string(k) + " on " + w.name + ": " + error);
      } else if (!is_final(job->state)) {
        metrics.observe("cuzk_partition_phase_seconds",
                        {{"kind", job->kind_label}, {"phase", "prove"}}, prove_s);
        metrics.add("cuzk_partitions_total", {{"kind", job->kind_label}}, 1);
        job->partition_proofs[k] = std::move(bytes);
        if (++job->done_partitions == job->partitions) finish(job, JobState::kCompleted, "");
      }
      if (job->in_flight == 0 && is_final(job->state)) release_job_resources(job);
    }
  }

  void start() {
    std::vector<int> ordinals;
    std::string backend = config.backend;
#if defined(CUZK_HAVE_CUDA)
    if (backend != "cpu") {
      const int count = gpu::device_count();
      if (config.gpus.empty()) {
        for (int i = 0; i < count; ++i)
          ordinals.push_back(i);
      } else {
        for (int g : config.gpus) {
          if (g < 0 || g >= count) {
            throw std::invalid_argument("GPU " + std::to_string(g) + " does not exist (" +
                                        std::to_string(count) + " device(s))");
          }
          ordinals.push_back(g);
        }
      }
    }
#endif
    if (backend == "gpu" && ordinals.empty()) {
      throw std::invalid_argument(groth16::gpu_backend_compiled()
                                      ? "backend gpu: no CUDA device found"
                                      : "backend gpu: this build has no CUDA backend");
    }
    if (backend != "cpu" && backend != "gpu" && backend != "auto") {
      throw std::invalid_argument("backend must be cpu, gpu or auto (got \"" + backend + "\")");
    }
    gpu_provers = !ordinals.empty();
    for (int ordinal : ordinals) {
      auto w = std::make_unique<ProverWorker>();
      w->name = "gpu:" + std::to_string(ordinal);
      w->gpu = true;
      w->ordinal = ordinal;
      w->pool = std::make_unique<ThreadPool>(config.threads);
      w->backend = groth16::make_backend(w->name, *w->pool);
      provers.push_back(std::move(w));
    }
    if (provers.empty()) {
      for (unsigned i = 0; i < std::max(1u, config.cpu_workers); ++i) {
        auto w = std::make_unique<ProverWorker>();
        w->name = "cpu:" + std::to_string(i);
        w->pool = std::make_unique<ThreadPool>(config.threads);
        w->backend = groth16::make_backend("cpu", *w->pool);
        provers.push_back(std::move(w));
      }
    }
    metrics.set("cuzk_memory_budget_bytes", {}, static_cast<double>(budget.limit()));
    for (auto& w : provers) {
      ProverWorker* p = w.get();
      p->thread = std::thread([this, p] { prover_loop(*p); });
    }
    for (unsigned i = 0; i < std::max(1u, config.synthesis_workers); ++i)
      synth_threads.emplace_back([this] { synthesis_loop(); });
  }

  void stop_threads() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stopping = true;
      accepting = false;
    }
    work_cv.notify_all();
    queue_cv.notify_all();
    for (auto& t : synth_threads)
      if (t.joinable()) t.join();
    queue_cv.notify_all();
    for (auto& w : provers)
      if (w->thread.joinable()) w->thread.join();
  }
};

Engine::Engine(EngineConfig config) : Engine(std::move(config), default_handlers()) {}

Engine::Engine(EngineConfig config, std::vector<std::shared_ptr<const CircuitHandler>> handlers)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(handlers))) {
  impl_->start();
}

Engine::~Engine() {
  shutdown(true);
}

SubmitResult Engine::submit(ProofRequest request) {
  Impl& m = *impl_;
  const auto now = Clock::now();
  auto job = std::make_shared<Job>();
  job->kind = request.kind;
  job->kind_label = proof_kind_label(request.kind);
  job->priority = effective_priority(request.priority);
  job->request_id = request.request_id;
  job->submitted = now;
  // The circuit id comes from the request's fields alone (no payload parsing here).
  std::string error;
  const auto h = m.handlers.find(request.kind);
  if (h == m.handlers.end()) {
    error = std::string("proof kind ") + std::to_string(static_cast<int>(request.kind)) + " (" +
            job->kind_label + ") is not supported by this engine (supported: POREP_SEAL_COMMIT)";
  } else {
    job->handler = h->second;
    try {
      job->circuit_id = job->handler->circuit_id(request);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  job->request = std::move(request);
  const uint64_t payload = payload_size(job->request);

  std::unique_lock<std::mutex> lock(m.mu);
  if (!m.accepting) throw std::runtime_error("the engine is shutting down");
  m.drop_expired(now);
  if (!job->request_id.empty()) {
    auto it = m.by_request_id.find(job->request_id);
    if (it != m.by_request_id.end()) {
      const Job& earlier = *m.jobs.at(it->second);
      return {earlier.id, 0, earlier.assigned_gpu, true};
    }
  }
  job->seq = m.next_seq++;
  job->id = "job-" + std::to_string(++m.next_job_number);
  job->result.job_id = job->id;
  m.jobs[job->id] = job;
  if (!job->request_id.empty()) m.by_request_id[job->request_id] = job->id;
  if (!error.empty()) {
    m.fail(job, error);
    return {job->id, 0, "", false};
  }
  if (m.payload_cap == 0 || m.payload_in_memory + payload <= m.payload_cap) {
    m.payload_in_memory += payload;
    job->payload_bytes = payload;
  } else {
    // Over the in-memory share: the payload waits on disk. Written without the lock; the job
    // is known (await, cancel) but not queued meanwhile.
    const std::filesystem::path file = m.spool_dir / (job->id + ".payload");
    ++m.spooled;
    ProofRequest held;  // the payload, out of the job (a cancel may reset job->request)
    held.vanilla_proof = std::move(job->request.vanilla_proof);
    held.vanilla_proofs = std::move(job->request.vanilla_proofs);
    job->request.vanilla_proof = {};
    job->request.vanilla_proofs = {};
    lock.unlock();
    std::string spool_error;
    try {
      std::filesystem::create_directories(m.spool_dir);
      write_spool(file, held);
    } catch (const std::exception& e) {
      spool_error = std::string("cannot spool the payload to disk: ") + e.what();
    }
    held = ProofRequest{};
    lock.lock();
    job->spool_file = file;
    if (!spool_error.empty()) m.fail(job, spool_error);
    if (is_final(job->state)) {  // failed, or cancelled meanwhile (finish dropped nothing yet)
      m.drop_payload(job->payload_bytes, job->spool_file);
      return {job->id, 0, "", false};
    }
  }
  uint32_t ahead = 0;
  for (const auto& p : m.pending)
    if (p->priority >= job->priority) ++ahead;
  // A higher priority arrival flushes the group being collected, so it is not held back behind
  // the batch wait (the anchor's batch collector rule).
  if (const auto head = m.pending_head(); head && job->priority > head->priority) {
    for (const auto& j : m.collecting_group(head))
      j->flush = true;
  }
  m.pending.push_back(job);
  m.work_cv.notify_all();
  return {job->id, ahead, "", false};
}

std::optional<JobResult> Engine::await(const std::string& job_id,
                                       std::chrono::milliseconds timeout) {
  Impl& m = *impl_;
  std::unique_lock<std::mutex> lock(m.mu);
  auto it = m.jobs.find(job_id);
  if (it == m.jobs.end()) {
    JobResult r;
    r.job_id = job_id;
    r.state = JobState::kFailed;
    r.error_message = "unknown job id \"" + job_id + "\"";
    return r;
  }
  const std::shared_ptr<Job> job = it->second;
  const auto final = [&] { return is_final(job->state); };
  if (timeout.count() <= 0) {
    m.done_cv.wait(lock, final);
  } else if (!m.done_cv.wait_for(lock, timeout, final)) {
    return std::nullopt;
  }
  return job->result;
}

CancelResult Engine::cancel(const std::string& job_id) {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.mu);
  auto it = m.jobs.find(job_id);
  if (it == m.jobs.end()) return {false, false};
  const std::shared_ptr<Job> job = it->second;
  if (is_final(job->state)) return {true, false};
  const bool running = job->released;
  m.finish(job, JobState::kCancelled, running ? "cancelled while running" : "cancelled");
  m.queue_cv.notify_all();
  return {true, running};
}

EngineStatus Engine::status() const {
  const Impl& m = *impl_;
  EngineStatus s;
  s.srs = m.srs.list();
  s.memory_in_use_bytes = m.budget.in_use();
  s.memory_budget_bytes = m.budget.limit();
  s.memory_peak_bytes = m.budget.peak();
  std::map<std::string, QueueInfo> queues;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    for (const auto& j : m.pending)
      ++queues[j->kind_label].pending;
    for (const auto& j : m.released)
      ++queues[j->kind_label].in_progress;
    s.completed = m.completed;
    s.queued_payload_bytes = m.payload_in_memory;
    s.spooled_jobs = m.spooled;
    s.failed = m.failed;
    s.cancelled = m.cancelled;
    for (const auto& w : m.provers) {
      if (!w->gpu) continue;
      GpuInfo g;
      g.ordinal = static_cast<uint32_t>(w->ordinal);
      g.current_job_id = w->current_job;
      g.current_proof_kind = w->current_kind;
      s.gpus.push_back(g);
    }
  }
#if defined(CUZK_HAVE_CUDA)
  if (!s.gpus.empty()) {
    const auto devices = gpu::list_devices();
    for (GpuInfo& g : s.gpus) {
      for (const auto& d : devices) {
        if (d.ordinal != static_cast<int>(g.ordinal)) continue;
        g.name = d.name;
        g.vram_total_bytes = d.total_bytes;
        g.vram_free_bytes = d.free_bytes;
      }
    }
  }
#endif
  for (auto& [kind, q] : queues) {
    q.proof_kind = kind;
    s.queues.push_back(q);
  }
  s.uptime_seconds = static_cast<uint64_t>(seconds_between(m.started_at, Clock::now()));
  return s;
}

namespace {

uint64_t resident_set_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

std::string Engine::metrics_text() const {
  Impl& m = *impl_;
  const EngineStatus s = status();
  for (const char* kind : {"porep", "snap", "wpost", "winning"}) {
    uint32_t pending = 0, running = 0;
    for (const auto& q : s.queues) {
      if (q.proof_kind != kind) continue;
      pending = q.pending;
      running = q.in_progress;
    }
    m.metrics.set("cuzk_queue_jobs", {{"kind", kind}, {"state", "pending"}}, pending);
    m.metrics.set("cuzk_queue_jobs", {{"kind", kind}, {"state", "in_progress"}}, running);
  }
  {
    std::lock_guard<std::mutex> lock(m.mu);
    m.metrics.set("cuzk_prover_queue_partitions", {}, static_cast<double>(m.prover_queue.size()));
  }
  m.metrics.set("cuzk_memory_reserved_bytes", {}, static_cast<double>(s.memory_in_use_bytes));
  m.metrics.set("cuzk_memory_reserved_peak_bytes", {}, static_cast<double>(m.budget.peak()));
  m.metrics.set("cuzk_process_resident_bytes", {}, static_cast<double>(resident_set_bytes()));
  for (const auto& srs : s.srs) {
    for (const char* tier : {"hot", "warm", "cold"}) {
      const bool here = (srs.tier == SrsTier::kHot && tier[0] == 'h') ||
                        (srs.tier == SrsTier::kWarm && tier[0] == 'w') ||
                        (srs.tier == SrsTier::kCold && tier[0] == 'c');
      m.metrics.set("cuzk_srs_loaded_bytes", {{"circuit_id", srs.circuit_id}, {"tier", tier}},
                    here && srs.tier != SrsTier::kCold ? static_cast<double>(srs.size_bytes) : 0);
    }
  }
  m.metrics.set("cuzk_uptime_seconds", {}, static_cast<double>(s.uptime_seconds));
  m.metrics.set("cuzk_queued_payload_bytes", {}, static_cast<double>(s.queued_payload_bytes));
  m.metrics.set("cuzk_spooled_jobs", {}, static_cast<double>(s.spooled_jobs));
  return m.metrics.render();
}

PreloadResult Engine::preload_srs(const std::string& circuit_id) {
  return impl_->srs.preload(circuit_id);
}

EvictResult Engine::evict_srs(const std::string& circuit_id) {
  Impl& m = *impl_;
  // Known ids only (an unknown one is an error, not "was not loaded").
  (void)m.resolve_srs(circuit_id);
  return m.srs.evict(circuit_id);
}

void Engine::shutdown(bool cancel_running) {
  Impl& m = *impl_;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    if (m.stopping && m.synth_threads.empty()) return;
    m.accepting = false;
    m.cancel_on_stop = cancel_running;
    if (cancel_running) {
      const auto all = m.pending;
      for (const auto& j : all)
        m.finish(j, JobState::kCancelled, "cancelled: the engine is shutting down");
      const auto running = m.released;
      for (const auto& j : running)
        m.finish(j, JobState::kCancelled, "cancelled: the engine is shutting down");
    }
  }
  m.stop_threads();
  std::lock_guard<std::mutex> lock(m.mu);
  m.synth_threads.clear();
}

bool Engine::accepting() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->accepting;
}

}  // namespace cuzk::engine
