#include "engine/scheduler.hpp"

#include <algorithm>

namespace cuzk::engine {

uint32_t Scheduler::submit(const std::shared_ptr<Job>& job) {
  job->seq = next_seq_++;
  uint32_t ahead = 0;
  for (const auto& p : pending_)
    if (p->priority >= job->priority) ++ahead;
  // A higher priority arrival flushes the group being collected, so that it is not held back
  // behind the batch wait (the anchor's batch collector rule).
  if (const auto head = pending_head(); head && job->priority > head->priority) {
    for (const auto& j : collecting_group(head))
      j->flush = true;
  }
  pending_.push_back(job);
  return ahead;
}

std::shared_ptr<Job> Scheduler::pending_head() const {
  std::shared_ptr<Job> best;
  for (const auto& j : pending_) {
    if (!best) {
      best = j;
      continue;
    }
    if (j->priority != best->priority) {
      if (j->priority > best->priority) best = j;
      continue;
    }
    if (o_.sort_by_type) {
      const bool jm = j->circuit_id == last_released_circuit_;
      const bool bm = best->circuit_id == last_released_circuit_;
      if (jm != bm) {
        if (jm) best = j;
        continue;
      }
    }
    if (j->seq < best->seq) best = j;
  }
  return best;
}

std::vector<std::shared_ptr<Job>> Scheduler::collecting_group(
    const std::shared_ptr<Job>& head) const {
  std::vector<std::shared_ptr<Job>> group;
  for (const auto& j : pending_)
    if (j->circuit_id == head->circuit_id && j->priority == head->priority) group.push_back(j);
  std::sort(group.begin(), group.end(),
            [](const auto& a, const auto& b) { return a->seq < b->seq; });
  const size_t max = std::max(1u, o_.max_batch_size);
  if (group.size() > max) group.resize(max);
  return group;
}

bool Scheduler::try_release(Clock::time_point now, bool stopping,
                            std::optional<Clock::time_point>* deadline) {
  const std::shared_ptr<Job> head = pending_head();
  if (!head) return false;
  const std::vector<std::shared_ptr<Job>> group = collecting_group(head);
  const auto due = head->submitted + std::chrono::milliseconds(o_.max_batch_wait_ms);
  const bool ready =
      group.size() >= std::max(1u, o_.max_batch_size) || o_.max_batch_wait_ms == 0 || now >= due ||
      stopping || head->priority > static_cast<int>(Priority::kNormal) ||
      std::any_of(group.begin(), group.end(), [](const auto& j) { return j->flush; });
  if (!ready) {
    if (deadline != nullptr) *deadline = due;
    return false;
  }
  for (const auto& j : group) {
    pending_.erase(std::find(pending_.begin(), pending_.end(), j));
    advance(*j, JobStage::kReleased);
    j->release_seq = next_release_++;
    j->result.batch_size = static_cast<unsigned>(group.size());
    released_.push_back(j);
  }
  last_released_circuit_ = head->circuit_id;
  return true;
}

// While a job is being prepared (its parameters may take a minute to load), no job of the same
// or a lower priority is released or starts: jobs start in priority order, FIFO within a level.
// A CRITICAL one always may, and partitions of prepared jobs go on meanwhile.
bool Scheduler::may_start(const Job& j) const {
  if (j.priority == effective_priority(Priority::kCritical)) return true;
  return std::none_of(released_.begin(), released_.end(), [&](const auto& p) {
    return p->stage == JobStage::kPreparing && p->priority >= j.priority;
  });
}

bool Scheduler::takes(Take take, const Job& j) {
  const bool critical = j.priority == effective_priority(Priority::kCritical);
  return take == Take::kAny || (take == Take::kCriticalOnly) == critical;
}

bool Scheduler::takes_preparation(Preparations preparations, const Job& j) {
  return preparations != Preparations::kLeave ||
         j.priority == effective_priority(Priority::kCritical);
}

std::shared_ptr<Job> Scheduler::best_released(bool partition_room, Take take,
                                              Preparations preparations) const {
  const int critical = effective_priority(Priority::kCritical);
  std::shared_ptr<Job> best;
  for (const auto& j : released_) {
    if (is_final(j->state) || j->stage == JobStage::kPreparing || !takes(take, *j)) continue;
    const bool prepared = j->stage == JobStage::kPrepared;
    if (prepared && j->next_partition >= j->partitions) continue;
    if (prepared && !partition_room && j->priority != critical) continue;
    if (!prepared && (!may_start(*j) || !takes_preparation(preparations, *j))) continue;
    if (!best || j->priority > best->priority ||
        (j->priority == best->priority && j->release_seq < best->release_seq)) {
      best = j;
    }
  }
  return best;
}

std::optional<Scheduler::Next> Scheduler::next(Clock::time_point now, bool stopping,
                                               std::optional<Clock::time_point>* deadline,
                                               bool partition_room, Take take,
                                               Preparations preparations) {
  std::shared_ptr<Job> job = best_released(partition_room, take, preparations);
  // A group is released only for a caller that takes it (releasing it early would end its
  // batch collection and its place in the sort_by_type order).
  const std::shared_ptr<Job> head = pending_head();
  if (head && takes(take, *head) && takes_preparation(preparations, *head) &&
      (!job || head->priority > job->priority) && may_start(*head)) {
    if (try_release(now, stopping, deadline))
      job = best_released(partition_room, take, preparations);
  }
  if (!job) return std::nullopt;
  // The preparer takes no partition, and leaves the jobs behind one a worker would take first.
  if (preparations == Preparations::kOnly && job->stage == JobStage::kPrepared) return std::nullopt;
  Next n{job, false, 0};
  if (job->stage != JobStage::kPrepared) {
    advance(*job, JobStage::kPreparing);
    job->started = now;
    n.prepare = true;
  } else {
    n.partition = job->next_partition++;
  }
  return n;
}

void Scheduler::remove(const std::shared_ptr<Job>& job) {
  pending_.erase(std::remove(pending_.begin(), pending_.end(), job), pending_.end());
  released_.erase(std::remove(released_.begin(), released_.end(), job), released_.end());
}

}  // namespace cuzk::engine
