// The daemon's life: engine, gRPC server (unix socket of [daemon] socket_mode, or TCP with
// optional TLS), optional HTTP /metrics, and
// the graceful stop on SIGTERM/SIGINT (those must be blocked in every thread before any thread
// starts; a dedicated thread takes them with sigwait).
#pragma once

#include <signal.h>

#include <string>

#include "server/daemon_config.hpp"

namespace cuzk::daemon {

// A unix socket path left behind by a daemon that died is removed; a path a live process accepts
// connections on, or that is not a socket, is a std::runtime_error. A missing directory is
// created.
void prepare_unix_socket_path(const std::string& path);

// A unix socket's directory is created when missing. Runs until one of `signals` arrives and the
// shutdown completes: 0, or 1 when startup fails. `config_origin` (the file, or why none) is
// logged.
int run_daemon(const server::DaemonConfig& config, const std::string& config_origin,
               const sigset_t& signals);

}  // namespace cuzk::daemon
