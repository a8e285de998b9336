#include "groth16_cmd.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "cs/r1cs_circuit.hpp"
#include "groth16/bellperson_format.hpp"
#include "groth16/proof_io.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_format.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/snarkjs_prover.hpp"
#include "groth16/verifier.hpp"

namespace cuzk::app {
namespace {

using namespace cuzk::groth16;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
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

int run_prove(const Groth16Options& o) {
  ThreadPool pool(o.threads);
  const auto t_load = std::chrono::steady_clock::now();
  const std::vector<Fr> witness = read_wtns(o.wtns);
  ProverTiming timing;
  Proof proof;
  size_t n_public = 0;
  if (!o.zkey.empty()) {
    const Zkey zkey = read_zkey(o.zkey);
    std::printf("load (s): %.3f\n", seconds_since(t_load));
    n_public = zkey.n_public;
    proof = prove_zkey(zkey, witness, ProofRandomness::from_os(), pool, &timing);
  } else {
    if (o.params.empty() || o.r1cs.empty())
      throw std::invalid_argument("prove needs --zkey, or --params with --r1cs");
    const SnarkjsR1cs r1cs = read_r1cs(o.r1cs);
    const Parameters params = read_parameters(o.params, SubgroupCheck::kSkipTrusted, pool);
    std::printf("load (s): %.3f\n", seconds_since(t_load));
    n_public = r1cs.n_public();
    proof =
        prove(params, R1csCircuit(r1cs.r1cs, witness), ProofRandomness::from_os(), pool, &timing);
  }
  if (witness.size() < n_public + 1)
    throw std::invalid_argument(o.wtns + ": fewer wires than public signals");
  const std::vector<Fr> inputs(witness.begin() + 1,
                               witness.begin() + 1 + static_cast<ptrdiff_t>(n_public));
  write_text(o.proof, write_proof_json(proof));
  if (!o.public_out.empty()) write_text(o.public_out, write_public_json(inputs));
  print_timing(timing);
  std::printf("proof written to %s\n", o.proof.c_str());
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
  ThreadPool pool(o.threads);
  const SnarkjsR1cs r1cs = read_r1cs(o.r1cs);
  std::fprintf(
      stderr,
      "warning: test parameters from a known seed; INSECURE, never use them in production\n");
  const Parameters params = generate_parameters_insecure(
      r1cs.with_input_rows(), ToxicWaste::insecure_from_seed(o.seed), pool);
  write_parameters(o.params, params);
  if (!o.vk.empty()) write_verifying_key(o.vk, params.vk);
  if (!o.vk_json.empty()) write_text(o.vk_json, write_verifying_key_json(params.vk));
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
  setup->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  setup->callback([&] { o.action = Groth16Options::Action::kSetup; });
}

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
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 2;
}

}  // namespace cuzk::app
