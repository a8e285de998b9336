#include "engine/job_table.hpp"

#include <cstdio>
#include <random>
#include <utility>

namespace cuzk::engine {

JobTable::JobTable(std::string id_prefix) : id_prefix_(std::move(id_prefix)) {}

std::string JobTable::random_id_prefix() {
  std::random_device os;
  char tag[16];
  std::snprintf(tag, sizeof tag, "job-%08x-", static_cast<unsigned>(os()));
  return tag;
}

std::string JobTable::next_id() {
  return id_prefix_ + std::to_string(++next_number_);
}

void JobTable::add(const std::shared_ptr<Job>& job) {
  jobs_[job->id] = job;
  if (!job->request_id.empty()) by_request_id_[job->request_id] = job->id;
}

std::shared_ptr<Job> JobTable::find(const std::string& id) const {
  const auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second;
}

std::shared_ptr<Job> JobTable::find_request(const std::string& request_id) const {
  const auto it = by_request_id_.find(request_id);
  return it == by_request_id_.end() ? nullptr : find(it->second);
}

void JobTable::drop_expired(Clock::time_point now, std::chrono::seconds ttl) {
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    const Job& j = *it->second;
    if (is_final(j.state) && now - j.finished > ttl) {
      if (!j.request_id.empty()) by_request_id_.erase(j.request_id);
      it = jobs_.erase(it);
    } else {
      ++it;
    }
  }
}

void JobTable::count_final(const Job& job) {
  switch (job.state) {
    case JobState::kCompleted:
      ++counts_.completed;
      ++counts_.completed_by_kind[job.kind_label];
      break;
    case JobState::kFailed:
      ++counts_.failed;
      ++counts_.failed_by_kind[job.kind_label];
      break;
    case JobState::kCancelled:
      ++counts_.cancelled;
      break;
    case JobState::kPending:
    case JobState::kRunning:
      break;
  }
}

}  // namespace cuzk::engine
