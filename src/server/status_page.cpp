#include "server/status_page.hpp"

#include <nlohmann/json.hpp>

#include "server/status_rust_fields.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

using nlohmann::json;

const char* tier_name(engine::SrsTier t) {
  return t == engine::SrsTier::kHot ? "hot" : t == engine::SrsTier::kWarm ? "warm" : "cold";
}

// Error texts and ids may carry bytes from a request: valid UTF-8 for the JSON writer.
std::string text(const std::string& s) {
  return escape_invalid_utf8(s);
}

json span_json(const engine::LaneSpan& s) {
  json phases = json::array();
  for (const auto& p : s.phases)
    phases.push_back({{"phase", p.phase}, {"start_s", p.start_s}, {"end_s", p.end_s}});
  return {{"lane", s.lane},
          {"job_id", text(s.job_id)},
          {"kind", s.kind},
          {"sector_size", s.sector_size},
          {"priority", s.priority},
          {"partition", s.partition},
          {"start_s", s.start_s},
          {"end_s", s.end_s},
          {"open", s.open},
          {"failed", s.failed},
          {"phases", std::move(phases)}};
}

json finished_json(const engine::FinishedJob& j) {
  const engine::JobTimings& t = j.timings;
  return {{"job_id", text(j.job_id)},
          {"request_id", text(j.request_id)},
          {"kind", j.kind},
          {"circuit_id", j.circuit_id},
          {"sector_size", j.sector_size},
          {"priority", j.priority},
          {"state", engine::job_state_name(j.state)},
          {"error", text(j.error)},
          {"timings",
           {{"queue_wait_ms", t.queue_wait_ms},
            {"srs_load_ms", t.srs_load_ms},
            {"synthesis_ms", t.synthesis_ms},
            {"gpu_compute_ms", t.gpu_compute_ms},
            {"total_ms", t.total_ms}}},
          {"partitions", j.partitions},
          {"assigned_gpu", j.assigned_gpu},
          {"submitted_s", j.submitted_s},
          {"finished_s", j.finished_s}};
}

}  // namespace

// One JSON object per row, its keys the fields' names (the page's script reads them by name).
std::string status_json(const engine::EngineStatus& st, const engine::EngineActivity& a,
                        const Health& health) {
  json lanes = json::array(), spans = json::array(), active = json::array(), recent = json::array(),
       by_priority = json::array(), by_kind = json::array(), devices = json::array(),
       srs = json::array();
  for (const auto& l : a.lanes)
    lanes.push_back({{"name", l.name},
                     {"role", l.role},
                     {"busy_ratio", l.busy_ratio},
                     {"current_job", text(l.current_job)}});
  for (const auto& s : a.spans)
    spans.push_back(span_json(s));
  for (const auto& j : a.active_jobs)
    active.push_back({{"job_id", text(j.job_id)},
                      {"kind", j.kind},
                      {"sector_size", j.sector_size},
                      {"priority", j.priority},
                      {"state", j.state},
                      {"partitions", j.partitions},
                      {"done_partitions", j.done_partitions},
                      {"submitted_s", j.submitted_s}});
  for (const auto& j : a.recent_jobs)
    recent.push_back(finished_json(j));
  for (const auto& p : a.queue_by_priority)
    by_priority.push_back(
        {{"priority", p.priority}, {"pending", p.pending}, {"running", p.running}});
  for (const auto& q : st.queues)
    by_kind.push_back({{"kind", q.proof_kind}, {"pending", q.pending}, {"running", q.in_progress}});
  for (const auto& d : a.devices) {
    std::string name, out_of_rotation;
    for (const auto& g : st.gpus) {
      if (d.lane != "gpu:" + std::to_string(g.ordinal)) continue;
      name = g.name;
      out_of_rotation = g.out_of_rotation;
    }
    devices.push_back({{"lane", d.lane},
                       {"name", name},
                       {"out_of_rotation", out_of_rotation},
                       {"circuit_id", d.circuit_id},
                       {"srs_bytes", d.srs_bytes},
                       {"srs_streams", d.srs_streams},
                       {"pinned_host_bytes", d.pinned_host_bytes},
                       {"pce_bytes", d.pce_bytes},
                       {"working_set_bytes", d.working_set_bytes},
                       {"total_bytes", d.total_bytes},
                       {"free_bytes", d.free_bytes}});
  }
  for (const auto& s : st.srs)
    srs.push_back({{"circuit_id", s.circuit_id},
                   {"tier", tier_name(s.tier)},
                   {"size_bytes", s.size_bytes},
                   {"ref_count", s.ref_count},
                   {"page_locked_bytes", s.page_locked_bytes}});
  const engine::HostMemory& h = a.host;
  json out = {
      {"version", CUZK_VERSION},
      {"health", {{"state", health_state_name(health.state)}, {"reason", text(health.reason)}}},
      {"backend", st.backend},
      {"now_s", a.now_s},
      {"window_s", a.window_s},
      {"uptime_s", st.uptime_seconds},
      {"totals", {{"completed", st.completed}, {"failed", st.failed}, {"cancelled", st.cancelled}}},
      {"lanes", std::move(lanes)},
      {"spans", std::move(spans)},
      {"active_jobs", std::move(active)},
      {"recent_jobs", std::move(recent)},
      {"queue",
       {{"by_priority", std::move(by_priority)},
        {"by_kind", std::move(by_kind)},
        {"prover_queue_partitions", a.prover_queue_partitions}}},
      {"devices", std::move(devices)},
      {"host",
       {{"budget_bytes", h.budget_bytes},
        {"reserved_bytes", h.reserved_bytes},
        {"peak_bytes", h.peak_bytes},
        {"srs_bytes", h.srs_bytes},
        {"payload_bytes", h.payload_bytes},
        {"payload_share_bytes", h.payload_share_bytes},
        {"resident_bytes", h.resident_bytes}}},
      {"srs", std::move(srs)}};
  out.update(rust_status_fields(st, a));  // no name is in both
  return out.dump();
}

std::vector<HttpRoute> status_page_routes(const engine::Engine& engine, double window_s) {
  const auto status = [&engine, window_s] {
    const engine::EngineStatus st = engine.status();
    return status_json(st, engine.activity(window_s), health_of(st, engine.accepting()));
  };
  const auto healthz = [&engine] {
    const Health h = engine_health(engine);
    return HttpAnswer{h.state == HealthState::kNotServing ? 503 : 200, describe(h) + "\n"};
  };
  return {{"/", "text/html; charset=utf-8", [] { return status_page_html(); }},
          {"/status", "application/json", status, {{"Access-Control-Allow-Origin", "*"}}},
          {"/healthz", "text/plain; charset=utf-8", nullptr, {}, healthz}};
}

}  // namespace cuzk::server
