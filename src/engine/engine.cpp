// The engine's public calls (submit, await, cancel, preload, evict, shutdown), its construction,
// and the completion of jobs; the workers are in pipeline.cpp, status and metrics in
// engine_status.cpp, the state in engine_impl.hpp.
#include "engine/engine.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <tuple>
#include <utility>

#include "engine/engine_impl.hpp"
#include "engine/resources/pce_loader.hpp"
#include "filecoin/parameter_cache.hpp"

namespace cuzk::engine {

namespace {

// The seed of an INSECURE test set whose .params is `params_file` ("" when its .meta says
// nothing of the kind, or is unreadable: the load's own checks have judged it already).
std::string insecure_seed(const std::filesystem::path& params_file) {
  std::filesystem::path meta = params_file;
  meta.replace_extension(".meta");
  std::ifstream in(meta, std::ios::binary);
  if (!in) return "";
  std::string text(4096, '\0');  // a .meta is a few dozen bytes
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  try {
    const filecoin::ParameterMetadata m = filecoin::parse_parameter_metadata(text, meta.string());
    return m.insecure ? (m.seed.empty() ? "?" : m.seed) : "";
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

// A switch with no default: -Wswitch (an error here) names an enumerator added without a name.
const char* proof_kind_label(ProofKind kind) {
  switch (kind) {
    case ProofKind::kPorepSealCommit:
      return "porep";
    case ProofKind::kSnapDealsUpdate:
      return "snap";
    case ProofKind::kWindowPostPartition:
      return "wpost";
    case ProofKind::kWinningPost:
      return "winning";
    case ProofKind::kUnspecified:
      break;
  }
  return "unspecified";
}

// A switch with no default: -Wswitch (an error here) names an enumerator added without a name.
const char* job_state_name(JobState state) {
  switch (state) {
    case JobState::kPending:
      return "pending";
    case JobState::kRunning:
      return "running";
    case JobState::kCompleted:
      return "completed";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

Engine::Impl::Impl(EngineConfig c, std::vector<std::shared_ptr<const CircuitHandler>> hs)
    : config(std::move(c)),
      budget(config.memory_budget_bytes),
      pool(config.threads),
      critical_pool(config.threads),
      srs([this](const std::string& id) { return resolve_srs(id); }, budget, pool,
          config.pce_enabled
              ? SrsManager::PceLoader([this](const std::string& id) { return load_pce(id); })
              : nullptr,
          config.srs_host_points == EngineConfig::HostPoints::kAuto
              ? SrsManager::HostPolicy(
                    [this](const groth16::Parameters& meta, const pce::RecordedCircuit* recording) {
                      return wants_host_points(meta, recording);
                    })
              : nullptr),
      scheduler({config.max_batch_size, config.max_batch_wait_ms, config.sort_by_type}),
      spool(config.spool_dir, config.spool_max_bytes) {
  for (auto& h : hs)
    handlers[h->kind()] = std::move(h);
  if (!parse_fault_plan(config.faults).empty())  // std::invalid_argument for a bad plan
    faults = std::make_unique<FaultInjector>(config.faults);
  declare_metrics();
  if (budget.limit() != 0) {
    payload_cap = budget.limit() / 16;
    budget.pin(payload_cap);  // the budget is empty here: always fits
  }
}

SrsSpec Engine::Impl::resolve_srs(const std::string& id) const {
  const ParameterSource source{
      config.param_cache,
      {config.allow_insecure_params, config.verify_param_digests, config.check_param_subgroups}};
  for (const auto& [kind, h] : handlers) {
    std::optional<SrsSpec> spec = h->srs_spec(id, source);
    if (!spec) continue;
    // A set loaded or opened only because allow_insecure_params lets it is said aloud, every
    // time.
    const auto said_aloud = [file = spec->file, id, on_event = config.on_event](
                                std::function<groth16::Parameters(ThreadPool&)> load) {
      return [load = std::move(load), file, id, on_event](ThreadPool& p) {
        groth16::Parameters params = load(p);
        if (const std::string seed = insecure_seed(file); !seed.empty() && on_event) {
          on_event("insecure_parameters",
                   id + ": " + file.string() + " is an INSECURE test set (seed \"" + seed +
                       "\"), loaded because [srs] allow_insecure_params = true: whoever knows "
                       "the seed can forge proofs");
        }
        return params;
      };
    };
    spec->load = said_aloud(std::move(spec->load));
    if (spec->open) spec->open = said_aloud(std::move(spec->open));
    return *spec;
  }
  throw std::invalid_argument("unknown circuit id \"" + id + "\"");
}

bool Engine::Impl::wants_host_points(const groth16::Parameters& meta,
                                     const pce::RecordedCircuit* recording) const {
  // The provers exist from start() (the constructor's), before any load. Every one is asked: a
  // worker that cannot prove from the file would load the host copy at its first partition.
  if (!gpu_provers || provers.empty()) return true;
  return std::any_of(provers.begin(), provers.end(), [&](const auto& w) {
    return !w->backend->proves_from_source(meta, recording);
  });
}

std::shared_ptr<const pce::RecordedCircuit> Engine::Impl::load_pce(const std::string& id) {
  std::vector<std::shared_ptr<const CircuitHandler>> hs;
  for (const auto& [kind, h] : handlers)
    hs.push_back(h);
  const BlankCircuit blank = find_blank_circuit(hs, id);
  const std::filesystem::path dir = !config.pce_dir.empty() ? config.pce_dir
                                    : config.param_cache.empty()
                                        ? std::filesystem::path{}
                                        : default_pce_dir(config.param_cache);
  return load_or_record_pce(blank, dir, pool, config.on_event);
}

uint64_t Engine::Impl::partition_reservation(const LoadedSrs& s) const {
  if (s.pce == nullptr || !gpu_provers) return s.partition_working_set;
  return (s.pce->num_columns() + 1) * sizeof(Fr) + s.pce->num_aux / 4;
}

void Engine::Impl::finish(const std::shared_ptr<Job>& job, JobState state,
                          const std::string& error) {
  if (is_final(job->state)) return;
  advance(*job, final_stage(state));
  job->finished = Clock::now();
  job->result.state = state;
  job->result.error_message = error;
  if (job->started == Clock::time_point{}) job->started = job->finished;
  {
    // The phases from the clock; the PCIe counts the provers added as they went.
    JobTimings phases = job->phases.timings(job->finished);
    phases.pcie_h2d_bytes = job->result.timings.pcie_h2d_bytes;
    phases.pcie_d2h_bytes = job->result.timings.pcie_d2h_bytes;
    phases.pcie_floor_ms = job->result.timings.pcie_floor_ms;
    job->result.timings = phases;
  }
  const JobTimings& t = job->result.timings;
  if (state == JobState::kCompleted) {
    for (const auto& p : job->partition_proofs)
      job->result.proof.insert(job->result.proof.end(), p.begin(), p.end());
  }
  jobs.count_final(*job);
  job->partition_proofs.clear();
  job->request = ProofRequest{};  // the payload is not needed any more
  drop_payload(job->payload_bytes, job->spool_file);
  scheduler.remove(job);
  if (job->in_flight == 0) job->release_resources();

  metrics.add("cuzk_proofs_total", {{"kind", job->kind_label}, {"outcome", job_state_name(state)}},
              1);
  const auto phase = [&](const char* name, double s) {
    metrics.observe("cuzk_job_phase_seconds", {{"kind", job->kind_label}, {"phase", name}}, s);
  };
  phase("queue", t.queue_wait_ms / 1e3);
  if (state == JobState::kCompleted) {
    phase("srs_load", t.srs_load_ms / 1e3);
    phase("synthesis", t.synthesis_ms / 1e3);
    phase("gpu", t.gpu_compute_ms / 1e3);
  }
  phase("total", t.total_ms / 1e3);
  history.job_finished(*job);
  done_cv.notify_all();
  work_cv.notify_all();
}

void Engine::Impl::drop_payload(uint64_t& bytes, std::filesystem::path& spool_file) {
  payload_in_memory -= std::min(bytes, payload_in_memory);
  bytes = 0;
  if (!spool_file.empty()) {
    spool.remove(spool_file);
    spool_file.clear();
    --spooled;
  }
}

Engine::Engine(EngineConfig config) : Engine(std::move(config), default_handlers()) {}

Engine::Engine(EngineConfig config, std::vector<std::shared_ptr<const CircuitHandler>> handlers)
    : impl_(std::make_unique<Impl>(std::move(config), std::move(handlers))) {
  impl_->start();
  impl_->resume_spooled();
}

Engine::~Engine() {
  shutdown(true);
}

std::shared_ptr<Job> Engine::Impl::new_job(const ProofRequest& request, Clock::time_point now,
                                           std::string* error) const {
  auto job = std::make_shared<Job>();
  job->kind = request.kind;
  job->kind_label = proof_kind_label(request.kind);
  job->sector_size = request.sector_size;
  job->priority = effective_priority(request.priority);
  job->request_id = request.request_id;
  job->submitted = now;
  job->phases.start(now);
  // The circuit id comes from the request's fields alone (no payload parsing here).
  const auto h = handlers.find(request.kind);
  if (h == handlers.end()) {
    // The cuzk.v1 names of the kinds this engine's handlers serve.
    std::string supported;
    for (const auto& [kind, handler] : handlers) {
      static constexpr const char* kProtoNames[] = {"PROOF_KIND_UNSPECIFIED", "POREP_SEAL_COMMIT",
                                                    "SNAP_DEALS_UPDATE", "WINDOW_POST_PARTITION",
                                                    "WINNING_POST"};
      const auto i = static_cast<size_t>(kind);
      supported += (supported.empty() ? "" : ", ") +
                   std::string(i < std::size(kProtoNames) ? kProtoNames[i] : "?");
    }
    *error = std::string("proof kind ") + std::to_string(static_cast<int>(request.kind)) + " (" +
             job->kind_label + ") is not supported by this engine (supported: " + supported + ")";
  } else {
    job->handler = h->second;
    try {
      job->circuit_id = job->handler->circuit_id(request);
    } catch (const std::exception& e) {
      *error = e.what();
    }
  }
  return job;
}

void Engine::Impl::resume_spooled() {
  if (!no_prover_reason.empty()) return;  // left on disk for a daemon that can prove them
  std::vector<PayloadSpool::Leftover> left = spool.leftovers();
  // The number after an id's last '-' (0 when there is none): the submission order of one
  // engine's jobs. Files of several dead engines order by the time they were written.
  const auto number = [](const std::string& id) -> uint64_t {
    const size_t dash = id.rfind('-');
    const std::string digits = dash == std::string::npos ? "" : id.substr(dash + 1);
    if (digits.empty() || digits.size() > 19 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      return 0;
    return std::stoull(digits);
  };
  const auto written = [](const PayloadSpool::Leftover& l) {
    std::error_code ec;
    return std::filesystem::last_write_time(l.file, ec);
  };
  std::sort(left.begin(), left.end(), [&](const auto& a, const auto& b) {
    return std::make_tuple(written(a), number(a.job_id), a.job_id) <
           std::make_tuple(written(b), number(b.job_id), b.job_id);
  });
  const auto say = [this](const std::string& event, const std::string& message) {
    if (config.on_event) config.on_event(event, message);
  };
  // A resubmission of a resumed job's request_id is compared with the request (submit): its
  // payload is read back once here for the digest.
  std::vector<RequestDigest> digests(left.size());
  for (size_t i = 0; i < left.size(); ++i) {
    if (!left[i].error.empty() || left[i].request.request_id.empty()) continue;
    try {
      ProofRequest whole;
      PayloadSpool::read(left[i].file, whole);
      digests[i] = request_digest(whole);
    } catch (const std::exception& e) {
      left[i].error = e.what();
    }
  }
  const auto now = Clock::now();
  std::lock_guard<std::mutex> lock(mu);
  for (size_t i = 0; i < left.size(); ++i) {
    PayloadSpool::Leftover& l = left[i];
    if (!l.error.empty() || jobs.find(l.job_id) != nullptr) {
      say("spool_unreadable", l.file.string() + ": " +
                                  (l.error.empty() ? "a second file for this job id" : l.error) +
                                  "; removed");
      std::error_code ec;
      std::filesystem::remove(l.file, ec);
      continue;
    }
    std::string error;
    const std::shared_ptr<Job> job = new_job(l.request, now, &error);
    if (std::string why = refused_on_cpu_fallback(job->circuit_id); !why.empty()) {
      say("job_left_spooled", l.job_id + " stays in " + l.file.string() + ": " + why);
      continue;  // for a daemon with a GPU
    }
    job->id = l.job_id;
    job->result.job_id = job->id;
    job->request = std::move(l.request);  // its payload stays on disk until the job starts
    job->spool_file = l.file;
    job->request_digest = digests[i];
    ++spooled;
    jobs.add(job);
    say("job_resumed", job->id + " (request_id \"" + job->request_id + "\", " + job->kind_label +
                           ") from " + l.file.string());
    if (!error.empty()) {
      finish(job, JobState::kFailed, error);
    } else {
      scheduler.submit(job);
    }
  }
  work_cv.notify_all();
}

std::string Engine::Impl::refused_on_cpu_fallback(const std::string& circuit_id) const {
  const uint64_t limit = config.cpu_fallback_max_sector_size;
  if (cpu_fallback_reason.empty() || limit == 0) return "";
  const uint64_t size = sector_size_of_circuit_id(circuit_id);
  if (size <= limit) return "";
  return circuit_id + " refused: " + cpu_fallback_reason;
}

SubmitResult Engine::submit(ProofRequest request) {
  Impl& m = *impl_;
  const auto now = Clock::now();
  std::string error;
  const std::shared_ptr<Job> job = m.new_job(request, now, &error);
  if (!request.request_id.empty()) job->request_digest = request_digest(request);
  job->request = std::move(request);
  const uint64_t payload = payload_size(job->request);

  std::unique_lock<std::mutex> lock(m.mu);
  if (!m.accepting) throw NotServingError("the engine is shutting down");
  if (!m.no_prover_reason.empty())
    throw NotServingError("the engine has no prover: " + m.no_prover_reason);
  if (std::string why = m.refused_on_cpu_fallback(job->circuit_id); !why.empty())
    throw NotServingError(why);
  m.jobs.drop_expired(now, std::chrono::seconds(m.config.finished_job_ttl_s));
  if (!job->request_id.empty()) {
    if (const std::shared_ptr<Job> found = m.jobs.find_request(job->request_id)) {
      const Job& earlier = *found;
      if (earlier.request_digest != job->request_digest) {
        throw RequestIdConflictError(
            "request_id \"" + job->request_id + "\" is taken by " + earlier.id + " (a " +
            earlier.kind_label + " job) whose request differs from this one (" +
            (earlier.kind == job->kind ? "another payload or field" : "another proof kind") +
            "); a new request needs a new request_id");
      }
      return {earlier.id, 0, earlier.assigned_gpu, true};
    }
  }
  job->id = m.jobs.next_id();
  job->result.job_id = job->id;
  m.jobs.add(job);
  if (!error.empty()) {
    m.finish(job, JobState::kFailed, error);
    return {job->id, 0, "", false};
  }
  if (m.payload_cap == 0 || m.payload_in_memory + payload <= m.payload_cap) {
    m.payload_in_memory += payload;
    job->payload_bytes = payload;
  } else {
    // Over the in-memory share: the payload waits on disk. Written without the lock; the job
    // is known (await, cancel) but not queued meanwhile.
    ++m.spooled;
    // The payload, out of the job (a cancel may reset job->request), with the request's other
    // fields: a daemon restarted on this spool resumes the job from the file alone.
    std::vector<uint8_t> vanilla_proof = std::exchange(job->request.vanilla_proof, {});
    std::vector<std::vector<uint8_t>> vanilla_proofs =
        std::exchange(job->request.vanilla_proofs, {});
    ProofRequest held = job->request;
    held.vanilla_proof = std::move(vanilla_proof);
    held.vanilla_proofs = std::move(vanilla_proofs);
    lock.unlock();
    std::string spool_error;
    std::filesystem::path file;
    try {
      file = m.spool.write(job->id, held);
    } catch (const std::exception& e) {
      spool_error = std::string("cannot spool the payload to disk: ") + e.what();
    }
    held = ProofRequest{};
    lock.lock();
    job->spool_file = file;
    if (file.empty()) --m.spooled;  // nothing was written
    if (!spool_error.empty()) m.finish(job, JobState::kFailed, spool_error);
    if (is_final(job->state)) {  // failed, or cancelled meanwhile (finish dropped nothing yet)
      m.drop_payload(job->payload_bytes, job->spool_file);
      return {job->id, 0, "", false};
    }
  }
  const uint32_t ahead = m.scheduler.submit(job);
  m.work_cv.notify_all();
  return {job->id, ahead, "", false};
}

std::optional<JobResult> Engine::await(const std::string& job_id,
                                       std::chrono::milliseconds timeout) {
  Impl& m = *impl_;
  std::unique_lock<std::mutex> lock(m.mu);
  const std::shared_ptr<Job> job = m.jobs.find(job_id);
  if (!job) {
    JobResult r;
    r.job_id = job_id;
    r.state = JobState::kFailed;
    r.error_message = "unknown job id \"" + job_id + "\"";
    return r;
  }
  const auto final = [&] { return is_final(job->state); };
  if (timeout.count() <= 0) {
    m.done_cv.wait(lock, final);
  } else if (!m.done_cv.wait_for(lock, timeout, final)) {
    return std::nullopt;
  }
  return job->result;
}

bool Engine::has_job(const std::string& job_id) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->jobs.find(job_id) != nullptr;
}

CancelResult Engine::cancel(const std::string& job_id) {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.mu);
  const std::shared_ptr<Job> job = m.jobs.find(job_id);
  if (!job) return {false, false};
  if (is_final(job->state)) return {true, false};
  const bool running = job->stage != JobStage::kQueued;  // released with its batch
  m.finish(job, JobState::kCancelled, running ? "cancelled while running" : "cancelled");
  m.queue_cv.notify_all();
  return {true, running};
}

PreloadResult Engine::preload_srs(const std::string& circuit_id) {
  // Parameters no prover would use would only take memory.
  if (!impl_->no_prover_reason.empty())
    throw NotServingError("the engine has no prover: " + impl_->no_prover_reason);
  (void)impl_->resolve_srs(circuit_id);  // an unknown id: std::invalid_argument, nothing kept
  if (std::string why = impl_->refused_on_cpu_fallback(circuit_id); !why.empty())
    throw NotServingError(why);
  return impl_->srs.preload(circuit_id);
}

EvictResult Engine::evict_srs(const std::string& circuit_id) {
  Impl& m = *impl_;
  // Known ids only (an unknown one is an error, not "was not loaded").
  (void)m.resolve_srs(circuit_id);
  return m.srs.evict(circuit_id);
}

void Engine::shutdown(bool cancel_running) {
  Impl& m = *impl_;
  {
    std::lock_guard<std::mutex> lock(m.mu);
    if (m.stopping && m.synth_threads.empty()) return;
    m.accepting = false;
    m.cancel_on_stop = cancel_running;
    if (cancel_running) {
      const auto all = m.scheduler.pending();
      for (const auto& j : all)
        m.finish(j, JobState::kCancelled, "cancelled: the engine is shutting down");
      const auto running = m.scheduler.released();
      for (const auto& j : running)
        m.finish(j, JobState::kCancelled, "cancelled: the engine is shutting down");
    }
  }
  m.stop_threads();
  std::lock_guard<std::mutex> lock(m.mu);
  m.synth_threads.clear();
  m.prepare_threads.clear();
}

bool Engine::accepting() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->accepting;
}

}  // namespace cuzk::engine
