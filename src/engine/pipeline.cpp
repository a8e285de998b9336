// The engine's workers: synthesis (preparing jobs, synthesizing partitions into the prover
// queue) and one prover per device or CPU worker (proving, verifying, completing partitions).
#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>
#include <utility>

#include "backend/backend_factory.hpp"
#include "engine/engine_impl.hpp"
#include "engine/partition_prover.hpp"
#include "util/text.hpp"

namespace cuzk::engine {

namespace {

// Why the provers are the CPU's though the backend is "auto" (plan_provers' note: no device, or
// a build without CUDA), and what that means for the jobs the engine takes.
std::string describe_cpu_fallback(const std::string& note, const EngineConfig& config) {
  const unsigned workers = std::max(1u, config.cpu_workers);
  constexpr std::string_view kPrefix = "cpu: auto, ";
  const std::string why = note.starts_with(kPrefix) ? note.substr(kPrefix.size()) : note;
  std::string s = "backend auto found no usable GPU (" + why + "): proving on " +
                  std::to_string(workers) + " CPU prover" + (workers == 1 ? "" : "s");
  if (config.cpu_fallback_max_sector_size == 0) return s + ", every sector size";
  return s + "; sectors above " + binary_size_name(config.cpu_fallback_max_sector_size) +
         " are refused ([gpus] cpu_fallback_max_sector_size)";
}

// Parsing a payload holds at most this many times its bytes: the text, the JSON parser's tree and
// the parsed vanilla proofs (the 51 MB C1 of a 32 GiB sector peaked at 365 MB, 7.1x, in
// `cuzk-bench synth-only --mode metric`).
constexpr uint64_t kParseFactor = 8;

}  // namespace

bool Engine::Impl::next_task(Task* task, std::optional<Clock::time_point>* deadline,
                             Scheduler::Take take) {
  // As many partitions ahead of the provers as before workers stopped waiting on a full queue
  // (the lookahead queued plus one held by each worker), but none of them held by a worker.
  const size_t ahead =
      std::max(1u, config.synthesis_lookahead) + std::max(1u, config.synthesis_workers);
  const auto next = scheduler.next(Clock::now(), stopping, deadline,
                                   prover_queue.size() + partitions_synthesizing < ahead, take);
  if (!next) return false;
  if (!next->prepare) {
    ++partitions_synthesizing;
    ++next->job->synthesizing;
  }
  task->job = next->job;
  task->prepare = next->prepare;
  task->partition = next->partition;
  if (next->prepare) {
    task->request = std::move(next->job->request);
    task->spool_file = std::exchange(next->job->spool_file, {});
    task->payload_bytes = std::exchange(next->job->payload_bytes, 0);
  }
  return true;
}

void Engine::Impl::observe_prover_phases(const std::string& kind, const groth16::ProverTiming& t) {
  const std::pair<const char*, double> phases[] = {
      {"upload", t.upload_s},     {"spmv", t.spmv_s},        {"h_chain", t.quotient_s},
      {"msm_h", t.msm_h_s},       {"msm_l", t.msm_l_s},      {"msm_a", t.msm_a_s},
      {"msm_b_g1", t.msm_b_g1_s}, {"msm_b_g2", t.msm_b_g2_s}};
  for (const auto& [name, s] : phases) {
    if (s > 0)
      metrics.observe("cuzk_partition_phase_seconds", {{"kind", kind}, {"phase", name}}, s);
  }
}

ThreadPool& Engine::Impl::pool_for(const Job& job) {
  return job.priority == effective_priority(Priority::kCritical) ? critical_pool : pool;
}

void Engine::Impl::synthesis_loop(const std::string& lane, bool critical_lane) {
  // The other workers leave CRITICAL work to the critical lane while it is free: there it runs
  // on the critical pool at once, never behind another job's partition on this worker.
  const auto take = [&] {
    if (critical_lane) return Scheduler::Take::kCriticalOnly;
    return critical_lane_busy ? Scheduler::Take::kAny : Scheduler::Take::kAllButCritical;
  };
  std::unique_lock<std::mutex> lock(mu);
  for (;;) {
    Task task;
    std::optional<Clock::time_point> deadline;
    while (!next_task(&task, &deadline, take())) {
      if (stopping && scheduler.empty()) return;
      if (deadline) {
        work_cv.wait_until(lock, *deadline);
      } else {
        work_cv.wait_for(lock, std::chrono::milliseconds(200));
      }
      deadline.reset();
    }
    // A CRITICAL job is prepared here, next (nothing ranks above it); any other goes to an idle
    // preparer, and this worker goes on with partitions meanwhile.
    if (task.prepare && task.job->priority != effective_priority(Priority::kCritical) &&
        idle_preparers > prepare_queue.size()) {
      prepare_queue.push_back(std::move(task));  // an idle preparer takes it at once
      prepare_cv.notify_one();
      continue;
    }
    if (critical_lane) {
      critical_lane_busy = true;
      work_cv.notify_all();  // another CRITICAL task waiting may go to another worker now
    }
    lock.unlock();
    if (task.prepare) {
      auto span = history.open(lane, *task.job, -1, "prepare");
      run_prepare(task);  // CRITICAL, or the preparer is busy: this worker prepares
      span.succeeded();
    } else {
      run_partition(task.job, task.partition, lane);
    }
    lock.lock();
    if (critical_lane) critical_lane_busy = false;
  }
}

void Engine::Impl::prepare_loop() {
  std::unique_lock<std::mutex> lock(mu);
  for (;;) {  // idle_preparers counts this thread from start() on, and whenever it waits here
    prepare_cv.wait(lock, [this] { return !prepare_queue.empty() || preparers_stop; });
    if (prepare_queue.empty()) return;  // preparers_stop
    --idle_preparers;
    Task task = std::move(prepare_queue.front());
    prepare_queue.pop_front();
    lock.unlock();
    {
      auto span = history.open("prepare", *task.job, -1, "prepare");
      run_prepare(task);
      span.succeeded();
    }
    lock.lock();
    ++idle_preparers;
  }
}

bool Engine::Impl::reclaim_or(uint64_t bytes, const std::function<bool()>& abandon) {
  srs.reclaim(bytes);
  return abandon();
}

void Engine::Impl::run_prepare(Task& task) {
  const std::shared_ptr<Job>& job = task.job;
  ProofRequest& request = task.request;
  const auto abandon = [this, job] {
    std::lock_guard<std::mutex> g(mu);
    return is_final(job->state) || (stopping && cancel_on_stop);
  };
  std::shared_ptr<const PreparedJob> work;
  std::shared_ptr<SrsLease> lease;
  Reservation resident;
  std::string error;
  using Activity = PhaseClock::Activity;
  try {
    if (!task.spool_file.empty()) {
      PhaseClock::Scope reading(job->phases, Activity::kSynthesis);
      try {
        PayloadSpool::read(task.spool_file, request);
      } catch (const std::exception& e) {
        throw std::runtime_error(std::string("the spooled payload is unreadable: ") + e.what());
      }
    }
    // The payload is parsed before anything heavy is loaded for it (a garbage payload naming a
    // 32 GiB proof must not cost a 47 GiB parameter load), with the parse's memory reserved
    // first: kParseFactor times the payload bounds the parsed form and the parser's transients.
    const uint64_t parse_bytes = payload_size(request) * kParseFactor;
    if (budget.limit() != 0 && parse_bytes > budget.capacity()) {
      throw std::invalid_argument("the payload (" + std::to_string(payload_size(request)) +
                                  " bytes) is too large to parse within the memory budget");
    }
    if (!budget.reserve(parse_bytes, [&] { return reclaim_or(parse_bytes, abandon); })) {
      throw std::runtime_error("abandoned while waiting for memory to parse the payload");
    }
    {
      Reservation parsing(&budget, parse_bytes);
      PhaseClock::Scope parse(job->phases, Activity::kSynthesis);
      work = job->handler->prepare(request, pool_for(*job));
    }
    request = ProofRequest{};  // parsed: the raw payload is not needed any more
    {
      PhaseClock::Scope loading(job->phases, Activity::kSrsLoad);
      lease = std::make_shared<SrsLease>(srs.acquire(job->circuit_id, nullptr, abandon));
    }
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

void Engine::Impl::partition_abandoned(const std::shared_ptr<Job>& job) {
  std::lock_guard<std::mutex> lock(mu);
  --partitions_synthesizing;
  --job->synthesizing;
  if (--job->in_flight == 0 && is_final(job->state)) release_job_resources(job);
}

void Engine::Impl::run_partition(const std::shared_ptr<Job>& job, unsigned k,
                                 const std::string& lane) {
  std::shared_ptr<const PreparedJob> work;
  std::shared_ptr<SrsLease> lease;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (is_final(job->state)) {
      --partitions_synthesizing;
      --job->synthesizing;
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
  ProverItem item{job, lease, k, nullptr, Reservation(&budget, bytes), {}, {}};
  auto span = history.open(lane, *job, static_cast<int>(k), "witness");
  const auto t0 = Clock::now();
  try {
    PhaseClock::Scope synthesizing(job->phases, PhaseClock::Activity::kSynthesis);
    const LoadedSrs& s = **lease;
    item.partition = synthesize_partition(work->partition(k), s.pce.get(), s.shape, pool_for(*job));
    if (item.partition->witness && gpu_provers)
      item.reservation.shrink_to(item.partition->witness->bytes());
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mu);
    --partitions_synthesizing;
    --job->synthesizing;
    --job->in_flight;
    fail(job, "partition " + std::to_string(k) + " synthesis: " + e.what());
    if (job->in_flight == 0) release_job_resources(job);
    return;
  }
  const auto t1 = Clock::now();
  span.phase("witness", t0, t1);
  const double synth_s = seconds_between(t0, t1);
  metrics.observe("cuzk_partition_phase_seconds",
                  {{"kind", job->kind_label}, {"phase", "synthesis"}}, synth_s);
  std::lock_guard<std::mutex> lock(mu);
  --partitions_synthesizing;  // its place in the lookahead was taken when it was handed out
  --job->synthesizing;
  if (is_final(job->state)) {
    if (--job->in_flight == 0) release_job_resources(job);
    work_cv.notify_all();
    return;
  }
  prover_queue.push_back(std::move(item));
  queue_cv.notify_all();
  span.phase("queued", t1, Clock::now());
  span.succeeded();
}

void Engine::Impl::start() {
  metrics.set("cuzk_memory_budget_bytes", {}, static_cast<double>(budget.limit()));
  std::vector<std::string> kinds = config.fake_devices.names;
  if (kinds.empty()) {
    std::string note;
    try {
      kinds = groth16::plan_provers(config.backend, config.gpus, &note);
    } catch (const groth16::NoGpuError& e) {
      no_prover_reason = e.what();
      if (config.on_event) config.on_event("no_prover", no_prover_reason);
      return;  // nothing to run: no threads (stop_threads joins none)
    }
    if (config.backend == "auto" && kinds.front() == "cpu") {
      cpu_fallback_reason = describe_cpu_fallback(note, config);
      if (config.on_event) config.on_event("cpu_fallback", cpu_fallback_reason);
    }
  }
  gpu_provers = kinds.front() != "cpu";
  if (gpu_provers) {
    for (const std::string& kind : kinds) {
      auto w = std::make_unique<ProverWorker>();
      w->name = kind;
      w->gpu = true;
      w->ordinal = std::stoi(kind.substr(4));
      w->pool = std::make_unique<ThreadPool>(config.threads);
      w->backend = config.fake_devices.make
                       ? config.fake_devices.make(kind, *w->pool)
                       : groth16::make_backend(kind, *w->pool, nullptr, config.gpu_memory_limit);
      metrics.set("cuzk_prover_in_rotation", {{"worker", kind}}, 1);
      metrics.set("cuzk_gpu_memory_limit_bytes", {{"gpu", kind}},
                  static_cast<double>(config.gpu_memory_limit));
      provers.push_back(std::move(w));
    }
  } else {
    for (unsigned i = 0; i < std::max(1u, config.cpu_workers); ++i) {
      auto w = std::make_unique<ProverWorker>();
      w->name = "cpu:" + std::to_string(i);
      w->pool = std::make_unique<ThreadPool>(config.threads);
      w->backend = groth16::make_backend("cpu", *w->pool);
      provers.push_back(std::move(w));
    }
  }
  cpu_fallback = groth16::make_backend("cpu", pool);
  for (auto& w : provers) {
    history.declare_lane(w->name, "prover");
    ProverWorker* p = w.get();
    p->thread = std::thread([this, p] { prover_loop(*p); });
  }
  // One preparer: the scheduler starts one job (below CRITICAL) at a time; CRITICAL jobs are
  // prepared by the synthesis worker that takes them.
  {
    std::lock_guard<std::mutex> lock(mu);
    idle_preparers = 1;  // before any worker can hand it a task
  }
  for (unsigned i = 0; i < std::max(1u, config.synthesis_workers); ++i)
    history.declare_lane("synth:" + std::to_string(i), "synthesis");
  history.declare_lane(kCriticalLane, "synthesis");
  history.declare_lane("prepare", "preparer");
  prepare_threads.emplace_back([this] { prepare_loop(); });
  for (unsigned i = 0; i < std::max(1u, config.synthesis_workers); ++i)
    synth_threads.emplace_back([this, i] { synthesis_loop("synth:" + std::to_string(i), false); });
  synth_threads.emplace_back([this] { synthesis_loop(kCriticalLane, true); });
}

void Engine::Impl::stop_threads() {
  {
    std::lock_guard<std::mutex> lock(mu);
    stopping = true;
    accepting = false;
  }
  work_cv.notify_all();
  queue_cv.notify_all();
  for (auto& t : synth_threads)
    if (t.joinable()) t.join();
  // Only now: a synthesis worker may hand a prepare task over until it leaves (it leaves once
  // every job is final, so the queue is empty by then).
  {
    std::lock_guard<std::mutex> lock(mu);
    preparers_stop = true;
  }
  prepare_cv.notify_all();
  for (auto& t : prepare_threads)
    if (t.joinable()) t.join();
  queue_cv.notify_all();
  for (auto& w : provers)
    if (w->thread.joinable()) w->thread.join();
}

}  // namespace cuzk::engine
