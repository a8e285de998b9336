// Filecoin sealing tools of `cuzk`:
//   seal                      data file or zero sector -> cache dir + sealed file + c1.json
//   parent-cache generate     the SDR parent cache of a proof type, with its digest
//   parent-cache verify       size and manifest digest of an existing parent cache
//   commd                     comm_d of a staged sector file or of a zero sector
//   c1 synthetic              a verifying C1 of the real shape without sealing (32/64 GiB)
//   c1 verify                 the vanilla verifier on a c1.json
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace cuzk::app {

struct FilecoinOptions {
  enum class Action {
    kNone,
    kSeal,
    kParentCacheGenerate,
    kParentCacheVerify,
    kCommD,
    kC1Synthetic,
    kC1Verify
  };
  Action action = Action::kNone;
  std::string proof;        // registered seal proof: name or id
  std::string sector_size;  // "2KiB", "32GiB" or bytes (picks the V1_1 proof)
  std::string data;         // staged sector file
  bool zero = false;        // a zero (CC) sector instead of --data
  bool unpadded = false;    // --data holds unpadded bytes, Fr32-padded here
  std::string prover_id;    // 64 hex digits (stored bytes)
  uint64_t actor_id = 0;    // or the miner actor id (LEB128 prover id)
  bool has_actor_id = false;
  uint64_t sector_id = 0;
  bool has_sector_id = false;
  std::string ticket, seed;  // 64 hex digits each
  std::string out_dir, cache_dir, sealed_path, c1_path;
  std::string parent_cache_dir, parent_cache_file;
  bool verify_parent_cache = false;
  uint64_t synthetic_seed = 0;
  unsigned threads = 0;
  bool quiet = false;
};

void add_filecoin_commands(CLI::App& app, FilecoinOptions& opts);
// Exit code: 0 success, 1 a verification failed, 2 bad input or another error.
int run_filecoin(const FilecoinOptions& opts);

}  // namespace cuzk::app
