#include "server/status_rust_fields.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "util/utf8.hpp"

namespace cuzk::server {
namespace {

using nlohmann::json;

uint64_t ms(double seconds) {
  return seconds <= 0 ? 0 : static_cast<uint64_t>(seconds * 1000 + 0.5);
}

// The span's time in `phases` (the synthesis lane's "witness"; the rest of it is "queued").
double phase_seconds(const engine::LaneSpan& s, std::string_view phase) {
  double total = 0;
  for (const engine::PhaseSpan& p : s.phases)
    if (p.phase == phase) total += p.end_s - p.start_s;
  return total;
}

bool is_role(const engine::EngineActivity& a, const std::string& lane, std::string_view role) {
  return std::any_of(a.lanes.begin(), a.lanes.end(),
                     [&](const engine::LaneInfo& l) { return l.name == lane && l.role == role; });
}

// Rust's per-partition state (pending, synthesizing, synth_done, gpu, done, failed) and times,
// from the spans of the window: the latest synthesis and prover spans of each partition.
json partitions_json(const engine::ActiveJob& job, const engine::EngineActivity& a) {
  struct Seen {
    const engine::LaneSpan* synth = nullptr;
    const engine::LaneSpan* prove = nullptr;
  };
  std::map<int, Seen> seen;
  for (const engine::LaneSpan& s : a.spans) {
    if (s.job_id != job.job_id || s.partition < 0) continue;
    Seen& e = seen[s.partition];
    if (is_role(a, s.lane, "synthesis")) {
      if (e.synth == nullptr || s.start_s >= e.synth->start_s) e.synth = &s;
    } else if (is_role(a, s.lane, "prover")) {
      if (e.prove == nullptr || s.start_s >= e.prove->start_s) e.prove = &s;
    }
  }
  json out = json::array();
  for (unsigned k = 0; k < job.partitions; ++k) {
    const auto it = seen.find(static_cast<int>(k));
    const Seen e = it == seen.end() ? Seen{} : it->second;
    std::string state = "pending";
    json synth_ms = nullptr, gpu_ms = nullptr;
    if (e.synth != nullptr) {
      const double witness = phase_seconds(*e.synth, "witness");
      synth_ms = ms(witness > 0 ? witness : e.synth->end_s - e.synth->start_s);
      const bool in_witness =
          e.synth->open && !e.synth->phases.empty() && e.synth->phases.back().phase == "witness";
      state = e.synth->failed ? "failed" : in_witness ? "synthesizing" : "synth_done";
    }
    if (e.prove != nullptr) {
      gpu_ms = ms(e.prove->end_s - e.prove->start_s);
      state = e.prove->open ? "gpu" : e.prove->failed ? "failed" : "done";
    }
    out.push_back({{"index", k}, {"state", state}, {"synth_ms", synth_ms}, {"gpu_ms", gpu_ms}});
  }
  return out;
}

}  // namespace

std::string rust_proof_kind(const std::string& kind_label) {
  static const std::map<std::string, std::string, std::less<>> names = {
      {"porep", "porep-c2"},
      {"snap", "snap-update"},
      {"wpost", "window-post"},
      {"winning", "winning-post"}};
  const auto it = names.find(kind_label);
  return it == names.end() ? kind_label : it->second;
}

json rust_status_fields(const engine::EngineStatus& st, const engine::EngineActivity& a) {
  const engine::HostMemory& h = a.host;
  unsigned synth_workers = 0, synth_active = 0;
  for (const engine::LaneInfo& l : a.lanes) {
    if (l.role != "synthesis") continue;
    ++synth_workers;
    if (!l.current_job.empty()) ++synth_active;
  }

  json pipelines = json::array();
  for (const engine::ActiveJob& j : a.active_jobs) {
    pipelines.push_back({{"job_id", escape_invalid_utf8(j.job_id)},
                         {"proof_kind", rust_proof_kind(j.kind)},
                         {"started_secs_ago", std::max(0.0, a.now_s - j.submitted_s)},
                         {"total_partitions", j.partitions},
                         {"partitions_done", j.done_partitions},
                         {"partitions", partitions_json(j, a)}});
  }

  // GPU provers only, as the Rust daemon has no CPU workers: a daemon without a GPU lists none.
  json gpu_workers = json::array();
  unsigned worker_id = 0, provers_busy = 0;
  for (const engine::LaneInfo& l : a.lanes) {
    if (l.role != "prover") continue;
    const engine::LaneSpan* open = nullptr;
    for (const engine::LaneSpan& s : a.spans)
      if (s.lane == l.name && s.open) open = &s;
    if (open != nullptr) ++provers_busy;
    if (!l.name.starts_with("gpu:")) continue;
    gpu_workers.push_back(
        {{"worker_id", worker_id++},
         {"gpu_ordinal", std::stoul(l.name.substr(4))},
         {"state", open != nullptr ? "proving" : "idle"},
         {"current_job", open != nullptr ? json(escape_invalid_utf8(open->job_id)) : json()},
         {"current_partition",
          open != nullptr && open->partition >= 0 ? json(open->partition) : json()},
         {"busy_secs", open != nullptr ? json(std::max(0.0, a.now_s - open->start_s)) : json()}});
  }

  // Loaded parameter sets; the engine does not keep their last use (0), and an unreferenced one
  // is what its LRU may evict.
  json srs = json::array();
  for (const engine::SrsInfo& s : st.srs) {
    if (s.tier == engine::SrsTier::kCold) continue;
    srs.push_back({{"circuit_id", s.circuit_id},
                   {"bytes", s.size_bytes},
                   {"last_used_secs_ago", 0.0},
                   {"evictable", s.ref_count == 0}});
  }

  json completed_by_kind = json::object(), failed_by_kind = json::object();
  for (const auto& [kind, n] : st.completed_by_kind)
    completed_by_kind[rust_proof_kind(kind)] = n;
  for (const auto& [kind, n] : st.failed_by_kind)
    failed_by_kind[rust_proof_kind(kind)] = n;
  uint32_t queue_depth = 0;
  for (const engine::QueueInfo& q : st.queues)
    queue_depth += q.pending;

  return {
      {"uptime_secs", a.now_s},
      {"memory",
       {{"total_bytes", h.budget_bytes},
        {"used_bytes", h.reserved_bytes},
        {"available_bytes",
         h.budget_bytes > h.reserved_bytes ? h.budget_bytes - h.reserved_bytes : 0}}},
      {"synthesis", {{"max_concurrent", synth_workers}, {"active", synth_active}}},
      {"pipelines", std::move(pipelines)},
      {"gpu_workers", std::move(gpu_workers)},
      {"allocations", {{"srs", std::move(srs)}, {"pce", json::array()}}},
      {"counters",
       {{"total_completed", st.completed},
        {"total_failed", st.failed},
        {"completed_by_kind", std::move(completed_by_kind)},
        {"failed_by_kind", std::move(failed_by_kind)},
        {"queue_depth", queue_depth}}},
      {"buffers",
       {{"synth_in_flight", synth_active},
        {"provers_in_flight", a.prover_queue_partitions + provers_busy},
        {"aux_in_flight", 0},
        {"shells_in_flight", 0},
        {"pending_handles", 0}}},
  };
}

}  // namespace cuzk::server
