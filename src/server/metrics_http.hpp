// [daemon] status_listen: a minimal HTTP/1.0 responder for Prometheus scrapes. GET /metrics
// answers the engine's text exposition; anything else 404/405. One request per connection,
// served one at a time on its own thread (a scraper every few seconds, not a web server).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "server/daemon_config.hpp"

namespace cuzk::server {

class MetricsHttpServer {
 public:
  // Binds and listens at once (std::runtime_error naming the address when it cannot), then
  // serves on a thread until stop() or destruction.
  MetricsHttpServer(const ListenAddress& address, std::function<std::string()> metrics_text);
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  uint16_t port() const { return port_; }  // the bound port (useful with port 0)
  void stop();

 private:
  void serve();
  void answer(int client) const;

  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::function<std::string()> metrics_text_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// The response to one request head ("GET /metrics HTTP/1.1\r\n..."), status line included.
std::string http_response(const std::string& request_head,
                          const std::function<std::string()>& metrics_text);

}  // namespace cuzk::server
