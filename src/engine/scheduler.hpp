// Scheduler: which job the pipeline works on next, with no threads and no locks of its own (the
// engine calls it under its mutex), so that priorities, batching and pre-emption are tested
// directly (tests/engine/scheduler_test.cpp).
//
// Submitted jobs wait in `pending`; the head (highest priority, then — with sort_by_type — the
// circuit released last, then submission order) collects a group of up to max_batch_size jobs
// of its circuit and priority, released together when the group is full, has waited
// max_batch_wait_ms, a higher priority job arrived meanwhile, the engine stops, or the head is
// HIGH or CRITICAL (those never wait to be batched). Released jobs are served one partition at a
// time, highest priority first and then in release order, so a CRITICAL job takes the next
// partition slot even while another job's partitions remain.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/job.hpp"

namespace cuzk::engine {

class Scheduler {
 public:
  struct Options {
    unsigned max_batch_size = 1;
    uint64_t max_batch_wait_ms = 0;
    bool sort_by_type = false;
  };
  explicit Scheduler(Options o) : o_(o) {}

  // Queues `job` (sets its seq); returns the pending jobs ahead of it (same or higher priority).
  uint32_t submit(const std::shared_ptr<Job>& job);

  // The next piece of work at `now`: a released job to prepare, or its next partition (the job
  // moves to JobStage::kPreparing, or on to its next partition: the caller counts that one into
  // the pipeline with a PartitionTicket). Nullopt when nothing can run; then
  // `deadline` (if given) gets the time a collecting batch will be released, if one is. Without
  // `partition_room` (the prover queue holds its lookahead), only preparations and CRITICAL
  // partitions are handed out: a worker that took a partition it could not hand on would sit on
  // it, and a WinningPoSt that arrived meanwhile found no worker (5.9 s of its 8.0 s on the
  // H200, behind a 32 GiB PoRep partition that was uploading its parameters).
  // `take` limits the work to CRITICAL jobs (the engine's critical lane) or to the others; a
  // pending group is released only for a caller that takes it.
  enum class Take { kAny, kCriticalOnly, kAllButCritical };
  // The preparations a caller takes of jobs below CRITICAL (a CRITICAL job is prepared by the
  // worker that takes it): kTake, as a partition; kLeave, none (a synthesis worker while the
  // preparer is idle: it takes them itself); kOnly, the preparer's: nothing else, and a job
  // only when its preparation is what a worker would take next, so that jobs start at the
  // pace the partitions leave (a job ahead with partitions to hand out keeps the next one
  // waiting, as before the preparer pulled its own work).
  enum class Preparations { kTake, kLeave, kOnly };
  struct Next {
    std::shared_ptr<Job> job;
    bool prepare = false;
    unsigned partition = 0;
  };
  std::optional<Next> next(Clock::time_point now, bool stopping,
                           std::optional<Clock::time_point>* deadline, bool partition_room = true,
                           Take take = Take::kAny, Preparations preparations = Preparations::kTake);

  // Forgets a job that became final (pending or released).
  void remove(const std::shared_ptr<Job>& job);

  const std::vector<std::shared_ptr<Job>>& pending() const { return pending_; }
  const std::vector<std::shared_ptr<Job>>& released() const { return released_; }
  bool empty() const { return pending_.empty() && released_.empty(); }

 private:
  std::shared_ptr<Job> pending_head() const;
  std::vector<std::shared_ptr<Job>> collecting_group(const std::shared_ptr<Job>& head) const;
  bool try_release(Clock::time_point now, bool stopping,
                   std::optional<Clock::time_point>* deadline);
  bool may_start(const Job& j) const;
  std::shared_ptr<Job> best_released(bool partition_room, Take take,
                                     Preparations preparations) const;
  static bool takes(Take take, const Job& j);
  static bool takes_preparation(Preparations preparations, const Job& j);

  Options o_;
  std::vector<std::shared_ptr<Job>> pending_;   // submitted, not released (any order)
  std::vector<std::shared_ptr<Job>> released_;  // released, not final
  uint64_t next_seq_ = 0, next_release_ = 0;
  std::string last_released_circuit_;
};

}  // namespace cuzk::engine
