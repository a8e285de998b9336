// What the daemon says at start about its configuration before it takes a job: listeners anyone
// can reach without credentials, a socket others may use, a parameter directory that is not
// there (with the way to fill it), and notes on the Rust daemon's keys.
#pragma once

#include <string>

#include "event_log.hpp"
#include "server/daemon_config.hpp"

namespace cuzk::daemon {

// Whether a host:port names this machine's loopback interface (127.0.0.0/8, ::1, localhost).
bool is_loopback(const std::string& host_port);

// One warning line per finding (events config_note, listen_unauthenticated, tls_no_client_ca,
// socket_open_to_all, status_listen_exposed, param_cache_missing).
void warn_about_config(const server::DaemonConfig& config, const EventLog& log);

}  // namespace cuzk::daemon
