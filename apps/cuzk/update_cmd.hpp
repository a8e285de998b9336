// SnapDeals (EmptySectorUpdate) tools of `cuzk`:
//   update info            size of one partition circuit (partitions, constraints, inputs)
//   update params          INSECURE test parameters under Filecoin's names (--out required)
//   update encode          a sealed sector (the sector key) + new data -> new replica and cache
//   update prove-vanilla   the vanilla partition proofs of an update -> an update vanilla file
//   update synthetic       a verifying update vanilla file of any size without a sector (32 GiB)
//   update verify-vanilla  the vanilla verifier on such a file
//   update prove           vanilla file -> vanilla check -> one Groth16 proof per partition
//   update verify          proof bytes against the vanilla file's (or given) commitments
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cuzk::app {

struct UpdateOptions {
  enum class Action {
    kNone,
    kInfo,
    kParams,
    kEncode,
    kProveVanilla,
    kSynthetic,
    kVerifyVanilla,
    kProve,
    kVerify
  };
  Action action = Action::kNone;
  std::string sector_size;  // "2KiB" ...
  bool poseidon = false;    // the EmptySectorUpdate-Poseidon variant (info, params)
  bool density = false;     // info: A/B density bitmaps too
  std::string params_dir;   // default $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/...
  std::string out;          // params: directory; prove-vanilla: vanilla file; prove: proof file
  std::string vanilla_proofs_out;  // prove-vanilla, synthetic: also Curio's bare [][]byte JSON
  std::string setup_seed = "cuzk update test parameters";
  bool force = false;           // replace existing output files (never without it)
  bool allow_large = false;     // params: allow 512 MiB and larger
  bool allow_insecure = false;  // prove / verify: accept a set whose .meta marks it insecure
  bool trusted_params = false;  // prove: skip the subgroup check of the .params bulk points
  std::string sector_key, sector_key_cache, replica, replica_cache;  // encode / prove-vanilla
  std::string data;                                                  // encode: the new data
  bool unpadded = false;                                             // --data holds raw bytes
  std::string vanilla;                                               // prove / verify
  std::string proof_path;                                            // verify
  std::string comm_r_old, comm_r_new, comm_d_new;                    // verify without --vanilla
  uint64_t synthetic_seed = 0;                                       // synthetic
  std::string backend = "cpu";  // params: cpu or gpu; prove: cpu, gpu[:N] or auto
  std::string pce_dir;          // params --backend gpu: load (or record and save) the recording
  unsigned threads = 0;
};

void add_update_commands(CLI::App& app, UpdateOptions& opts);
// Exit code: 0 success, 1 a verification failed (vanilla refused, proof invalid), 2 bad input or
// another error.
int run_update(const UpdateOptions& opts);

}  // namespace cuzk::app
