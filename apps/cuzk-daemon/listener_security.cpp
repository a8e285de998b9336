#include "listener_security.hpp"

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace cuzk::daemon {
namespace {

// A PEM file is a few KB; a bound keeps a wrong path (a device, a huge file) from being slurped.
constexpr std::streamsize kMaxPemBytes = 1 << 20;

std::string read_pem(const std::filesystem::path& file, const char* key) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw std::runtime_error(std::string("[daemon] ") + key + " " + file.string() +
                             ": cannot open (" + std::strerror(errno) + ")");
  }
  std::string text(static_cast<size_t>(kMaxPemBytes) + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (static_cast<std::streamsize>(text.size()) > kMaxPemBytes) {
    throw std::runtime_error(std::string("[daemon] ") + key + " " + file.string() +
                             ": larger than 1 MiB, not a PEM file");
  }
  if (text.find("-----BEGIN ") == std::string::npos) {
    throw std::runtime_error(std::string("[daemon] ") + key + " " + file.string() +
                             ": no PEM block (-----BEGIN ...)");
  }
  return text;
}

}  // namespace

std::shared_ptr<grpc::ServerCredentials> server_credentials(const server::DaemonConfig& c) {
  if (c.tls_cert.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options(
      c.client_ca.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                          : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  if (!c.client_ca.empty()) options.pem_root_certs = read_pem(c.client_ca, "client_ca");
  options.pem_key_cert_pairs.push_back(
      {read_pem(c.tls_key, "tls_key"), read_pem(c.tls_cert, "tls_cert")});
  return grpc::SslServerCredentials(options);
}

std::optional<gid_t> socket_group_id(const std::string& group) {
  if (group.empty()) return std::nullopt;
  const bool numeric =
      group.size() <= 9 && group.find_first_not_of("0123456789") == std::string::npos;
  std::vector<char> buf(1 << 16);
  struct group entry {};
  struct group* found = nullptr;
  int rc = 0;
  for (;;) {  // a group with many members needs a larger buffer (ERANGE)
    rc = numeric ? getgrgid_r(static_cast<gid_t>(std::stoul(group)), &entry, buf.data(), buf.size(),
                              &found)
                 : getgrnam_r(group.c_str(), &entry, buf.data(), buf.size(), &found);
    if (rc != ERANGE || buf.size() >= (1u << 24)) break;
    buf.resize(buf.size() * 4);
  }
  if (rc != 0 || found == nullptr) {
    throw std::runtime_error("[daemon] socket_group \"" + group + "\": no such group" +
                             (rc != 0 ? std::string(" (") + std::strerror(rc) + ")" : ""));
  }
  return found->gr_gid;
}

void set_socket_permissions(const std::string& path, uint32_t mode, std::optional<gid_t> group) {
  if (group && chown(path.c_str(), static_cast<uid_t>(-1), *group) != 0) {
    throw std::runtime_error("cannot give " + path + " to group " + std::to_string(*group) + ": " +
                             std::strerror(errno) +
                             " (the daemon's user must be a member of socket_group)");
  }
  if (chmod(path.c_str(), static_cast<mode_t>(mode)) != 0) {
    throw std::runtime_error("cannot chmod " + path + ": " + std::strerror(errno));
  }
}

}  // namespace cuzk::daemon
