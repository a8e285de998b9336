// `cuzk groth16 prove | verify | setup`: Groth16 with snarkjs files and our parameter format.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cuzk::app {

struct Groth16Options {
  enum class Action { kNone, kProve, kVerify, kSetup };
  Action action = Action::kNone;
  std::string zkey, params, r1cs, wtns, proof, public_out, public_in, vk, vk_json, seed;
  unsigned threads = 0;
  std::string backend = "cpu";  // prove: cpu, gpu[:N] or auto (groth16::make_backend)
  bool trusted_params = false;  // prove: skip the subgroup check of bulk points
  bool force = false;           // setup: replace existing outputs
};

void add_groth16_commands(CLI::App& app, Groth16Options& opts);
// Exit code: 0 success (proof verifies), 1 proof does not verify (prove: the proof it made did
// not, so none was written), 2 bad input or other error.
int run_groth16(const Groth16Options& opts);

}  // namespace cuzk::app
