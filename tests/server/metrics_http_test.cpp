// The status_listen HTTP responder: GET/HEAD /metrics with the Prometheus content type, 404/405/
// 400 otherwise, over a real socket on an ephemeral port, and a prompt stop.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

#include "server/metrics_http.hpp"

namespace cuzk::server {
namespace {

std::string metrics() {
  return "cuzk_up 1\n";
}

TEST(MetricsHttp, Responses) {
  std::string r = http_response("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", metrics);
  EXPECT_EQ(r,
            "HTTP/1.0 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
            "Content-Length: 10\r\nConnection: close\r\n\r\ncuzk_up 1\n");
  EXPECT_EQ(http_response("GET /metrics?x=1 HTTP/1.0\r\n\r\n", metrics), r);
  r = http_response("HEAD /metrics HTTP/1.1\r\n\r\n", metrics);
  EXPECT_TRUE(r.starts_with("HTTP/1.0 200 OK\r\n"));
  EXPECT_TRUE(r.ends_with("\r\n\r\n"));
  EXPECT_TRUE(http_response("GET / HTTP/1.1\r\n\r\n", metrics).starts_with("HTTP/1.0 404 "));
  EXPECT_TRUE(
      http_response("POST /metrics HTTP/1.1\r\n\r\n", metrics).starts_with("HTTP/1.0 405 "));
  EXPECT_TRUE(http_response("garbage", metrics).starts_with("HTTP/1.0 400 "));
}

std::string get(uint16_t port, const std::string& request) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(send(fd, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
  std::string out;
  char buf[512];
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;)
    out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

TEST(MetricsHttp, ServesOnAnEphemeralPortAndStops) {
  int scrapes = 0;
  MetricsHttpServer server(parse_listen_address("127.0.0.1:0", false), [&] {
    ++scrapes;
    return metrics();
  });
  ASSERT_NE(server.port(), 0);
  EXPECT_TRUE(get(server.port(), "GET /metrics HTTP/1.1\r\n\r\n").ends_with("\r\n\r\ncuzk_up 1\n"));
  EXPECT_TRUE(get(server.port(), "GET /x HTTP/1.1\r\n\r\n").starts_with("HTTP/1.0 404"));
  EXPECT_EQ(scrapes, 1);
  const auto t0 = std::chrono::steady_clock::now();
  server.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
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
