// WinningPoSt / WindowPoSt tools of `cuzk`:
//   post info      size of one partition circuit (constraints, inputs, aux), counted, not stored
//   post params    INSECURE test parameters under Filecoin's file names (--out required)
//   post vanilla   vanilla proofs of sectors sealed by `cuzk seal` (or synthetic sectors of any
//                  size) for a randomness, with the verify-info file a verifier reads
//   post satisfy   the circuit of given vanilla proofs checked constraint by constraint
//   post prove     vanilla proofs -> checked -> one Groth16 partition proof (192 bytes)
//   post verify    a partition proof against a verify-info file (exit 0 only if valid)
// Files: vanilla proofs as a JSON array of base64 (or one raw .vproof), the verify info as
// go-state-types' WindowPoStVerifyInfo JSON (filecoin/post/post_files.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::app {

struct PostOptions {
  enum class Action { kNone, kInfo, kParams, kVanilla, kSatisfy, kProve, kVerify };
  Action action = Action::kNone;
  std::string proof;        // winning | window
  std::string sector_size;  // "2KiB" ... (the current registered proof of that kind and size)
  std::string proof_type;   // registered PoSt proof id or name (instead of --sector-size)
  std::string vanilla_path, public_path, proof_path;
  std::string params_dir;
  std::string out;
  std::string setup_seed = "cuzk post test parameters";
  std::string backend = "cpu";  // params: cpu or gpu; prove: cpu, gpu[:N] or auto
  std::string pce_dir;          // params --backend gpu: load (or record and save) the recording
  std::string randomness;       // 64 hex digits
  uint64_t actor_id = 1000;
  std::string seal_dir;              // vanilla: `cuzk seal --out` root
  std::vector<uint64_t> sector_ids;  // vanilla: sectors under seal_dir
  unsigned synthetic = 0;            // vanilla: synthetic sectors instead
  uint64_t first_sector = 1;         // synthetic sector numbers start here
  uint64_t synthetic_seed = 1;
  uint32_t partition = 0;
  bool density = false;         // info: A/B density bitmaps too
  bool force = false;           // params: replace existing files
  bool large = false;           // params: allow a > 2^24-row circuit on the CPU
  bool allow_insecure = false;  // prove/verify: accept a set whose .meta marks it insecure
  bool trusted_params = false;  // prove: skip the subgroup check of the .params bulk points
  unsigned threads = 0;
};

void add_post_commands(CLI::App& app, PostOptions& opts);
// Exit code: 0 success, 1 a check failed (not satisfied, vanilla proof refused, proof invalid),
// 2 bad input or another error.
int run_post(const PostOptions& opts);

}  // namespace cuzk::app
