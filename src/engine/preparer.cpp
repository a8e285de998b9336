// The preparer stage: a released job's payload read back from the spool if it waits there,
// parsed by its proof kind's handler (its memory reserved first), its parameters acquired from
// the SRS manager, and the prepared job's bytes reserved; then the job is kPrepared and its
// partitions go to the synthesizer (synthesizer.cpp). Run by the preparer thread, which takes
// its jobs from the scheduler (prepare_loop), or by a synthesis worker for a CRITICAL job or a
// higher-priority one while the preparer is busy.
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/engine_impl.hpp"

namespace cuzk::engine {

namespace {

// Parsing a payload holds at most this many times its bytes: the text, the JSON parser's tree and
// the parsed vanilla proofs (the 51 MB C1 of a 32 GiB sector peaked at 365 MB, 7.1x, in
// `cuzk-bench synth-only --mode metric`).
constexpr uint64_t kParseFactor = 8;

}  // namespace

void Engine::Impl::prepare_loop() {
  std::unique_lock<std::mutex> lock(mu);
  for (;;) {  // idle_preparers counts this thread from start() on, and whenever it waits here
    Task task;
    std::optional<Clock::time_point> deadline;
    while (!next_task(&task, &deadline, Scheduler::Take::kAllButCritical,
                      Scheduler::Preparations::kOnly)) {
      if (stopping && scheduler.empty()) {
        --idle_preparers;  // gone: a worker prepares what is left
        work_cv.notify_all();
        return;
      }
      if (deadline) {
        work_cv.wait_until(lock, *deadline);
      } else {
        work_cv.wait_for(lock, std::chrono::milliseconds(200));
      }
      deadline.reset();
    }
    --idle_preparers;
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
  if (!error.empty()) {
    finish(job, JobState::kFailed, error);
    return;
  }
  if (is_final(job->state)) return;  // cancelled meanwhile
  job->work = std::move(work);
  job->srs = std::move(lease);
  job->resident = std::move(resident);
  job->partitions = job->work->partitions();
  job->partition_proofs.assign(job->partitions, {});
  advance(*job, JobStage::kPrepared);
  work_cv.notify_all();
}

}  // namespace cuzk::engine
