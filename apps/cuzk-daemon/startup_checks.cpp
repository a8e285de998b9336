#include "startup_checks.hpp"

#include <filesystem>

#include "server/config_values.hpp"

namespace cuzk::daemon {

bool is_loopback(const std::string& host_port) {
  const size_t colon = host_port.rfind(':');
  const std::string host = host_port.substr(0, colon);
  return host == "localhost" || host == "[::1]" || host.rfind("127.", 0) == 0;
}

void warn_about_config(const server::DaemonConfig& c, const EventLog& log) {
  for (const std::string& note : c.notes)
    log.warn("config_note", {{"note", note}});
  if (!c.listen.is_unix && c.client_ca.empty()) {
    log.warn("listen_unauthenticated",
             {{"address", c.listen.host_port},
              {"note", c.tls_cert.empty()
                           ? "plaintext gRPC: whoever reaches this port can submit, cancel and "
                             "evict; set [daemon] tls_cert, tls_key and client_ca, or listen on "
                             "a unix socket"
                           : "TLS without [daemon] client_ca: any client is served"}});
  }
  if (c.listen.is_unix && (c.socket_mode & 0006) != 0) {
    log.warn(
        "socket_open_to_all",
        {{"path", c.listen.path},
         {"mode", server::format_mode(c.socket_mode)},
         {"note", "every user of this host may submit proofs: prefer 0660 with socket_group"}});
  }
  if (c.status_listen && !is_loopback(c.status_listen->host_port)) {
    log.warn("status_listen_exposed",
             {{"address", c.status_listen->host_port},
              {"note",
               "the HTTP status port has no authentication; \"9821\" alone binds "
               "127.0.0.1"}});
  }
  const std::filesystem::path& params = c.engine.param_cache;
  std::error_code ec;
  if (!std::filesystem::is_directory(params, ec)) {
    std::string note =
        "every proof fails until it holds Filecoin's parameters: `curio fetch-params 32GiB` "
        "fills $FIL_PROOFS_PARAMETER_CACHE (default /var/tmp/filecoin-proof-parameters)";
    if (params != server::kRustDaemonParamCache &&
        std::filesystem::is_directory(server::kRustDaemonParamCache, ec)) {
      note += "; the Rust daemon's default " + std::string(server::kRustDaemonParamCache) +
              " exists: set [srs] param_cache = \"" + std::string(server::kRustDaemonParamCache) +
              "\" to use it";
    }
    log.warn("param_cache_missing", {{"path", params.string()}, {"note", note}});
  }
}

}  // namespace cuzk::daemon
