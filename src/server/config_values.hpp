// The value syntaxes of the daemon's configuration and command line: listen addresses and byte
// sizes. Each throws std::invalid_argument with the reason; the config reader adds the file, line
// and key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuzk::server {

// A validated [daemon] listen / status_listen value.
struct ListenAddress {
  bool is_unix = false;
  std::string path;       // unix: the socket file
  std::string host_port;  // tcp: "host:port"
  // gRPC's form, which is also the config's: "unix:///abs" or "unix:rel" ("unix://rel" would
  // name an authority, not a path), or "host:port".
  std::string grpc_uri() const;
};

// "unix:///abs/path", "unix:path", "host:port", "[v6]:port" (optionally "tcp://" in front).
// std::invalid_argument with the reason otherwise.
ListenAddress parse_listen_address(std::string_view text, bool allow_unix);

// "256GiB", "512 MiB", "1.5GiB", "5GB" (decimal), "4096" (bytes). std::invalid_argument otherwise.
uint64_t parse_size(std::string_view text);

// A socket's permission bits as chmod and [daemon] socket_mode write them: 0660 -> "0660".
std::string format_mode(uint32_t mode);

}  // namespace cuzk::server
