#include "daemon.hpp"

#include <fcntl.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "event_log.hpp"
#include "job_watcher.hpp"
#include "listener_security.hpp"
#include "server/daemon_metrics.hpp"
#include "server/health.hpp"
#include "server/metrics_http.hpp"
#include "server/proving_service.hpp"
#include "server/request_parse_status.hpp"
#include "server/status_page.hpp"
#include "startup_checks.hpp"
#include "util/text.hpp"

namespace cuzk::daemon {
namespace {

using Clock = std::chrono::steady_clock;

// A 64 GiB sector's C1 output is ~100 MB; gRPC's default 4 MiB would refuse every real PoRep.
constexpr int kMaxMessageBytes = 1 << 30;
// After the engine has drained, handlers still running (awaiters of the last jobs) get this long
// to return their answers; then gRPC gets kSendGrace to put them on the wire. gRPC's Shutdown
// waits out its whole deadline while any client connection is open, idle or not, so the
// deadline is kept short rather than generous.
constexpr auto kRpcGrace = std::chrono::seconds(5);
constexpr auto kSendGrace = std::chrono::milliseconds(500);

std::string signal_name(int sig) {
  return sig == SIGTERM  ? "SIGTERM"
         : sig == SIGINT ? "SIGINT"
         : sig == SIGHUP ? "SIGHUP"
                         : std::to_string(sig);
}

uint64_t ms_since(Clock::time_point t0) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
}

// Waits for the first signal, then stops: the engine stops accepting and finishes (or cancels)
// what is in flight, so awaiting clients get their results; a second signal or the shutdown
// timeout cancels what is left. Then the gRPC server shuts down and main's Wait() returns.
void stop_on_signal(const sigset_t& signals, const server::DaemonConfig& config,
                    engine::Engine& engine, JobWatcher& watcher,
                    const server::ProvingService& service, grpc::Server& server, EventLog& log) {
  int sig = 0;
  sigwait(&signals, &sig);
  // NOT_SERVING from the first moment of the drain (and frozen there): load balancers stop
  // sending new work while the jobs in flight finish.
  if (grpc::HealthCheckServiceInterface* health = server.GetHealthCheckService()) {
    health->Shutdown();
  }
  const bool cancel = config.shutdown == server::ShutdownMode::kCancel;
  log.info("shutdown_started", {{"signal", signal_name(sig)},
                                {"mode", cancel ? "cancel" : "finish"},
                                {"timeout_s", config.shutdown_timeout_s}});
  const auto t0 = Clock::now();
  std::atomic<bool> drained{false};
  std::thread drain([&] {
    engine.shutdown(cancel);
    drained = true;
  });
  bool escalated = cancel;
  while (!drained) {
    const timespec poll{0, 200'000'000};
    siginfo_t info{};
    const int again = sigtimedwait(&signals, &info, &poll);
    const bool late =
        config.shutdown_timeout_s != 0 && ms_since(t0) > config.shutdown_timeout_s * 1000;
    if (!escalated && (again > 0 || late)) {
      escalated = true;
      const size_t n = watcher.cancel_all();
      log.warn("shutdown_escalated",
               {{"reason", again > 0 ? "second signal" : "timeout"}, {"cancelled_jobs", n}});
    }
  }
  drain.join();
  watcher.sweep();  // the last jobs' job_finished lines come before engine_stopped
  log.info("engine_stopped", {{"drain_ms", ms_since(t0)}});
  const auto t1 = Clock::now();
  while (service.calls_in_flight() > 0 && Clock::now() - t1 < kRpcGrace) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  server.Shutdown(std::chrono::system_clock::now() + kSendGrace);
}

}  // namespace

UnixSocketLock::~UnixSocketLock() {
  if (fd_ >= 0) close(fd_);
}

UnixSocketLock prepare_unix_socket_path(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  // Created as the Rust daemon does (/run/curio on a fresh host); the socket's own mode guards it.
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent) &&
      !std::filesystem::create_directories(parent, ec)) {
    throw std::runtime_error("cannot create the socket directory " + parent.string() + ": " +
                             ec.message());
  }
  // Held for the daemon's life (the kernel lets go when the process ends, however it ends): the
  // existence check below and gRPC's unlink-then-bind are not atomic, and two daemons started
  // together both passed them and both served (issue 29).
  const std::string lock_path = path + ".lock";
  UnixSocketLock lock(open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  if (lock.fd() < 0) {
    throw std::runtime_error("cannot open the lock file " + lock_path + ": " +
                             std::strerror(errno));
  }
  if (flock(lock.fd(), LOCK_EX | LOCK_NB) != 0) {
    throw std::runtime_error(errno == EWOULDBLOCK
                                 ? "another cuzk-daemon is using " + path + " (it holds " +
                                       lock_path + ")"
                                 : "cannot lock " + lock_path + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return lock;
    throw std::runtime_error(path + ": " + std::strerror(errno));
  }
  if (!S_ISSOCK(st.st_mode)) {
    throw std::runtime_error(path + " exists and is not a socket; not removing it");
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const bool live =
      fd >= 0 && connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
  if (fd >= 0) close(fd);
  if (live) throw std::runtime_error("another process is listening on " + path);
  if (unlink(path.c_str()) != 0 && errno != ENOENT) {
    throw std::runtime_error("cannot remove the stale socket " + path + ": " +
                             std::strerror(errno));
  }
  return lock;
}

int run_daemon(const server::DaemonConfig& config, const std::string& config_origin,
               const sigset_t& signals) {
  EventLog log(config.log_level, config.log_format == "json");
  log.take_grpc_logs();
  const engine::EngineConfig& ec = config.engine;
  log.info("daemon_starting",
           {{"version", CUZK_VERSION},
            {"config", config_origin},
            {"listen", config.listen.grpc_uri()},
            {"tls", config.tls_cert.empty()    ? "off"
                    : config.client_ca.empty() ? "server certificate only"
                                               : "client certificates required"},
            {"backend", ec.backend},
            {"gpu_memory_limit",
             ec.gpu_memory_limit == 0 ? "device" : binary_size_name(ec.gpu_memory_limit)},
            {"param_cache", ec.param_cache.string()},
            {"memory_budget", binary_size_name(ec.memory_budget_bytes)},
            {"memory_budget_origin", config.memory_budget_origin},
            {"synthesis_workers", ec.synthesis_workers},
            {"synthesis_lookahead", ec.synthesis_lookahead},
            {"pce", ec.pce_enabled},
            {"threads", ec.threads},
            {"max_batch_size", ec.max_batch_size},
            {"shutdown", config.shutdown == server::ShutdownMode::kCancel ? "cancel" : "finish"}});
  warn_about_config(config, log);

  if (!ec.verify_proofs) {
    log.warn("verify_proofs_off",
             {{"note",
               "[pipeline] verify_proofs = false: partition proofs are returned "
               "unchecked, and a wrong one (a GPU fault) is not caught or retried"}});
  }
  if (!ec.faults.empty()) log.warn("faults_injected", {{"plan", ec.faults}});

  UnixSocketLock socket_lock;
  std::optional<gid_t> socket_group;
  std::shared_ptr<grpc::ServerCredentials> credentials;
  try {
    if (config.listen.is_unix) {
      socket_group = socket_group_id(config.socket_group);
      socket_lock = prepare_unix_socket_path(config.listen.path);
    }
    credentials = server_credentials(config);
  } catch (const std::exception& e) {
    log.error("listen_failed", {{"address", config.listen.grpc_uri()}, {"error", e.what()}});
    return 1;
  }

  std::unique_ptr<engine::Engine> engine;
  try {
    engine::EngineConfig with_events = ec;
    with_events.on_event = [&log](const std::string& event, const std::string& message) {
      const bool bad = event == "pce_refused" || event == "pce_failed" ||
                       event == "pce_not_saved" || event == "spool_unreadable" ||
                       event == "cpu_fallback" || event == "no_prover" ||
                       event == "insecure_parameters" || event == "job_left_spooled" ||
                       event == "prover_out_of_rotation";
      if (bad) {
        log.warn(event, {{"message", message}});
      } else {
        log.info(event, {{"message", message}});
      }
    };
    engine = std::make_unique<engine::Engine>(with_events);
  } catch (const std::exception& e) {
    log.error("engine_failed", {{"error", e.what()}});
    return 1;
  }

  JobWatcher watcher(*engine, log);
  server::ServiceOptions options;
  options.on_submitted = [&](const server::SubmitEvent& e) {
    log.info("job_submitted", {{"job_id", e.result.job_id},
                               {"request_id", e.request_id},
                               {"kind", engine::proof_kind_label(e.kind)},
                               {"sector_size", e.sector_size},
                               {"input_bytes", e.input_bytes},
                               {"queue_position", e.result.queue_position},
                               {"duplicate", e.result.duplicate}});
    watcher.watch(e);
  };
  options.on_client_gone = [&](const std::string& job_id) {
    log.info("client_gone", {{"job_id", job_id}, {"note", "the job keeps running"}});
  };
  server::ProvingService service(*engine, options);

  std::unique_ptr<server::MetricsHttpServer> metrics;
  if (config.status_listen) {
    try {
      std::vector<server::HttpRoute> routes = server::status_page_routes(*engine);
      routes.push_back(
          server::metrics_route([&engine] { return server::daemon_metrics_text(*engine); }));
      metrics = std::make_unique<server::MetricsHttpServer>(*config.status_listen, routes);
    } catch (const std::exception& e) {
      log.error("status_listen_failed", {{"error", e.what()}});
      return 1;
    }
    log.info("metrics_listening",
             {{"address", config.status_listen->host_port}, {"port", metrics->port()}});
  }

  // grpc.health.v1.Health (kept in step with the engine below) and server reflection.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  // gRPC sets SO_REUSEPORT by default, which lets a second daemon bind the same TCP port and take
  // half of the connections.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  {
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> f;
    f.push_back(std::make_unique<server::RequestParseStatusFactory>());
    builder.experimental().SetInterceptorCreators(std::move(f));
  }
  int tcp_port = 0;
  builder.AddListeningPort(config.listen.grpc_uri(), credentials,
                           config.listen.is_unix ? nullptr : &tcp_port);
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  builder.SetMaxSendMessageSize(kMaxMessageBytes);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> grpc_server;
  {
    // Owner-only socket (0600) from the moment it exists: whoever connects can make the daemon
    // spend its machine. Its group, then [daemon] socket_mode, are set below.
    const mode_t old_mask = umask(0177);
    grpc_server = builder.BuildAndStart();
    umask(old_mask);
  }
  if (!grpc_server) {
    log.error("listen_failed",
              {{"address", config.listen.grpc_uri()}, {"error", "gRPC could not bind"}});
    return 1;
  }
  if (config.listen.is_unix) {
    try {
      set_socket_permissions(config.listen.path, config.socket_mode, socket_group);
    } catch (const std::exception& e) {
      log.error("listen_failed", {{"address", config.listen.grpc_uri()}, {"error", e.what()}});
      grpc_server->Shutdown();
      unlink(config.listen.path.c_str());
      return 1;
    }
  }
  log.info("daemon_listening", {{"address", config.listen.grpc_uri()},
                                {"port", tcp_port},
                                {"pid", static_cast<int64_t>(getpid())}});

  std::optional<server::HealthReporter> health;
  if (grpc::HealthCheckServiceInterface* service_health = grpc_server->GetHealthCheckService()) {
    health.emplace(
        *service_health, [&] { return server::engine_health(*engine); },
        [&](const server::Health& h) {
          // status: what grpc.health.v1 answers; state: ours (degraded is still SERVING).
          const char* grpc_status =
              h.state == server::HealthState::kNotServing ? "NOT_SERVING" : "SERVING";
          if (h.state == server::HealthState::kServing) {
            log.info("health", {{"status", grpc_status}, {"state", "serving"}});
          } else {
            log.warn("health", {{"status", grpc_status},
                                {"state", server::health_state_name(h.state)},
                                {"reason", h.reason}});
          }
        });
  }

  std::thread signal_thread(
      [&] { stop_on_signal(signals, config, *engine, watcher, service, *grpc_server, log); });
  grpc_server->Wait();
  signal_thread.join();

  if (health) health->stop();
  watcher.stop();
  if (metrics) metrics->stop();
  if (config.listen.is_unix) unlink(config.listen.path.c_str());
  const engine::EngineStatus s = engine->status();
  log.info("daemon_stopped",
           {{"completed", s.completed}, {"failed", s.failed}, {"cancelled", s.cancelled}});
  return 0;
}

}  // namespace cuzk::daemon
