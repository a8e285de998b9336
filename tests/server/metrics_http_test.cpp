// The status_listen HTTP port (cpp-httplib): GET/HEAD /metrics with the Prometheus content type,
// 404 / 405 otherwise, over a real socket on an ephemeral port; a stalled client (a request head
// that never ends, connections that send nothing) does not hold /metrics (the single-threaded
// server before answered it only after the stalled one timed out, 5 s); a prompt stop; one more
// route is one more row.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <vector>

#include "server/metrics_http.hpp"

namespace cuzk::server {
namespace {

using Clock = std::chrono::steady_clock;

std::string metrics() {
  return "cuzk_up 1\n";
}

int connect_to(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  const timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  return fd;
}

std::string get(uint16_t port, const std::string& request) {
  const int fd = connect_to(port);
  EXPECT_EQ(send(fd, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
  std::string out;
  char buf[512];
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;)
    out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

std::string header_block(const std::string& response) {
  return response.substr(0, response.find("\r\n\r\n") + 4);
}

TEST(MetricsHttp, ServesMetricsAndRefusesTheRest) {
  int scrapes = 0;
  MetricsHttpServer server(parse_listen_address("127.0.0.1:0", false), [&] {
    ++scrapes;
    return metrics();
  });
  ASSERT_NE(server.port(), 0);
  std::string r =
      get(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(r.starts_with("HTTP/1.1 200 OK\r\n")) << r;
  EXPECT_NE(header_block(r).find("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"),
            std::string::npos)
      << r;
  EXPECT_NE(header_block(r).find("Content-Length: 10\r\n"), std::string::npos) << r;
  EXPECT_TRUE(r.ends_with("\r\n\r\ncuzk_up 1\n")) << r;
  r = get(server.port(), "GET /metrics?x=1 HTTP/1.0\r\n\r\n");
  EXPECT_TRUE(r.ends_with("\r\n\r\ncuzk_up 1\n")) << r;
  r = get(server.port(), "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(r.starts_with("HTTP/1.1 200 OK\r\n")) << r;
  EXPECT_TRUE(r.ends_with("\r\n\r\n")) << r;  // no body
  r = get(server.port(), "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(r.starts_with("HTTP/1.1 404 ")) << r;
  EXPECT_TRUE(r.ends_with("try /metrics\n")) << r;
  r = get(server.port(),
          "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
          "Connection: close\r\n\r\n");
  EXPECT_TRUE(r.starts_with("HTTP/1.1 405 ")) << r;
  EXPECT_TRUE(get(server.port(), "garbage\r\n\r\n").starts_with("HTTP/1.1 400 "));
  EXPECT_EQ(scrapes, 3);  // the two GETs and the HEAD
  const auto t0 = Clock::now();
  server.stop();
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(2));
}

TEST(MetricsHttp, AStalledClientDoesNotHoldTheMetrics) {
  MetricsHttpServer server(parse_listen_address("127.0.0.1:0", false), metrics);
  // Two clients that stall: one mid request head, one that never sends a byte.
  const int half = connect_to(server.port());
  const std::string partial = "GET /metr";
  ASSERT_EQ(send(half, partial.data(), partial.size(), 0), static_cast<ssize_t>(partial.size()));
  const int silent = connect_to(server.port());
  const auto t0 = Clock::now();
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(get(server.port(), "GET /metrics HTTP/1.0\r\n\r\n").ends_with("cuzk_up 1\n"));
  }
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_LT(s, 1.0) << "5 scrapes beside two stalled clients took " << s << " s";
  close(half);
  close(silent);
}

TEST(MetricsHttp, AStalledClientIsDroppedAfterTheReadTimeout) {
  HttpServerOptions o;
  o.read_timeout_s = 1;
  MetricsHttpServer server(parse_listen_address("127.0.0.1:0", false), {metrics_route(metrics)}, o);
  const int fd = connect_to(server.port());
  const std::string partial = "GET /metrics HTTP/1.1\r\nHost";
  ASSERT_EQ(send(fd, partial.data(), partial.size(), 0), static_cast<ssize_t>(partial.size()));
  const auto t0 = Clock::now();
  char buf[64];
  const ssize_t n = recv(fd, buf, sizeof buf, 0);  // the server gives up: EOF (or an error reply)
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_LT(s, 5.0) << n;
  EXPECT_GE(s, 0.5) << n;
  close(fd);
}

TEST(MetricsHttp, MoreRoutesAreMoreRows) {
  MetricsHttpServer server(
      parse_listen_address("127.0.0.1:0", false),
      {metrics_route(metrics), {"/status", "text/html", [] { return std::string("<p>ok</p>"); }}});
  EXPECT_TRUE(get(server.port(), "GET /status HTTP/1.0\r\n\r\n").ends_with("<p>ok</p>"));
  EXPECT_TRUE(get(server.port(), "GET /metrics HTTP/1.0\r\n\r\n").ends_with("cuzk_up 1\n"));
  EXPECT_TRUE(
      get(server.port(), "GET /nope HTTP/1.0\r\n\r\n").ends_with("try /metrics, /status\n"));
}

TEST(MetricsHttp, BindFailureNamesTheAddress) {
  MetricsHttpServer first(parse_listen_address("127.0.0.1:0", false), metrics);
  const std::string taken = "127.0.0.1:" + std::to_string(first.port());
  try {
    MetricsHttpServer second(parse_listen_address(taken, false), metrics);
    FAIL() << "bound twice";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("status_listen " + taken), std::string::npos);
  }
}

}  // namespace
}  // namespace cuzk::server
