// [daemon] status_listen: the daemon's HTTP port, served with cpp-httplib (Debian's
// libcpp-httplib). GET (and HEAD) of a route answers its text; other paths 404, other methods on
// a route 405. A small thread pool serves the connections and every read and write has a
// timeout, so a slow or stalled client holds one worker for at most a few seconds and never the
// port (the hand-written server it replaces answered one connection at a time).
//
// Routes are (path, content type, body function) rows: a status page is one more row.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/daemon_config.hpp"

namespace httplib {
class Server;
}

namespace cuzk::server {

// A status code with its body, for a route whose answer is not always 200 (/healthz).
struct HttpAnswer {
  int status = 200;
  std::string body;
};

struct HttpRoute {
  std::string path;          // "/metrics"
  std::string content_type;  // "text/plain; version=0.0.4; charset=utf-8"
  std::function<std::string()> body;
  // Extra response headers (the Rust daemon's /status sends Access-Control-Allow-Origin: *).
  std::vector<std::pair<std::string, std::string>> headers = {};
  // When set, replaces body: the status code and the body, taken together.
  std::function<HttpAnswer()> answer = {};
};

// GET /metrics with the Prometheus text exposition content type.
HttpRoute metrics_route(std::function<std::string()> metrics_text);

struct HttpServerOptions {
  unsigned threads = 4;  // connections served at once
  int read_timeout_s = 5, write_timeout_s = 5;
  int keep_alive_timeout_s = 2;
};

class MetricsHttpServer {
 public:
  // Binds and listens at once (std::runtime_error naming the address when it cannot), then
  // serves on a thread until stop() or destruction.
  MetricsHttpServer(const ListenAddress& address, std::vector<HttpRoute> routes,
                    HttpServerOptions options = {});
  MetricsHttpServer(const ListenAddress& address, std::function<std::string()> metrics_text);
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  uint16_t port() const { return port_; }  // the bound port (useful with port 0)
  void stop();

 private:
  std::unique_ptr<httplib::Server> server_;
  uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace cuzk::server
