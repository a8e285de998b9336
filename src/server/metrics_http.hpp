// [daemon] status_listen: the daemon's HTTP port, served with cpp-httplib (Debian's
// libcpp-httplib). GET (and HEAD) of a route answers its text; other paths 404, other methods on
// a route 405. The port is read-only status that anyone who reaches it may ask for, so what one
// connection can take is bounded (issue 29: four clients sending a header byte every 2 s held
// every worker, a 2,700-range Range header turned the 17 KiB page into 44 MiB, 50,000 header
// lines were read into memory):
//   - one request per connection (no keep-alive), whose request line and headers must arrive
//     within request_timeout, however the client paces its bytes: then 408 and the connection
//     is closed (httplib's own timeout is per read, which a byte now and then never reaches);
//   - at most max_request_bytes and max_header_lines (431 past either), read into a fixed
//     buffer;
//   - Range is not served: every answer is the whole body (a malformed Range header is 416);
//   - threads workers, then at most max_backlog connections waiting for one; a connection past
//     that is closed at once with 503 (so a flood of connections cannot take the daemon's file
//     descriptors, which gRPC needs too).
// So a scrape waits at most about one request_timeout behind clients that misbehave.
//
// Routes are (path, content type, body function) rows: a status page is one more row.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/daemon_config.hpp"

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
  unsigned threads = 8;  // connections served at once
  unsigned max_backlog = 256;
  std::chrono::milliseconds request_timeout{5000};  // the whole request head
  std::chrono::milliseconds write_timeout{5000};    // each write of the answer
  size_t max_request_bytes = 16 * 1024;             // request line, headers and any body
  unsigned max_header_lines = 64;
};

class BoundedHttpServer;

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
  std::unique_ptr<BoundedHttpServer> server_;
  uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace cuzk::server
