// A partition's prove with its retries: a prove that throws (a CUDA error, an injected fault) or
// a proof that fails self-verification is tried again on the same backend once, then on another
// prover worker in rotation when the engine has one (another GPU), else on the engine's CPU
// backend; the partition fails, naming every attempt's error, only when all three failed. Each
// retry and each failed self-verification is counted in the metrics. A worker that keeps failing
// is taken out of rotation (kOutOfRotationAfter). A set opened without its points is proved
// with its host copy (SrsManager::acquire_host) where the points are needed in host memory: on
// the CPU fallback, and on a device that says so (HostPointsNeeded: proved again there with the
// copy, not counted as a fault). A point of the file that does not decode (FormatError, read
// lazily) fails the partition at once: no retry mends a bad file.
#include <algorithm>
#include <mutex>
#include <string>
#include <utility>

#include "engine/engine_impl.hpp"
#include "engine/partition_prover.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/point_source.hpp"

namespace cuzk::engine {

void Engine::Impl::observe_prover_phases(const std::string& kind, const groth16::ProverTiming& t) {
  const std::pair<const char*, double> phases[] = {
      {"upload", t.upload_s},     {"spmv", t.spmv_s},         {"h_chain", t.quotient_s},
      {"msm_h", t.msm_h_s},       {"msm_l", t.msm_l_s},       {"msm_a", t.msm_a_s},
      {"msm_b_g1", t.msm_b_g1_s}, {"msm_b_g2", t.msm_b_g2_s}, {"layout", t.layout_s}};
  for (const auto& [name, s] : phases) {
    if (s > 0)
      metrics.observe("cuzk_partition_phase_seconds", {{"kind", kind}, {"phase", name}}, s);
  }
  // A capped device's batch: its host allocation time apart, as msm_h's below.
  if (t.batch_allocate_s > 0) {
    metrics.observe("cuzk_partition_allocation_seconds", {{"kind", kind}, {"phase", "batch"}},
                    t.batch_allocate_s);
  }
  // msm_h by its parts where the backend splits it (a device): sort, accumulate, reduce and
  // "other", the rest, add up to msm_h; the host's allocation time within it apart (it overlaps
  // the parts).
  const groth16::ProverTiming::MsmParts& m = t.msm_h_parts;
  const double events = m.sort_s + m.accumulate_s + m.reduce_s;
  if (events <= 0) return;
  const std::pair<const char*, double> parts[] = {{"sort", m.sort_s},
                                                  {"accumulate", m.accumulate_s},
                                                  {"reduce", m.reduce_s},
                                                  {"other", std::max(0.0, t.msm_h_s - events)}};
  for (const auto& [name, s] : parts)
    metrics.observe("cuzk_partition_msm_h_seconds", {{"kind", kind}, {"part", name}}, s);
  metrics.observe("cuzk_partition_allocation_seconds", {{"kind", kind}, {"phase", "msm_h"}},
                  m.allocate_s);
}

groth16::ProofRandomness Engine::Impl::randomness_for(const ProverItem& item) const {
  if (config.test_randomness) return config.test_randomness(item.job->request_id, item.index);
  return groth16::ProofRandomness::from_os();
}

void Engine::Impl::note_failure(ProverItem& item, const std::string& where, const Attempt& a,
                                const char* retry_target) {
  item.failures.push_back("on " + where + ": " + a.error);
  const std::string& kind = item.job->kind_label;
  if (a.verify_failed) metrics.add("cuzk_partition_verify_failures_total", {{"kind", kind}}, 1);
  const char* reason = a.verify_failed ? "verify_failed" : "prove_error";
  if (retry_target != nullptr) {
    metrics.add("cuzk_partition_retries_total",
                {{"kind", kind}, {"reason", reason}, {"target", retry_target}}, 1);
  } else {
    metrics.add("cuzk_partition_failures_total", {{"kind", kind}, {"reason", reason}}, 1);
  }
}

bool Engine::Impl::prove_with_retries(ProverWorker& w, ProverItem& item, Attempt* result) {
  Attempt& a = *result;
  // One attempt on `backend` with `params`, self-verified: a.proof, or a.error.
  const auto attempt = [&](groth16::ProverBackend& backend, const groth16::Parameters& params) {
    a = Attempt{};
    a.started = Clock::now();
    const LoadedSrs& s = **item.srs;
    const SynthesizedPartition& p = *item.partition;
    try {
      // The engine's injector for the CUDA calls of this prove (this thread only).
      FaultInjector::Scope scope(faults.get());
      if (faults) {
        if (const auto n = faults->hit(FaultSite::kProve))
          throw InjectedFault("[injected fault prove #" + std::to_string(*n) + "]");
      }
      const auto corrupt = [this](groth16::Proof& proof) {
        if (faults->hit(FaultSite::kCorruptProof)) {
          // A point moved by the generator: still on the curve and in the subgroup (it encodes
          // and decodes), but the pairing check fails.
          proof.a = (G1Jacobian::from_affine(proof.a) + G1Jacobian::generator()).to_affine();
        }
      };
      ProvedPartition proved = prove_partition(
          backend, params, item.recording(), config.verify_proofs ? &s.pvk : nullptr, p,
          randomness_for(item), faults ? std::function<void(groth16::Proof&)>(corrupt) : nullptr);
      a.timing = proved.timing;
      observe_prover_phases(item.job->kind_label, a.timing);
      a.verify_started = proved.verify_started;
      a.verify_ended = proved.verify_ended;
      if (proved.verify_failed) {
        a.verify_failed = true;
        a.error = "the proof does not verify against its public inputs";
        return;
      }
      a.proof = std::move(proved.proof);
    } catch (const groth16::HostPointsNeeded& e) {
      a.error = e.what();
      a.host_points_needed = true;
    } catch (const groth16::FormatError& e) {
      a.error = e.what();
      a.no_retry = true;
    } catch (const std::exception& e) {
      a.error = e.what();
      if (a.error.empty()) a.error = "unknown error";
    }
  };
  // No host copy (no memory for it, or its load failed): the partition ends with the reason.
  const auto no_host_copy = [&](const std::exception& e) {
    a = Attempt{};
    a.started = Clock::now();
    a.error = e.what();
    a.no_retry = true;
  };
  // The set's host copy for `item`, kept with it (null: refused, in `a`).
  const auto host_copy = [&]() -> const groth16::Parameters* {
    try {
      if (!item.host) item.host = srs.acquire_host(*item.srs);
      return item.host.get();
    } catch (const std::exception& e) {
      no_host_copy(e);
      return nullptr;
    }
  };
  const auto on_worker = [&] {
    const groth16::Parameters* params = nullptr;
    try {
      params = &params_for(w, item);
    } catch (const std::exception& e) {
      no_host_copy(e);
    }
    if (params != nullptr) attempt(*w.backend, *params);
    if (params != nullptr && a.host_points_needed && params != item.host.get()) {
      // The device's forecast was wrong (memory taken since): proved there again with the
      // host copy; not the device's fault.
      const std::string why = a.error;
      if (config.on_event) {
        config.on_event("host_points_needed", w.name + ": job " + item.job->id + " partition " +
                                                  std::to_string(item.index) + ": " + why +
                                                  "; proving it with the host copy of " +
                                                  (*item.srs)->circuit_id);
      }
      params = host_copy();
      if (params != nullptr) attempt(*w.backend, *params);
    }
    if (!a.no_retry) w.failed_in_a_row = a.ok() ? 0 : w.failed_in_a_row + 1;
    return a.ok();
  };
  if (on_worker()) return false;
  if (a.no_retry || !item.failures.empty()) {  // a bad file, no memory, or the last attempt
    note_failure(item, w.name, a, nullptr);
    return false;
  }
  note_failure(item, w.name, a, "same");
  if (on_worker()) return false;
  if (a.no_retry) {
    note_failure(item, w.name, a, nullptr);
    return false;
  }
  bool other = false;
  {
    std::lock_guard<std::mutex> lock(mu);
    other = another_in_rotation(w);
  }
  if (other) {
    note_failure(item, w.name, a, "other");
    item.not_on = w.name;
    return true;
  }
  note_failure(item, w.name, a, "cpu");
  // A device prover's partition holds only its compact witness; the CPU needs the classic
  // working set. Taken if it is there now (waiting here could wait on this very worker).
  const uint64_t need = (*item.srs)->partition_working_set;
  if (need > item.ticket.memory().bytes()) {
    const uint64_t extra = need - item.ticket.memory().bytes();
    if (!budget.try_reserve(extra)) {
      a.verify_failed = false;
      a.error = "no memory for the CPU fallback now (" + std::to_string(extra >> 20) +
                " MiB more than the budget has free)";
      note_failure(item, "cpu", a, nullptr);
      return false;
    }
    item.ticket.memory().merge(Reservation(&budget, extra));
  }
  // The CPU reads the points from host memory: the set's own, or its host copy.
  const groth16::Parameters* params =
      groth16::has_host_points((*item.srs)->params) ? &(*item.srs)->params : host_copy();
  if (params == nullptr) {
    note_failure(item, "cpu", a, nullptr);
    return false;
  }
  attempt(*cpu_fallback, *params);
  a.on_cpu_fallback = true;
  if (!a.ok()) note_failure(item, "cpu (fallback)", a, nullptr);
  return false;
}

bool Engine::Impl::another_in_rotation(const ProverWorker& w) const {
  return std::any_of(provers.begin(), provers.end(),
                     [&](const auto& p) { return p.get() != &w && p->out_of_rotation.empty(); });
}

void Engine::Impl::consider_rotation(ProverWorker& w, const std::string& last_error) {
  if (w.failed_in_a_row < kOutOfRotationAfter || !w.out_of_rotation.empty()) return;
  if (!another_in_rotation(w)) return;  // the last one stays: the CPU fallback backs it
  w.out_of_rotation =
      std::to_string(w.failed_in_a_row) + " attempts failed in a row, the last: " + last_error;
  metrics.set("cuzk_prover_in_rotation", {{"worker", w.name}}, 0);
  if (config.on_event) config.on_event("prover_out_of_rotation", w.name + ": " + w.out_of_rotation);
  // A partition that was to avoid `w` may now have no one else to go to: let whoever is left
  // (in rotation) take it; its failures so far make that its last attempt.
  for (ProverItem& item : prover_queue) {
    if (item.not_on.empty()) continue;
    const bool someone = std::any_of(provers.begin(), provers.end(), [&](const auto& p) {
      return p->out_of_rotation.empty() && p->name != item.not_on;
    });
    if (!someone) item.not_on.clear();
  }
  queue_cv.notify_all();
}

}  // namespace cuzk::engine
