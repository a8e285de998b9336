// cuzk.v1 messages <-> engine structs. Pure functions: the service calls them, the tests check
// them without a socket.
#pragma once

#include <cstddef>
#include <string>

#include "cuzk/v1/proving.pb.h"
#include "engine/engine.hpp"

namespace cuzk::server {

namespace v1 = ::cuzk::v1;

// The longest request_id, job_id or circuit_id taken (a UUID is 36 bytes, Curio's WindowPoSt ids
// ~40; issue 29: a 16 MiB request_id was accepted and logged twice, a 1 MiB id echoed in an
// error became RESOURCE_EXHAUSTED).
inline constexpr size_t kMaxIdBytes = 256;

// "<field> is N bytes; ids are at most 256" when `id` is longer than kMaxIdBytes (the id itself
// is not quoted), else empty.
std::string id_problem(const char* field, const std::string& id);

// What no proof kind could serve, answered INVALID_ARGUMENT before a job exists: a proof kind
// that is not one of the API's four (PROOF_KIND_UNSPECIFIED and unknown numbers: an empty
// request is one), a priority outside PRIORITY_UNSPECIFIED..CRITICAL (2^31 - 1 would rank above
// CRITICAL), no vanilla proof at all, a request_id past kMaxIdBytes. Empty when the request may
// become a job; the rest (sizes, registered proof, the payload itself) is the engine's to judge,
// as FAILED jobs.
std::string request_problem(const v1::SubmitProofRequest& request);

// Every field, enums by number (request_problem first: this translates, it does not judge).
engine::ProofRequest to_engine(const v1::SubmitProofRequest& request);

v1::SubmitProofResponse to_proto(const engine::SubmitResult& result);

// A final result: COMPLETED / FAILED / CANCELLED with the proof, the error (made valid UTF-8:
// protobuf refuses to serialize a string field that is not) and the five timings.
v1::AwaitProofResponse to_proto(const engine::JobResult& result);

// What AwaitProof answers when its timeout passes first.
v1::AwaitProofResponse timeout_response(const std::string& job_id);

// pinned_memory_bytes / _limit_bytes carry the engine's memory in use and budget.
v1::GetStatusResponse to_proto(const engine::EngineStatus& status);

}  // namespace cuzk::server
