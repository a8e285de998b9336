// The gRPC side of the cuzk-bench daemon client: a connection with the --addr / --timeout-s
// options, requests built from C1 / vanilla proof files, one proof submitted and awaited, and the
// wording of errors and exit codes shared by every client command.
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cuzk/v1/proving.grpc.pb.h"
#include "server/default_paths.hpp"

namespace cuzk::bench {

namespace v1 = ::cuzk::v1;

// Exit codes of the client commands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;    // a job FAILED / CANCELLED / TIMEOUT, or an RPC error
inline constexpr int kExitBadInput = 2;  // bad options or files (also INVALID_ARGUMENT replies)
inline constexpr int kExitUnreachable = 3;

// An input error (exit code 2).
struct BadInput : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct ConnectionOptions {
  std::string addr{server::kDefaultListen};
  double timeout_s = 0;  // deadline of each call; 0: none
  // TLS (the daemon's [daemon] tls_cert): the CA that signed the daemon's certificate, this
  // client's certificate and key (for client_ca), and the name to check the daemon's
  // certificate against when it is not the address's host. All empty: plaintext.
  std::string tls_ca, tls_cert, tls_key, tls_server_name;
};

class DaemonClient {
 public:
  // Throws BadInput for a malformed address. `own_connection`: a transport of its own rather than
  // one shared with the other clients of this process (batch workers are independent clients).
  explicit DaemonClient(const ConnectionOptions& opts, bool own_connection = false);

  v1::ProvingEngine::Stub& stub() { return *stub_; }
  // A context whose deadline is `timeout_s` from now; none when it is 0.
  std::unique_ptr<grpc::ClientContext> context(double timeout_s) const;
  const std::string& address() const { return address_; }  // as the user wrote it
  double timeout_s() const { return timeout_s_; }

 private:
  std::string address_;
  double timeout_s_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::ProvingEngine::Stub> stub_;
};

std::string_view status_code_name(grpc::StatusCode code);
// "cannot connect to <addr>: <message>" for UNAVAILABLE, else "<rpc>: <CODE>: <message>".
std::string describe_rpc_error(const DaemonClient& client, std::string_view rpc,
                               const grpc::Status& status);
// UNAVAILABLE 3, INVALID_ARGUMENT and NOT_FOUND 2 (the request named a bad thing), other 1.
int exit_code_of(const grpc::Status& status);
// "COMPLETED", ... ("STATUS_<n>" for a number outside the enum).
std::string job_status_name(int status);

// What single and batch send: the request fields from files and flags.
struct RequestOptions {
  std::string type = "porep";  // porep, snap, wpost, winning
  std::string c1;              // porep: c1.json wrapper or bare SealCommitPhase1Output
  std::string vanilla;         // snap / wpost / winning: JSON array of base64 proofs, or raw
  std::optional<uint64_t> registered_proof;  // porep: from the C1 (must match when given)
  std::optional<uint64_t> sector_num;        // porep default: the wrapper's SectorNum, else 1
  std::optional<uint64_t> sector_size;       // default: the registered proof's
  uint64_t miner_id = 1000;
  uint32_t partition = 0;
  std::string randomness;                          // 64 hex digits; PoSt default all zero
  std::string comm_r_old, comm_r_new, comm_d_new;  // 64 hex digits each (SnapDeals)
  std::string priority = "normal";                 // low, normal, high, critical
};

// Reads the input file and fills every field but request_id. Throws BadInput.
v1::SubmitProofRequest build_request(const RequestOptions& opts);
// "porep StackedDrg2KiBV1_1 (id 5), 2.00 KiB sector 1, miner 1000, 1 vanilla proof of 11.2 KiB"
std::string describe_request(const v1::SubmitProofRequest& request);
// "cuzk-bench-<pid>-<unix ms>": a prefix that does not repeat between runs.
std::string request_id_prefix();

// One proof as the client saw it.
struct ProofOutcome {
  std::string request_id;
  std::string job_id;
  v1::AwaitProofResponse result;  // UNKNOWN when a call failed
  grpc::Status rpc_status;        // of the call that failed, else OK
  std::string rpc_error;          // describe_rpc_error of it
  double client_s = 0;            // from sending the request to the answer

  bool completed() const {
    return rpc_status.ok() && result.status() == v1::AwaitProofResponse::COMPLETED;
  }
  // The RPC error, else the job's error_message (or its status when that is empty).
  std::string error() const;
};

// Prove, or SubmitProof then AwaitProof (whose timeout_ms is what is left of --timeout-s).
// `submitted` receives SubmitProof's answer when there is one.
ProofOutcome run_proof(DaemonClient& client, v1::SubmitProofRequest request, bool submit_await,
                       v1::SubmitProofResponse* submitted = nullptr);
// AwaitProof of a job already submitted.
ProofOutcome await_job(DaemonClient& client, const std::string& job_id);

// "queue 3 | srs load 0 | synthesis 1234 | gpu 567 | total 1810 ms"
std::string format_timings(const v1::AwaitProofResponse& result);

}  // namespace cuzk::bench
