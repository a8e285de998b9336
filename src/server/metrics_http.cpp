#include "server/metrics_http.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace cuzk::server {
namespace {

constexpr int kPollMs = 200;              // how soon stop() is noticed
constexpr size_t kMaxRequestHead = 8192;  // a scrape's request head is a few hundred bytes
constexpr int kClientTimeoutS = 5;        // a silent client cannot hold the thread longer

std::string reply(const char* status, const char* content_type, const std::string& body) {
  return std::string("HTTP/1.0 ") + status + "\r\nContent-Type: " + content_type +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
         body;
}

}  // namespace

std::string http_response(const std::string& request_head,
                          const std::function<std::string()>& metrics_text) {
  const std::string line = request_head.substr(0, request_head.find("\r\n"));
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string::npos ? std::string::npos : line.find(' ', sp1 + 1);
  if (sp1 == std::string::npos) {
    return reply("400 Bad Request", "text/plain", "bad request\n");
  }
  const std::string method = line.substr(0, sp1);
  std::string target = line.substr(sp1 + 1, sp2 == std::string::npos ? sp2 : sp2 - sp1 - 1);
  target = target.substr(0, target.find('?'));
  if (method != "GET" && method != "HEAD") {
    return reply("405 Method Not Allowed", "text/plain", "only GET\n");
  }
  if (target != "/metrics") return reply("404 Not Found", "text/plain", "try /metrics\n");
  std::string r = reply("200 OK", "text/plain; version=0.0.4; charset=utf-8", metrics_text());
  if (method == "HEAD") r.resize(r.find("\r\n\r\n") + 4);
  return r;
}

MetricsHttpServer::MetricsHttpServer(const ListenAddress& address,
                                     std::function<std::string()> metrics_text)
    : metrics_text_(std::move(metrics_text)) {
  const std::string& hp = address.host_port;
  const size_t colon = hp.rfind(':');
  std::string host = hp.substr(0, colon);
  const std::string port = hp.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (const int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    throw std::runtime_error("status_listen " + hp + ": " + gai_strerror(rc));
  }
  std::string why = "no address";
  for (addrinfo* a = found; a != nullptr && listen_fd_ < 0; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 16) == 0) {
      listen_fd_ = fd;
    } else {
      why = std::strerror(errno);
      close(fd);
    }
  }
  freeaddrinfo(found);
  if (listen_fd_ < 0) throw std::runtime_error("status_listen " + hp + ": " + why);
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                            : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  thread_ = std::thread([this] { serve(); });
}

MetricsHttpServer::~MetricsHttpServer() {
  stop();
}

void MetricsHttpServer::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
  if (listen_fd_ >= 0) close(listen_fd_);
  listen_fd_ = -1;
}

void MetricsHttpServer::serve() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (poll(&p, 1, kPollMs) <= 0) continue;
    const int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    answer(client);
    close(client);
  }
}

void MetricsHttpServer::answer(int client) const {
  const timeval timeout{kClientTimeoutS, 0};
  setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  std::string head;
  char buf[1024];
  while (head.find("\r\n\r\n") == std::string::npos && head.size() < kMaxRequestHead) {
    const ssize_t n = recv(client, buf, sizeof buf, 0);
    if (n <= 0) break;
    head.append(buf, static_cast<size_t>(n));
  }
  if (head.empty()) return;
  std::string response;
  try {
    response = http_response(head, metrics_text_);
  } catch (const std::exception& e) {
    response = reply("500 Internal Server Error", "text/plain", std::string(e.what()) + "\n");
  }
  for (size_t sent = 0; sent < response.size();) {
    const ssize_t n = send(client, response.data() + sent, response.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

}  // namespace cuzk::server
