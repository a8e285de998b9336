#include "porep_cmd.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "backend/backend_factory.hpp"
#include "command_clock.hpp"
#include "command_errors.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "engine/handlers/porep_handler.hpp"
#include "engine/serial_prover.hpp"
#include "filecoin/domain.hpp"
#include "filecoin/sector_shape.hpp"
#include "parameter_flags.hpp"
#include "porep/circuit_metrics.hpp"
#include "porep/parameter_cache.hpp"
#include "porep/porep_partitions.hpp"
#include "porep/public_inputs.hpp"
#include "porep/seal_commit_phase2.hpp"
#include "porep/vanilla/c1_wrapper.hpp"
#include "proof_verdict.hpp"
#include "proving_parameters.hpp"
#include "test_parameters.hpp"
#include "util/input_file.hpp"
#include "util/text.hpp"

namespace cuzk::app {
namespace {

using namespace cuzk::porep;

std::filesystem::path params_dir(const PorepOptions& o) {
  return o.params_dir.empty() ? filecoin::default_parameter_dir()
                              : std::filesystem::path(o.params_dir);
}

// --proof-type (name or id) or --sector-size (its V1_1 proof).
PublicParams resolve_params(const PorepOptions& o) {
  try {
    if (!o.proof_type.empty()) {
      const filecoin::RegisteredSealProof p =
          o.proof_type.find_first_not_of("0123456789") == std::string::npos
              ? filecoin::seal_proof_from_id(std::stoull(o.proof_type))
              : filecoin::seal_proof_from_name(o.proof_type);
      const PublicParams pp = PublicParams::for_proof(p);
      if (!o.sector_size.empty() &&
          filecoin::parse_sector_size(o.sector_size) != pp.sector_size()) {
        throw BadInput("--proof-type " + o.proof_type + " is not a " + o.sector_size + " proof");
      }
      return pp;
    }
    if (!o.sector_size.empty())
      return PublicParams::for_sector_size(filecoin::parse_sector_size(o.sector_size));
  } catch (const BadInput&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  throw BadInput("give --sector-size (or --proof-type)");
}

filecoin::Domain hex32(const std::string& text, const char* option) {
  try {
    return filecoin::domain_from_hex(text);
  } catch (const std::exception& e) {
    throw BadInput(std::string(option) + ": " + e.what() + " (expected 64 hex digits)");
  }
}

filecoin::C1Document read_c1(const std::string& path) {
  try {
    return filecoin::read_c1_file(path);
  } catch (const std::invalid_argument& e) {
    throw BadInput(path + ": " + e.what());
  }
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  const std::string bytes = read_input_file(path, kMaxInputFileBytes);
  return {bytes.begin(), bytes.end()};
}

void print_partition(const engine::PartitionTiming& t, unsigned partitions) {
  const groth16::ProverTiming& p = t.prover;
  std::printf(
      "partition %u/%u: circuit %.3f | inputs %.3f | synthesis %.3f | quotient %.3f (ifft %.3f, "
      "coset fft %.3f, pointwise %.3f, icoset %.3f) | msm h %.3f l %.3f a %.3f b_g1 %.3f b_g2 "
      "%.3f | assemble %.3f | verify %.3f | total %.3f s\n",
      t.partition, partitions, t.circuit_s, t.inputs_s, p.synthesis_s, p.quotient_s,
      p.quotient.ifft_s, p.quotient.coset_fft_s, p.quotient.pointwise_s, p.quotient.icoset_s,
      p.msm_h_s, p.msm_l_s, p.msm_a_s, p.msm_b_g1_s, p.msm_b_g2_s, p.assemble_s, t.verify_s,
      t.total_s);
  std::fflush(stdout);
}

filecoin::ParameterChecks parameter_checks(const PorepOptions& o) {
  return {o.allow_insecure, o.verify_digests, !o.trusted_params};
}

int run_params(const PorepOptions& o) {
  const PublicParams pp = resolve_params(o);
  const bool on_device = test_parameters_on_device(o.backend, o.out);
  if (pp.layers > 2 && !on_device && !o.allow_large) {
    throw BadInput(binary_size_name(pp.sector_size()) +
                   " test parameters need the whole 1.3e8-constraint system in memory (hundreds "
                   "of GiB); pass --allow-large to try anyway");
  }
  return write_test_parameters(
      {engine::porep_circuit_id(pp.sector_size(), false), parameter_set(pp),
       binary_size_name(pp.sector_size()) + " PoRep partition",
       [&](ThreadPool& pool, SetupTiming* st, const ProgressFn& shown) {
         return generate_test_parameters(pp, o.setup_seed, pool, st, shown);
       }},
      {o.out, o.setup_seed, o.pce_dir, o.threads, o.force, on_device});
}

int run_c2(const PorepOptions& o) {
  groth16::require_backend(o.backend);  // a missing GPU fails before anything is read
  const auto t_start = Clock::now();
  filecoin::C1Document doc = read_c1(o.c1_path);
  const PublicParams pp = PublicParams::for_proof(doc.c1.registered_proof);
  ThreadPool pool(o.threads);

  // The C1 is checked before the (large) parameters are read.
  auto t0 = Clock::now();
  try {
    check_c1(doc.c1, pp, &pool);
  } catch (const C1RejectedError& e) {
    std::fprintf(stderr, "error: %s\nno proof written\n", e.what());
    return 1;
  }
  std::printf("vanilla proofs verified in %.3f s\n", seconds_since(t0));

  t0 = Clock::now();
  const groth16::Parameters params =
      read_proving_parameters(params_dir(o), parameter_set(pp), parameter_checks(o), pool);
  const double t_params = seconds_since(t0);
  std::printf("%s: %u partition(s) x %u challenges; parameters read in %.2f s\n",
              std::string(filecoin::seal_proof_info(doc.c1.registered_proof).name).c_str(),
              pp.partitions, pp.challenges_per_partition, t_params);

  // The partitions as the daemon's PoRep handler builds them, proved as its workers prove them.
  const std::unique_ptr<circuits::PreparedJob> job =
      porep::make_porep_job(std::move(doc.c1), pp, std::filesystem::file_size(o.c1_path));
  std::string backend_note;
  const std::unique_ptr<groth16::ProverBackend> backend =
      groth16::make_backend(o.backend, pool, &backend_note);
  engine::SerialProveOptions opt;
  Progress proving("prove", pp.partitions, "partitions");
  opt.on_partition = [&](const engine::PartitionTiming& t) {
    print_partition(t, pp.partitions);
    proving.add(1);
  };
  const engine::SerialProveResult r = engine::prove_serially(*job, params, *backend, pool, opt);
  proving.finish();
  // Written only once every partition proof verified; through a temporary so a failed write
  // leaves no partial file under the requested name.
  const std::filesystem::path out(o.out), tmp(o.out + ".tmp");
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f || !f.write(reinterpret_cast<const char*>(r.proof.data()),
                       static_cast<std::streamsize>(r.proof.size()))) {
      throw std::runtime_error(tmp.string() + ": cannot write");
    }
  }
  std::filesystem::rename(tmp, out);
  std::printf("backend %s | total %.2f s | peak memory %.2f GiB\n", backend_note.c_str(),
              seconds_since(t_start), peak_rss_gib());
  if (pp.feature == filecoin::ApiFeature::kNonInteractivePoRep) {
    std::printf(
        "note: NI-PoRep partition proofs concatenated; the SnarkPack aggregate is not made\n");
  }
  std::printf("proof (%zu bytes, %u partition(s), each verified) written to %s\n", r.proof.size(),
              pp.partitions, o.out.c_str());
  return 0;
}

int run_verify(const PorepOptions& o) {
  PublicParams pp;
  PorepPublicInputs in;
  if (!o.c1_path.empty()) {
    const filecoin::C1Document doc = read_c1(o.c1_path);
    pp = PublicParams::for_proof(doc.c1.registered_proof);
    in = PorepPublicInputs::from_c1(doc.c1);
  } else {
    if (o.comm_r.empty() || o.comm_d.empty() || o.replica_id.empty() || o.seed.empty()) {
      throw BadInput("verify needs --c1, or --comm-r, --comm-d, --replica-id and --seed");
    }
    pp = resolve_params(o);
    in.comm_r = hex32(o.comm_r, "--comm-r");
    in.comm_d = hex32(o.comm_d, "--comm-d");
    in.replica_id = hex32(o.replica_id, "--replica-id");
    in.seed = hex32(o.seed, "--seed");
  }
  const groth16::VerifyingKey vk =
      filecoin::read_verifying_key_file(params_dir(o), parameter_set(pp), parameter_checks(o));
  const std::vector<uint8_t> bytes = read_bytes(o.proof_path);
  return report_verdict("PoRep", o.proof_path, [&](std::vector<bool>& per) {
    return verify_seal_proof(pp, vk, in, bytes, &per);
  });
}

int run_info(const PorepOptions& o) {
  PublicParams pp;
  std::optional<StackedCircuit> circuit;
  if (!o.c1_path.empty()) {
    const filecoin::C1Document doc = read_c1(o.c1_path);
    pp = PublicParams::for_proof(doc.c1.registered_proof);
    try {
      circuit = StackedCircuit::from_c1(doc.c1, pp, o.partition);
    } catch (const std::exception& e) {
      throw BadInput(o.c1_path + ": " + e.what());
    }
  } else {
    pp = resolve_params(o);
    circuit = StackedCircuit::blank(pp);
  }
  std::printf(
      "%s PoRep partition: %u layers, tree %s, %u challenges per partition, %u "
      "partition(s)%s\n",
      binary_size_name(pp.sector_size()).c_str(), pp.layers, pp.tree.to_string().c_str(),
      pp.challenges_per_partition, pp.partitions, o.c1_path.empty() ? " (blank circuit)" : "");
  std::fflush(stdout);
  const CircuitMetrics m = measure_circuit(*circuit, !o.no_density);
  std::printf("inputs            %zu (including ONE)\n", m.inputs);
  std::printf("aux               %zu\n", m.aux);
  std::printf("constraints       %zu (circuit) + %zu (input * 0 = 0) = %zu rows\n", m.constraints,
              m.inputs, m.prover_rows());
  std::printf("domain            2^%d\n", std::countr_zero(m.domain_size()));
  if (m.has_density) {
    std::printf("density A aux     %zu\n", m.a_aux_density);
    std::printf("density B input   %zu\n", m.b_input_density);
    std::printf("density B aux     %zu\n", m.b_aux_density);
  }
  std::printf("parameters        %s\n", parameter_files(params_dir(o), pp).params.string().c_str());
  std::printf("time %.2f s | peak memory %.3f GiB\n", m.seconds, peak_rss_gib());
  return 0;
}

}  // namespace

void add_porep_commands(CLI::App& app, PorepOptions& o) {
  CLI::App* g =
      app.add_subcommand("porep", "PoRep C2: test parameters, prove, verify, circuit info");
  g->require_subcommand(1);

  CLI::App* params = g->add_subcommand(
      "params", "INSECURE test parameters (.params/.vk/.meta under Filecoin's names)");
  params->add_option("--sector-size", o.sector_size, "2KiB ... 64GiB")->required();
  params->add_option("--out", o.out,
                     "output directory (required: never the real parameter cache by default)");
  params->add_option("--seed", o.setup_seed, "seed of the toxic waste (recorded in the .meta)");
  params->add_flag("--force", o.force, "replace files that exist");
  params->add_option("--backend", o.backend,
                     "cpu (the whole R1CS in memory) or gpu (from the recording, streamed to "
                     "disk; 32/64 GiB)");
  params->add_option("--pce-dir", o.pce_dir,
                     "gpu: the recording's directory (loaded, or recorded and saved there)");
  params->add_flag("--allow-large", o.allow_large,
                   "cpu: allow 32/64 GiB (needs hundreds of GiB of memory)");
  params->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  params->callback([&] { o.action = PorepOptions::Action::kParams; });

  CLI::App* c2 = g->add_subcommand("c2", "Prove every partition of a C1 output (commit phase 2)");
  c2->add_option("--c1", o.c1_path, "c1.json (cuzk wrapper or bare SealCommitPhase1Output)")
      ->required()
      ->check(CLI::ExistingFile);
  c2->add_option("--params", o.params_dir, kParamsDirHelp);
  c2->add_option("--out", o.out, "output: the partition proofs concatenated")->required();
  c2->add_option("--backend", o.backend, "cpu, gpu[:N] or auto");
  add_allow_insecure_flag(c2, o.allow_insecure, false);
  c2->add_flag("--verify-digests", o.verify_digests,
               "hash a published .params against parameters.json before using it");
  add_trusted_params_flag(c2, o.trusted_params);
  c2->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  c2->callback([&] { o.action = PorepOptions::Action::kC2; });

  CLI::App* verify = g->add_subcommand("verify", "Verify PoRep proof bytes (exit 0 only if valid)");
  verify->add_option("--c1", o.c1_path, "take comm_r, comm_d, replica_id, seed from this C1")
      ->check(CLI::ExistingFile);
  verify->add_option("--sector-size", o.sector_size, "without --c1: the sector size (V1_1)");
  verify->add_option("--proof-type", o.proof_type, "without --c1: registered proof name or id");
  verify->add_option("--comm-r", o.comm_r, "64 hex digits (stored bytes)");
  verify->add_option("--comm-d", o.comm_d, "64 hex digits (stored bytes)");
  verify->add_option("--replica-id", o.replica_id, "64 hex digits (stored bytes)");
  verify->add_option("--seed", o.seed, "interactive randomness, 64 hex digits");
  add_verify_file_options(verify, o.params_dir, o.allow_insecure, o.proof_path);
  verify->callback([&] { o.action = PorepOptions::Action::kVerify; });

  CLI::App* info =
      g->add_subcommand("info", "Count one partition circuit with the metric CS (no storage)");
  info->add_option("--sector-size", o.sector_size, "2KiB ... 64GiB (blank circuit)");
  info->add_option("--proof-type", o.proof_type, "registered proof name or id (blank circuit)");
  info->add_option("--c1", o.c1_path, "or the circuit of a C1 partition")->check(CLI::ExistingFile);
  info->add_option("--partition", o.partition, "partition of --c1 (default 0)");
  info->add_flag("--no-density", o.no_density, "skip the A/B density bitmaps");
  info->add_option("--params", o.params_dir, kParamsDirHelp);
  info->callback([&] { o.action = PorepOptions::Action::kInfo; });
}

// One case per subcommand. filecoin, porep, post and update dispatch alike on purpose: a switch
// over the file's own Action enum, so that -Wswitch (an error under -Werror) names a subcommand
// added without a case, which a shared table would not; what they share (the exit codes of what
// is thrown) is exit_code_of, once.
int run_porep(const PorepOptions& o) {
  return exit_code_of([&] {
    switch (o.action) {
      case PorepOptions::Action::kParams:
        return run_params(o);
      case PorepOptions::Action::kC2:
        return run_c2(o);
      case PorepOptions::Action::kVerify:
        return run_verify(o);
      case PorepOptions::Action::kInfo:
        return run_info(o);
      case PorepOptions::Action::kNone:
        break;
    }
    return 2;
  });
}

}  // namespace cuzk::app
