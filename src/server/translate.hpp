// cuzk.v1 messages <-> engine structs. Pure functions: the service calls them, the tests check
// them without a socket.
#pragma once

#include <string>

#include "cuzk/v1/proving.pb.h"
#include "engine/engine.hpp"

namespace cuzk::server {

namespace v1 = ::cuzk::v1;

// Every field, enums by number: an out-of-range proof kind reaches the engine, which fails the
// job naming it (the client sees FAILED with the reason, not a transport error).
engine::ProofRequest to_engine(const v1::SubmitProofRequest& request);

v1::SubmitProofResponse to_proto(const engine::SubmitResult& result);

// A final result: COMPLETED / FAILED / CANCELLED with the proof, the error and the five timings.
v1::AwaitProofResponse to_proto(const engine::JobResult& result);

// What AwaitProof answers when its timeout passes first.
v1::AwaitProofResponse timeout_response(const std::string& job_id);

// pinned_memory_bytes / _limit_bytes carry the engine's memory in use and budget.
v1::GetStatusResponse to_proto(const engine::EngineStatus& status);

}  // namespace cuzk::server
