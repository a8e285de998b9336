// cuzk-daemon: the proving engine behind the cuzk.v1 gRPC API (what Curio's client speaks).
//   cuzk-daemon --config cuzk.toml [--listen unix:///run/cuzk.sock] [--print-config]
// Exit codes: 0 after a signal-driven shutdown (SIGTERM, SIGINT, SIGHUP; or --print-config), 1
// when startup fails, 2 for a bad command line or configuration.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "daemon.hpp"
#include "server/daemon_config.hpp"

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
  std::string config_path, listen;
  bool print_config = false;
  app.add_option("-c,--config", config_path,
                 "TOML configuration (cuzk.example.toml documents every key); none: defaults");
  app.add_option("--listen", listen, "override [daemon] listen: unix:///path/to.sock or host:port");
  app.add_flag("--print-config", print_config, "print the effective configuration and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  using namespace cuzk::server;
  DaemonConfig config;
  try {
    config = load_daemon_config(config_path, SystemFacts::of_this_machine());
    if (!listen.empty()) config.listen = parse_listen_address(listen, true);
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: --listen %s\n", e.what());
    return 2;
  }
  if (print_config) {
    std::printf("# cuzk-daemon effective configuration (memory budget: %s)\n",
                config.memory_budget_origin.c_str());
    for (const std::string& note : config.notes)
      std::printf("# note: %s\n", note.c_str());
    std::fputs(to_toml(config).c_str(), stdout);
    return 0;
  }
  return cuzk::daemon::run_daemon(config, signals);
}
