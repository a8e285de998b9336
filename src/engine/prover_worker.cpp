// The engine's prover workers: each takes synthesized partitions from the prover queue, highest
// priority first, and proves them on its backend. A backend that proves best in batches (a
// capped device: groth16::ProverBackend::batch_limit() > 1) gets the partitions of one job as a
// batch: each partition's front as it arrives, then the batch's aux MSMs one section at a time,
// so that each base crosses the bus once per batch. Between two steps of a batch (a front or a
// section) a partition of a higher priority (a WinningPoSt) is proved alone first. A partition
// whose front fails, or whose proof does not verify, is proved again alone with its retries
// (prover_retry.cpp); a failed section sends every partition of the batch that way. A partition
// proved alone first lets its backend ready the device by steps (warm_step: the bases uploaded
// a piece at a time), with the same pre-emption between two steps.
#include <algorithm>
#include <chrono>
#include <utility>

#include "engine/engine_impl.hpp"
#include "engine/partition_prover.hpp"
#include "groth16/point_source.hpp"
#include "groth16/proof_io.hpp"

namespace cuzk::engine {

namespace {

groth16::PartitionInput input_of(const ProverItem& item) {
  return groth16::PartitionInput::recorded(*item.partition->witness, *item.recording());
}

}  // namespace

std::deque<ProverItem>::iterator Engine::Impl::next_item_for(const ProverWorker& w) {
  // The highest priority first, then the order they were synthesized in: a WinningPoSt
  // partition is proved next, at the next partition boundary of the GPU.
  auto best = prover_queue.end();
  for (auto it = prover_queue.begin(); it != prover_queue.end(); ++it) {
    if (it->not_on == w.name) continue;
    if (best == prover_queue.end() || it->job->priority > best->job->priority) best = it;
  }
  return best;
}

ProverItem Engine::Impl::take_item(std::deque<ProverItem>::iterator it) {
  ProverItem item = std::move(*it);
  prover_queue.erase(it);
  work_cv.notify_all();  // room in the lookahead: a synthesis worker may take a partition
  return item;
}

const groth16::Parameters& Engine::Impl::params_for(ProverWorker& w, ProverItem& item) {
  const groth16::Parameters& leased = (*item.srs)->params;
  if (groth16::has_host_points(leased)) return leased;
  if (item.host) return *item.host;
  if (w.gpu && w.backend->proves_from_source(leased, item.recording())) return leased;
  item.host = srs.acquire_host(*item.srs);
  return *item.host;
}

size_t Engine::Impl::batch_limit_for(ProverWorker& w, ProverItem& item) {
  if (item.recording() == nullptr) return 1;  // the classic path proves alone
  const std::string& circuit = (*item.srs)->circuit_id;
  if (const auto it = w.batch_limits.find(circuit); it != w.batch_limits.end()) return it->second;
  size_t limit = 1;
  try {
    limit = w.backend->batch_limit(params_for(w, item), input_of(item));
  } catch (const std::exception&) {
    limit = 1;  // the partition's own prove reports what is wrong
  }
  w.batch_limits[circuit] = limit;
  return limit;
}

void Engine::Impl::prover_loop(ProverWorker& w) {
  std::unique_lock<std::mutex> lock(mu);
  for (;;) {
    queue_cv.wait(lock, [&] {
      return !w.out_of_rotation.empty() || next_item_for(w) != prover_queue.end() ||
             (stopping && scheduler.empty() && prover_queue.empty());
    });
    if (!w.out_of_rotation.empty()) return;  // its thread ends; the others take the queue
    const auto best = next_item_for(w);
    if (best == prover_queue.end()) return;
    ProverItem item = take_item(best);
    if (faults && !is_final(item.job->state) && faults->hit(FaultSite::kHoldProve)) {
      // tests' hold: until cancelled
      done_cv.wait(lock, [&] { return is_final(item.job->state); });
    }
    if (is_final(item.job->state)) {
      item.ticket.leave();
      continue;
    }
    lock.unlock();
    {
      PhaseClock::Scope proving(item.job->phases, PhaseClock::Activity::kProve);
      switch_circuit(w, **item.srs);
      lock_streamed_points(w, item);
    }
    const size_t limit = batch_limit_for(w, item);
    lock.lock();
    if (limit > 1) {
      prove_batch(w, std::move(item), limit, lock);
      continue;
    }
    warm_device(w, item, lock);
    if (is_final(item.job->state)) {
      item.ticket.leave();
      continue;
    }
    prove_alone(w, std::move(item), lock);
  }
}

void Engine::Impl::switch_circuit(ProverWorker& w, const LoadedSrs& srs_ref) {
  if (!w.gpu || w.last_circuit == srs_ref.circuit_id) return;
  // The backend keeps what sets it has room for (a WinningPoSt's beside PoRep's on the H200): the
  // others are no longer on this device.
  w.backend->leave_circuit();
  forget_dropped_sets(w);
  w.holding = w.backend->device_holding();
  w.last_circuit = srs_ref.circuit_id;
}

void Engine::Impl::lock_streamed_points(ProverWorker& w, ProverItem& item) {
  if (!w.gpu || item.recording() == nullptr) return;
  // A set opened without its points has none here to lock; its host copy, loaded on demand for
  // a fallback, is not locked (read unlocked, only slower).
  if (!groth16::has_host_points((*item.srs)->params)) return;
  srs.lock_points(*item.srs, w.name, [&] {
    try {
      return w.backend->lock_streamed_points((*item.srs)->params, input_of(item));
    } catch (const std::exception&) {
      return groth16::PageLocks{};  // the partition's own prove reports what is wrong
    }
  });
}

void Engine::Impl::forget_dropped_sets(ProverWorker& w) {
  srs.keep_on_device(w.name, [&](const groth16::Parameters& p) { return w.backend->holds(p); });
}

void Engine::Impl::note_device_holding(ProverWorker& w, const LoadedSrs& srs_ref) {
  forget_dropped_sets(w);  // the proof's plan may have dropped other sets to make room
  w.holding = w.backend->device_holding();
  // HOT means the device holds the set: a device that streams part of it at each proof needs
  // the host copy for every proof, so the set stays WARM there (and its meter shows the part).
  if (!w.holding || !w.holding->streams) srs.mark_on_device(srs_ref.circuit_id, w.name);
}

void Engine::Impl::preempt_for(ProverWorker& w, const Job& job, const LoadedSrs& srs_ref,
                               std::unique_lock<std::mutex>& lock) {
  for (;;) {
    const auto it = next_item_for(w);
    if (it == prover_queue.end() || it->job->priority <= job.priority) return;
    ProverItem other = take_item(it);
    if (is_final(other.job->state)) {
      other.ticket.leave();
      continue;
    }
    prove_alone(w, std::move(other), lock);
    lock.unlock();
    switch_circuit(w, srs_ref);
    lock.lock();
  }
}

void Engine::Impl::warm_device(ProverWorker& w, ProverItem& item,
                               std::unique_lock<std::mutex>& lock) {
  if (!w.gpu || item.recording() == nullptr) return;
  const LoadedSrs& s = **item.srs;
  for (;;) {
    preempt_for(w, *item.job, s, lock);
    if (is_final(item.job->state)) return;
    lock.unlock();
    bool more = false;
    {
      PhaseClock::Scope proving(item.job->phases, PhaseClock::Activity::kProve);
      switch_circuit(w, s);
      try {
        more = w.backend->warm_step(params_for(w, item), input_of(item));
      } catch (const std::exception&) {
        more = false;  // the partition's own prove meets the fault and reports it
      }
    }
    lock.lock();
    if (!more) return;
  }
}

void Engine::Impl::prove_alone(ProverWorker& w, ProverItem item,
                               std::unique_lock<std::mutex>& lock) {
  const std::shared_ptr<Job> job = item.job;
  w.current_job = job->id;
  w.current_kind = job->kind_label;
  if (job->assigned_gpu.empty()) job->assigned_gpu = w.name;
  lock.unlock();
  // On the prover from here (a circuit switch's cache drop included) to its result.
  job->phases.begin(PhaseClock::Activity::kProve, Clock::now());
  const LoadedSrs& srs_ref = **item.srs;
  switch_circuit(w, srs_ref);
  auto span = history.open(w.name, *job, static_cast<int>(item.index), "prove");
  if (w.gpu) history.set_device_use(device_use(w.name, srs_ref, true, w.holding));
  const auto t0 = Clock::now();
  Attempt attempt;
  const bool requeue = prove_with_retries(w, item, &attempt);
  const auto t1 = Clock::now();
  job->phases.end(PhaseClock::Activity::kProve, t1);
  const double prove_s = seconds_between(t0, t1);
  // (a proof of the CPU fallback leaves nothing on the device)
  if (w.gpu && attempt.ok() && !requeue && !attempt.on_cpu_fallback)
    note_device_holding(w, srs_ref);
  if (w.gpu) history.set_device_use(device_use(w.name, srs_ref, false, w.holding));
  if (attempt.ok()) {
    span.prover_phases(attempt.started, attempt.timing);
    if (config.verify_proofs) span.phase("verify", attempt.verify_started, attempt.verify_ended);
    span.succeeded();
  }
  metrics.add("cuzk_prover_busy_seconds_total", {{"worker", w.name}}, prove_s);
  lock.lock();
  complete_item(w, item, attempt, requeue, prove_s);
}

void Engine::Impl::complete_item(ProverWorker& w, ProverItem& item, const Attempt& attempt,
                                 bool requeue, double prove_s) {
  const std::shared_ptr<Job> job = item.job;
  if (!requeue) item.partition.reset();
  w.busy_s += prove_s;
  w.current_job.clear();
  w.current_kind.clear();
  job->result.timings.pcie_h2d_bytes += attempt.timing.h2d_bytes;
  job->result.timings.pcie_d2h_bytes += attempt.timing.d2h_bytes;
  job->result.timings.pcie_floor_ms += static_cast<uint64_t>(attempt.timing.transfer_floor_s * 1e3);
  metrics.add("cuzk_pcie_bytes_total", {{"direction", "h2d"}},
              static_cast<double>(attempt.timing.h2d_bytes));
  metrics.add("cuzk_pcie_bytes_total", {{"direction", "d2h"}},
              static_cast<double>(attempt.timing.d2h_bytes));
  if (!attempt.ok()) consider_rotation(w, attempt.error);
  if (requeue) {  // for another worker: in flight still
    // The others may have left the rotation since the retry chose to move it (it decided
    // without the lock held): then whoever is left, this worker included, takes it.
    if (!another_in_rotation(w)) item.not_on.clear();
    prover_queue.push_back(std::move(item));
    queue_cv.notify_all();
    return;
  }
  item.ticket.leave();  // proved or failed (the job's resources stay while it is not final)
  const unsigned k = item.index;
  if (!attempt.ok()) {
    std::string reason = "partition " + std::to_string(k) + " failed " +
                         std::to_string(item.failures.size()) + " times: ";
    for (size_t i = 0; i < item.failures.size(); ++i)
      reason += (i == 0 ? "" : "; then ") + item.failures[i];
    finish(job, JobState::kFailed, reason);
  } else if (!is_final(job->state)) {
    metrics.observe("cuzk_partition_phase_seconds", {{"kind", job->kind_label}, {"phase", "prove"}},
                    prove_s);
    metrics.add("cuzk_partitions_total", {{"kind", job->kind_label}}, 1);
    job->partition_proofs[k] = std::move(attempt.proof);
    if (++job->done_partitions == job->partitions) finish(job, JobState::kCompleted, "");
  }
}

bool Engine::Impl::more_for_batch(const Job& job, const ProverWorker& w) const {
  if (is_final(job.state)) return false;
  // Partitions not yet handed out, being synthesized, or queued for this worker; not those
  // the batch holds, another worker proves, or that wait for another worker.
  return job.next_partition < job.partitions || job.synthesizing > 0 ||
         std::any_of(prover_queue.begin(), prover_queue.end(), [&](const ProverItem& it) {
           return it.job.get() == &job && it.not_on != w.name;
         });
}

void Engine::Impl::note_batch_failure(const ProverItem& item, const Attempt& a) {
  const std::string& kind = item.job->kind_label;
  if (a.verify_failed) metrics.add("cuzk_partition_verify_failures_total", {{"kind", kind}}, 1);
  metrics.add("cuzk_partition_retries_total",
              {{"kind", kind},
               {"reason", a.verify_failed ? "verify_failed" : "prove_error"},
               {"target", "alone"}},
              1);
}

void Engine::Impl::prove_batch(ProverWorker& w, ProverItem first, size_t limit,
                               std::unique_lock<std::mutex>& lock) {
  const std::shared_ptr<Job> job = first.job;
  const std::shared_ptr<SrsLease> lease = first.srs;
  const LoadedSrs& s = **lease;
  // batch_limit_for chose the first's parameters (its host copy, if it needs one): every member
  // proves with the same.
  const std::shared_ptr<const groth16::Parameters> host = first.host;
  const groth16::Parameters& params = host ? *host : s.params;
  struct Member {
    ProverItem item;
    groth16::MsmSums sums;
    Attempt attempt;  // its timing, started; its error when the front failed
    double front_s = 0;
  };
  std::vector<Member> batch;
  std::vector<ProverItem> alone;  // partitions whose front failed: proved alone afterwards
  if (job->assigned_gpu.empty()) job->assigned_gpu = w.name;
  // A partition above this batch's priority waiting: proved alone now (the batch holds no
  // device memory between its steps).
  const auto preempt = [&] { preempt_for(w, *job, s, lock); };
  const auto front = [&](ProverItem item) {
    Member m{std::move(item), {}, {}, 0};
    if (host) m.item.host = host;
    w.current_job = job->id;
    w.current_kind = job->kind_label;
    lock.unlock();
    auto span = history.open(w.name, *job, static_cast<int>(m.item.index), "front");
    if (w.gpu) history.set_device_use(device_use(w.name, s, true, w.holding));
    m.attempt.started = Clock::now();
    PhaseClock::Scope proving(job->phases, PhaseClock::Activity::kProve);
    try {
      FaultInjector::Scope scope(faults.get());
      if (faults) {
        if (const auto n = faults->hit(FaultSite::kProve))
          throw InjectedFault("[injected fault prove #" + std::to_string(*n) + "]");
      }
      m.sums = w.backend->prove_front(params, input_of(m.item), &m.attempt.timing);
      span.prover_phases(m.attempt.started, m.attempt.timing);
      span.succeeded();
    } catch (const std::exception& e) {
      m.attempt.error = e.what();
    }
    m.front_s = seconds_between(m.attempt.started, Clock::now());
    if (w.gpu) history.set_device_use(device_use(w.name, s, false, w.holding));
    lock.lock();
    if (m.attempt.ok()) {
      batch.push_back(std::move(m));
    } else {
      note_batch_failure(m.item, m.attempt);
      alone.push_back(std::move(m.item));  // its retries, alone, once the batch is done
    }
  };
  front(std::move(first));
  // Gather the job's next partitions up to the limit, as they arrive.
  while (batch.size() + alone.size() < limit) {
    preempt();
    const auto mine = [&] {
      for (auto it = prover_queue.begin(); it != prover_queue.end(); ++it)
        if (it->job == job && it->not_on != w.name) return it;
      return prover_queue.end();
    };
    queue_cv.wait(lock, [&] {
      const auto best = next_item_for(w);
      return mine() != prover_queue.end() ||
             (best != prover_queue.end() && best->job->priority > job->priority) ||
             !more_for_batch(*job, w) || (stopping && cancel_on_stop);
    });
    const auto it = mine();
    if (it == prover_queue.end()) {
      if (next_item_for(w) != prover_queue.end() && next_item_for(w)->job->priority > job->priority)
        continue;  // preempt() takes it
      break;
    }
    front(take_item(it));
  }
  // The aux MSMs of the batch, a section at a time.
  if (!batch.empty() && !is_final(job->state)) {
    std::vector<groth16::PartitionInput> inputs;
    std::vector<groth16::MsmSums> sums;
    std::vector<groth16::ProverTiming> timings;
    for (const Member& m : batch) {
      inputs.push_back(input_of(m.item));
      sums.push_back(m.sums);
      timings.push_back(m.attempt.timing);
    }
    std::string error;
    const auto t_back = Clock::now();
    for (const groth16::AuxSection section : groth16::kAuxSections) {
      preempt();
      if (is_final(job->state)) break;
      lock.unlock();
      PhaseClock::Scope proving(job->phases, PhaseClock::Activity::kProve);
      auto span = history.open(w.name, *job, static_cast<int>(batch.front().item.index),
                               groth16::aux_section_name(section));
      if (w.gpu) history.set_device_use(device_use(w.name, s, true, w.holding));
      try {
        FaultInjector::Scope scope(faults.get());
        w.backend->aux_msm(params, section, inputs, sums, timings);
        span.succeeded();
      } catch (const std::exception& e) {
        error = e.what();
      }
      if (w.gpu) history.set_device_use(device_use(w.name, s, false, w.holding));
      lock.lock();
      if (!error.empty()) break;
    }
    const double back_share =
        seconds_between(t_back, Clock::now()) / static_cast<double>(batch.size());
    // Assemble and self-verify each; a failure there, or a failed section, proves it alone.
    for (size_t i = 0; i < batch.size(); ++i) {
      Member& m = batch[i];
      if (is_final(job->state)) {
        m.item.ticket.leave();
        continue;
      }
      if (!error.empty()) {
        m.attempt.error = error;
        note_batch_failure(m.item, m.attempt);
        alone.push_back(std::move(m.item));
        continue;
      }
      lock.unlock();
      PhaseClock::Scope proving(job->phases, PhaseClock::Activity::kProve);
      m.attempt.timing = timings[i];
      observe_prover_phases(job->kind_label, m.attempt.timing);
      groth16::Proof proof = groth16::assemble_proof(params.vk, sums[i], randomness_for(m.item));
      if (faults && faults->hit(FaultSite::kCorruptProof))
        proof.a = (G1Jacobian::from_affine(proof.a) + G1Jacobian::generator()).to_affine();
      m.attempt.verify_started = Clock::now();
      const bool ok = !config.verify_proofs ||
                      groth16::verify_proof(s.pvk, proof, m.item.partition->public_inputs);
      m.attempt.verify_ended = Clock::now();
      if (ok) {
        const auto bytes = groth16::encode_proof(proof);
        m.attempt.proof.assign(bytes.begin(), bytes.end());
      }
      const double prove_s = m.front_s + back_share;
      metrics.add("cuzk_prover_busy_seconds_total", {{"worker", w.name}}, prove_s);
      if (w.gpu && ok) note_device_holding(w, s);
      lock.lock();
      if (!ok) {
        m.attempt.verify_failed = true;
        m.attempt.error = "the proof does not verify against its public inputs";
        note_batch_failure(m.item, m.attempt);
        alone.push_back(std::move(m.item));
        continue;
      }
      w.failed_in_a_row = 0;
      complete_item(w, m.item, m.attempt, false, prove_s);
    }
  } else {
    for (Member& m : batch)
      m.item.ticket.leave();
  }
  for (ProverItem& item : alone) {
    if (is_final(item.job->state)) {
      item.ticket.leave();
      continue;
    }
    prove_alone(w, std::move(item), lock);
  }
}

}  // namespace cuzk::engine
