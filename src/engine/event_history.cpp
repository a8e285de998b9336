#include "engine/event_history.hpp"

#include <algorithm>
#include <chrono>

namespace cuzk::engine {

DeviceUse device_use(const std::string& lane, const LoadedSrs& srs, bool busy,
                     const std::optional<groth16::DeviceHolding>& holding) {
  DeviceUse u;
  u.lane = lane;
  u.circuit_id = srs.circuit_id;
  // What the backend says it keeps; a backend that does not say holds the whole set.
  u.srs_bytes = holding ? holding->bases_bytes : set_bytes(srs.params);
  u.srs_streams = holding && holding->streams;
  u.pinned_host_bytes = holding ? holding->pinned_host_bytes : 0;
  u.pce_bytes = srs.pce ? srs.pce->storage_bytes : 0;
  u.working_set_bytes = busy ? srs.partition_working_set : 0;
  return u;
}

OpenSpan::~OpenSpan() {
  if (history_) history_->close(lane_, ok_);
}

void OpenSpan::phase(const char* name, Clock::time_point start, Clock::time_point end) {
  if (history_)
    history_->add_phase(lane_, {name, history_->seconds(start), history_->seconds(end)});
}

void OpenSpan::prover_phases(Clock::time_point start, const groth16::ProverTiming& t) {
  const double msm = t.msm_h_s + t.msm_l_s + t.msm_a_s + t.msm_b_g1_s + t.msm_b_g2_s + t.assemble_s;
  const std::pair<const char*, double> phases[] = {{"upload", t.upload_s},
                                                   {"spmv", t.spmv_s},
                                                   {"h_chain", t.quotient_s},
                                                   {"msm", msm},
                                                   {"layout", t.layout_s}};
  auto at = start;
  for (const auto& [name, s] : phases) {
    if (s <= 0) continue;
    const auto end =
        at + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
    phase(name, at, end);
    at = end;
  }
}

double EventHistory::seconds(Clock::time_point t) const {
  return std::chrono::duration<double>(t - origin_).count();
}

void EventHistory::declare_lane(const std::string& name, const std::string& role) {
  std::lock_guard<std::mutex> lock(mu_);
  if (lanes_.count(name) == 0) order_.push_back(name);
  lanes_[name].role = role;
}

// A span holds copies of the job's fields it shows, not the Job.
OpenSpan EventHistory::open(const std::string& lane, const Job& job, int partition,
                            const char* phase) {
  LaneSpan s;
  s.lane = lane;
  s.job_id = job.id;
  s.kind = job.kind_label;
  s.sector_size = job.sector_size;
  s.priority = job.priority;
  s.partition = partition;
  s.start_s = seconds(Clock::now());
  s.phases.push_back({phase, s.start_s, s.start_s});  // replaced by the first real phase
  std::lock_guard<std::mutex> lock(mu_);
  if (lanes_.count(lane) == 0) order_.push_back(lane);
  lanes_[lane].running = std::move(s);
  return OpenSpan(this, lane);
}

void EventHistory::add_phase(const std::string& lane, PhaseSpan p) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& running = lanes_[lane].running;
  if (!running) return;
  auto& phases = running->phases;
  if (phases.size() == 1 && phases[0].end_s == phases[0].start_s) phases.clear();
  phases.push_back(std::move(p));
}

void EventHistory::close(const std::string& lane, bool ok) {
  const double now = seconds(Clock::now());
  std::lock_guard<std::mutex> lock(mu_);
  Lane& l = lanes_[lane];
  if (!l.running) return;
  LaneSpan s = std::move(*l.running);
  l.running.reset();
  s.end_s = now;
  s.failed = !ok;
  if (s.phases.size() == 1 && s.phases[0].end_s == s.phases[0].start_s) s.phases[0].end_s = now;
  l.done.push_back(std::move(s));
  if (l.done.size() > kSpansPerLane) l.done.pop_front();
}

void EventHistory::set_device_use(DeviceUse use) {
  std::lock_guard<std::mutex> lock(mu_);
  devices_[use.lane] = std::move(use);
}

// The status page keeps its own copy of a finished job, field by field (engine_status.cpp
// copies other fields into EngineStatus the same way).
void EventHistory::job_finished(const Job& job) {
  FinishedJob f;
  f.job_id = job.id;
  f.request_id = job.request_id;
  f.kind = job.kind_label;
  f.circuit_id = job.circuit_id;
  f.sector_size = job.sector_size;
  f.priority = job.priority;
  f.state = job.state;
  f.error = job.result.error_message;
  f.timings = job.result.timings;
  f.partitions = job.partitions;
  f.assigned_gpu = job.assigned_gpu;
  f.submitted_s = seconds(job.submitted);
  f.finished_s = seconds(job.finished);
  std::lock_guard<std::mutex> lock(mu_);
  finished_.push_front(std::move(f));
  if (finished_.size() > kFinishedJobs) finished_.pop_back();
}

void EventHistory::snapshot(Clock::time_point now, double window_s, EngineActivity* out) const {
  out->now_s = seconds(now);
  out->window_s = window_s;
  const double from = out->now_s - window_s;
  std::lock_guard<std::mutex> lock(mu_);
  for (const std::string& name : order_) {
    const Lane& l = lanes_.at(name);
    LaneInfo info{name, l.role, 0, l.running ? l.running->job_id : ""};
    double busy = 0;
    const auto take = [&](LaneSpan s) {
      if (s.end_s < from) return;
      busy += s.end_s - std::max(s.start_s, from);
      out->spans.push_back(std::move(s));
    };
    for (const LaneSpan& s : l.done)
      take(s);
    if (l.running) {
      LaneSpan s = *l.running;
      s.open = true;
      s.end_s = out->now_s;
      // No phase has ended yet: the placeholder runs until now.
      PhaseSpan& first = s.phases.front();
      if (s.phases.size() == 1 && first.end_s == first.start_s) first.end_s = s.end_s;
      take(std::move(s));
    }
    // Young engines: the share of the time they have been up.
    const double span = std::min(window_s, out->now_s);
    info.busy_ratio = span > 0 ? std::min(1.0, busy / span) : 0;
    out->lanes.push_back(std::move(info));
  }
  for (const auto& [lane, use] : devices_)
    out->devices.push_back(use);
  out->recent_jobs.assign(finished_.begin(), finished_.end());
}

}  // namespace cuzk::engine
