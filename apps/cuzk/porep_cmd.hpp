// PoRep C2 tools of `cuzk`:
//   porep params   INSECURE test parameters for a sector size, under Filecoin's file names, made
//                  on the CPU (the whole R1CS in memory) or on the GPU (from the recording, the
//                  .params streamed to disk as it is made: how a 32 GiB set is possible)
//   porep c2       c1.json -> vanilla check -> one Groth16 proof per partition -> proof bytes
//   porep verify   proof bytes against a C1's (or given) comm_r, comm_d, replica_id and seed
//   porep info     size of one partition circuit (constraints, inputs, aux, A/B densities)
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cuzk::app {

struct PorepOptions {
  enum class Action { kNone, kParams, kC2, kVerify, kInfo };
  Action action = Action::kNone;
  std::string sector_size;  // "2KiB" ... (the V1_1 proof of that size)
  std::string proof_type;   // registered seal proof: name or id (verify / info)
  std::string c1_path;
  std::string params_dir;  // default $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/...
  std::string out;         // params: directory; c2: proof file
  std::string proof_path;  // verify
  std::string comm_r, comm_d, replica_id, seed;  // verify without a C1 (64 hex digits each)
  std::string setup_seed = "cuzk porep test parameters";
  std::string backend = "cpu";
  std::string pce_dir;     // params --backend gpu: load (or record and save) the recording here
  unsigned partition = 0;  // info --c1
  bool no_density = false;
  bool force = false;           // params: replace existing files
  bool allow_large = false;     // params: allow 32/64 GiB
  bool allow_insecure = false;  // c2 / verify: accept parameters marked insecure
  bool verify_digests = false;  // c2: hash a published .params against parameters.json
  bool trusted_params = false;  // c2: skip the subgroup check of the bulk points
  unsigned threads = 0;
};

void add_porep_commands(CLI::App& app, PorepOptions& opts);
// Exit code: 0 success, 1 a verification failed (C1 refused, proof invalid), 2 bad input or
// another error.
int run_porep(const PorepOptions& opts);

}  // namespace cuzk::app
