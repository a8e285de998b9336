// The daemon client commands of `cuzk-bench` (each takes --addr and --timeout-s):
//   single    one proof (Prove, or SubmitProof + AwaitProof): job, status, timings, proof hex
//   submit    SubmitProof only: the job id, for await / cancel
//   batch     N proofs of one input from J concurrent clients: throughput and latency
//   stress    mixed proof kinds at given rates for a duration, then a summary per kind
//   status    GetStatus, readable or --json
//   preload / evict   PreloadSRS / EvictSRS of a circuit id ("porep-32g", ...)
//   metrics   GetMetrics (Prometheus text)
//   cancel / await    CancelProof / AwaitProof of a job id
// Exit codes: 0 success (a proof COMPLETED), 1 a job FAILED / CANCELLED / TIMEOUT or an RPC
// failed, 2 bad input, 3 cannot connect to the daemon.
#pragma once

#include <CLI/CLI.hpp>

#include <array>
#include <optional>
#include <string>

#include "client_rpc.hpp"

namespace cuzk::bench {

// One proof kind of `stress`: its input file (porep: C1, others: vanilla proofs) and rate.
struct StressKindOptions {
  std::string input;
  std::string rate;  // "1/30s"
  std::optional<uint64_t> registered_proof;
};

struct StressOptions {
  // Indexed by ProofKindArg - 1: porep, snap, wpost, winning.
  std::array<StressKindOptions, 4> kinds;
  std::string duration = "60s";
};

struct ClientOptions {
  enum class Command {
    kNone,
    kSingle,
    kSubmit,
    kBatch,
    kStress,
    kStatus,
    kPreload,
    kEvict,
    kMetrics,
    kCancel,
    kAwait
  };
  Command command = Command::kNone;
  ConnectionOptions connection;
  RequestOptions request;  // single, batch; stress takes the fields shared by all kinds
  std::string request_id;  // single, submit (default: a fresh one)
  std::string out;         // single, await: proof bytes file
  bool verbose = false;
  bool submit_await = false;  // single: SubmitProof + AwaitProof instead of Prove
  unsigned count = 1;         // batch
  unsigned concurrency = 1;   // batch
  StressOptions stress;
  bool json = false;    // status
  std::string circuit;  // preload, evict
  std::string job_id;   // cancel, await
};

void add_client_commands(CLI::App& app, ClientOptions& opts);
int run_client(const ClientOptions& opts);

}  // namespace cuzk::bench
