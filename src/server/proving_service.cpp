#include "server/proving_service.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <utility>

#include "filecoin/parameter_cache.hpp"
#include "server/daemon_metrics.hpp"
#include "server/health.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr uint64_t kForeverMs = uint64_t{365} * 24 * 3600 * 1000;

}  // namespace

// Counts the call while it runs; an engine exception that escaped (a bug or resource
// exhaustion) reaches the client as INTERNAL with the message instead of ending the daemon.
template <typename Body>
grpc::Status ProvingService::handle(Body&& body) {
  struct InFlight {
    std::atomic<unsigned>& n;
    explicit InFlight(std::atomic<unsigned>& count) : n(count) { ++n; }
    ~InFlight() { --n; }
  } in_flight(calls_in_flight_);
  try {
    return body();
  } catch (const std::exception& e) {
    return {grpc::StatusCode::INTERNAL, escape_invalid_utf8(e.what())};
  }
}

ProvingService::ProvingService(engine::Engine& engine, ServiceOptions options)
    : engine_(engine), options_(std::move(options)) {
  if (options_.await_slice <= milliseconds(0)) options_.await_slice = milliseconds(1);
}

grpc::Status ProvingService::submit(const v1::SubmitProofRequest& request,
                                    engine::SubmitResult* result) {
  if (const std::string problem = request_problem(request); !problem.empty()) {
    return {grpc::StatusCode::INVALID_ARGUMENT, problem};
  }
  SubmitEvent event;
  event.request_id = request.request_id();
  event.kind = static_cast<engine::ProofKind>(request.proof_kind());
  event.sector_size = request.sector_size();
  event.input_bytes = request.vanilla_proof().size();
  for (const std::string& p : request.vanilla_proofs())
    event.input_bytes += p.size();
  try {
    *result = engine_.submit(to_engine(request));
  } catch (const engine::NotServingError& e) {
    // Shutting down, or no prover.
    return {grpc::StatusCode::UNAVAILABLE, e.what()};
  } catch (const engine::RequestIdConflictError& e) {
    return {grpc::StatusCode::ALREADY_EXISTS, e.what()};
  } catch (const std::runtime_error& e) {
    return {grpc::StatusCode::INTERNAL, e.what()};
  }
  event.result = *result;
  if (options_.on_submitted) options_.on_submitted(event);
  return grpc::Status::OK;
}

grpc::Status ProvingService::wait(grpc::ServerContext* context, const std::string& job_id,
                                  uint64_t timeout_ms, v1::AwaitProofResponse* response) {
  // Beyond a year is "forever" (and milliseconds(timeout_ms) would overflow near 2^63).
  if (timeout_ms > kForeverMs) timeout_ms = 0;
  const Clock::time_point start = Clock::now();
  for (;;) {
    milliseconds slice = options_.await_slice;
    if (timeout_ms != 0) {
      const auto left =
          milliseconds(timeout_ms) - std::chrono::duration_cast<milliseconds>(Clock::now() - start);
      if (left <= milliseconds(0)) {
        *response = timeout_response(job_id);
        return grpc::Status::OK;
      }
      slice = std::min(slice, left);  // > 0: engine.await treats zero as "forever"
    }
    if (std::optional<engine::JobResult> r = engine_.await(job_id, slice)) {
      *response = to_proto(*r);
      return grpc::Status::OK;
    }
    if (context->IsCancelled()) {
      // Nobody reads this; the job is untouched and its result stays retrievable.
      if (options_.on_client_gone) options_.on_client_gone(job_id);
      return {grpc::StatusCode::CANCELLED, "client went away while waiting for job " + job_id};
    }
  }
}

grpc::Status ProvingService::SubmitProof(grpc::ServerContext*,
                                         const v1::SubmitProofRequest* request,
                                         v1::SubmitProofResponse* response) {
  return handle([&] {
    engine::SubmitResult result;
    grpc::Status s = submit(*request, &result);
    if (s.ok()) *response = to_proto(result);
    return s;
  });
}

grpc::Status ProvingService::AwaitProof(grpc::ServerContext* context,
                                        const v1::AwaitProofRequest* request,
                                        v1::AwaitProofResponse* response) {
  return handle([&] {
    const std::string& id = request->job_id();
    if (const std::string problem = id_problem("job_id", id); !problem.empty()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, problem);
    }
    if (!engine_.has_job(id)) {  // as CancelProof answers it
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "unknown job id " + id);
    }
    return wait(context, id, request->timeout_ms(), response);
  });
}

grpc::Status ProvingService::Prove(grpc::ServerContext* context, const v1::ProveRequest* request,
                                   v1::ProveResponse* response) {
  return handle([&] {
    if (!request->has_submit()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "ProveRequest without submit");
    }
    engine::SubmitResult result;
    grpc::Status s = submit(request->submit(), &result);
    if (!s.ok()) return s;
    return wait(context, result.job_id, 0, response->mutable_result());
  });
}

grpc::Status ProvingService::CancelProof(grpc::ServerContext*,
                                         const v1::CancelProofRequest* request,
                                         v1::CancelProofResponse* response) {
  return handle([&] {
    if (const std::string problem = id_problem("job_id", request->job_id()); !problem.empty()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, problem);
    }
    const engine::CancelResult r = engine_.cancel(request->job_id());
    if (!r.found) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "unknown job id " + request->job_id());
    }
    response->set_was_running(r.was_running);
    return grpc::Status::OK;
  });
}

grpc::Status ProvingService::GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*,
                                       v1::GetStatusResponse* response) {
  return handle([&] {
    const engine::EngineStatus status = engine_.status();
    *response = to_proto(status);
    // The health as one more row: what Curio sums (pending, in_progress) stays 0.
    v1::QueueStatus* row = response->add_queues();
    row->set_proof_kind(escape_invalid_utf8(std::string(kHealthRowPrefix) +
                                            describe(health_of(status, engine_.accepting()))));
    return grpc::Status::OK;
  });
}

grpc::Status ProvingService::GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*,
                                        v1::GetMetricsResponse* response) {
  return handle([&] {
    response->set_prometheus_text(daemon_metrics_text(engine_));
    return grpc::Status::OK;
  });
}

grpc::Status ProvingService::PreloadSRS(grpc::ServerContext*, const v1::PreloadSrsRequest* request,
                                        v1::PreloadSrsResponse* response) {
  return handle([&] {
    if (const std::string problem = id_problem("circuit_id", request->circuit_id());
        !problem.empty()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, problem);
    }
    try {
      const engine::PreloadResult r = engine_.preload_srs(request->circuit_id());
      response->set_already_loaded(r.already_loaded);
      response->set_load_time_ms(r.load_time_ms);
      return grpc::Status::OK;
    } catch (const engine::NotServingError& e) {
      return grpc::Status(grpc::StatusCode::UNAVAILABLE, e.what());
    } catch (const engine::MissingParametersError& e) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND, e.what());  // the files can be fetched
    } catch (const filecoin::ParameterFileError& e) {
      // The files are there but refused as configured (marked insecure, a digest mismatch).
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, e.what());
    } catch (const std::invalid_argument& e) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, e.what());
    }
  });
}

// PreloadSRS's shape (the circuit id checked, one engine call, its answer) with another call,
// another answer and no missing-parameters case.
grpc::Status ProvingService::EvictSRS(grpc::ServerContext*, const v1::EvictSrsRequest* request,
                                      v1::EvictSrsResponse* response) {
  return handle([&] {
    if (const std::string problem = id_problem("circuit_id", request->circuit_id());
        !problem.empty()) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, problem);
    }
    try {
      const engine::EvictResult r = engine_.evict_srs(request->circuit_id());
      response->set_was_loaded(r.was_loaded);
      response->set_freed_bytes(r.freed_bytes);
      return grpc::Status::OK;
    } catch (const std::invalid_argument& e) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, e.what());
    }
  });
}

}  // namespace cuzk::server
