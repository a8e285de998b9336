#include "server/metrics_http.hpp"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <utility>

#include "util/utf8.hpp"

namespace cuzk::server {

HttpRoute metrics_route(std::function<std::string()> metrics_text) {
  return {"/metrics", "text/plain; version=0.0.4; charset=utf-8", std::move(metrics_text)};
}

MetricsHttpServer::MetricsHttpServer(const ListenAddress& address,
                                     std::function<std::string()> metrics_text)
    : MetricsHttpServer(address, {metrics_route(std::move(metrics_text))}) {}

MetricsHttpServer::MetricsHttpServer(const ListenAddress& address, std::vector<HttpRoute> routes,
                                     HttpServerOptions options)
    : server_(std::make_unique<httplib::Server>()) {
  httplib::Server& s = *server_;
  const unsigned threads = options.threads == 0 ? 1 : options.threads;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s.set_read_timeout(options.read_timeout_s, 0);
  s.set_write_timeout(options.write_timeout_s, 0);
  s.set_keep_alive_timeout(options.keep_alive_timeout_s);
  s.set_payload_max_length(4096);  // nothing here takes a body
  // httplib's default also sets SO_REUSEPORT, which lets a second daemon share the port.
  s.set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });

  std::string paths;
  for (HttpRoute& r : routes) {
    paths += (paths.empty() ? "" : ", ") + r.path;
    auto route = std::make_shared<HttpRoute>(std::move(r));
    // GET also serves HEAD (httplib strips the body).
    s.Get(route->path, [route](const httplib::Request&, httplib::Response& res) {
      try {
        for (const auto& [name, value] : route->headers)
          res.set_header(name, value);
        if (route->answer) {
          HttpAnswer a = route->answer();
          res.status = a.status;
          res.set_content(std::move(a.body), route->content_type);
        } else {
          res.set_content(route->body(), route->content_type);
        }
      } catch (const std::exception& e) {
        res.status = 500;
        res.set_content(escape_invalid_utf8(e.what()) + "\n", "text/plain");
      }
    });
    const auto not_allowed = [](const httplib::Request&, httplib::Response& res) {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
      res.set_content("only GET\n", "text/plain");
    };
    s.Post(route->path, not_allowed);
    s.Put(route->path, not_allowed);
    s.Delete(route->path, not_allowed);
    s.Patch(route->path, not_allowed);
  }
  s.set_error_handler([paths](const httplib::Request&, httplib::Response& res) {
    if (res.status == 404) res.set_content("try " + paths + "\n", "text/plain");
  });

  const std::string& hp = address.host_port;
  const size_t colon = hp.rfind(':');
  std::string host = hp.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  int port = -1;
  try {
    port = std::stoi(hp.substr(colon + 1));
  } catch (const std::exception&) {
  }
  if (port < 0 || port > 65535) throw std::runtime_error("status_listen " + hp + ": bad port");
  const int bound = port == 0 ? s.bind_to_any_port(host) : (s.bind_to_port(host, port) ? port : -1);
  if (bound <= 0) {
    throw std::runtime_error("status_listen " + hp +
                             ": cannot listen (address in use or not available)");
  }
  port_ = static_cast<uint16_t>(bound);
  auto listening_ended = std::make_shared<std::atomic<bool>>(false);
  thread_ = std::thread([this, listening_ended] {
    server_->listen_after_bind();
    *listening_ended = true;
  });
  // httplib's stop() does nothing until the loop runs: wait for it, so stop() always ends it.
  while (!server_->is_running() && !*listening_ended)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

MetricsHttpServer::~MetricsHttpServer() {
  stop();
}

void MetricsHttpServer::stop() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace cuzk::server
