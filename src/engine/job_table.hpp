// The job table: the engine's jobs by id and by request id, from submission until
// finished_job_ttl after their end, the ids it hands out, and the count of jobs that ended, by
// outcome and kind. No threads and no locks of its own (the engine calls it under its mutex), so
// that it is tested directly (tests/engine/job_table_test.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "engine/job.hpp"

namespace cuzk::engine {

class JobTable {
 public:
  // Ids are "<prefix><n>", n from 1. The default prefix is "job-<tag>-" with a random tag, so
  // that a restarted daemon never hands out an id a client of the dead one may still await (it
  // would get another job's proof); two engines share a tag with odds 2^-32.
  explicit JobTable(std::string id_prefix = random_id_prefix());
  static std::string random_id_prefix();

  std::string next_id();
  // Adds `job` under its id, and its request id when it has one.
  void add(const std::shared_ptr<Job>& job);
  // The job of `id` / of `request_id`, or null.
  std::shared_ptr<Job> find(const std::string& id) const;
  std::shared_ptr<Job> find_request(const std::string& request_id) const;
  // Forgets the final jobs that ended more than `ttl` before `now`.
  void drop_expired(Clock::time_point now, std::chrono::seconds ttl);
  size_t size() const { return jobs_.size(); }

  // `job` ended (its state final): counted by outcome and kind.
  void count_final(const Job& job);
  struct Counts {
    uint64_t completed = 0, failed = 0, cancelled = 0;
    std::map<std::string, uint64_t> completed_by_kind, failed_by_kind;  // by kind_label
  };
  const Counts& counts() const { return counts_; }

 private:
  std::string id_prefix_;
  uint64_t next_number_ = 0;
  std::map<std::string, std::shared_ptr<Job>> jobs_;
  std::map<std::string, std::string> by_request_id_;
  Counts counts_;
};

}  // namespace cuzk::engine
