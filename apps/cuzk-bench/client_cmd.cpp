#include "client_cmd.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "client_load.hpp"
#include "client_util.hpp"
#include "server/health_row.hpp"

namespace cuzk::bench {
namespace {

using Command = ClientOptions::Command;

// Also before the subcommand, as --addr is.
void add_tls_options(CLI::App* c, ConnectionOptions& o) {
  c->add_option("--tls-ca", o.tls_ca,
                "TLS: PEM of the CA that signed the daemon's certificate ([daemon] tls_cert)");
  c->add_option("--tls-cert", o.tls_cert,
                "TLS: this client's certificate (PEM), for a daemon with [daemon] client_ca");
  c->add_option("--tls-key", o.tls_key, "TLS: the key of --tls-cert (PEM)");
  c->add_option("--tls-server-name", o.tls_server_name,
                "TLS: the name the daemon's certificate must carry, when not the address's host");
}

void add_connection_options(CLI::App* c, ConnectionOptions& o) {
  c->add_option("--addr", o.addr,
                "daemon address: unix:///path, unix:path or host:port (default "
                "unix:///run/curio/cuzk.sock)");
  add_tls_options(c, o);
  c->add_option("--timeout-s", o.timeout_s, "deadline of each call in seconds (default 0: none)");
}

// The request fields every kind shares (stress takes only these).
void add_shared_request_options(CLI::App* c, RequestOptions& r) {
  c->add_option("--sector-num", r.sector_num,
                "sector number (porep default: the c1.json wrapper's SectorNum, else 1)");
  c->add_option("--miner-id", r.miner_id, "miner (prover) id (default 1000)");
  c->add_option("--partition", r.partition, "WindowPoSt partition index (default 0)");
  c->add_option("--randomness", r.randomness, "PoSt seed, 64 hex digits (default all zero)");
  c->add_option("--comm-r-old", r.comm_r_old, "SnapDeals comm_r_old, 64 hex digits");
  c->add_option("--comm-r-new", r.comm_r_new, "SnapDeals comm_r_new, 64 hex digits");
  c->add_option("--comm-d-new", r.comm_d_new, "SnapDeals comm_d_new, 64 hex digits");
  c->add_option("--priority", r.priority, "low, normal, high or critical (default normal)");
}

void add_request_options(CLI::App* c, RequestOptions& r) {
  c->add_option("-t,--type", r.type, "proof type: porep, snap, wpost, winning (default porep)");
  c->add_option("--c1", r.c1, "porep: c1.json (cuzk wrapper or bare SealCommitPhase1Output)")
      ->check(CLI::ExistingFile);
  c->add_option("--vanilla", r.vanilla,
                "snap/wpost/winning: vanilla proofs (JSON array of base64, or one raw proof)")
      ->check(CLI::ExistingFile);
  c->add_option("--registered-proof", r.registered_proof,
                "numeric registered proof id (porep: from the C1; others default to 32 GiB)");
  c->add_option("--sector-size", r.sector_size,
                "sector size in bytes (default: the registered proof's)");
  add_shared_request_options(c, r);
}

int write_proof(const std::string& path, const std::string& proof) {
  // Through a temporary, so a failed write leaves no partial file under the requested name.
  const std::filesystem::path out(path), tmp(path + ".tmp");
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f || !f.write(proof.data(), static_cast<std::streamsize>(proof.size())) || !f.flush()) {
      std::fprintf(stderr, "cuzk-bench: %s: cannot write\n", tmp.c_str());
      return kExitBadInput;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, out, ec);
  if (ec) {
    std::fprintf(stderr, "cuzk-bench: %s: %s\n", path.c_str(), ec.message().c_str());
    return kExitBadInput;
  }
  std::printf("proof written to %s\n", path.c_str());
  return kExitOk;
}

// What single and await print; the exit code of the outcome.
int report_outcome(const ClientOptions& o, const ProofOutcome& r) {
  if (!r.rpc_status.ok()) {
    std::fprintf(stderr, "cuzk-bench: %s\n", r.rpc_error.c_str());
    return exit_code_of(r.rpc_status);
  }
  std::printf("job %s: %s\n", r.result.job_id().c_str(),
              job_status_name(r.result.status()).c_str());
  std::printf("timings (ms): %s | client wall %.3f s\n", format_timings(r.result).c_str(),
              r.client_s);
  if (!r.completed()) {
    std::fprintf(
        stderr, "cuzk-bench: job %s %s: %s\n", r.result.job_id().c_str(),
        job_status_name(r.result.status()).c_str(),
        r.result.error_message().empty() ? "(no error message)" : r.result.error_message().c_str());
    return kExitFailed;
  }
  const std::string& proof = r.result.proof();
  std::printf("proof (%zu bytes): %s\n", proof.size(),
              hex_encode({reinterpret_cast<const uint8_t*>(proof.data()), proof.size()}).c_str());
  std::fflush(stdout);
  return o.out.empty() ? kExitOk : write_proof(o.out, proof);
}

// The request of `single` and `submit`: from the files and flags, under --request-id or a fresh
// one.
v1::SubmitProofRequest request_of(const ClientOptions& o) {
  v1::SubmitProofRequest request = build_request(o.request);
  request.set_request_id(o.request_id.empty() ? request_id_prefix() : o.request_id);
  return request;
}

void print_request(const v1::SubmitProofRequest& request) {
  std::printf("request %s: %s\n", request.request_id().c_str(), describe_request(request).c_str());
}

int run_single(const ClientOptions& o) {
  v1::SubmitProofRequest request = request_of(o);
  DaemonClient client(o.connection);
  if (o.verbose) {
    print_request(request);
    std::printf("sending to %s (%s)\n", o.connection.addr.c_str(),
                o.submit_await ? "SubmitProof + AwaitProof" : "Prove");
    std::fflush(stdout);
  }
  v1::SubmitProofResponse submitted;
  const ProofOutcome r = run_proof(client, std::move(request), o.submit_await, &submitted);
  if (o.verbose && !submitted.job_id().empty()) {
    std::printf("submitted: job %s, queue position %u, gpu %s\n", submitted.job_id().c_str(),
                submitted.queue_position(),
                submitted.assigned_gpu().empty() ? "-" : submitted.assigned_gpu().c_str());
  }
  return report_outcome(o, r);
}

int run_await(const ClientOptions& o) {
  DaemonClient client(o.connection);
  return report_outcome(o, await_job(client, o.job_id));
}

int rpc_failed(const DaemonClient& client, std::string_view rpc, const grpc::Status& s) {
  std::fprintf(stderr, "cuzk-bench: %s\n", describe_rpc_error(client, rpc, s).c_str());
  return exit_code_of(s);
}

using Stub = v1::ProvingEngine::Stub;
template <class Request, class Response>
using UnaryRpc = grpc::Status (Stub::*)(grpc::ClientContext*, const Request&, Response*);

// A call that failed, its error printed: run_client returns its exit code.
struct CallFailed {
  int exit_code;
};

// One unary call under --timeout-s: its answer; throws CallFailed when it fails.
template <class Request, class Response>
Response call(DaemonClient& client, std::string_view name, UnaryRpc<Request, Response> rpc,
              const Request& request) {
  Response response;
  const auto ctx = client.context(client.timeout_s());
  const grpc::Status status = (client.stub().*rpc)(ctx.get(), request, &response);
  if (!status.ok()) throw CallFailed{rpc_failed(client, name, status)};
  return response;
}

// The same on a connection of its own.
template <class Request, class Response>
Response call(const ConnectionOptions& connection, std::string_view name,
              UnaryRpc<Request, Response> rpc, const Request& request) {
  DaemonClient client(connection);
  return call(client, name, rpc, request);
}

int run_submit(const ClientOptions& o) {
  const v1::SubmitProofRequest request = request_of(o);
  DaemonClient client(o.connection);
  if (o.verbose) print_request(request);
  const v1::SubmitProofResponse resp = call(client, "SubmitProof", &Stub::SubmitProof, request);
  std::printf("job %s submitted (request %s, queue position %u, gpu %s)\n", resp.job_id().c_str(),
              request.request_id().c_str(), resp.queue_position(),
              resp.assigned_gpu().empty() ? "-" : resp.assigned_gpu().c_str());
  return kExitOk;
}

std::string tier_name(int tier) {
  if (v1::SRSStatus::Tier_IsValid(tier)) {
    return v1::SRSStatus::Tier_Name(static_cast<v1::SRSStatus::Tier>(tier));
  }
  return "TIER_" + std::to_string(tier);
}

std::string format_uptime(uint64_t s) {
  char buf[64];
  std::snprintf(
      buf, sizeof buf, "%llud %02lluh %02llum %02llus", static_cast<unsigned long long>(s / 86400),
      static_cast<unsigned long long>(s / 3600 % 24), static_cast<unsigned long long>(s / 60 % 60),
      static_cast<unsigned long long>(s % 60));
  return buf;
}

// The daemon's health row of GetStatus (server/health.hpp: proof_kind "health: <state>[: why]"),
// or "" from a daemon that sends none (the Rust daemon).
std::string health_of(const v1::GetStatusResponse& s) {
  for (const v1::QueueStatus& q : s.queues()) {
    if (q.proof_kind().starts_with(server::kHealthRowPrefix)) {
      return q.proof_kind().substr(server::kHealthRowPrefix.size());
    }
  }
  return "";
}

// The same field names as the proto; numbers as numbers (proto3 JSON would quote the uint64s).
nlohmann::json status_json(const v1::GetStatusResponse& s) {
  nlohmann::json j;
  j["gpus"] = nlohmann::json::array();
  for (const v1::GPUStatus& g : s.gpus()) {
    j["gpus"].push_back({{"ordinal", g.ordinal()},
                         {"name", g.name()},
                         {"vram_total_bytes", g.vram_total_bytes()},
                         {"vram_free_bytes", g.vram_free_bytes()},
                         {"current_job_id", g.current_job_id()},
                         {"current_proof_kind", g.current_proof_kind()}});
  }
  j["loaded_srs"] = nlohmann::json::array();
  for (const v1::SRSStatus& srs : s.loaded_srs()) {
    j["loaded_srs"].push_back({{"circuit_id", srs.circuit_id()},
                               {"tier", tier_name(srs.tier())},
                               {"size_bytes", srs.size_bytes()},
                               {"ref_count", srs.ref_count()}});
  }
  j["queues"] = nlohmann::json::array();
  for (const v1::QueueStatus& q : s.queues()) {
    j["queues"].push_back({{"proof_kind", q.proof_kind()},
                           {"pending", q.pending()},
                           {"in_progress", q.in_progress()}});
  }
  j["total_proofs_completed"] = s.total_proofs_completed();
  j["total_proofs_failed"] = s.total_proofs_failed();
  j["uptime_seconds"] = s.uptime_seconds();
  j["pinned_memory_bytes"] = s.pinned_memory_bytes();
  j["pinned_memory_limit_bytes"] = s.pinned_memory_limit_bytes();
  j["health"] = health_of(s);  // also in queues, as the daemon sends it
  return j;
}

void print_status(const std::string& addr, const v1::GetStatusResponse& s) {
  std::printf("daemon %s: up %s\n", addr.c_str(), format_uptime(s.uptime_seconds()).c_str());
  const std::string health = health_of(s);
  std::printf("health: %s\n", health.empty() ? "(not reported)" : health.c_str());
  std::printf("proofs: %llu completed, %llu failed\n",
              static_cast<unsigned long long>(s.total_proofs_completed()),
              static_cast<unsigned long long>(s.total_proofs_failed()));
  std::printf("memory: %s in use of %s budget\n", format_bytes(s.pinned_memory_bytes()).c_str(),
              s.pinned_memory_limit_bytes() == 0
                  ? "no"
                  : format_bytes(s.pinned_memory_limit_bytes()).c_str());
  std::printf("GPUs (%d):\n", s.gpus_size());
  for (const v1::GPUStatus& g : s.gpus()) {
    const std::string job = g.current_job_id().empty()
                                ? "idle"
                                : "job " + g.current_job_id() + " (" + g.current_proof_kind() + ")";
    std::printf("  [%u] %s: %s free of %s, %s\n", g.ordinal(), g.name().c_str(),
                format_bytes(g.vram_free_bytes()).c_str(),
                format_bytes(g.vram_total_bytes()).c_str(), job.c_str());
  }
  std::printf("SRS loaded (%d):\n", s.loaded_srs_size());
  for (const v1::SRSStatus& srs : s.loaded_srs()) {
    std::printf("  %-14s %-5s %12s  refs %u\n", srs.circuit_id().c_str(),
                tier_name(srs.tier()).c_str(), format_bytes(srs.size_bytes()).c_str(),
                srs.ref_count());
  }
  std::printf("queues (%d):\n", s.queues_size() - (health.empty() ? 0 : 1));
  for (const v1::QueueStatus& q : s.queues()) {
    if (q.proof_kind().starts_with(server::kHealthRowPrefix)) continue;
    std::printf("  %-14s %u pending, %u in progress\n", q.proof_kind().c_str(), q.pending(),
                q.in_progress());
  }
}

// status, preload, evict, metrics and cancel: one unary call each (call) and the lines of its
// answer. They read alike, but each request, RPC and answer is its own proto type.
int run_status(const ClientOptions& o) {
  const v1::GetStatusResponse s =
      call(o.connection, "GetStatus", &Stub::GetStatus, v1::GetStatusRequest());
  if (o.json) {
    std::printf("%s\n", status_json(s).dump(2).c_str());
  } else {
    print_status(o.connection.addr, s);
  }
  return kExitOk;
}

int run_preload(const ClientOptions& o) {
  v1::PreloadSrsRequest req;
  req.set_circuit_id(o.circuit);
  const v1::PreloadSrsResponse resp = call(o.connection, "PreloadSRS", &Stub::PreloadSRS, req);
  std::printf("%s: already_loaded %s, load_time_ms %llu\n", o.circuit.c_str(),
              resp.already_loaded() ? "true" : "false",
              static_cast<unsigned long long>(resp.load_time_ms()));
  return kExitOk;
}

int run_evict(const ClientOptions& o) {
  v1::EvictSrsRequest req;
  req.set_circuit_id(o.circuit);
  const v1::EvictSrsResponse resp = call(o.connection, "EvictSRS", &Stub::EvictSRS, req);
  std::printf("%s: was_loaded %s, freed %s (%llu bytes)\n", o.circuit.c_str(),
              resp.was_loaded() ? "true" : "false", format_bytes(resp.freed_bytes()).c_str(),
              static_cast<unsigned long long>(resp.freed_bytes()));
  return kExitOk;
}

int run_metrics(const ClientOptions& o) {
  const v1::GetMetricsResponse resp =
      call(o.connection, "GetMetrics", &Stub::GetMetrics, v1::GetMetricsRequest());
  const std::string& text = resp.prometheus_text();
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (!text.empty() && text.back() != '\n') std::fputc('\n', stdout);
  return kExitOk;
}

int run_cancel(const ClientOptions& o) {
  v1::CancelProofRequest req;
  req.set_job_id(o.job_id);
  const v1::CancelProofResponse resp = call(o.connection, "CancelProof", &Stub::CancelProof, req);
  std::printf("job %s: cancel sent, was_running %s\n", o.job_id.c_str(),
              resp.was_running() ? "true" : "false");
  return kExitOk;
}

}  // namespace

void add_client_commands(CLI::App& app, ClientOptions& o) {
  // Also before the subcommand, as the Rust cuzk-bench takes them (`cuzk-bench --addr A status`).
  app.add_option("--addr", o.connection.addr, "daemon address of the client commands");
  app.add_option("--timeout-s", o.connection.timeout_s, "deadline of each client call (s)");
  add_tls_options(&app, o.connection);
  const auto select = [&o](CLI::App* c, Command command) {
    add_connection_options(c, o.connection);
    c->callback([&o, command] { o.command = command; });
  };

  CLI::App* single = app.add_subcommand(
      "single",
      "One proof through the daemon: job, status, timings, proof hex (exit 0 only if "
      "COMPLETED)");
  add_request_options(single, o.request);
  single->add_option("--request-id", o.request_id, "idempotency key (default: a fresh one)");
  single->add_option("--out", o.out, "also write the proof bytes to this file");
  single->add_flag("--submit-await", o.submit_await, "SubmitProof + AwaitProof instead of Prove");
  single->add_flag("-v,--verbose", o.verbose, "print the request and the submit answer");
  select(single, Command::kSingle);

  CLI::App* submit = app.add_subcommand(
      "submit", "Enqueue one proof (SubmitProof) and print its job id, for await / cancel");
  add_request_options(submit, o.request);
  submit->add_option("--request-id", o.request_id, "idempotency key (default: a fresh one)");
  submit->add_flag("-v,--verbose", o.verbose, "print the request");
  select(submit, Command::kSubmit);

  CLI::App* batch = app.add_subcommand(
      "batch",
      "N proofs of one input from J concurrent clients (SubmitProof + AwaitProof each): "
      "throughput, latency percentiles, mean server timings");
  add_request_options(batch, o.request);
  batch->add_option("-n,--count", o.count, "number of proofs (default 1)");
  batch->add_option("-j,--concurrency", o.concurrency, "concurrent clients (default 1)");
  select(batch, Command::kBatch);

  CLI::App* stress = app.add_subcommand(
      "stress", "Submit proof kinds at given rates for a duration, await all, summary per kind");
  for (const ProofKindArg kind : {ProofKindArg::kPoRep, ProofKindArg::kSnapDeals,
                                  ProofKindArg::kWindowPoSt, ProofKindArg::kWinningPoSt}) {
    StressKindOptions& k = o.stress.kinds[static_cast<size_t>(kind) - 1];
    const std::string name(proof_kind_name(kind));
    if (kind == ProofKindArg::kPoRep) {
      stress->add_option("--porep-c1", k.input, "porep: c1.json")->check(CLI::ExistingFile);
    } else {
      stress->add_option("--" + name + "-vanilla", k.input, name + ": vanilla proofs file")
          ->check(CLI::ExistingFile);
      stress->add_option("--" + name + "-registered-proof", k.registered_proof,
                         name + ": registered proof id (default: the 32 GiB one)");
    }
    stress->add_option("--" + name + "-rate", k.rate, name + ": COUNT/PERIOD, e.g. 1/30s, 2/1m");
  }
  stress->add_option("--duration", o.stress.duration,
                     "how long to submit, e.g. 60s, 10m (default 60s)");
  add_shared_request_options(stress, o.request);
  select(stress, Command::kStress);

  CLI::App* status = app.add_subcommand("status", "Daemon status (GetStatus)");
  status->add_flag("--json", o.json, "print JSON (the proto's field names) instead");
  select(status, Command::kStatus);

  CLI::App* preload = app.add_subcommand("preload", "Load a circuit's SRS (PreloadSRS)");
  preload->add_option("--circuit", o.circuit, "circuit id, e.g. porep-2k, porep-32g")->required();
  select(preload, Command::kPreload);

  CLI::App* evict = app.add_subcommand("evict", "Drop a circuit's SRS (EvictSRS)");
  evict->add_option("--circuit", o.circuit, "circuit id, e.g. porep-2k, porep-32g")->required();
  select(evict, Command::kEvict);

  CLI::App* metrics = app.add_subcommand("metrics", "Prometheus metrics text (GetMetrics)");
  select(metrics, Command::kMetrics);

  CLI::App* cancel = app.add_subcommand("cancel", "Cancel a pending or running job (CancelProof)");
  cancel->add_option("--job", o.job_id, "job id")->required();
  select(cancel, Command::kCancel);

  CLI::App* await = app.add_subcommand(
      "await", "Wait for a submitted job (AwaitProof; --timeout-s bounds the wait)");
  await->add_option("--job", o.job_id, "job id")->required();
  await->add_option("--out", o.out, "also write the proof bytes to this file");
  select(await, Command::kAwait);
}

// A switch like the `cuzk` command files' (-Wswitch names a Command without a case); here a
// failed call ends with its own exit code (CallFailed) and bad input with 2.
int run_client(const ClientOptions& o) {
  try {
    switch (o.command) {
      case Command::kSingle:
        return run_single(o);
      case Command::kSubmit:
        return run_submit(o);
      case Command::kBatch:
        return run_batch(o);
      case Command::kStress:
        return run_stress(o);
      case Command::kStatus:
        return run_status(o);
      case Command::kPreload:
        return run_preload(o);
      case Command::kEvict:
        return run_evict(o);
      case Command::kMetrics:
        return run_metrics(o);
      case Command::kCancel:
        return run_cancel(o);
      case Command::kAwait:
        return run_await(o);
      case Command::kNone:
        break;
    }
  } catch (const BadInput& e) {
    std::fprintf(stderr, "cuzk-bench: %s\n", e.what());
    return kExitBadInput;
  } catch (const CallFailed& e) {
    return e.exit_code;
  }
  return kExitBadInput;
}

}  // namespace cuzk::bench
