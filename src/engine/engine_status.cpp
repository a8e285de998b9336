// Engine::status, Engine::metrics_text and the metrics the engine declares.
#include <unistd.h>

#include <fstream>
#include <map>

#include "engine/engine_impl.hpp"

#if defined(CUZK_HAVE_CUDA)
#include "gpu/device/device_info.hpp"
#endif

namespace cuzk::engine {

namespace {

const std::vector<double> kDurationBuckets = {0.05, 0.1, 0.25, 0.5, 1,   2.5,  5,   10,
                                              25,   50,  100,  250, 500, 1000, 2500};

#if defined(CUZK_HAVE_CUDA)
// The devices' names and memory for status, or none when CUDA cannot say: a device with a sticky
// error (an illegal address in a kernel) fails every call, and a status query must not throw
// (the H200 run of 2026-12-04: cudaMemGetInfo's CudaError ended the daemon from a status sweep).
// The prover's own calls fail too and take it out of rotation (prover_retry.cpp).
std::vector<gpu::DeviceInfo> devices_or_none() {
  try {
    return gpu::list_devices();
  } catch (const std::exception&) {
    return {};
  }
}
#endif

}  // namespace

void Engine::Impl::declare_metrics() {
  using T = Metrics::Type;
  metrics.declare("cuzk_proofs_total", "Proof jobs finished, by kind and outcome.", T::kCounter);
  metrics.declare("cuzk_partitions_total", "Partition proofs produced, by kind.", T::kCounter);
  metrics.declare("cuzk_partition_retries_total",
                  "Partition proves retried, by kind, reason (prove_error, verify_failed) and "
                  "target (same backend, other worker, cpu fallback, alone after its batch).",
                  T::kCounter);
  metrics.declare("cuzk_partition_verify_failures_total",
                  "Partition proofs that failed self-verification, by kind.", T::kCounter);
  metrics.declare("cuzk_pcie_bytes_total",
                  "Bytes the provers moved between host and device, by direction (h2d, d2h).",
                  T::kCounter);
  metrics.declare("cuzk_faults_injected_total",
                  "Faults injected on purpose ([faults] inject, CUZK_FAULT), by site.",
                  T::kCounter);
  metrics.declare("cuzk_partition_failures_total",
                  "Partitions given up after their retries, by kind and the last reason.",
                  T::kCounter);
  metrics.declare("cuzk_job_phase_seconds",
                  "Per-job time by phase (queue, srs_load, synthesis, gpu, total).", T::kHistogram,
                  kDurationBuckets);
  metrics.declare(
      "cuzk_partition_phase_seconds",
      "Per-partition time by phase (synthesis, prove; within prove: upload, spmv, h_chain, "
      "msm_h, msm_l, msm_a, msm_b_g1, msm_b_g2).",
      T::kHistogram, kDurationBuckets);
  metrics.declare("cuzk_partition_msm_h_seconds",
                  "A device's msm_h phase by part, adding up to it (sort, accumulate, reduce: "
                  "CUDA events; other: the 0/1 split, waits for streamed bases, host gaps).",
                  T::kHistogram, kDurationBuckets);
  metrics.declare("cuzk_partition_allocation_seconds",
                  "A device's host time in cudaMalloc and cudaFree within a phase (msm_h, or a "
                  "batch's aux sections: batch, a partition's share), by kind and phase; the "
                  "device may wait for it inside the phase's parts.",
                  T::kHistogram, kDurationBuckets);
  metrics.declare("cuzk_queue_jobs", "Jobs by kind and state (pending, in_progress).", T::kGauge);
  metrics.declare("cuzk_prover_queue_partitions", "Synthesized partitions waiting for a prover.",
                  T::kGauge);
  metrics.declare("cuzk_memory_reserved_bytes", "Bytes reserved against the memory budget.",
                  T::kGauge);
  metrics.declare("cuzk_memory_reserved_peak_bytes", "Highest reservation so far.", T::kGauge);
  metrics.declare("cuzk_memory_budget_bytes", "The memory budget (0: unlimited).", T::kGauge);
  metrics.declare("cuzk_process_resident_bytes", "Resident set size of the process.", T::kGauge);
  metrics.declare("cuzk_prover_busy_seconds_total",
                  "Seconds each prover worker (GPU or CPU) spent proving.", T::kCounter);
  metrics.declare("cuzk_prover_in_rotation",
                  "1 while a prover (device) takes partitions, 0 once it is taken out of rotation.",
                  T::kGauge);
  metrics.declare("cuzk_srs_loaded_bytes", "Loaded parameters by circuit id and tier.", T::kGauge);
  metrics.declare("cuzk_uptime_seconds", "Seconds since the engine started.", T::kGauge);
  metrics.declare("cuzk_queued_payload_bytes", "Payload bytes of queued jobs held in memory.",
                  T::kGauge);
  metrics.declare("cuzk_spooled_jobs", "Queued jobs whose payload waits on disk.", T::kGauge);
  metrics.declare(
      "cuzk_worker_busy_ratio",
      "Share of the last minute each worker lane (prover, synthesis, preparer) was busy.",
      T::kGauge);
  metrics.declare("cuzk_queue_jobs_by_priority", "Jobs by priority and state (pending, running).",
                  T::kGauge);
  metrics.declare("cuzk_gpu_memory_limit_bytes",
                  "[gpus] memory_limit: device bytes each GPU prover may use (0: the device's).",
                  T::kGauge);
  metrics.declare("cuzk_device_memory_bytes",
                  "Device memory by use (srs, pce, working_set as the engine accounts them; total "
                  "and free from the driver).",
                  T::kGauge);
}

EngineStatus Engine::status() const {
  const Impl& m = *impl_;
  EngineStatus s;
  s.srs = m.srs.list();
  s.memory_in_use_bytes = m.budget.in_use();
  s.memory_budget_bytes = m.budget.limit();
  s.memory_peak_bytes = m.budget.peak();
  std::map<std::string, QueueInfo> queues;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    for (const auto& j : m.scheduler.pending())
      ++queues[j->kind_label].pending;
    for (const auto& j : m.scheduler.released())
      ++queues[j->kind_label].in_progress;
    const JobTable::Counts& ended = m.jobs.counts();
    s.completed = ended.completed;
    s.completed_by_kind = ended.completed_by_kind;
    s.failed_by_kind = ended.failed_by_kind;
    s.queued_payload_bytes = m.payload_in_memory;
    s.spooled_jobs = m.spooled;
    s.failed = ended.failed;
    s.cancelled = ended.cancelled;
    s.no_prover_reason = m.no_prover_reason;
    s.backend = m.config.backend;
    s.cpu_fallback_reason = m.cpu_fallback_reason;
    for (const auto& w : m.provers) {
      if (!w->gpu) continue;
      GpuInfo g;
      g.ordinal = static_cast<uint32_t>(w->ordinal);
      g.current_job_id = w->current_job;
      g.current_proof_kind = w->current_kind;
      g.out_of_rotation = w->out_of_rotation;
      s.gpus.push_back(g);
    }
  }
#if defined(CUZK_HAVE_CUDA)
  if (!s.gpus.empty()) {
    const auto devices = devices_or_none();
    for (GpuInfo& g : s.gpus) {
      for (const auto& d : devices) {
        if (d.ordinal != static_cast<int>(g.ordinal)) continue;
        g.name = d.name;
        g.vram_total_bytes = d.total_bytes;
        g.vram_free_bytes = d.free_bytes;
      }
    }
  }
#endif
  for (auto& [kind, q] : queues) {
    q.proof_kind = kind;
    s.queues.push_back(q);
  }
  s.uptime_seconds = static_cast<uint64_t>(seconds_between(m.started_at, Clock::now()));
  return s;
}

namespace {

uint64_t resident_set_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

const char* priority_label(int p) {
  static constexpr const char* kNames[] = {"unspecified", "low", "normal", "high", "critical"};
  return p >= 0 && p < 5 ? kNames[p] : "unknown";
}

}  // namespace

EngineActivity Engine::activity(double window_s) const {
  const Impl& m = *impl_;
  EngineActivity a;
  m.history.snapshot(Clock::now(), window_s, &a);
  std::map<int, PriorityDepth> depth;
  for (int p = static_cast<int>(Priority::kLow); p <= static_cast<int>(Priority::kCritical); ++p)
    depth[p].priority = p;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    const auto add = [&](const std::shared_ptr<Job>& j, bool released) {
      ActiveJob x{j->id,     j->kind_label, j->sector_size,     j->priority,
                  "pending", j->partitions, j->done_partitions, m.history.seconds(j->submitted)};
      if (released) x.state = j->stage == JobStage::kPrepared ? "running" : "preparing";
      ++(released ? depth[j->priority].running : depth[j->priority].pending);
      a.active_jobs.push_back(std::move(x));
    };
    for (const auto& j : m.scheduler.released())
      add(j, true);
    for (const auto& j : m.scheduler.pending())
      add(j, false);
    a.prover_queue_partitions = static_cast<uint32_t>(m.prover_queue.size());
    a.host.payload_bytes = m.payload_in_memory;
    a.host.payload_share_bytes = m.payload_cap;
  }
  for (const auto& [p, d] : depth)
    a.queue_by_priority.push_back(d);
  a.host.budget_bytes = m.budget.limit();
  a.host.reserved_bytes = m.budget.in_use();
  a.host.peak_bytes = m.budget.peak();
  a.host.resident_bytes = resident_set_bytes();
  // What the host holds: a set opened without its points (COLD off a device) still holds its
  // vk and recording; its points count only where they are.
  for (const SrsInfo& srs : m.srs.list())
    a.host.srs_bytes += srs.host_bytes;
#if defined(CUZK_HAVE_CUDA)
  if (!a.devices.empty()) {
    const auto devices = devices_or_none();
    for (DeviceUse& u : a.devices) {
      for (const auto& d : devices) {
        if (u.lane != "gpu:" + std::to_string(d.ordinal)) continue;
        u.total_bytes = d.total_bytes;
        u.free_bytes = d.free_bytes;
      }
    }
  }
#endif
  return a;
}

std::string Engine::metrics_text() const {
  Impl& m = *impl_;
  const EngineStatus s = status();
  if (m.faults) {
    for (size_t i = 0; i < kFaultSiteCount; ++i) {
      const auto site = static_cast<FaultSite>(i);
      if (m.faults->armed(site)) {
        m.metrics.set("cuzk_faults_injected_total", {{"site", fault_site_name(site)}},
                      static_cast<double>(m.faults->fired(site)));
      }
    }
  }
  for (const ProofKind k : kProofKinds) {
    const char* kind = proof_kind_label(k);
    uint32_t pending = 0, running = 0;
    for (const auto& q : s.queues) {
      if (q.proof_kind != kind) continue;
      pending = q.pending;
      running = q.in_progress;
    }
    m.metrics.set("cuzk_queue_jobs", {{"kind", kind}, {"state", "pending"}}, pending);
    m.metrics.set("cuzk_queue_jobs", {{"kind", kind}, {"state", "in_progress"}}, running);
  }
  {
    std::lock_guard<std::mutex> lock(m.mu);
    m.metrics.set("cuzk_prover_queue_partitions", {}, static_cast<double>(m.prover_queue.size()));
  }
  m.metrics.set("cuzk_memory_reserved_bytes", {}, static_cast<double>(s.memory_in_use_bytes));
  m.metrics.set("cuzk_memory_reserved_peak_bytes", {}, static_cast<double>(m.budget.peak()));
  m.metrics.set("cuzk_process_resident_bytes", {}, static_cast<double>(resident_set_bytes()));
  for (const auto& srs : s.srs) {
    for (const char* tier : {"hot", "warm", "cold"}) {
      const bool here = (srs.tier == SrsTier::kHot && tier[0] == 'h') ||
                        (srs.tier == SrsTier::kWarm && tier[0] == 'w') ||
                        (srs.tier == SrsTier::kCold && tier[0] == 'c');
      m.metrics.set("cuzk_srs_loaded_bytes", {{"circuit_id", srs.circuit_id}, {"tier", tier}},
                    here ? static_cast<double>(srs.host_bytes) : 0);
    }
  }
  m.metrics.set("cuzk_uptime_seconds", {}, static_cast<double>(s.uptime_seconds));
  m.metrics.set("cuzk_queued_payload_bytes", {}, static_cast<double>(s.queued_payload_bytes));
  m.metrics.set("cuzk_spooled_jobs", {}, static_cast<double>(s.spooled_jobs));
  const EngineActivity a = activity(60);
  for (const LaneInfo& l : a.lanes)
    m.metrics.set("cuzk_worker_busy_ratio", {{"lane", l.name}, {"role", l.role}}, l.busy_ratio);
  for (const PriorityDepth& d : a.queue_by_priority) {
    const char* p = priority_label(d.priority);
    m.metrics.set("cuzk_queue_jobs_by_priority", {{"priority", p}, {"state", "pending"}},
                  d.pending);
    m.metrics.set("cuzk_queue_jobs_by_priority", {{"priority", p}, {"state", "running"}},
                  d.running);
  }
  for (const DeviceUse& u : a.devices) {
    const std::pair<const char*, uint64_t> uses[] = {{"srs", u.srs_bytes},
                                                     {"pce", u.pce_bytes},
                                                     {"working_set", u.working_set_bytes},
                                                     {"total", u.total_bytes},
                                                     {"free", u.free_bytes}};
    for (const auto& [use, bytes] : uses)
      m.metrics.set("cuzk_device_memory_bytes", {{"gpu", u.lane}, {"use", use}},
                    static_cast<double>(bytes));
  }
  return m.metrics.render();
}

}  // namespace cuzk::engine
