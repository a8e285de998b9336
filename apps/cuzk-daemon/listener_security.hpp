// Who may talk to the daemon's gRPC listener: TLS with client certificates on a TCP port
// ([daemon] tls_cert, tls_key, client_ca, through Debian's gRPC), and the unix socket's mode and
// group ([daemon] socket_mode, socket_group) so that a Curio running as another user connects.
#pragma once

#include <grpcpp/security/server_credentials.h>
#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

#include "server/daemon_config.hpp"

namespace cuzk::daemon {

// TLS credentials when tls_cert is set (clients must present a certificate client_ca signed,
// when client_ca is set), else plaintext. std::runtime_error naming a file it cannot read.
std::shared_ptr<grpc::ServerCredentials> server_credentials(const server::DaemonConfig& config);

// The group id of [daemon] socket_group (a name or a number); nullopt for "". std::runtime_error
// for a group this system does not know.
std::optional<gid_t> socket_group_id(const std::string& group);

// The socket's group (when given), then its mode: the group is right before it may connect.
// std::runtime_error with the reason.
void set_socket_permissions(const std::string& path, uint32_t mode, std::optional<gid_t> group);

}  // namespace cuzk::daemon
