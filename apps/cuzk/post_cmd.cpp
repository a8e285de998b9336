#include "post_cmd.hpp"

#include <functional>

#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <stdexcept>

#include "backend/backend_factory.hpp"
#include "command_clock.hpp"
#include "command_errors.hpp"
#include "cs/circuit_metrics.hpp"
#include "cs/test_cs.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "engine/handlers/post_handler.hpp"
#include "engine/serial_prover.hpp"
#include "filecoin/domain.hpp"
#include "filecoin/replica_id.hpp"
#include "filecoin/sector_shape.hpp"
#include "gadgets/scope.hpp"
#include "parameter_flags.hpp"
#include "porep/vanilla/porep_config.hpp"
#include "post/fallback_circuit.hpp"
#include "post/parameter_cache.hpp"
#include "post/post_partitions.hpp"
#include "post/post_verifier.hpp"
#include "post/public_inputs.hpp"
#include "post/vanilla/post_files.hpp"
#include "post/vanilla/post_request.hpp"
#include "post/vanilla/post_vanilla_prover.hpp"
#include "proof_verdict.hpp"
#include "proving_parameters.hpp"
#include "test_parameters.hpp"
#include "util/atomic_file.hpp"
#include "util/input_file.hpp"

namespace cuzk::app {
namespace {

using filecoin::FallbackPoStParams;
using filecoin::PoStConfig;
using filecoin::PoStKind;

struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

filecoin::ParameterChecks parameter_checks(const PostOptions& o) {
  return {o.allow_insecure, false, !o.trusted_params};
}

std::filesystem::path params_dir(const PostOptions& o) {
  return o.params_dir.empty() ? filecoin::default_parameter_dir()
                              : std::filesystem::path(o.params_dir);
}

std::optional<PoStKind> kind_of(const PostOptions& o) {
  if (o.proof.empty()) return std::nullopt;
  if (o.proof == "winning") return PoStKind::kWinning;
  if (o.proof == "window") return PoStKind::kWindow;
  throw BadInput("--proof must be winning or window (got \"" + o.proof + "\")");
}

PoStConfig config_of_id(uint64_t id, const std::optional<PoStKind>& kind) {
  if (id >= filecoin::kPoStProofCount) {
    throw BadInput("unknown registered PoSt proof id " + std::to_string(id));
  }
  const PoStConfig c = filecoin::post_config(static_cast<uint32_t>(id));
  if (kind && *kind != c.kind) {
    throw BadInput(std::string(filecoin::post_proof_info(c.registered_proof).name) + " is not a " +
                   filecoin::post_kind_name(*kind) + " PoSt proof");
  }
  return c;
}

// --proof-type (name or id), else --proof and --sector-size.
PoStConfig resolve_config(const PostOptions& o) {
  const std::optional<PoStKind> kind = kind_of(o);
  try {
    if (!o.proof_type.empty()) {
      if (o.proof_type.find_first_not_of("0123456789") == std::string::npos) {
        return config_of_id(std::stoull(o.proof_type), kind);
      }
      for (uint32_t id = 0; id < filecoin::kPoStProofCount; ++id)
        if (filecoin::post_proof_info(id).name == o.proof_type) return config_of_id(id, kind);
      throw BadInput("unknown registered PoSt proof \"" + o.proof_type + "\"");
    }
    if (!kind || o.sector_size.empty()) {
      throw BadInput("give --proof winning|window and --sector-size (or --proof-type)");
    }
    return filecoin::post_config(*kind, filecoin::parse_sector_size(o.sector_size));
  } catch (const BadInput&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
}

std::string read_text(const std::string& path) {
  return read_input_file(path, kMaxInputFileBytes);
}

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  const std::filesystem::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f || !f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      throw std::runtime_error(tmp.string() + ": cannot write");
    }
  }
  std::filesystem::rename(tmp, path);
}

filecoin::PoStVerifyInfo read_public(const std::string& path) {
  try {
    return filecoin::parse_post_verify_info(read_text(path));
  } catch (const BadInput&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw BadInput(path + ": " + e.what());
  }
}

std::vector<std::vector<uint8_t>> read_vanilla(const std::string& path) {
  try {
    return filecoin::parse_vanilla_proofs(read_text(path));
  } catch (const BadInput&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw BadInput(path + ": " + e.what());
  }
}

// The verifier's sectors of the public file, one per slot for Winning (verify_winning_post).
std::vector<post::PublicSector> public_sectors(const filecoin::PoStVerifyInfo& info,
                                               const FallbackPoStParams& pp, PoStKind kind) {
  std::vector<post::PublicSector> out;
  for (const filecoin::ChallengedSector& s : info.sectors)
    out.push_back({s.sector_number, s.comm_r});
  if (kind == PoStKind::kWinning) {
    if (out.size() != 1) {
      throw BadInput("a winning PoSt challenges one sector, the file lists " +
                     std::to_string(out.size()));
    }
    out.assign(pp.sector_count, out[0]);
  }
  return out;
}

void print_timing(const char* what, const engine::PartitionTiming& t) {
  const groth16::ProverTiming& p = t.prover;
  std::printf(
      "%s: circuit %.3f | inputs %.3f | synthesis %.3f | quotient %.3f | msm h %.3f l %.3f a "
      "%.3f b_g1 %.3f b_g2 %.3f | assemble %.3f | verify %.3f | total %.3f s\n",
      what, t.circuit_s, t.inputs_s, p.synthesis_s, p.quotient_s, p.msm_h_s, p.msm_l_s, p.msm_a_s,
      p.msm_b_g1_s, p.msm_b_g2_s, p.assemble_s, t.verify_s, t.total_s);
}

int run_info(const PostOptions& o) {
  const PoStConfig c = resolve_config(o);
  const FallbackPoStParams pp = filecoin::fallback_post_params(c);
  std::printf("%s: %s PoSt partition of %u slot(s) x %u challenge(s), tree %s (blank circuit)\n",
              std::string(filecoin::post_proof_info(c.registered_proof).name).c_str(),
              filecoin::post_kind_name(c.kind), pp.sector_count, pp.challenge_count,
              pp.tree.to_string().c_str());
  std::fflush(stdout);
  const CircuitMetrics m = measure_circuit(post::FallbackPoStCircuit::blank(pp), o.density);
  std::printf("constraints %zu\n", m.constraints);
  std::printf("inputs %zu\n", m.inputs);
  std::printf("aux %zu\n", m.aux);
  std::printf("rows %zu (constraints + one input * 0 = 0 per input), domain 2^%d\n",
              m.prover_rows(), std::countr_zero(m.domain_size()));
  if (m.has_density) {
    std::printf("density A aux %zu | B input %zu | B aux %zu\n", m.a_aux_density, m.b_input_density,
                m.b_aux_density);
  }
  std::printf("parameters %s\n", post::parameter_files(params_dir(o), pp).params.string().c_str());
  std::printf("time %.2f s | peak memory %.3f GiB\n", m.seconds, peak_rss_gib());
  return 0;
}

int run_params(const PostOptions& o) {
  const bool on_device = test_parameters_on_device(o.backend, o.out);
  const PoStConfig c = resolve_config(o);
  const FallbackPoStParams pp = filecoin::fallback_post_params(c);
  if (!on_device) {
    const CircuitMetrics m = measure_circuit(post::FallbackPoStCircuit::blank(pp), false);
    if (m.prover_rows() > (size_t{1} << 24) && !o.large) {
      throw BadInput("this circuit has " + std::to_string(m.constraints) +
                     " constraints: the CPU setup needs it whole in memory (many tens of GiB) "
                     "and hours; pass --backend gpu, or --large to try anyway");
    }
  }
  return write_test_parameters(
      {engine::post_circuit_id(c.kind, pp.sector_size), post::parameter_set(pp),
       std::string(filecoin::post_proof_info(c.registered_proof).name),
       [&](ThreadPool& pool, post::SetupTiming* st, const ProgressFn& shown) {
         return post::generate_test_parameters(pp, o.setup_seed, pool, st, shown);
       }},
      {o.out, o.setup_seed, o.pce_dir, o.threads, o.force, on_device});
}

int run_vanilla(const PostOptions& o) {
  if (o.out.empty()) throw BadInput("vanilla needs --out FILE");
  const PoStConfig c = resolve_config(o);
  if (o.randomness.empty()) throw BadInput("vanilla needs --randomness (64 hex digits)");
  filecoin::Domain randomness;
  try {
    randomness = filecoin::domain_from_hex(o.randomness);
  } catch (const std::invalid_argument& e) {
    throw BadInput(std::string("--randomness: ") + e.what());
  }
  if (!filecoin::is_canonical_fr(randomness)) {
    throw BadInput("--randomness is not a field element (clear the top two bits of byte 31)");
  }
  std::vector<uint64_t> ids = o.sector_ids;
  if (o.synthetic > 0) {
    if (!ids.empty()) throw BadInput("give --synthetic N or --sector-id, not both");
    for (uint64_t i = 0; i < o.synthetic; ++i)
      ids.push_back(o.first_sector + i);
  } else if (ids.empty() || o.seal_dir.empty()) {
    throw BadInput("give --seal-dir DIR with --sector-id N (repeated), or --synthetic N");
  }
  if (ids.size() > c.sector_count) {  // Winning: 1; Window: sectors per partition
    throw BadInput(std::to_string(ids.size()) + " sectors: a " + filecoin::post_kind_name(c.kind) +
                   " PoSt partition proves at most " + std::to_string(c.sector_count));
  }
  const auto t0 = Clock::now();
  const auto challenges = filecoin::fallback_sector_challenges(c, randomness, ids, o.partition);
  std::vector<std::vector<uint8_t>> proofs;
  filecoin::PoStVerifyInfo info;
  info.randomness = randomness;
  info.post_proof = c.registered_proof;
  info.prover = o.actor_id;
  const uint64_t seal_proof =
      static_cast<uint64_t>(filecoin::seal_proof_for(c.sector_size, std::nullopt));
  // Sectors are independent: one task each (a 2349-sector synthetic partition in seconds).
  std::vector<filecoin::FallbackPoStSectorProof> made(ids.size());
  ThreadPool pool(o.threads);
  pool.run(ids.size(), [&](size_t i) {
    if (o.synthetic > 0) {
      made[i] = filecoin::synthetic_sector_proof(c, ids[i], o.synthetic_seed, challenges[i]);
      return;
    }
    const std::string name = "s-t0" + std::to_string(o.actor_id) + "-" + std::to_string(ids[i]);
    const std::filesystem::path root = o.seal_dir;
    try {
      made[i] = filecoin::prove_sealed_sector(
          c, ids[i], {root / "cache" / name, root / "sealed" / name}, challenges[i]);
    } catch (const std::invalid_argument& e) {
      throw BadInput(e.what());
    }
  });
  for (size_t i = 0; i < ids.size(); ++i) {
    info.sectors.push_back({seal_proof, ids[i], made[i].comm_r});
    proofs.push_back(filecoin::encode_fallback_post_sector_proof(made[i]));
  }
  write_file(o.out, filecoin::vanilla_proofs_json(proofs));
  if (!o.public_path.empty()) write_file(o.public_path, filecoin::post_verify_info_json(info));
  std::printf("%s: %zu %s vanilla proof(s), %u challenge(s) each, partition %u (%.2f s)\n",
              std::string(filecoin::post_proof_info(c.registered_proof).name).c_str(),
              proofs.size(), o.synthetic > 0 ? "synthetic" : "sealed-sector", c.challenge_count,
              o.partition, seconds_since(t0));
  std::printf("vanilla proofs written to %s%s%s\n", o.out.c_str(),
              o.public_path.empty() ? "" : ", verify info to ", o.public_path.c_str());
  return 0;
}

// The request a vanilla file and a verify-info file make, as the daemon would get it.
struct Loaded {
  std::vector<std::vector<uint8_t>> vanilla;
  filecoin::PoStVerifyInfo info;
  PoStConfig config;
  FallbackPoStParams pp;
};

Loaded load(const PostOptions& o) {
  if (o.vanilla_path.empty() || o.public_path.empty()) {
    throw BadInput("give --vanilla FILE and --public FILE");
  }
  Loaded l;
  l.vanilla = read_vanilla(o.vanilla_path);
  l.info = read_public(o.public_path);
  l.config = config_of_id(l.info.post_proof, kind_of(o));
  l.pp = filecoin::fallback_post_params(l.config);
  return l;
}

int run_satisfy(const PostOptions& o) {
  const Loaded l = load(o);
  std::vector<filecoin::FallbackPoStSectorProof> proofs;
  for (size_t i = 0; i < l.vanilla.size(); ++i) {
    try {
      proofs.push_back(filecoin::decode_fallback_post_sector_proof(l.vanilla[i]));
    } catch (const std::invalid_argument& e) {
      throw BadInput("vanilla proof " + std::to_string(i) + ": " + e.what());
    }
  }
  filecoin::PoStPartition part;
  try {
    part = l.config.kind == PoStKind::kWinning
               ? filecoin::winning_partition(l.pp, proofs)
               : filecoin::window_partition(l.pp, proofs, o.partition);
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  const std::vector<post::PublicSector> sectors = public_sectors(l.info, l.pp, l.config.kind);
  if (sectors.size() != part.real_slots) {
    throw BadInput(o.public_path + " lists " + std::to_string(sectors.size()) +
                   " sector(s), the vanilla proofs " + std::to_string(part.real_slots));
  }
  const std::vector<Fr> native = post::public_inputs(l.pp, l.info.randomness, sectors, part.index);
  const size_t per_slot = 1 + l.pp.challenge_count;
  // Slots share no variable: each is checked alone (the padding slots repeat the last one), so a
  // partition needs the memory of one slot per thread; the first failing slot is reported.
  struct SlotResult {
    std::string failure;  // empty: satisfied with the verifier's inputs
    size_t constraints = 0;
  };
  std::vector<SlotResult> results(part.real_slots);
  for (size_t i = 0; i < part.real_slots; ++i) {  // shape errors before any synthesis
    try {
      post::SectorCircuit::from_slot(part.slots[i], l.pp);
    } catch (const std::invalid_argument& e) {
      throw BadInput(e.what());
    }
  }
  ThreadPool pool(o.threads);
  std::mutex progress_mu;
  std::atomic<size_t> done{0};
  auto last_report = Clock::now();
  const auto t0 = Clock::now();
  pool.run(part.real_slots, [&](size_t i) {
    SlotResult& res = results[i];
    const post::SectorCircuit slot = post::SectorCircuit::from_slot(part.slots[i], l.pp);
    TestConstraintSystem cs;
    {
      const Ns outer(cs, gadgets::Name{"outer namespace"});
      slot.synthesize(gadgets::Ns(cs, gadgets::NameN{"sector_", i}));
    }
    res.constraints = cs.num_constraints();
    if (const auto bad = cs.which_is_unsatisfied()) {
      res.failure = "first unsatisfied constraint " + *bad;
    } else if (!cs.verify_inputs(std::span<const Fr>(native.data() + i * per_slot, per_slot))) {
      res.failure =
          "its public inputs differ from the verifier's (comm_r and challenged leaves "
          "from " +
          o.public_path + ")";
    }
    const size_t n = ++done;
    std::lock_guard<std::mutex> lock(progress_mu);
    if (seconds_since(last_report) > 10 && n < part.real_slots) {
      last_report = Clock::now();
      std::fprintf(stderr, "checked %zu/%zu slots (%.0f s)\n", n, part.real_slots,
                   seconds_since(t0));
    }
  });
  for (size_t i = 0; i < part.real_slots; ++i) {
    if (results[i].failure.empty()) continue;
    std::printf("NOT satisfied: slot %zu (sector %llu): %s\n", i,
                static_cast<unsigned long long>(part.slots[i].sector_id),
                results[i].failure.c_str());
    return 1;
  }
  const size_t constraints = results.back().constraints;
  std::printf(
      "satisfied: %zu slot(s) of %zu constraints, public inputs equal the verifier's; "
      "%zu padding slot(s) repeat slot %zu (%.2f s)\n",
      part.real_slots, constraints, part.slots.size() - part.real_slots, part.real_slots - 1,
      seconds_since(t0));
  return 0;
}

int run_prove(const PostOptions& o) {
  groth16::require_backend(o.backend);  // a missing GPU fails before anything is read
  if (o.out.empty()) throw BadInput("prove needs --out FILE");
  const auto t_start = Clock::now();
  const Loaded l = load(o);
  filecoin::PoStRequest r;
  r.kind = l.config.kind;
  r.registered_proof = l.config.registered_proof;
  r.vanilla_proofs = l.vanilla;
  r.randomness = l.info.randomness;
  r.partition_index = o.partition;
  r.miner_id = l.info.prover;
  ThreadPool pool(o.threads);
  auto t0 = Clock::now();
  filecoin::PoStJob job;
  try {
    job = filecoin::decode_post_request(r, &pool);
  } catch (const filecoin::PoStRequestError& e) {
    std::fprintf(stderr, "error: %s\nno proof written\n", e.what());
    return 1;
  }
  const std::vector<post::PublicSector> sectors = public_sectors(l.info, l.pp, l.config.kind);
  const std::vector<post::PublicSector> proved = post::public_sectors(job.partition);
  if (sectors.size() != proved.size() ||
      !std::equal(sectors.begin(), sectors.end(), proved.begin(), [](const auto& a, const auto& b) {
        return a.sector_id == b.sector_id && a.comm_r == b.comm_r;
      })) {
    throw BadInput(o.public_path + ": its challenged sectors are not the vanilla proofs' sectors");
  }
  std::printf("vanilla proofs verified in %.3f s\n", seconds_since(t0));
  t0 = Clock::now();
  const groth16::Parameters params = read_proving_parameters(
      params_dir(o), post::parameter_set(job.params), parameter_checks(o), pool);
  std::printf("%s: %u slot(s) x %u challenge(s); parameters read in %.2f s\n",
              std::string(filecoin::post_proof_info(l.config.registered_proof).name).c_str(),
              job.params.sector_count, job.params.challenge_count, seconds_since(t0));
  std::string note;
  const auto backend = groth16::make_backend(o.backend, pool, &note);
  // The partition as the daemon's PoSt handler builds it, proved as its workers prove it.
  const engine::SerialProveResult proof =
      engine::prove_serially(*post::make_post_job(std::move(job)), params, *backend, pool);
  print_timing("partition", proof.partitions.at(0));
  write_file(o.out, std::string_view(reinterpret_cast<const char*>(proof.proof.data()),
                                     proof.proof.size()));
  std::printf("backend %s | total %.2f s | peak memory %.2f GiB\n", note.c_str(),
              seconds_since(t_start), peak_rss_gib());
  std::printf("proof (192 bytes, verified) written to %s\n", o.out.c_str());
  return 0;
}

int run_verify(const PostOptions& o) {
  if (o.public_path.empty()) throw BadInput("verify needs --public FILE");
  const filecoin::PoStVerifyInfo info = read_public(o.public_path);
  const PoStConfig c = config_of_id(info.post_proof, kind_of(o));
  const FallbackPoStParams pp = filecoin::fallback_post_params(c);
  std::vector<uint8_t> bytes;
  if (!o.proof_path.empty()) {
    const std::string text = read_text(o.proof_path);
    bytes.assign(text.begin(), text.end());
  } else if (info.proof) {
    bytes = *info.proof;
  } else {
    throw BadInput("give --proof FILE (" + o.public_path + " has no ProofBytes)");
  }
  const groth16::VerifyingKey vk = filecoin::read_verifying_key_file(
      params_dir(o), post::parameter_set(pp), parameter_checks(o));
  // One partition's proof: no per-partition lines; an error names no file (the bytes may be
  // --public's ProofBytes).
  return report_verdict("PoSt", "", [&](std::vector<bool>&) {
    return post::verify_post_proof(pp, vk, info.randomness, public_sectors(info, pp, c.kind),
                                   o.partition, bytes);
  });
}

}  // namespace

// One case per subcommand. filecoin, porep, post and update dispatch alike on purpose: a switch
// over the file's own Action enum, so that -Wswitch (an error under -Werror) names a subcommand
// added without a case, which a shared table would not; what they share (the exit codes of what
// is thrown) is exit_code_of, once.
int run_post(const PostOptions& o) {
  return exit_code_of([&] {
    switch (o.action) {
      case PostOptions::Action::kInfo:
        return run_info(o);
      case PostOptions::Action::kParams:
        return run_params(o);
      case PostOptions::Action::kVanilla:
        return run_vanilla(o);
      case PostOptions::Action::kSatisfy:
        return run_satisfy(o);
      case PostOptions::Action::kProve:
        return run_prove(o);
      case PostOptions::Action::kVerify:
        return run_verify(o);
      case PostOptions::Action::kNone:
        break;
    }
    return 2;
  });
}

}  // namespace cuzk::app
