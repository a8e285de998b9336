#include "server/translate.hpp"

#include "util/utf8.hpp"

namespace cuzk::server {
namespace {

std::vector<uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

std::string string_of(const std::vector<uint8_t>& b) {
  return {b.begin(), b.end()};
}

v1::AwaitProofResponse::Status status_of(engine::JobState state) {
  switch (state) {
    case engine::JobState::kCompleted:
      return v1::AwaitProofResponse::COMPLETED;
    case engine::JobState::kFailed:
      return v1::AwaitProofResponse::FAILED;
    case engine::JobState::kCancelled:
      return v1::AwaitProofResponse::CANCELLED;
    case engine::JobState::kPending:
    case engine::JobState::kRunning:
      break;
  }
  return v1::AwaitProofResponse::UNKNOWN;  // not final: the engine never returns these
}

}  // namespace

std::string id_problem(const char* field, const std::string& id) {
  if (id.size() <= kMaxIdBytes) return {};
  return std::string(field) + " is " + std::to_string(id.size()) + " bytes; ids are at most " +
         std::to_string(kMaxIdBytes);
}

std::string request_problem(const v1::SubmitProofRequest& request) {
  if (std::string problem = id_problem("request_id", request.request_id()); !problem.empty()) {
    return problem;
  }
  const int kind = request.proof_kind();
  if (kind < v1::POREP_SEAL_COMMIT || kind > v1::WINNING_POST) {
    return "proof_kind " + std::to_string(kind) +
           (kind == v1::PROOF_KIND_UNSPECIFIED ? " (PROOF_KIND_UNSPECIFIED)" : " (unknown)") +
           ": expected POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION or "
           "WINNING_POST (proof kind " +
           std::to_string(kind) + " cannot be served)";
  }
  const int priority = request.priority();
  if (priority < v1::PRIORITY_UNSPECIFIED || priority > v1::CRITICAL) {
    return "priority " + std::to_string(priority) +
           " is not one of PRIORITY_UNSPECIFIED (0), LOW, NORMAL, HIGH, CRITICAL (4)";
  }
  if (request.vanilla_proof().empty() && request.vanilla_proofs_size() == 0) {
    return "no vanilla_proof (nor vanilla_proofs): every proof kind proves from one";
  }
  return {};
}

engine::ProofRequest to_engine(const v1::SubmitProofRequest& request) {
  engine::ProofRequest r;
  r.request_id = request.request_id();
  r.kind = static_cast<engine::ProofKind>(request.proof_kind());
  r.sector_size = request.sector_size();
  r.registered_proof = request.registered_proof();
  r.priority = static_cast<engine::Priority>(request.priority());
  r.vanilla_proof = bytes_of(request.vanilla_proof());
  r.vanilla_proofs.reserve(static_cast<size_t>(request.vanilla_proofs_size()));
  for (const std::string& p : request.vanilla_proofs())
    r.vanilla_proofs.push_back(bytes_of(p));
  r.sector_number = request.sector_number();
  r.miner_id = request.miner_id();
  r.randomness = bytes_of(request.randomness());
  r.partition_index = request.partition_index();
  r.comm_r_old = bytes_of(request.comm_r_old());
  r.comm_r_new = bytes_of(request.comm_r_new());
  r.comm_d_new = bytes_of(request.comm_d_new());
  return r;
}

v1::SubmitProofResponse to_proto(const engine::SubmitResult& result) {
  v1::SubmitProofResponse r;
  r.set_job_id(result.job_id);
  r.set_queue_position(result.queue_position);
  r.set_assigned_gpu(result.assigned_gpu);
  return r;
}

v1::AwaitProofResponse to_proto(const engine::JobResult& result) {
  v1::AwaitProofResponse r;
  r.set_job_id(result.job_id);
  r.set_status(status_of(result.state));
  r.set_proof(string_of(result.proof));
  r.set_error_message(escape_invalid_utf8(result.error_message));
  r.set_queue_wait_ms(result.timings.queue_wait_ms);
  r.set_srs_load_ms(result.timings.srs_load_ms);
  r.set_synthesis_ms(result.timings.synthesis_ms);
  r.set_gpu_compute_ms(result.timings.gpu_compute_ms);
  r.set_total_ms(result.timings.total_ms);
  return r;
}

v1::AwaitProofResponse timeout_response(const std::string& job_id) {
  v1::AwaitProofResponse r;
  r.set_job_id(job_id);
  r.set_status(v1::AwaitProofResponse::TIMEOUT);
  return r;
}

v1::GetStatusResponse to_proto(const engine::EngineStatus& status) {
  v1::GetStatusResponse r;
  for (const engine::GpuInfo& g : status.gpus) {
    v1::GPUStatus* p = r.add_gpus();
    p->set_ordinal(g.ordinal);
    p->set_name(g.name);
    p->set_vram_total_bytes(g.vram_total_bytes);
    p->set_vram_free_bytes(g.vram_free_bytes);
    p->set_current_job_id(g.current_job_id);
    p->set_current_proof_kind(g.current_proof_kind);
  }
  for (const engine::SrsInfo& s : status.srs) {
    v1::SRSStatus* p = r.add_loaded_srs();
    p->set_circuit_id(s.circuit_id);
    p->set_tier(static_cast<v1::SRSStatus::Tier>(s.tier));
    p->set_size_bytes(s.size_bytes);
    p->set_ref_count(s.ref_count);
  }
  for (const engine::QueueInfo& q : status.queues) {
    v1::QueueStatus* p = r.add_queues();
    p->set_proof_kind(q.proof_kind);
    p->set_pending(q.pending);
    p->set_in_progress(q.in_progress);
  }
  r.set_total_proofs_completed(status.completed);
  r.set_total_proofs_failed(status.failed);
  r.set_uptime_seconds(status.uptime_seconds);
  r.set_pinned_memory_bytes(status.memory_in_use_bytes);
  r.set_pinned_memory_limit_bytes(status.memory_budget_bytes);
  return r;
}

}  // namespace cuzk::server
