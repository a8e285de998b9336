#include "server/metrics_http.hpp"

#include <httplib.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "util/utf8.hpp"

namespace cuzk::server {

using Clock = std::chrono::steady_clock;

namespace {

std::string plain_response(int status, const char* reason, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

// poll() for `events` until `deadline`: > 0 ready, 0 the deadline passed, < 0 an error.
int poll_until(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return 0;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 60'000)));
    if (n > 0 || (n < 0 && errno != EINTR)) return n;
  }
}

void address_of(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  const int rc = peer ? getpeername(fd, reinterpret_cast<sockaddr*>(&a), &len)
                      : getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  char host[NI_MAXHOST] = "", serv[NI_MAXSERV] = "";
  if (rc == 0 && getnameinfo(reinterpret_cast<sockaddr*>(&a), len, host, sizeof host, serv,
                             sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host;
    port = std::atoi(serv);
  }
}

// One connection's bytes for httplib's request parser, within the limits of HttpServerOptions:
// the request head must arrive by a deadline fixed when the connection is taken, and no more
// than max_request_bytes / max_header_lines of it are read. Past a limit the stream answers 408
// or 431 itself and fails every later read and write (httplib then gives up on the request).
class RequestStream final : public httplib::Stream {
 public:
  RequestStream(int fd, const HttpServerOptions& o)
      : fd_(fd), o_(o), deadline_(Clock::now() + o.request_timeout) {}

  bool is_readable() const override {
    return !refused_ && (begin_ < end_ || poll_until(fd_, POLLIN, deadline_) > 0);
  }
  bool is_writable() const override {
    return !refused_ && poll_until(fd_, POLLOUT, Clock::now() + o_.write_timeout) > 0;
  }

  ssize_t read(char* ptr, size_t size) override {
    if (refused_) return -1;
    if (begin_ == end_) {
      if (received_ >= o_.max_request_bytes) {
        return refuse(
            431, "Request Header Fields Too Large",
            "a request may take at most " + std::to_string(o_.max_request_bytes) + " bytes\n");
      }
      const int ready = poll_until(fd_, POLLIN, deadline_);
      if (ready == 0) {
        return refuse(408, "Request Timeout",
                      "the request did not arrive within " +
                          std::to_string(o_.request_timeout.count()) + " ms\n");
      }
      if (ready < 0) return -1;
      const size_t want = std::min(sizeof buf_, o_.max_request_bytes - received_);
      const ssize_t n = ::recv(fd_, buf_, want, 0);
      if (n <= 0) return n;  // 0: the client closed its side
      received_ += static_cast<size_t>(n);
      begin_ = 0;
      end_ = static_cast<size_t>(n);
      lines_ += static_cast<size_t>(std::count(buf_, buf_ + n, '\n'));
      // The request line, the headers and the blank line that ends them.
      if (lines_ > o_.max_header_lines + 2) {
        return refuse(431, "Request Header Fields Too Large",
                      "a request may have at most " + std::to_string(o_.max_header_lines) +
                          " header lines\n");
      }
    }
    const size_t n = std::min(size, end_ - begin_);
    std::copy(buf_ + begin_, buf_ + begin_ + n, ptr);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (refused_) return -1;
    return send_some(ptr, size);
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address_of(fd_, true, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address_of(fd_, false, ip, port);
  }
  socket_t socket() const override { return fd_; }

 private:
  // Never 0 (httplib's write loop would spin): a write that cannot start in time is an error.
  ssize_t send_some(const char* ptr, size_t size) const {
    if (poll_until(fd_, POLLOUT, Clock::now() + o_.write_timeout) <= 0) return -1;
    const ssize_t n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    return n == 0 ? -1 : n;
  }

  ssize_t refuse(int status, const char* reason, const std::string& body) {
    refused_ = true;
    const std::string r = plain_response(status, reason, body);
    for (size_t at = 0; at < r.size();) {
      const ssize_t n = send_some(r.data() + at, r.size() - at);
      if (n < 0) break;
      at += static_cast<size_t>(n);
    }
    return -1;
  }

  const int fd_;
  const HttpServerOptions& o_;
  const Clock::time_point deadline_;
  char buf_[4096];
  size_t begin_ = 0, end_ = 0, received_ = 0, lines_ = 0;
  bool refused_ = false;
};

// httplib's task queue: `threads` workers and at most `max_backlog` connections waiting for
// one. Past that a connection is handed back to the accepting thread at once, which the server
// recognises and sheds.
class ConnectionPool final : public httplib::TaskQueue {
 public:
  ConnectionPool(unsigned threads, size_t max_backlog) : max_backlog_(max_backlog) {
    for (unsigned i = 0; i < threads; ++i)
      workers_.emplace_back([this] { work(); });
  }

  void enqueue(std::function<void()> fn) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (backlog_.size() < max_backlog_) {
        backlog_.push_back(std::move(fn));
        ready_.notify_one();
        return;
      }
    }
    fn();
  }

  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : workers_)
      t.join();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mu_);
        ready_.wait(lock, [&] { return stopping_ || !backlog_.empty(); });
        if (backlog_.empty()) return;
        fn = std::move(backlog_.front());
        backlog_.pop_front();
      }
      fn();
    }
  }

  const size_t max_backlog_;
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> backlog_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace

// httplib's server with each connection served through a RequestStream, one request per
// connection, Range ignored.
class BoundedHttpServer final : public httplib::Server {
 public:
  explicit BoundedHttpServer(const HttpServerOptions& o) : options_(o) {
    new_task_queue = [this] {
      accept_thread_ = std::this_thread::get_id();  // listen_after_bind's thread
      return new ConnectionPool(std::max(1u, options_.threads), options_.max_backlog);
    };
  }

 private:
  bool process_and_close_socket(socket_t sock) override {
    bool ok = false;
    if (std::this_thread::get_id() == accept_thread_) {
      // Shed (the backlog is full): a best-effort 503 that must not block the accepting thread.
      const std::string r = plain_response(503, "Service Unavailable", "too many connections\n");
      (void)::send(sock, r.data(), r.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    } else {
      RequestStream stream(sock, options_);
      bool closed = false;
      // A valid Range is dropped here, after httplib parsed it (a malformed one it answers 416).
      ok = process_request(stream, true, closed, [](httplib::Request& req) { req.ranges.clear(); });
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
  }

  const HttpServerOptions options_;
  std::thread::id accept_thread_;
};

HttpRoute metrics_route(std::function<std::string()> metrics_text) {
  return {"/metrics", "text/plain; version=0.0.4; charset=utf-8", std::move(metrics_text)};
}

MetricsHttpServer::MetricsHttpServer(const ListenAddress& address,
                                     std::function<std::string()> metrics_text)
    : MetricsHttpServer(address, {metrics_route(std::move(metrics_text))}) {}

MetricsHttpServer::MetricsHttpServer(const ListenAddress& address, std::vector<HttpRoute> routes,
                                     HttpServerOptions options)
    : server_(std::make_unique<BoundedHttpServer>(options)) {
  httplib::Server& s = *server_;
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
      res.set_header("Accept-Ranges", "none");
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
