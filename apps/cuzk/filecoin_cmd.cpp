#include "filecoin_cmd.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "command_clock.hpp"
#include "command_errors.hpp"
#include "filecoin/commcid.hpp"
#include "filecoin/fr32.hpp"
#include "filecoin/graph/parent_cache.hpp"
#include "filecoin/hash/sha256_tree.hpp"
#include "filecoin/pieces.hpp"
#include "filecoin/sector_shape.hpp"
#include "porep/vanilla/c1_json.hpp"
#include "porep/vanilla/c1_wrapper.hpp"
#include "porep/vanilla/porep_verify.hpp"
#include "porep/vanilla/seal_commit.hpp"
#include "porep/vanilla/seal_precommit.hpp"
#include "porep/vanilla/synthetic_c1.hpp"
#include "util/progress.hpp"

namespace cuzk::app {
namespace {

using namespace cuzk::filecoin;

RegisteredSealProof resolve_proof(const FilecoinOptions& o) {
  std::optional<RegisteredSealProof> p;
  if (!o.proof.empty()) {
    try {
      p = o.proof.find_first_not_of("0123456789") == std::string::npos
              ? seal_proof_from_id(std::stoull(o.proof))
              : seal_proof_from_name(o.proof);
    } catch (const std::exception& e) {
      throw BadInput("--proof \"" + o.proof + "\": " + e.what());
    }
  }
  if (!o.sector_size.empty()) {
    const uint64_t size = parse_sector_size(o.sector_size);
    if (p) {
      if (seal_proof_info(*p).sector_size != size) {
        throw BadInput("--proof " + o.proof + " is a " +
                       std::to_string(seal_proof_info(*p).sector_size) +
                       "-byte proof, --sector-size says " + std::to_string(size));
      }
    } else {
      try {
        p = seal_proof_for(size, std::nullopt);
      } catch (const std::invalid_argument& e) {
        throw BadInput(std::string("--sector-size: ") + e.what());
      }
    }
  }
  if (!p) throw BadInput("give --proof (name or id) or --sector-size");
  return *p;
}

Domain hex32(const std::string& text, const char* option) {
  try {
    return domain_from_hex(text);
  } catch (const std::exception& e) {
    throw BadInput(std::string(option) + ": " + e.what() + " (expected 64 hex digits)");
  }
}

std::optional<Domain> resolve_prover(const FilecoinOptions& o) {
  if (!o.prover_id.empty() && o.has_actor_id) {
    throw BadInput("give --prover-id or --actor-id, not both");
  }
  if (!o.prover_id.empty()) return hex32(o.prover_id, "--prover-id");
  if (o.has_actor_id) return prover_id_from_actor_id(o.actor_id);
  return std::nullopt;
}

// The actor id whose LEB128 prover id this is, if any (for Lotus-style names s-t0<actor>-<n>).
std::optional<uint64_t> actor_of(const Domain& prover_id) {
  uint64_t v = 0;
  for (unsigned i = 0; i < 10; ++i) {
    v |= uint64_t{prover_id[i] & 0x7fu} << (7 * i);
    if ((prover_id[i] & 0x80) == 0) {
      if (prover_id_from_actor_id(v) == prover_id) return v;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

void print_commitments(const Domain& comm_d, const Domain& comm_r) {
  std::printf("comm_d      %s  %s\n", to_hex(comm_d).c_str(),
              commitment_to_cid(comm_d, CommitmentKind::kUnsealed).c_str());
  std::printf("comm_r      %s  %s\n", to_hex(comm_r).c_str(),
              commitment_to_cid(comm_r, CommitmentKind::kSealed).c_str());
}

// Fr32-pads an unpadded file into `out` (the staged sector form).
void pad_file(const std::string& in_path, const std::filesystem::path& out, uint64_t sector_size) {
  std::ifstream in(in_path, std::ios::binary);
  if (!in) throw BadInput(in_path + ": cannot open");
  std::ofstream o(out, std::ios::binary | std::ios::trunc);
  if (!o) throw std::runtime_error(out.string() + ": cannot create");
  Fr32Padder padder;
  std::vector<char> buf(1 << 20);
  const auto sink = [&](std::span<const uint8_t> c) {
    o.write(reinterpret_cast<const char*>(c.data()), static_cast<std::streamsize>(c.size()));
  };
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    padder.write(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(buf.data()),
                                          static_cast<size_t>(in.gcount())),
                 sink);
  }
  padder.finish(sink);
  o.close();
  if (!o) throw std::runtime_error(out.string() + ": write failed");
  if (padder.bytes_out() > sector_size) {
    throw BadInput(in_path + ": " + std::to_string(padder.bytes_in()) +
                   " unpadded bytes do not fit a " + std::to_string(sector_size) +
                   "-byte sector (at most " + std::to_string(fr32_unpadded_bytes(sector_size)) +
                   ")");
  }
}

int run_seal(const FilecoinOptions& o) {
  const RegisteredSealProof proof = resolve_proof(o);
  const PorepConfig cfg = porep_config(proof);
  const std::optional<Domain> prover = resolve_prover(o);
  if (!prover) throw BadInput("seal needs --prover-id or --actor-id");
  if (!o.has_sector_id) throw BadInput("seal needs --sector-id");
  if (o.data.empty() == !o.zero) throw BadInput("give exactly one of --data FILE and --zero");
  const Ticket ticket = hex32(o.ticket, "--ticket");
  const Ticket seed = hex32(o.seed, "--seed");

  std::filesystem::path cache = o.cache_dir, sealed = o.sealed_path, c1_path = o.c1_path;
  if (!o.out_dir.empty()) {
    const std::optional<uint64_t> actor = actor_of(*prover);
    const std::string name = "s-" +
                             (actor ? "t0" + std::to_string(*actor)
                                    : to_hex(std::span<const uint8_t>(prover->data(), 4))) +
                             "-" + std::to_string(o.sector_id);
    const std::filesystem::path out = o.out_dir;
    if (cache.empty()) cache = out / "cache" / name;
    if (sealed.empty()) sealed = out / "sealed" / name;
    if (c1_path.empty()) c1_path = out / (name + "-c1.json");
  }
  if (cache.empty() || sealed.empty() || c1_path.empty()) {
    throw BadInput("give --out DIR, or all of --cache-dir, --sealed and --c1");
  }
  std::filesystem::create_directories(cache);
  if (sealed.has_parent_path()) std::filesystem::create_directories(sealed.parent_path());
  if (c1_path.has_parent_path()) std::filesystem::create_directories(c1_path.parent_path());

  ThreadPool pool(o.threads);
  PhasedProgress progress("nodes", o.quiet);
  SealOptions so;
  so.pool = &pool;
  so.labeling_threads = pool.size() >= 2 ? 2 : 1;
  so.parent_cache_dir = o.parent_cache_dir;
  so.verify_parent_cache = o.verify_parent_cache;
  so.progress = [&](std::string_view s, uint64_t d, uint64_t t) { progress(s, d, t); };

  std::optional<std::filesystem::path> staged;
  std::filesystem::path padded_tmp;
  if (!o.data.empty()) {
    if (!std::filesystem::is_regular_file(o.data)) throw BadInput(o.data + ": not a file");
    if (o.unpadded) {
      padded_tmp = cache / ("staged-padded.tmp." + std::to_string(::getpid()));
      pad_file(o.data, padded_tmp, cfg.sector_size);
      staged = padded_tmp;
    } else {
      staged = o.data;
    }
  }

  std::printf("sealing %s sector %llu (%s)\n", std::string(seal_proof_info(proof).name).c_str(),
              static_cast<unsigned long long>(o.sector_id),
              staged ? o.data.c_str() : "zero sector");
  const auto t0 = Clock::now();
  PreCommit1Output pc1;
  try {
    pc1 = seal_pre_commit_phase1(cfg, cache, staged, sealed, *prover, o.sector_id, ticket, so);
  } catch (...) {
    if (!padded_tmp.empty()) std::filesystem::remove(padded_tmp);
    throw;
  }
  if (!padded_tmp.empty()) std::filesystem::remove(padded_tmp);
  const double t_pc1 = seconds_since(t0);
  const auto t1 = Clock::now();
  const PreCommit2Output pc2 = seal_pre_commit_phase2(cfg, pc1, cache, sealed, so);
  const double t_pc2 = seconds_since(t1);
  const auto t2 = Clock::now();
  progress("commit phase 1", 0, 1);
  const SealCommitPhase1Output c1 = seal_commit_phase1(
      cfg, {cache, sealed, *prover, o.sector_id, ticket, seed, pc2.comm_d, pc2.comm_r}, &pool);
  write_c1_file(c1_path, c1, o.sector_id);
  progress("commit phase 1", 1, 1);
  const double t_c1 = seconds_since(t2);

  std::printf("replica_id  %s\n", to_hex(pc1.replica_id).c_str());
  std::printf("comm_c      %s\n", to_hex(pc2.p_aux.comm_c).c_str());
  std::printf("comm_r_last %s\n", to_hex(pc2.p_aux.comm_r_last).c_str());
  print_commitments(pc2.comm_d, pc2.comm_r);
  std::printf("cache       %s\nsealed      %s\nc1          %s\nparents     %s\n",
              cache.string().c_str(), sealed.string().c_str(), c1_path.string().c_str(),
              pc1.parent_cache.string().c_str());
  std::printf("time (s): pc1 %.2f | pc2 %.2f | c1 %.2f\n", t_pc1, t_pc2, t_c1);
  return 0;
}

StackedGraph graph_of(RegisteredSealProof p) {
  return porep_config(p).graph();
}

std::filesystem::path parent_cache_path(const FilecoinOptions& o, const StackedGraph& g) {
  if (!o.parent_cache_file.empty()) return o.parent_cache_file;
  const std::filesystem::path dir = o.parent_cache_dir.empty()
                                        ? default_parent_cache_dir()
                                        : std::filesystem::path(o.parent_cache_dir);
  return dir / parent_cache_file_name(g);
}

void print_manifest_status(const StackedGraph& g, const std::string& digest) {
  const ParentCacheManifestEntry* e = find_parent_cache_manifest_entry(parent_cache_file_stem(g));
  if (e == nullptr) {
    std::printf("manifest    no entry for this graph (not a published parent cache)\n");
  } else {
    std::printf("manifest    %s (%s)\n", std::string(e->digest).c_str(),
                e->digest == digest ? "match" : "MISMATCH");
  }
}

int run_parent_cache_generate(const FilecoinOptions& o) {
  const RegisteredSealProof proof = resolve_proof(o);
  const StackedGraph g = graph_of(proof);
  const std::filesystem::path path = parent_cache_path(o, g);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  ThreadPool pool(o.threads);
  PhasedProgress progress("bytes", o.quiet);
  const auto t0 = Clock::now();
  std::filesystem::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  Sha256Digest digest;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp.string() + ": cannot create");
    const uint64_t total = g.nodes() * kParentCacheNodeBytes;
    uint64_t written = 0;
    digest = generate_parent_cache(
        g,
        [&](std::span<const uint8_t> c) {
          out.write(reinterpret_cast<const char*>(c.data()),
                    static_cast<std::streamsize>(c.size()));
          if (!out) throw std::runtime_error(tmp.string() + ": write failed");
          written += c.size();
          progress("parent cache", written, total);
        },
        &pool);
    out.close();
    if (!out) throw std::runtime_error(tmp.string() + ": close failed");
  }
  std::filesystem::rename(tmp, path);
  const std::string hex = to_hex(digest);
  std::printf("file        %s\ndigest      %s\n", path.string().c_str(), hex.c_str());
  print_manifest_status(g, hex);
  std::printf("time (s): %.2f\n", seconds_since(t0));
  const ParentCacheManifestEntry* e = find_parent_cache_manifest_entry(parent_cache_file_stem(g));
  return e != nullptr && e->digest != hex ? 1 : 0;
}

int run_parent_cache_verify(const FilecoinOptions& o) {
  const RegisteredSealProof proof = resolve_proof(o);
  const StackedGraph g = graph_of(proof);
  const std::filesystem::path path = parent_cache_path(o, g);
  if (!std::filesystem::exists(path)) throw BadInput(path.string() + ": no such file");
  const auto t0 = Clock::now();
  const ParentCacheVerification v = verify_parent_cache_file(path, g);
  std::printf("file        %s\ndigest      %s\nsize        %s\n", path.string().c_str(),
              v.digest_hex.c_str(), v.size_ok ? "ok" : "WRONG");
  print_manifest_status(g, v.digest_hex);
  std::printf("time (s): %.2f\n%s\n", seconds_since(t0), v.ok() ? "OK" : "INVALID");
  return v.ok() ? 0 : 1;
}

int run_commd(const FilecoinOptions& o) {
  if (o.sector_size.empty() && o.proof.empty()) throw BadInput("commd needs --sector-size");
  const uint64_t size = o.sector_size.empty() ? seal_proof_info(resolve_proof(o)).sector_size
                                              : parse_sector_size(o.sector_size);
  if (size < 64 || (size & (size - 1)) != 0) {
    throw BadInput("--sector-size " + std::to_string(size) + " is not a power of two >= 64");
  }
  if (o.data.empty() == !o.zero) throw BadInput("give exactly one of --data FILE and --zero");
  Domain comm_d;
  if (o.zero) {
    comm_d = empty_comm_d(size);
  } else {
    std::ifstream in(o.data, std::ios::binary);
    if (!in) throw BadInput(o.data + ": cannot open");
    Sha256TreeBuilder tree;
    Fr32Padder padder;
    uint64_t padded = 0;
    const auto push = [&](std::span<const uint8_t> c) {
      padded += c.size();
      if (padded > size) {
        throw BadInput(o.data + ": more than the " + std::to_string(size) +
                       " padded bytes of the sector");
      }
      tree.push_leaves(c);
    };
    std::vector<char> buf(1 << 20);
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      const std::span<const uint8_t> chunk(reinterpret_cast<const uint8_t*>(buf.data()),
                                           static_cast<size_t>(in.gcount()));
      if (o.unpadded) {
        padder.write(chunk, push);
      } else {
        if (chunk.size() % 32 != 0) {
          throw BadInput(o.data +
                         ": a staged sector is whole 32-byte nodes (use --unpadded for "
                         "raw data)");
        }
        push(chunk);
      }
    }
    if (o.unpadded) padder.finish(push);
    tree.pad_with_zeros_to(size / 32);
    comm_d = tree.finish();
  }
  std::printf("comm_d %s  %s\n", to_hex(comm_d).c_str(),
              commitment_to_cid(comm_d, CommitmentKind::kUnsealed).c_str());
  return 0;
}

int run_c1_synthetic(const FilecoinOptions& o) {
  const RegisteredSealProof proof = resolve_proof(o);
  if (o.c1_path.empty()) throw BadInput("c1 synthetic needs --out FILE");
  ThreadPool pool(o.threads);
  SyntheticC1Params p;
  p.seed = o.synthetic_seed;
  if (o.has_actor_id) p.prover_actor_id = o.actor_id;
  if (o.has_sector_id) p.sector_id = o.sector_id;
  const auto t0 = Clock::now();
  const SyntheticC1 s = make_synthetic_c1(porep_config(proof), p, &pool);
  const double t_gen = seconds_since(t0);
  const auto t1 = Clock::now();
  write_c1_file(o.c1_path, s.c1, s.sector_id);
  const double t_write = seconds_since(t1);
  const auto t2 = Clock::now();
  PorepVerifyOptions vo;
  vo.prover_id = s.prover_id;
  vo.sector_id = s.sector_id;
  vo.pool = &pool;
  verify_seal_commit_phase1(s.c1, vo);
  const double t_verify = seconds_since(t2);
  size_t challenges = 0;
  for (const auto& part : s.c1.vanilla_proofs)
    challenges += part.size();
  std::printf("synthetic %s C1: %zu partitions, %zu challenges, prover t0%llu, sector %llu\n",
              std::string(seal_proof_info(proof).name).c_str(), s.c1.vanilla_proofs.size(),
              challenges, static_cast<unsigned long long>(p.prover_actor_id),
              static_cast<unsigned long long>(s.sector_id));
  std::printf("replica_id  %s\n", to_hex(s.c1.replica_id).c_str());
  print_commitments(s.c1.comm_d, s.c1.comm_r);
  std::printf("c1          %s (%llu bytes)\n", o.c1_path.c_str(),
              static_cast<unsigned long long>(std::filesystem::file_size(o.c1_path)));
  std::printf("time (s): generate %.2f | write %.2f | verify %.2f\n", t_gen, t_write, t_verify);
  return 0;
}

int run_c1_verify(const FilecoinOptions& o) {
  if (o.c1_path.empty()) throw BadInput("c1 verify needs --c1 FILE");
  const auto t0 = Clock::now();
  C1Document doc;
  try {
    doc = read_c1_file(o.c1_path);
  } catch (const C1JsonError& e) {
    throw BadInput(e.what());
  }
  const double t_parse = seconds_since(t0);
  ThreadPool pool(o.threads);
  PorepVerifyOptions vo;
  vo.prover_id = resolve_prover(o);
  if (o.has_sector_id) {
    vo.sector_id = o.sector_id;
  } else {
    vo.sector_id = doc.sector_num;
  }
  vo.pool = &pool;
  const SealCommitPhase1Output& c1 = doc.c1;
  size_t challenges = 0;
  for (const auto& part : c1.vanilla_proofs)
    challenges += part.size();
  std::printf("%s: %s, %zu partitions, %zu challenges\n", o.c1_path.c_str(),
              std::string(seal_proof_info(c1.registered_proof).name).c_str(),
              c1.vanilla_proofs.size(), challenges);
  print_commitments(c1.comm_d, c1.comm_r);
  const auto t1 = Clock::now();
  try {
    verify_seal_commit_phase1(c1, vo);
  } catch (const PorepVerifyError& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  }
  std::printf("OK: every vanilla proof verifies%s\n",
              vo.prover_id && vo.sector_id ? " (replica_id checked against prover and sector)"
                                           : " (replica_id not checked: give --actor-id or "
                                             "--prover-id)");
  std::printf("time (s): parse %.2f | verify %.2f\n", t_parse, seconds_since(t1));
  return 0;
}

void add_proof_options(CLI::App* c, FilecoinOptions& o) {
  c->add_option("--proof", o.proof,
                "registered seal proof: name (StackedDrg32GiBV1_1) or id (0-19)");
  c->add_option("--sector-size", o.sector_size,
                "sector size: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB (the V1_1 proof of that size)");
}

void add_prover_options(CLI::App* c, FilecoinOptions& o) {
  c->add_option("--prover-id", o.prover_id, "prover id: 64 hex digits (stored bytes)");
  c->add_option("--actor-id", o.actor_id, "miner actor id (prover id = its LEB128, as Lotus)")
      ->each([&](const std::string&) { o.has_actor_id = true; });
  c->add_option("--sector-id", o.sector_id, "sector number")->each([&](const std::string&) {
    o.has_sector_id = true;
  });
}

}  // namespace

void add_filecoin_commands(CLI::App& app, FilecoinOptions& o) {
  using A = FilecoinOptions::Action;

  CLI::App* seal =
      app.add_subcommand("seal", "Seal a sector (PC1, PC2, C1): cache dir + sealed file + c1.json");
  add_proof_options(seal, o);
  seal->add_option("--data", o.data, "staged sector file (Fr32-padded; zero-extended)");
  seal->add_flag("--zero", o.zero, "seal a zero (CC) sector");
  seal->add_flag("--unpadded", o.unpadded, "--data holds raw bytes; Fr32-pad them first");
  add_prover_options(seal, o);
  seal->add_option("--ticket", o.ticket, "ticket: 64 hex digits")->required();
  seal->add_option("--seed", o.seed, "interactive seed (C1 randomness): 64 hex digits")->required();
  seal->add_option("--out", o.out_dir,
                   "output root: cache/s-t0<actor>-<n>/, sealed/s-t0<actor>-<n>, "
                   "s-t0<actor>-<n>-c1.json");
  seal->add_option("--cache-dir", o.cache_dir, "cache directory (instead of --out)");
  seal->add_option("--sealed", o.sealed_path, "sealed replica file (instead of --out)");
  seal->add_option("--c1", o.c1_path, "c1.json output (instead of --out)");
  seal->add_option("--parent-cache-dir", o.parent_cache_dir,
                   "parent cache directory (default $FIL_PROOFS_PARENT_CACHE or "
                   "/var/tmp/filecoin-parents)");
  seal->add_flag("--verify-parent-cache", o.verify_parent_cache,
                 "check an existing parent cache against the manifest first");
  seal->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  seal->add_flag("--quiet", o.quiet, "no progress lines");
  seal->callback([&] { o.action = A::kSeal; });

  CLI::App* pc = app.add_subcommand("parent-cache", "The SDR parent cache of a proof type");
  pc->require_subcommand(1);
  CLI::App* gen = pc->add_subcommand("generate", "Generate the cache file and print its digest");
  CLI::App* ver = pc->add_subcommand(
      "verify", "Check an existing cache file's size and digest (exit 0 only if valid)");
  for (CLI::App* c : {gen, ver}) {
    add_proof_options(c, o);
    c->add_option(
        "--dir", o.parent_cache_dir,
        "cache directory (default $FIL_PROOFS_PARENT_CACHE or /var/tmp/filecoin-parents)");
    c->add_option("--file", o.parent_cache_file, "the cache file itself (overrides --dir)");
    c->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  }
  gen->add_flag("--quiet", o.quiet, "no progress lines");
  gen->callback([&] { o.action = A::kParentCacheGenerate; });
  ver->callback([&] { o.action = A::kParentCacheVerify; });

  CLI::App* commd = app.add_subcommand("commd", "comm_d of a staged sector file or a zero sector");
  commd->add_option("--sector-size", o.sector_size, "sector size (2KiB ... 64GiB or bytes)");
  commd->add_option("--proof", o.proof, "registered seal proof (instead of --sector-size)");
  commd->add_option("--data", o.data, "staged sector file (Fr32-padded; zero-extended)");
  commd->add_flag("--unpadded", o.unpadded, "--data holds raw bytes; Fr32-pad them");
  commd->add_flag("--zero", o.zero, "a zero (CC) sector");
  commd->callback([&] { o.action = A::kCommD; });

  CLI::App* c1 = app.add_subcommand("c1", "Commit phase 1 outputs (c1.json)");
  c1->require_subcommand(1);
  CLI::App* syn = c1->add_subcommand(
      "synthetic", "A C1 of the real shape that verifies, without sealing (interactive proofs)");
  add_proof_options(syn, o);
  syn->add_option("--seed", o.synthetic_seed, "64-bit seed everything derives from");
  syn->add_option("--actor-id", o.actor_id, "miner actor id (default 1000)")
      ->each([&](const std::string&) { o.has_actor_id = true; });
  syn->add_option("--sector-id", o.sector_id, "sector number (default 1)")
      ->each([&](const std::string&) { o.has_sector_id = true; });
  syn->add_option("--out", o.c1_path, "c1.json output (cuzk wrapper)")->required();
  syn->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  syn->callback([&] { o.action = A::kC1Synthetic; });

  CLI::App* cv = c1->add_subcommand(
      "verify", "Verify every vanilla proof of a c1.json natively (exit 0 only if valid)");
  cv->add_option("--c1", o.c1_path, "c1.json (cuzk wrapper or bare SealCommitPhase1Output)")
      ->required()
      ->check(CLI::ExistingFile);
  add_prover_options(cv, o);
  cv->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  cv->callback([&] { o.action = A::kC1Verify; });
}

// One case per subcommand. filecoin, porep, post and update dispatch alike on purpose: a switch
// over the file's own Action enum, so that -Wswitch (an error under -Werror) names a subcommand
// added without a case, which a shared table would not; what they share (the exit codes of what
// is thrown) is exit_code_of, once.
int run_filecoin(const FilecoinOptions& o) {
  using A = FilecoinOptions::Action;
  return exit_code_of([&] {
    switch (o.action) {
      case A::kSeal:
        return run_seal(o);
      case A::kParentCacheGenerate:
        return run_parent_cache_generate(o);
      case A::kParentCacheVerify:
        return run_parent_cache_verify(o);
      case A::kCommD:
        return run_commd(o);
      case A::kC1Synthetic:
        return run_c1_synthetic(o);
      case A::kC1Verify:
        return run_c1_verify(o);
      case A::kNone:
        break;
    }
    return 2;
  });
}

}  // namespace cuzk::app
