// Follows every submitted job until it is final, to log its end (state, error, the five timings)
// whether or not a client is waiting for it, and its start where the engine names a GPU's
// current job. Also what an escalated shutdown uses to cancel whatever is still in flight.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "engine/engine.hpp"
#include "event_log.hpp"
#include "server/proving_service.hpp"

namespace cuzk::daemon {

class JobWatcher {
 public:
  JobWatcher(engine::Engine& engine, EventLog& log);
  ~JobWatcher();
  JobWatcher(const JobWatcher&) = delete;
  JobWatcher& operator=(const JobWatcher&) = delete;

  void watch(const server::SubmitEvent& event);
  // Cancels every job not yet seen final (a sweep may be up to 250 ms behind); returns how many
  // cancel requests the engine recognised.
  size_t cancel_all();
  // Logs the jobs that have become final since the last sweep (the thread sweeps every 250 ms).
  void sweep();
  // One last sweep, then the thread ends.
  void stop();

 private:
  struct Watched {
    std::string kind;
    bool started_logged = false;
  };
  void run();

  engine::Engine& engine_;
  EventLog& log_;
  std::mutex sweep_mu_;  // one sweep at a time: a job is logged once
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::map<std::string, Watched> jobs_;  // by job id
  std::thread thread_;
};

}  // namespace cuzk::daemon
