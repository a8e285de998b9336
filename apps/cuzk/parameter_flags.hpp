// The parameter-file options the Filecoin proving commands share (porep, post, update): one
// wording for each, written once.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

#include "filecoin/parameter_cache.hpp"
#include "util/progress.hpp"

namespace cuzk::app {

inline constexpr const char* kParamsDirHelp =
    "parameter directory (default $FIL_PROOFS_PARAMETER_CACHE or "
    "/var/tmp/filecoin-proof-parameters)";

// --allow-insecure-params on a command that loads proving parameters (prove) or only a
// verifying key (verify).
inline void add_allow_insecure_flag(CLI::App* c, bool& allow, bool verifying_key_only) {
  c->add_flag("--allow-insecure-params", allow,
              verifying_key_only
                  ? "accept a verifying key whose .meta marks it INSECURE (tests only)"
                  : "accept parameters whose .meta marks them INSECURE (tests only)");
}

// `checks` whose loading (hashing, decoding, subgroup checks) `shown` prints as it goes.
inline filecoin::ParameterChecks shown_as_it_loads(filecoin::ParameterChecks checks,
                                                   PhasedProgress& shown) {
  checks.progress = [&shown](std::string_view phase, uint64_t done, uint64_t total) {
    shown(phase, done, total);
  };
  return checks;
}

// What `porep verify` and `update verify` end with: the parameter directory, whether an INSECURE
// verifying key is accepted, and the proof bytes' file.
inline void add_verify_file_options(CLI::App* verify, std::string& params_dir, bool& allow_insecure,
                                    std::string& proof_path) {
  verify->add_option("--params", params_dir, kParamsDirHelp);
  add_allow_insecure_flag(verify, allow_insecure, true);
  verify->add_option("--proof", proof_path, "proof bytes")->required()->check(CLI::ExistingFile);
}

inline void add_trusted_params_flag(CLI::App* c, bool& trusted) {
  c->add_flag("--trusted-params", trusted,
              "skip the subgroup check of the .params bulk points (done unless the digest "
              "matched a published one)");
}

}  // namespace cuzk::app
