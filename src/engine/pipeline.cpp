// The engine's stages started and stopped, each on its own threads: the prover pool (one worker
// per device or CPU prover: prover_worker.cpp, prover_retry.cpp), the preparer (preparer.cpp),
// the synthesis workers and the critical lane (synthesizer.cpp). The job table and the
// scheduler they take work from are Engine::Impl's (engine.cpp, scheduler.hpp).
#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>
#include <utility>

#include "backend/backend_factory.hpp"
#include "engine/engine_impl.hpp"
#include "engine/partition_prover.hpp"
#include "util/text.hpp"

namespace cuzk::engine {

namespace {

// Why the provers are the CPU's though the backend is "auto" (plan_provers' note: no device, or
// a build without CUDA), and what that means for the jobs the engine takes.
std::string describe_cpu_fallback(const std::string& note, const EngineConfig& config) {
  const unsigned workers = std::max(1u, config.cpu_workers);
  constexpr std::string_view kPrefix = "cpu: auto, ";
  const std::string why = note.starts_with(kPrefix) ? note.substr(kPrefix.size()) : note;
  std::string s = "backend auto found no usable GPU (" + why + "): proving on " +
                  std::to_string(workers) + " CPU prover" + (workers == 1 ? "" : "s");
  if (config.cpu_fallback_max_sector_size == 0) return s + ", every sector size";
  return s + "; sectors above " + binary_size_name(config.cpu_fallback_max_sector_size) +
         " are refused ([gpus] cpu_fallback_max_sector_size)";
}

}  // namespace

void Engine::Impl::start() {
  metrics.set("cuzk_memory_budget_bytes", {}, static_cast<double>(budget.limit()));
  std::vector<std::string> kinds = config.fake_devices.names;
  if (kinds.empty()) {
    std::string note;
    try {
      kinds = groth16::plan_provers(config.backend, config.gpus, &note);
    } catch (const groth16::NoGpuError& e) {
      no_prover_reason = e.what();
      if (config.on_event) config.on_event("no_prover", no_prover_reason);
      return;  // nothing to run: no threads (stop_threads joins none)
    }
    if (config.backend == "auto" && kinds.front() == "cpu") {
      cpu_fallback_reason = describe_cpu_fallback(note, config);
      if (config.on_event) config.on_event("cpu_fallback", cpu_fallback_reason);
    }
  }
  gpu_provers = kinds.front() != "cpu";
  if (gpu_provers) {
    for (const std::string& kind : kinds) {
      auto w = std::make_unique<ProverWorker>();
      w->name = kind;
      w->gpu = true;
      w->ordinal = std::stoi(kind.substr(4));
      w->pool = std::make_unique<ThreadPool>(config.threads);
      w->backend = config.fake_devices.make
                       ? config.fake_devices.make(kind, *w->pool)
                       : groth16::make_backend(kind, *w->pool, nullptr, config.gpu_memory_limit);
      // The host memory it keeps page-locked between proofs (the recorded matrices' copy a
      // capped device streams from: 5.9 GB at 32 GiB PoRep) comes out of the engine's budget;
      // refused, the backend stages instead. Never waits: a prover must not block on memory.
      w->backend->set_host_admission({[this](uint64_t bytes) { return budget.try_reserve(bytes); },
                                      [this](uint64_t bytes) { budget.release(bytes); }});
      metrics.set("cuzk_prover_in_rotation", {{"worker", kind}}, 1);
      metrics.set("cuzk_gpu_memory_limit_bytes", {{"gpu", kind}},
                  static_cast<double>(config.gpu_memory_limit));
      provers.push_back(std::move(w));
    }
  } else {
    for (unsigned i = 0; i < std::max(1u, config.cpu_workers); ++i) {
      auto w = std::make_unique<ProverWorker>();
      w->name = "cpu:" + std::to_string(i);
      w->pool = std::make_unique<ThreadPool>(config.threads);
      w->backend = groth16::make_backend("cpu", *w->pool);
      provers.push_back(std::move(w));
    }
  }
  cpu_fallback = groth16::make_backend("cpu", pool);
  for (auto& w : provers) {
    history.declare_lane(w->name, "prover");
    ProverWorker* p = w.get();
    p->thread = std::thread([this, p] { prover_loop(*p); });
  }
  // One preparer: the scheduler starts one job (below CRITICAL) at a time; CRITICAL jobs are
  // prepared by the synthesis worker that takes them.
  {
    std::lock_guard<std::mutex> lock(mu);
    idle_preparers = 1;  // before any worker leaves a preparation to it
  }
  for (unsigned i = 0; i < std::max(1u, config.synthesis_workers); ++i)
    history.declare_lane("synth:" + std::to_string(i), "synthesis");
  history.declare_lane(kCriticalLane, "synthesis");
  history.declare_lane("prepare", "preparer");
  prepare_threads.emplace_back([this] { prepare_loop(); });
  for (unsigned i = 0; i < std::max(1u, config.synthesis_workers); ++i)
    synth_threads.emplace_back([this, i] { synthesis_loop("synth:" + std::to_string(i), false); });
  synth_threads.emplace_back([this] { synthesis_loop(kCriticalLane, true); });
}

void Engine::Impl::stop_threads() {
  {
    std::lock_guard<std::mutex> lock(mu);
    stopping = true;
    accepting = false;
  }
  work_cv.notify_all();
  queue_cv.notify_all();
  for (auto& t : synth_threads)
    if (t.joinable()) t.join();
  for (auto& t : prepare_threads)  // it leaves, as the workers do, once every job is final
    if (t.joinable()) t.join();
  queue_cv.notify_all();
  for (auto& w : provers)
    if (w->thread.joinable()) w->thread.join();
}

}  // namespace cuzk::engine
