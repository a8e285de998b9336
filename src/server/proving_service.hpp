// The cuzk.v1.ProvingEngine service (sync gRPC) over an engine::Engine. It only translates: what
// a client can observe is decided by the engine. Waiting (AwaitProof, Prove) is done in slices so
// that a client that disconnects frees its handler thread; its job keeps running and stays
// retrievable (resubmitting the same request_id returns the same job id).
//
// Refusals: INVALID_ARGUMENT for what no job could come from (translate.hpp's request_problem;
// a request_id, job_id or circuit_id past kMaxIdBytes, not quoted back), ALREADY_EXISTS for a
// request_id that names a job of a different request, NOT_FOUND for a job id the engine does not
// know (AwaitProof and CancelProof alike), UNAVAILABLE while shutting down.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "server/translate.hpp"

namespace cuzk::server {

// One accepted SubmitProof (or Prove), for the daemon's log and job watcher.
struct SubmitEvent {
  std::string request_id;
  engine::ProofKind kind = engine::ProofKind::kUnspecified;
  uint64_t sector_size = 0;
  uint64_t input_bytes = 0;  // vanilla_proof + vanilla_proofs
  engine::SubmitResult result;
};

struct ServiceOptions {
  // How long one engine.await may block before the handler checks whether its client is gone.
  std::chrono::milliseconds await_slice{200};
  // Called after each accepted submission; may be empty.
  std::function<void(const SubmitEvent&)> on_submitted;
  // Called when an AwaitProof / Prove client disconnects before its job is final; may be empty.
  std::function<void(const std::string& job_id)> on_client_gone;
};

class ProvingService final : public ::cuzk::v1::ProvingEngine::Service {
 public:
  ProvingService(engine::Engine& engine, ServiceOptions options);

  // The cuzk.v1 methods, each declared as the generated ProvingEngine::Service declares it.
  grpc::Status SubmitProof(grpc::ServerContext* context, const v1::SubmitProofRequest* request,
                           v1::SubmitProofResponse* response) override;
  grpc::Status AwaitProof(grpc::ServerContext* context, const v1::AwaitProofRequest* request,
                          v1::AwaitProofResponse* response) override;
  grpc::Status Prove(grpc::ServerContext* context, const v1::ProveRequest* request,
                     v1::ProveResponse* response) override;
  grpc::Status CancelProof(grpc::ServerContext* context, const v1::CancelProofRequest* request,
                           v1::CancelProofResponse* response) override;
  grpc::Status GetStatus(grpc::ServerContext* context, const v1::GetStatusRequest* request,
                         v1::GetStatusResponse* response) override;
  grpc::Status GetMetrics(grpc::ServerContext* context, const v1::GetMetricsRequest* request,
                          v1::GetMetricsResponse* response) override;
  grpc::Status PreloadSRS(grpc::ServerContext* context, const v1::PreloadSrsRequest* request,
                          v1::PreloadSrsResponse* response) override;
  grpc::Status EvictSRS(grpc::ServerContext* context, const v1::EvictSrsRequest* request,
                        v1::EvictSrsResponse* response) override;

  // Handlers running now (a shutdown lets them answer before it stops the server).
  unsigned calls_in_flight() const { return calls_in_flight_.load(); }

 private:
  grpc::Status submit(const v1::SubmitProofRequest& request, engine::SubmitResult* result);
  // Fills `response` with the final result or TIMEOUT; CANCELLED status when the client left.
  grpc::Status wait(grpc::ServerContext* context, const std::string& job_id, uint64_t timeout_ms,
                    v1::AwaitProofResponse* response);

  template <typename Body>
  grpc::Status handle(Body&& body);

  engine::Engine& engine_;
  ServiceOptions options_;
  std::atomic<unsigned> calls_in_flight_{0};
};

}  // namespace cuzk::server
