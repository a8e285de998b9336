// cuzk-daemon: the proving engine behind the cuzk.v1 gRPC API (what Curio's client speaks).
//   cuzk-daemon [-c cuzk.toml] [-l unix:///run/curio/cuzk.sock] [--log-level debug]
//               [--print-config]
// The Rust cuzk daemon's command line: -c/--config (default /data/zk/cuzk.toml, read when it
// exists, else every default), -l/--listen, --log-level, and RUST_LOG above both.
// Exit codes: 0 after a signal-driven shutdown (SIGTERM, SIGINT, SIGHUP; or --print-config), 1
// when startup fails, 2 for a bad command line or configuration.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "daemon.hpp"
#include "server/daemon_config.hpp"
#include "server/log_level.hpp"

namespace {

using namespace cuzk::server;

// --log-level, then RUST_LOG (the Rust daemon's order: its EnvFilter reads the environment
// first). A RUST_LOG that names no level is ignored with a note, as tracing ignores it.
void apply_log_level(DaemonConfig& config, const std::string& cli_level) {
  if (!cli_level.empty()) {
    const LogLevel l = parse_log_level(cli_level);  // std::invalid_argument: a bad command line
    config.log_level = l.level;
    if (!l.note.empty()) config.notes.push_back("--log-level: " + l.note);
  }
  const char* env = std::getenv("RUST_LOG");
  if (env == nullptr || *env == 0) return;
  try {
    const LogLevel l = parse_log_level(env);
    config.log_level = l.level;
    if (!l.note.empty()) config.notes.push_back("RUST_LOG: " + l.note);
  } catch (const std::invalid_argument& e) {
    config.notes.push_back(std::string("RUST_LOG ignored: ") + e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread exists: every thread inherits the mask, so only the daemon's sigwait
  // thread ever takes SIGTERM/SIGINT/SIGHUP. SIGHUP (the terminal or session went away) drains
  // as SIGTERM does rather than killing the jobs in flight; there is no reload.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  // A log reader that went away (stderr into a closed pipe) is a failed write, not the end of
  // the daemon and its jobs; sockets send with MSG_NOSIGNAL, but writes to stderr cannot.
  signal(SIGPIPE, SIG_IGN);

  CLI::App app{"cuzk-daemon: Groth16 proving engine for Filecoin behind the cuzk.v1 gRPC API"};
  app.set_version_flag("--version", CUZK_VERSION);
  std::string config_path(kDefaultConfigFile), listen, log_level;
  bool print_config = false;
  app.add_option("-c,--config", config_path,
                 "TOML configuration (cuzk.example.toml documents every key); without this "
                 "option /data/zk/cuzk.toml when it exists (the Rust daemon's default), else "
                 "every default");
  app.add_option("-l,--listen", listen,
                 "override [daemon] listen: unix:///path/to.sock or host:port");
  app.add_option("--log-level", log_level,
                 "override [logging] level: trace, debug, info, warn, error, off (RUST_LOG, "
                 "when set, overrides both, as in the Rust daemon)");
  app.add_flag("--print-config", print_config, "print the effective configuration and exit");
  app.footer(
      "Environment: RUST_LOG (log level), FIL_PROOFS_PARAMETER_CACHE (default [srs] "
      "param_cache), CUZK_FAULT (fault injection, tests only).");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  DaemonConfig config;
  std::string origin;
  std::filesystem::path file = config_path;
  if (app.count("--config") == 0 && !std::filesystem::exists(file)) {
    origin = "no " + file.string() + ": every default";
    file.clear();
  } else {
    origin = file.string();
  }
  try {
    config = load_daemon_config(file, SystemFacts::of_this_machine());
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  const char* option = "--listen";
  try {
    if (!listen.empty()) config.listen = parse_listen_address(listen, true);
    option = "--log-level";
    apply_log_level(config, log_level);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s %s\n", option, e.what());
    return 2;
  }
  if (print_config) {
    std::printf("# cuzk-daemon effective configuration (from %s; memory budget: %s)\n",
                origin.c_str(), config.memory_budget_origin.c_str());
    for (const std::string& note : config.notes)
      std::printf("# note: %s\n", note.c_str());
    std::fputs(to_toml(config).c_str(), stdout);
    return 0;
  }
  return cuzk::daemon::run_daemon(config, origin, signals);
}
