// The synthesizer stage: the synthesis workers and the critical lane take work from the
// scheduler (next_task): a partition, which they synthesize into the prover queue with its
// PartitionTicket (run_partition; the prover pool takes it from there, prover_worker.cpp), or a
// job to prepare that the preparer cannot take now (CRITICAL, or the preparer busy).
#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "engine/engine_impl.hpp"
#include "engine/partition_prover.hpp"

namespace cuzk::engine {

bool Engine::Impl::next_task(Task* task, std::optional<Clock::time_point>* deadline,
                             Scheduler::Take take, Scheduler::Preparations preparations) {
  // As many partitions ahead of the provers as before workers stopped waiting on a full queue
  // (the lookahead queued plus one held by each worker), but none of them held by a worker.
  const size_t ahead =
      std::max(1u, config.synthesis_lookahead) + std::max(1u, config.synthesis_workers);
  const auto next =
      scheduler.next(Clock::now(), stopping, deadline,
                     prover_queue.size() + partitions_synthesizing < ahead, take, preparations);
  if (!next) return false;
  task->job = next->job;
  task->prepare = next->prepare;
  if (!next->prepare) {
    task->ticket = PartitionTicket(next->job, next->partition, &partitions_synthesizing);
    // The job's last partition handed out, or the lookahead full: what the preparer waits for
    // to start the next job (Scheduler::Preparations::kOnly).
    const bool last = next->job->next_partition >= next->job->partitions;
    if (idle_preparers > 0 && (last || prover_queue.size() + partitions_synthesizing >= ahead))
      work_cv.notify_all();
  } else {
    task->request = std::move(next->job->request);
    task->spool_file = std::exchange(next->job->spool_file, {});
    task->payload_bytes = std::exchange(next->job->payload_bytes, 0);
  }
  return true;
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
  // Jobs below CRITICAL are prepared by the preparer while it is idle (it takes them from the
  // scheduler itself); while it is busy a worker prepares a higher-priority one it takes.
  const auto preparations = [&] {
    return critical_lane || idle_preparers == 0 ? Scheduler::Preparations::kTake
                                                : Scheduler::Preparations::kLeave;
  };
  std::unique_lock<std::mutex> lock(mu);
  for (;;) {
    Task task;
    std::optional<Clock::time_point> deadline;
    while (!next_task(&task, &deadline, take(), preparations())) {
      if (stopping && scheduler.empty()) return;
      if (deadline) {
        work_cv.wait_until(lock, *deadline);
      } else {
        work_cv.wait_for(lock, std::chrono::milliseconds(200));
      }
      deadline.reset();
    }
    if (critical_lane) {
      critical_lane_busy = true;
      work_cv.notify_all();  // another CRITICAL task waiting may go to another worker now
    }
    lock.unlock();
    if (task.prepare) {
      auto span = history.open(lane, *task.job, -1, "prepare");
      run_prepare(task);  // CRITICAL (nothing ranks above it), or the preparer is busy
      span.succeeded();
    } else {
      run_partition(std::move(task.ticket), lane);
    }
    lock.lock();
    if (critical_lane) critical_lane_busy = false;
  }
}

void Engine::Impl::run_partition(PartitionTicket ticket, const std::string& lane) {
  const std::shared_ptr<Job> job = ticket.job();
  const unsigned k = ticket.index();
  std::shared_ptr<const PreparedJob> work;
  std::shared_ptr<SrsLease> lease;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (is_final(job->state)) {
      ticket.leave();
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
    std::lock_guard<std::mutex> lock(mu);
    ticket.leave();
    return;
  }
  ticket.memory() = Reservation(&budget, bytes);
  ProverItem item{job, lease, k, nullptr, std::move(ticket), {}, {}, nullptr};
  auto span = history.open(lane, *job, static_cast<int>(k), "witness");
  const auto t0 = Clock::now();
  try {
    PhaseClock::Scope synthesizing(job->phases, PhaseClock::Activity::kSynthesis);
    const LoadedSrs& s = **lease;
    item.partition = synthesize_partition(work->partition(k), s.pce.get(), s.shape, pool_for(*job));
    if (item.partition->witness && gpu_provers)
      item.ticket.memory().shrink_to(item.partition->witness->bytes());
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mu);
    finish(job, JobState::kFailed, "partition " + std::to_string(k) + " synthesis: " + e.what());
    item.ticket.leave();
    return;
  }
  const auto t1 = Clock::now();
  span.phase("witness", t0, t1);
  const double synth_s = seconds_between(t0, t1);
  metrics.observe("cuzk_partition_phase_seconds",
                  {{"kind", job->kind_label}, {"phase", "synthesis"}}, synth_s);
  std::lock_guard<std::mutex> lock(mu);
  item.ticket.synthesized();  // its place in the lookahead was taken when it was handed out
  if (is_final(job->state)) {
    item.ticket.leave();
    work_cv.notify_all();
    return;
  }
  prover_queue.push_back(std::move(item));
  queue_cv.notify_all();
  span.phase("queued", t1, Clock::now());
  span.succeeded();
}

}  // namespace cuzk::engine
