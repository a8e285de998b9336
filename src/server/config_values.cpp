#include "server/config_values.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "util/text.hpp"

namespace cuzk::server {

std::string ListenAddress::grpc_uri() const {
  if (!is_unix) return host_port;
  return (!path.empty() && path[0] == '/' ? "unix://" : "unix:") + path;
}

ListenAddress parse_listen_address(std::string_view text, bool allow_unix) {
  const std::string s(trim_space(text));
  ListenAddress a;
  if (s.rfind("unix:", 0) == 0) {
    if (!allow_unix) throw std::invalid_argument("\"" + s + "\": expected host:port");
    std::string path = s.substr(5);
    if (path.rfind("//", 0) == 0) {
      path = path.substr(2);  // unix:///abs/path
      if (path.empty() || path[0] != '/') {
        throw std::invalid_argument("\"" + s + "\": unix:// needs an absolute path (unix:///x)");
      }
    }
    if (path.empty()) throw std::invalid_argument("\"" + s + "\": no socket path");
    if (path.size() >= 108) {  // sockaddr_un.sun_path
      throw std::invalid_argument("\"" + s + "\": socket path longer than 107 bytes");
    }
    a.is_unix = true;
    a.path = path;
    return a;
  }
  std::string hp = s.rfind("tcp://", 0) == 0 ? s.substr(6) : s;
  const size_t colon = hp.rfind(':');
  const std::string port = colon == std::string::npos ? "" : hp.substr(colon + 1);
  const std::string host = colon == std::string::npos ? "" : hp.substr(0, colon);
  const bool port_ok = !port.empty() && port.size() <= 5 &&
                       port.find_first_not_of("0123456789") == std::string::npos &&
                       std::stoul(port) <= 65535;
  // A name or IPv4 address has no ':' or '/'; an IPv6 address is bracketed ("[::1]:9820").
  // (The fuzzer found "tcp://unix:x:1" taken as host "unix:x", printed back as a unix socket.)
  const bool bracketed = host.size() > 2 && host.front() == '[' && host.back() == ']' &&
                         host.find_first_of("[]/", 1) == host.size() - 1;
  const bool printable = std::none_of(host.begin(), host.end(), [](char ch) {
    return static_cast<unsigned char>(ch) <= ' ' || ch == '\x7f';  // " .1" printed back trimmed
  });
  // gRPC reads "unix:1", "dns:1", "ipv4:1" ... as a URI of that scheme, not as host:port, and
  // the printed config would read back as a unix socket (fuzz_daemon_config: "tcp://unix:1").
  static constexpr std::string_view kGrpcSchemes[] = {"unix", "unix-abstract", "vsock",
                                                      "dns",  "ipv4",          "ipv6"};
  const std::string lower_host = ascii_lower(host);
  const bool scheme_name = std::find(std::begin(kGrpcSchemes), std::end(kGrpcSchemes),
                                     lower_host) != std::end(kGrpcSchemes);
  const bool host_ok = !host.empty() && printable && !scheme_name &&
                       (bracketed || host.find_first_of(":/[]") == std::string::npos);
  if (!host_ok || !port_ok) {
    throw std::invalid_argument("\"" + s + "\": expected " +
                                (allow_unix ? "unix:///path or host:port" : "host:port"));
  }
  a.host_port = hp;
  return a;
}

std::string format_mode(uint32_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", mode);
  return buf;
}

uint64_t parse_size(std::string_view text) {
  constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024, kTiB = kGiB * 1024;
  const std::string_view t = trim_space(text);
  const auto bad = [&] {
    return std::invalid_argument("\"" + std::string(text) +
                                 "\" is not a size (examples: \"256GiB\", \"512MiB\", \"5GB\", "
                                 "\"4096\")");
  };
  size_t i = 0;
  while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.'))
    ++i;
  const std::string number(t.substr(0, i));
  const std::string unit = ascii_lower(trim_space(t.substr(i)));
  if (number.empty() || number == "." || std::count(number.begin(), number.end(), '.') > 1) {
    throw bad();
  }
  static const std::vector<std::pair<std::string_view, uint64_t>> units = {
      {"", 1},
      {"b", 1},
      {"kib", kKiB},
      {"mib", kMiB},
      {"gib", kGiB},
      {"tib", kTiB},
      {"kb", 1000},
      {"mb", 1000'000},
      {"gb", 1000'000'000},
      {"tb", 1000'000'000'000}};
  const auto u = std::find_if(units.begin(), units.end(),
                              [&](const auto& entry) { return entry.first == unit; });
  if (u == units.end()) throw bad();
  const long double value = std::strtold(number.c_str(), nullptr) * u->second;
  if (value >= static_cast<long double>(std::numeric_limits<int64_t>::max())) {
    throw std::invalid_argument("\"" + std::string(text) + "\" is too large");
  }
  if (value > 0 && value < 1) {
    throw std::invalid_argument("\"" + std::string(text) +
                                "\" is less than one byte (a unit missing? \"0.5GiB\")");
  }
  return static_cast<uint64_t>(std::floor(value));
}

}  // namespace cuzk::server
