#include "update_cmd.hpp"

#include <functional>

#include <unistd.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "backend/backend_factory.hpp"
#include "command_clock.hpp"
#include "command_errors.hpp"
#include "cs/circuit_metrics.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "engine/handlers/update_handler.hpp"
#include "engine/serial_prover.hpp"
#include "filecoin/base64.hpp"
#include "filecoin/fr32.hpp"
#include "filecoin/merkle/tree_store.hpp"
#include "filecoin/parameter_cache.hpp"
#include "filecoin/registered_proof.hpp"
#include "filecoin/sector_shape.hpp"
#include "filecoin/writable_file.hpp"
#include "parameter_flags.hpp"
#include "proof_verdict.hpp"
#include "proving_parameters.hpp"
#include "test_parameters.hpp"
#include "update/parameter_cache.hpp"
#include "update/poseidon_circuit.hpp"
#include "update/public_inputs.hpp"
#include "update/update_circuit.hpp"
#include "update/update_partitions.hpp"
#include "update/update_proof.hpp"
#include "update/vanilla/update_proof.hpp"
#include "update/vanilla/update_sector.hpp"
#include "update/vanilla/update_synthetic.hpp"
#include "update/vanilla/update_vanilla_file.hpp"
#include "util/atomic_file.hpp"
#include "util/input_file.hpp"
#include "util/text.hpp"

namespace cuzk::app {
namespace {

using filecoin::UpdateParams;

filecoin::ParameterChecks parameter_checks(const UpdateOptions& o) {
  return {o.allow_insecure, false, !o.trusted_params};
}

std::filesystem::path params_dir(const UpdateOptions& o) {
  return o.params_dir.empty() ? filecoin::default_parameter_dir()
                              : std::filesystem::path(o.params_dir);
}

UpdateParams params_for(uint64_t bytes, bool poseidon) {
  try {
    return poseidon ? UpdateParams::poseidon_for_sector_size(bytes)
                    : UpdateParams::for_sector_size(bytes);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
}

UpdateParams resolve_params(const UpdateOptions& o) {
  if (o.sector_size.empty()) throw BadInput("give --sector-size");
  try {
    return params_for(filecoin::parse_sector_size(o.sector_size), o.poseidon);
  } catch (const BadInput&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
}

std::string label(const UpdateParams& pp) {
  return binary_size_name(pp.sector_size()) + (pp.poseidon ? " SnapDeals-Poseidon" : " SnapDeals");
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  const std::string bytes = read_input_file(path, kMaxInputFileBytes);
  return {bytes.begin(), bytes.end()};
}

// Outputs never replace a file unless --force: a replica or a proof may be someone's data.
// require_absent refuses before the work; write_output refuses again if the name was taken
// meanwhile, and a failed write leaves nothing under the name (util/atomic_file.hpp).
Overwrite overwrite_mode(bool force) {
  return force ? Overwrite::kForce : Overwrite::kRefuse;
}

void require_absent(const std::filesystem::path& path, bool force) {
  if (!force && std::filesystem::exists(path)) throw BadInput(FileExistsError(path).what());
}

void write_output(const std::string& path, std::span<const uint8_t> bytes, bool force) {
  try {
    write_file_atomically(path, bytes, overwrite_mode(force));
  } catch (const FileExistsError& e) {
    throw BadInput(e.what());
  }
}

filecoin::Domain hex32(const std::string& text, const char* option) {
  try {
    return filecoin::domain_from_hex(text);
  } catch (const std::exception& e) {
    throw BadInput(std::string(option) + ": " + e.what() + " (expected 64 hex digits)");
  }
}

filecoin::UpdateSectorFiles sector_files(const UpdateOptions& o) {
  if (o.sector_key.empty() || o.sector_key_cache.empty() || o.replica.empty() ||
      o.replica_cache.empty()) {
    throw BadInput("give --sector-key, --sector-key-cache, --replica and --replica-cache");
  }
  return {o.sector_key, o.sector_key_cache, o.replica, o.replica_cache};
}

// The update shape of a sealed sector: from the sector key's size (and --sector-size if given).
UpdateParams sector_params(const UpdateOptions& o) {
  if (!std::filesystem::is_regular_file(o.sector_key)) {
    throw BadInput(o.sector_key + ": not a file");
  }
  const uint64_t size = std::filesystem::file_size(o.sector_key);
  if (!o.sector_size.empty() && filecoin::parse_sector_size(o.sector_size) != size) {
    throw BadInput("--sector-size " + o.sector_size + ", but " + o.sector_key + " has " +
                   std::to_string(size) + " bytes");
  }
  return params_for(size, false);
}

struct LoadedVanilla {
  filecoin::UpdateVanillaFile file;
  UpdateParams pp;
  filecoin::UpdatePublicInputs in;
  std::vector<filecoin::UpdatePartitionProof> proofs;
};

LoadedVanilla load_vanilla(const std::string& path) {
  LoadedVanilla v;
  const std::vector<uint8_t> bytes = read_bytes(path);
  try {
    v.file = filecoin::parse_update_vanilla_file(
        std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    v.pp = UpdateParams::for_sector_size(v.file.sector_size);
    for (size_t k = 0; k < v.file.vanilla_proofs.size(); ++k) {
      try {
        v.proofs.push_back(filecoin::decode_update_partition_proof(v.file.vanilla_proofs[k]));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("vanilla_proofs[" + std::to_string(k) + "]: " + e.what());
      }
    }
  } catch (const std::invalid_argument& e) {
    throw BadInput(path + ": " + e.what());
  }
  v.in = {v.file.comm_r_old, v.file.comm_d_new, v.file.comm_r_new, v.pp.h_default()};
  return v;
}

void print_partition(const engine::PartitionTiming& t, unsigned partitions) {
  const groth16::ProverTiming& p = t.prover;
  std::printf(
      "partition %u/%u: circuit %.3f | inputs %.3f | synthesis %.3f | quotient %.3f | msm h %.3f "
      "l %.3f a %.3f b_g1 %.3f b_g2 %.3f | assemble %.3f | verify %.3f | total %.3f s\n",
      t.partition, partitions, t.circuit_s, t.inputs_s, p.synthesis_s, p.quotient_s, p.msm_h_s,
      p.msm_l_s, p.msm_a_s, p.msm_b_g1_s, p.msm_b_g2_s, p.assemble_s, t.verify_s, t.total_s);
  std::fflush(stdout);
}

int run_info(const UpdateOptions& o) {
  const UpdateParams pp = resolve_params(o);
  const filecoin::TreeShape tree = pp.tree_r_shape();
  std::printf(
      "%s partition: tree_r %s, %u challenges per partition, h %u (h_select %llu), %u "
      "apex leafs\n",
      label(pp).c_str(), tree.to_string().c_str(), pp.challenge_count, pp.h_default(),
      static_cast<unsigned long long>(pp.h_select(pp.h_default())), pp.apex_leaf_count);
  std::fflush(stdout);
  const CircuitMetrics m = measure_circuit(*update::blank_update_circuit(pp), o.density);
  std::printf("partitions %u\n", pp.partition_count);
  std::printf("constraints %zu\n", m.constraints);
  std::printf("inputs %zu\n", m.inputs);
  std::printf("aux %zu\n", m.aux);
  std::printf("rows %zu (+ one input * 0 = 0 per input), domain 2^%d\n", m.prover_rows(),
              std::countr_zero(m.domain_size()));
  if (m.has_density) {
    std::printf("density A aux %zu | B input %zu | B aux %zu\n", m.a_aux_density, m.b_input_density,
                m.b_aux_density);
  }
  std::printf("circuit-version %u\n", pp.poseidon ? update::kEmptySectorUpdatePoseidonCircuitVersion
                                                  : update::kEmptySectorUpdateCircuitVersion);
  std::printf("parameters %s\n",
              update::parameter_files(params_dir(o), pp).params.string().c_str());
  std::printf("time %.2f s | peak memory %.3f GiB\n", m.seconds, peak_rss_gib());
  return 0;
}

int run_params(const UpdateOptions& o) {
  const UpdateParams pp = resolve_params(o);
  const bool on_device = test_parameters_on_device(o.backend, o.out);
  if (on_device && pp.poseidon) {
    throw BadInput(
        "--backend gpu: the daemon has no recording of the Poseidon variant; make it "
        "on the cpu");
  }
  if (!on_device && pp.sector_nodes > (uint64_t{16} << 20) / 32 && !o.allow_large) {
    throw BadInput(binary_size_name(pp.sector_size()) +
                   " test parameters need the whole ~8e7-constraint system in memory (tens of "
                   "GiB); pass --backend gpu, or --allow-large to try anyway");
  }
  return write_test_parameters(
      {engine::update_circuit_id(pp.sector_size()), update::parameter_set(pp),
       label(pp) + " partition",
       [&](ThreadPool& pool, update::SetupTiming* st, const ProgressFn& shown) {
         return update::generate_test_parameters(pp, o.setup_seed, pool, st, shown);
       }},
      {o.out, o.setup_seed, o.pce_dir, o.threads, o.force, on_device});
}

int run_encode(const UpdateOptions& o) {
  const filecoin::UpdateSectorFiles files = sector_files(o);
  const UpdateParams pp = sector_params(o);
  if (o.data.empty()) throw BadInput("encode needs --data FILE (the new data)");
  if (!std::filesystem::is_regular_file(o.data)) throw BadInput(o.data + ": not a file");
  require_absent(files.replica, o.force);
  for (const std::string& name :
       {filecoin::tree_d_file_name(), std::string(filecoin::cache_key::kPAux)})
    require_absent(files.replica_cache / name, o.force);
  const auto t0 = Clock::now();
  std::filesystem::create_directories(files.replica_cache);
  // The staged sector (Fr32-padded, zero-extended) in a mapped temporary, not in memory.
  std::filesystem::path staged_path =
      files.replica_cache / ("staged-data.tmp." + std::to_string(::getpid()));
  struct Remove {
    std::filesystem::path p;
    ~Remove() {
      std::error_code ec;
      std::filesystem::remove(p, ec);
    }
  } remove_staged{staged_path};
  filecoin::WritableMap staged(staged_path, pp.sector_size());
  uint64_t filled = 0;
  const auto put = [&](std::span<const uint8_t> c) {
    if (filled + c.size() > staged.bytes().size()) {
      throw BadInput(o.data + ": more than the " + std::to_string(pp.sector_size()) +
                     " padded bytes of the sector");
    }
    std::copy(c.begin(), c.end(), staged.bytes().begin() + static_cast<ptrdiff_t>(filled));
    filled += c.size();
  };
  {
    std::ifstream in(o.data, std::ios::binary);
    if (!in) throw BadInput(o.data + ": cannot open");
    filecoin::Fr32Padder padder;
    std::vector<char> buf(1 << 20);
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      const std::span<const uint8_t> chunk(reinterpret_cast<const uint8_t*>(buf.data()),
                                           static_cast<size_t>(in.gcount()));
      if (o.unpadded) {
        padder.write(chunk, put);
      } else {
        put(chunk);
      }
    }
    if (o.unpadded) padder.finish(put);
  }
  ThreadPool pool(o.threads);
  filecoin::SealOptions so;
  so.pool = &pool;
  filecoin::UpdateEncoded e;
  try {
    e = filecoin::update_encode_into(pp, files, staged.bytes(), pp.h_default(), so);
  } catch (const std::invalid_argument& err) {
    throw BadInput(err.what());
  }
  const uint32_t id = filecoin::update_proof_for_sector_size(pp.sector_size());
  std::printf("encoded %s (%s), h %u: %llu data bytes\n", label(pp).c_str(),
              std::string(filecoin::update_proof_info(id).name).c_str(), pp.h_default(),
              static_cast<unsigned long long>(filled));
  std::printf("comm_r_old  %s\ncomm_d_new  %s\ncomm_r_new  %s\ncomm_r_last %s\n",
              filecoin::to_hex(e.comm_r_old).c_str(), filecoin::to_hex(e.comm_d_new).c_str(),
              filecoin::to_hex(e.comm_r_new).c_str(), filecoin::to_hex(e.comm_r_last_new).c_str());
  std::printf("replica     %s\ncache       %s\ntime %.2f s\n", o.replica.c_str(),
              o.replica_cache.c_str(), seconds_since(t0));
  return 0;
}

// The update vanilla file, and with --vanilla-proofs-out also its "vanilla_proofs" alone: the
// JSON array of base64 strings Curio stores (what `cuzk-bench -t snap --vanilla` reads).
void write_vanilla_file(const UpdateOptions& o, const UpdateParams& pp,
                        const filecoin::UpdatePublicInputs& in,
                        const std::vector<filecoin::UpdatePartitionProof>& proofs) {
  const std::string& path = o.out;
  filecoin::UpdateVanillaFile f;
  f.registered_proof = filecoin::update_proof_for_sector_size(pp.sector_size());
  f.sector_size = pp.sector_size();
  f.comm_r_old = in.comm_r_old;
  f.comm_r_new = in.comm_r_new;
  f.comm_d_new = in.comm_d_new;
  size_t bytes = 0;
  for (const filecoin::UpdatePartitionProof& p : proofs) {
    f.vanilla_proofs.push_back(filecoin::encode_update_partition_proof(p));
    bytes += f.vanilla_proofs.back().size();
  }
  const std::string text = filecoin::encode_update_vanilla_file(f);
  write_output(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()),
               o.force);
  if (!o.vanilla_proofs_out.empty()) {
    std::string array = "[";
    for (size_t k = 0; k < f.vanilla_proofs.size(); ++k)
      array += (k ? ",\"" : "\"") + filecoin::base64_encode(f.vanilla_proofs[k]) + "\"";
    array += "]\n";
    write_output(o.vanilla_proofs_out,
                 std::span(reinterpret_cast<const uint8_t*>(array.data()), array.size()), o.force);
  }
  std::printf("%s: %zu partition proof(s), %zu bincode bytes, written to %s\n", label(pp).c_str(),
              proofs.size(), bytes, path.c_str());
  std::printf("comm_r_old  %s\ncomm_d_new  %s\ncomm_r_new  %s\n",
              filecoin::to_hex(in.comm_r_old).c_str(), filecoin::to_hex(in.comm_d_new).c_str(),
              filecoin::to_hex(in.comm_r_new).c_str());
}

int run_prove_vanilla(const UpdateOptions& o) {
  const filecoin::UpdateSectorFiles files = sector_files(o);
  const UpdateParams pp = sector_params(o);
  if (o.out.empty()) throw BadInput("prove-vanilla needs --out FILE");
  require_absent(o.out, o.force);
  if (!o.vanilla_proofs_out.empty()) require_absent(o.vanilla_proofs_out, o.force);
  const auto t0 = Clock::now();
  ThreadPool pool(o.threads);
  filecoin::UpdatePublicInputs in;
  std::vector<filecoin::UpdatePartitionProof> proofs;
  try {
    in = filecoin::read_update_public_inputs(pp, files, pp.h_default());
    proofs = filecoin::update_partition_proofs(pp, files, in, &pool);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  write_vanilla_file(o, pp, in, proofs);
  std::printf("time %.2f s\n", seconds_since(t0));
  return 0;
}

int run_synthetic(const UpdateOptions& o) {
  const UpdateParams pp = resolve_params(o);
  if (pp.poseidon) throw BadInput("synthetic: the Poseidon variant has no vanilla proofs");
  try {
    filecoin::update_proof_for_sector_size(pp.sector_size());
  } catch (const std::invalid_argument& e) {
    throw BadInput(std::string("synthetic: ") + e.what());
  }
  require_absent(o.out, o.force);
  if (!o.vanilla_proofs_out.empty()) require_absent(o.vanilla_proofs_out, o.force);
  const auto t0 = Clock::now();
  ThreadPool pool(o.threads);
  const filecoin::SyntheticUpdate s =
      filecoin::make_synthetic_update(pp, o.synthetic_seed, 64, &pool);
  const double t_make = seconds_since(t0);
  write_vanilla_file(o, pp, s.in, s.proofs);
  std::printf("time (s): generate and verify %.2f | total %.2f\n", t_make, seconds_since(t0));
  return 0;
}

int run_verify_vanilla(const UpdateOptions& o) {
  const LoadedVanilla v = load_vanilla(o.vanilla);
  ThreadPool pool(o.threads);
  const auto t0 = Clock::now();
  try {
    update::check_update_vanilla(v.pp, v.in, v.proofs, &pool);
  } catch (const update::VanillaRejectedError& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  }
  std::printf("OK: %zu %s vanilla partition proof(s) verify (%.3f s)\n", v.proofs.size(),
              label(v.pp).c_str(), seconds_since(t0));
  return 0;
}

int run_prove(const UpdateOptions& o) {
  groth16::require_backend(o.backend);  // a missing GPU fails before anything is read
  const auto t_start = Clock::now();
  require_absent(o.out, o.force);
  LoadedVanilla v = load_vanilla(o.vanilla);
  ThreadPool pool(o.threads);
  auto t0 = Clock::now();
  try {  // before the (large) parameters are read
    update::check_update_vanilla(v.pp, v.in, v.proofs, &pool);
  } catch (const update::VanillaRejectedError& e) {
    std::fprintf(stderr, "error: %s\nno proof written\n", e.what());
    return 1;
  }
  std::printf("vanilla proofs verified in %.3f s\n", seconds_since(t0));
  t0 = Clock::now();
  const groth16::Parameters params = read_proving_parameters(
      params_dir(o), update::parameter_set(v.pp), parameter_checks(o), pool);
  std::printf("%s: %u partition(s) x %u challenges; parameters read in %.2f s\n",
              label(v.pp).c_str(), v.pp.partition_count, v.pp.challenge_count, seconds_since(t0));
  // The partitions as the daemon's update handler builds them, proved as its workers prove them.
  uint64_t vanilla_bytes = 0;
  for (const auto& p : v.file.vanilla_proofs)
    vanilla_bytes += p.size();
  const std::unique_ptr<circuits::PreparedJob> job =
      update::make_update_job(v.pp, v.in, std::move(v.proofs), vanilla_bytes);
  std::string backend_note;
  const std::unique_ptr<groth16::ProverBackend> backend =
      groth16::make_backend(o.backend, pool, &backend_note);
  engine::SerialProveOptions opt;
  Progress proving("prove", v.pp.partition_count, "partitions");
  opt.on_partition = [&](const engine::PartitionTiming& t) {
    print_partition(t, v.pp.partition_count);
    proving.add(1);
  };
  const engine::SerialProveResult r = engine::prove_serially(*job, params, *backend, pool, opt);
  proving.finish();
  write_output(o.out, r.proof, o.force);
  std::printf("backend %s | total %.2f s | peak memory %.2f GiB\n", backend_note.c_str(),
              seconds_since(t_start), peak_rss_gib());
  std::printf("proof (%zu bytes, %u partition(s), each verified) written to %s\n", r.proof.size(),
              v.pp.partition_count, o.out.c_str());
  return 0;
}

int run_verify(const UpdateOptions& o) {
  UpdateParams pp;
  filecoin::UpdatePublicInputs in;
  if (!o.vanilla.empty()) {
    const LoadedVanilla v = load_vanilla(o.vanilla);
    pp = v.pp;
    in = v.in;
  } else {
    if (o.comm_r_old.empty() || o.comm_r_new.empty() || o.comm_d_new.empty()) {
      throw BadInput(
          "verify needs --vanilla, or --sector-size, --comm-r-old, --comm-r-new and "
          "--comm-d-new");
    }
    pp = resolve_params(o);
    in = {hex32(o.comm_r_old, "--comm-r-old"), hex32(o.comm_d_new, "--comm-d-new"),
          hex32(o.comm_r_new, "--comm-r-new"), pp.h_default()};
  }
  const groth16::VerifyingKey vk = filecoin::read_verifying_key_file(
      params_dir(o), update::parameter_set(pp), parameter_checks(o));
  const std::vector<uint8_t> bytes = read_bytes(o.proof_path);
  return report_verdict("update", o.proof_path, [&](std::vector<bool>& per) {
    return update::verify_update_proof(pp, vk, in, bytes, &per);
  });
}

}  // namespace

// One case per subcommand. filecoin, porep, post and update dispatch alike on purpose: a switch
// over the file's own Action enum, so that -Wswitch (an error under -Werror) names a subcommand
// added without a case, which a shared table would not; what they share (the exit codes of what
// is thrown) is exit_code_of, once.
int run_update(const UpdateOptions& o) {
  using A = UpdateOptions::Action;
  return exit_code_of([&] {
    switch (o.action) {
      case A::kInfo:
        return run_info(o);
      case A::kParams:
        return run_params(o);
      case A::kEncode:
        return run_encode(o);
      case A::kProveVanilla:
        return run_prove_vanilla(o);
      case A::kSynthetic:
        return run_synthetic(o);
      case A::kVerifyVanilla:
        return run_verify_vanilla(o);
      case A::kProve:
        return run_prove(o);
      case A::kVerify:
        return run_verify(o);
      case A::kNone:
        break;
    }
    return 2;
  });
}

}  // namespace cuzk::app
