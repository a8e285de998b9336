// The gRPC surface: any bytes as a SubmitProofRequest go through the server's checks and
// translation (server/translate.hpp), and any bytes as a job's error message still make an
// AwaitProofResponse that protobuf serializes and parses (the client sees FAILED with the reason,
// never an unreadable response).
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "server/translate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  cuzk::v1::SubmitProofRequest request;
  if (request.ParseFromArray(data, static_cast<int>(size))) {
    const std::string problem = server::request_problem(request);
    if (problem.empty()) {
      const engine::ProofRequest r = server::to_engine(request);
      fuzz::require(r.kind != engine::ProofKind::kUnspecified &&
                        static_cast<int>(r.priority) >= 0 && static_cast<int>(r.priority) <= 4,
                    "a request that passed the checks has a kind and a priority in range");
    } else {
      fuzz::require(is_valid_utf8(problem), "problem text is UTF-8", problem);
    }
  }
  engine::JobResult result;
  result.job_id = "job-1";
  result.state = engine::JobState::kFailed;
  result.error_message.assign(reinterpret_cast<const char*>(data), size);
  const cuzk::v1::AwaitProofResponse m = server::to_proto(result);
  std::string wire;
  fuzz::require(m.SerializeToString(&wire), "AwaitProofResponse serializes");
  cuzk::v1::AwaitProofResponse back;
  fuzz::require(back.ParseFromString(wire), "AwaitProofResponse parses back (UTF-8 strings)");
  return 0;
}
