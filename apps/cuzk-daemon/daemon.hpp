// The daemon's life: engine, gRPC server (unix socket of [daemon] socket_mode, or TCP with
// optional TLS), optional HTTP /metrics, and the graceful stop on SIGTERM, SIGINT or SIGHUP
// (those must be blocked in every thread before any thread starts; a dedicated thread takes them
// with sigwait).
#pragma once

#include <signal.h>

#include <string>
#include <utility>

#include "server/daemon_config.hpp"

namespace cuzk::daemon {

// An flock held on "<socket>.lock" (released when this is destroyed or the process ends).
class UnixSocketLock {
 public:
  UnixSocketLock() = default;
  explicit UnixSocketLock(int fd) : fd_(fd) {}
  UnixSocketLock(UnixSocketLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  UnixSocketLock& operator=(UnixSocketLock&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~UnixSocketLock();
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

// Takes "<path>.lock" (another daemon holding it is a std::runtime_error naming it), then: a
// unix socket path left behind by a daemon that died is removed; a path a live process accepts
// connections on, or that is not a socket, is a std::runtime_error. A missing directory is
// created first (as the Rust daemon does).
UnixSocketLock prepare_unix_socket_path(const std::string& path);

// A unix socket's directory is created when missing. Runs until one of `signals` arrives and the
// shutdown completes: 0, or 1 when startup fails. `config_origin` (the file, or why none) is
// logged.
int run_daemon(const server::DaemonConfig& config, const std::string& config_origin,
               const sigset_t& signals);

}  // namespace cuzk::daemon
