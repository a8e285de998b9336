// INSECURE test parameters kept on disk between test runs, one rule for every proof kind (the
// setup of a 2 KiB PoRep partition takes minutes on two cores): a directory named by the blank
// circuit's R1CS digest under a kind's cache root, so a set is made again exactly when its circuit
// (or the key text, e.g. a file-format marker) changes; older sets of the same prefix are removed.
// A set is written through the kind's own writer and always read back through its reader (the
// checked path the engine uses), and is complete only once its "complete" marker exists.
#pragma once

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "common/r1cs_digest.hpp"
#include "cs/constraint_system.hpp"
#include "cs/key_assembly.hpp"
#include "groth16/setup.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::testing {

struct TestParameters {
  groth16::Parameters params;
  std::filesystem::path dir;  // holds the Filecoin-named files
  bool generated = false;     // false: read from an earlier run
  groth16::SetupTiming setup;
  double write_s = 0, read_s = 0;
};

struct TestParameterStore {
  const char* env;             // the variable that moves the cache root
  std::filesystem::path root;  // the default root (in the build tree)
  std::string prefix;          // the directory name before the digest
  std::string seed;            // the toxic waste's seed
  std::string digest_key;      // hashed with the R1CS
  std::function<void(const std::filesystem::path&, const groth16::Parameters&)> write;
  std::function<groth16::Parameters(const std::filesystem::path&, ThreadPool&)> read;
};

inline TestParameters cached_test_parameters(const Circuit& blank, const TestParameterStore& s,
                                             ThreadPool& pool) {
  const char* env = std::getenv(s.env);
  const std::filesystem::path root = env != nullptr && *env != 0 ? env : s.root;
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  TestParameters out;
  auto t0 = Clock::now();
  KeyAssembly assembly;
  blank.synthesize(assembly);
  R1cs r1cs = assembly.finish();
  out.setup.synthesis_s = since(t0);
  out.setup.constraints = r1cs.num_constraints;
  out.setup.inputs = r1cs.num_inputs;
  out.setup.aux = r1cs.num_aux;
  out.dir = root / (s.prefix + r1cs_digest(r1cs, s.digest_key).substr(0, 16));
  const std::filesystem::path complete = out.dir / "complete";
  if (!std::filesystem::exists(complete)) {
    out.generated = true;
    std::error_code ec;
    if (std::filesystem::exists(root)) {
      for (const auto& e : std::filesystem::directory_iterator(root)) {
        if (e.path().filename().string().starts_with(s.prefix))
          std::filesystem::remove_all(e.path(), ec);
      }
    }
    t0 = Clock::now();
    const groth16::Parameters generated = groth16::generate_parameters_insecure(
        r1cs, groth16::ToxicWaste::insecure_from_seed(s.seed), pool);
    out.setup.setup_s = since(t0);
    r1cs = {};
    t0 = Clock::now();
    s.write(out.dir, generated);
    std::ofstream(complete) << "ok\n";
    out.write_s = since(t0);
  }
  t0 = Clock::now();
  out.params = s.read(out.dir, pool);
  out.read_s = since(t0);
  return out;
}

}  // namespace cuzk::testing
