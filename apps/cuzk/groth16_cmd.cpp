#include "groth16_cmd.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "backend/backend_factory.hpp"
#include "cs/r1cs_circuit.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/verifier.hpp"
#include "util/atomic_file.hpp"
#include "util/input_file.hpp"

namespace cuzk::app {
namespace {

using namespace cuzk::groth16;

std::string read_text(const std::string& path) {
  return read_input_file(path, kMaxInputFileBytes);
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !(out << text)) throw std::runtime_error(path + ": cannot write");
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool looks_like_json(const std::string& bytes) {
  for (char c : bytes) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    return c == '{' || c == '[';
  }
  return false;
}

void print_timing(const ProverTiming& t) {
  std::printf(
      "phase timings (s): synthesis %.3f | quotient %.3f (ifft %.3f, coset fft %.3f, pointwise "
      "%.3f, "
      "icoset %.3f) | msm h %.3f l/c %.3f a %.3f b_g1 %.3f b_g2 %.3f | assemble %.3f | total "
      "%.3f\n",
      t.synthesis_s, t.quotient_s, t.quotient.ifft_s, t.quotient.coset_fft_s,
      t.quotient.pointwise_s, t.quotient.icoset_s, t.msm_h_s, t.msm_l_s, t.msm_a_s, t.msm_b_g1_s,
      t.msm_b_g2_s, t.assemble_s, t.total_s);
}

// A proof that does not verify is never written: the witness may not satisfy the circuit, or
// the key may not fit it.
struct ProofNotValid : std::runtime_error {
  using std::runtime_error::runtime_error;
};

int run_prove(const Groth16Options& o) {
  ThreadPool pool(o.threads);
  // Chosen before the key is read: a missing device is reported at once, not after the load.
  std::string backend_note;
  const std::unique_ptr<ProverBackend> backend = make_backend(o.backend, pool, &backend_note);
  std::printf("backend %s\n", backend_note.c_str());
  const SubgroupCheck bulk = o.trusted_params ? SubgroupCheck::kSkipTrusted : SubgroupCheck::kCheck;
  const auto t_load = std::chrono::steady_clock::now();
  const std::vector<Fr> witness = read_wtns(o.wtns);
  ProverTiming timing;
  Proof proof;
  size_t n_public = 0;
  std::optional<PreparedVerifyingKey> pvk;
  const auto public_inputs = [&] {
    if (witness.size() < n_public + 1)
      throw std::invalid_argument(o.wtns + ": fewer wires than public signals");
    return std::vector<Fr>(witness.begin() + 1,
                           witness.begin() + 1 + static_cast<ptrdiff_t>(n_public));
  };
  if (!o.zkey.empty()) {
    const Zkey zkey = read_zkey(o.zkey, bulk, &pool);
    std::printf("load (s): %.3f%s\n", seconds_since(t_load),
                o.trusted_params ? " (bulk points trusted)" : " (every point checked)");
    n_public = zkey.n_public;
    if (witness.size() != zkey.n_vars) {
      throw std::invalid_argument(o.wtns + ": " + std::to_string(witness.size()) +
                                  " wires, the key's circuit has " + std::to_string(zkey.n_vars));
    }
    (void)public_inputs();
    pvk = prepare_verifying_key(zkey.verifying_key());
    proof = prove_zkey(zkey, witness, ProofRandomness::from_os(), *backend, &timing);
  } else {
    if (o.params.empty() || o.r1cs.empty())
      throw std::invalid_argument("prove needs --zkey, or --params with --r1cs");
    const SnarkjsR1cs r1cs = read_r1cs(o.r1cs);
    Parameters params;
    {
      PhasedProgress shown("points");
      params = read_parameters(o.params, bulk, pool, std::ref(shown));
    }
    std::printf("load (s): %.3f%s\n", seconds_since(t_load),
                o.trusted_params ? " (bulk points trusted)" : " (every point checked)");
    n_public = r1cs.n_public();
    (void)public_inputs();
    pvk = prepare_verifying_key(params.vk);
    proof = prove(params, R1csCircuit(r1cs.r1cs, witness), ProofRandomness::from_os(), *backend,
                  &timing);
  }
  const std::vector<Fr> inputs = public_inputs();
  const auto t_verify = std::chrono::steady_clock::now();
  if (!verify_proof(*pvk, proof, inputs)) {
    throw ProofNotValid(
        "the proof does not verify under the key's own verifying key (the "
        "witness does not satisfy the circuit, or the key is not this "
        "circuit's); no proof written");
  }
  const double verify_s = seconds_since(t_verify);
  write_text(o.proof, write_proof_json(proof));
  if (!o.public_out.empty()) write_text(o.public_out, write_public_json(inputs));
  print_timing(timing);
  std::printf("self-verified in %.3f s; proof written to %s\n", verify_s, o.proof.c_str());
  return 0;
}

int run_verify(const Groth16Options& o) {
  const std::string vk_bytes = read_text(o.vk);
  const VerifyingKey vk =
      looks_like_json(vk_bytes)
          ? parse_verifying_key_json(vk_bytes, o.vk)
          : parse_verifying_key(
                std::span(reinterpret_cast<const uint8_t*>(vk_bytes.data()), vk_bytes.size()),
                o.vk);
  const std::string proof_bytes = read_text(o.proof);
  Proof proof;
  if (looks_like_json(proof_bytes)) {
    proof = parse_proof_json(proof_bytes, o.proof);
  } else {
    const auto p = decode_proof(
        std::span(reinterpret_cast<const uint8_t*>(proof_bytes.data()), proof_bytes.size()));
    if (!p) throw std::runtime_error(o.proof + ": " + p.error().message());
    proof = *p;
  }
  const std::vector<Fr> inputs = parse_public_json(read_text(o.public_in), o.public_in);
  const bool ok = verify_proof(prepare_verifying_key(vk), proof, inputs);
  std::printf("%s\n", ok ? "OK: proof verifies" : "INVALID: proof does not verify");
  return ok ? 0 : 1;
}

int run_setup(const Groth16Options& o) {
  const Overwrite mode = o.force ? Overwrite::kForce : Overwrite::kRefuse;
  // Every output is claimed before minutes of setup: none exists (or --force).
  std::vector<std::unique_ptr<AtomicFileWriter>> out;
  for (const std::string* p : {&o.params, &o.vk, &o.vk_json}) {
    if (!p->empty()) out.push_back(std::make_unique<AtomicFileWriter>(*p, mode));
  }
  ThreadPool pool(o.threads);
  const SnarkjsR1cs r1cs = read_r1cs(o.r1cs);
  std::fprintf(
      stderr,
      "warning: test parameters from a known seed; INSECURE, never use them in production\n");
  const Parameters params = generate_parameters_insecure(
      r1cs.with_input_rows(), ToxicWaste::insecure_from_seed(o.seed), pool);
  size_t i = 0;
  out[i++]->write(serialize_parameters(params));
  if (!o.vk.empty()) out[i++]->write(serialize_verifying_key(params.vk));
  if (!o.vk_json.empty()) out[i++]->write(write_verifying_key_json(params.vk));
  for (auto& w : out)
    w->commit();
  std::printf("parameters: %zu constraints (with input rows), %zu inputs, %zu aux -> %s\n",
              r1cs.r1cs.num_constraints + r1cs.r1cs.num_inputs, r1cs.r1cs.num_inputs,
              r1cs.r1cs.num_aux, o.params.c_str());
  return 0;
}

}  // namespace

void add_groth16_commands(CLI::App& app, Groth16Options& o) {
  CLI::App* g = app.add_subcommand("groth16", "Groth16 over BLS12-381: prove, verify, test setup");
  g->require_subcommand(1);

  CLI::App* prove =
      g->add_subcommand("prove", "Prove from a snarkjs .zkey (or our .params + .r1cs) and a .wtns");
  prove->add_option("--zkey", o.zkey, "snarkjs Groth16 proving key")->check(CLI::ExistingFile);
  prove
      ->add_option("--params", o.params, "bellperson-format parameters (from `cuzk groth16 setup`)")
      ->check(CLI::ExistingFile);
  prove->add_option("--r1cs", o.r1cs, "circom .r1cs (with --params)")->check(CLI::ExistingFile);
  prove->add_option("--wtns", o.wtns, "witness (.wtns)")->required()->check(CLI::ExistingFile);
  prove->add_option("--proof", o.proof, "output proof (snarkjs JSON)")->required();
  prove->add_option("--public", o.public_out, "output public signals (snarkjs JSON)");
  prove->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  prove->add_option("--backend", o.backend, "cpu, gpu[:N] or auto (default cpu)");
  prove->add_flag("--trusted-params", o.trusted_params,
                  "skip the subgroup check of the key's bulk points (only for files you made or "
                  "whose digest you checked)");
  prove->callback([&] { o.action = Groth16Options::Action::kProve; });

  CLI::App* verify = g->add_subcommand("verify", "Verify a proof (exit 0 only if it verifies)");
  verify->add_option("--vk", o.vk, "verifying key: snarkjs JSON or bellperson .vk")
      ->required()
      ->check(CLI::ExistingFile);
  verify->add_option("--proof", o.proof, "proof: snarkjs JSON or 192 bytes")
      ->required()
      ->check(CLI::ExistingFile);
  verify->add_option("--public", o.public_in, "public signals (snarkjs JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  verify->callback([&] { o.action = Groth16Options::Action::kVerify; });

  CLI::App* setup = g->add_subcommand(
      "setup", "INSECURE test parameters for a circom .r1cs (toxic waste from --seed)");
  setup->add_option("--r1cs", o.r1cs, "circom .r1cs")->required()->check(CLI::ExistingFile);
  setup->add_option("--params", o.params, "output parameters (bellperson format)")->required();
  setup->add_option("--vk", o.vk, "output verifying key (bellperson .vk)");
  setup->add_option("--vk-json", o.vk_json, "output verifying key (snarkjs JSON)");
  setup->add_option("--seed", o.seed, "seed of the toxic waste")->required();
  setup->add_flag("--force", o.force, "replace output files that exist");
  setup->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  setup->callback([&] { o.action = Groth16Options::Action::kSetup; });
}

// A switch like the other command files' (-Wswitch names an Action without a case), but not
// through exit_code_of: here a proof that does not verify (ProofNotValid) is exit 1, not 2.
int run_groth16(const Groth16Options& o) {
  try {
    switch (o.action) {
      case Groth16Options::Action::kProve:
        return run_prove(o);
      case Groth16Options::Action::kVerify:
        return run_verify(o);
      case Groth16Options::Action::kSetup:
        return run_setup(o);
      case Groth16Options::Action::kNone:
        break;
    }
  } catch (const ProofNotValid& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 2;
}

}  // namespace cuzk::app
