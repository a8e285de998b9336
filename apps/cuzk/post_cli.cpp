// The command line of `cuzk post`: its subcommands and options (run in post_cmd.cpp).
#include <CLI/CLI.hpp>

#include "parameter_flags.hpp"
#include "post_cmd.hpp"

namespace cuzk::app {

void add_post_commands(CLI::App& app, PostOptions& o) {
  CLI::App* g = app.add_subcommand(
      "post", "WinningPoSt / WindowPoSt: circuit info, test parameters, vanilla proofs, prove");
  g->require_subcommand(1);
  const auto add_kind = [&](CLI::App* c) {
    c->add_option("--proof", o.proof, "winning or window");
    c->add_option("--sector-size", o.sector_size, "2KiB, 8MiB, 512MiB, 32GiB, 64GiB");
    c->add_option("--proof-type", o.proof_type,
                  "registered PoSt proof name or id (0-14) instead of --sector-size");
  };
  using A = PostOptions::Action;

  CLI::App* info = g->add_subcommand("info", "Count one partition circuit (metric CS, no storage)");
  add_kind(info);
  info->add_flag("--density", o.density, "also the A/B density bitmaps");
  info->add_option("--params", o.params_dir, kParamsDirHelp);
  info->callback([&] { o.action = A::kInfo; });

  CLI::App* params = g->add_subcommand(
      "params", "INSECURE test parameters (.params/.vk/.meta under Filecoin's names)");
  add_kind(params);
  params->add_option("--out", o.out, "directory to write into (required)");
  params->add_option("--seed", o.setup_seed, "seed of the toxic waste");
  params->add_flag("--force", o.force, "replace existing files");
  params->add_flag("--large", o.large,
                   "allow circuits above 2^24 rows (32/64 GiB WindowPoSt) on the cpu");
  params->add_option("--backend", o.backend, "cpu (default) or gpu (from the recording)");
  params->add_option("--pce-dir", o.pce_dir,
                     "--backend gpu: load (or record and save) the circuit's recording here");
  params->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  params->callback([&] { o.action = A::kParams; });

  CLI::App* vanilla =
      g->add_subcommand("vanilla", "Vanilla proofs of sealed (or synthetic) sectors");
  add_kind(vanilla);
  vanilla->add_option("--randomness", o.randomness, "PoSt randomness, 64 hex digits");
  vanilla->add_option("--actor-id", o.actor_id, "miner actor id (default 1000)");
  vanilla->add_option("--seal-dir", o.seal_dir, "`cuzk seal --out` directory of the sectors");
  vanilla->add_option("--sector-id", o.sector_ids, "a sealed sector's number (repeat)");
  vanilla->add_option("--synthetic", o.synthetic, "N synthetic sectors instead (any size)");
  vanilla->add_option("--first-sector", o.first_sector, "first synthetic sector number");
  vanilla->add_option("--synthetic-seed", o.synthetic_seed, "seed of the synthetic sectors");
  vanilla->add_option("--partition", o.partition, "WindowPoSt partition index (default 0)");
  vanilla->add_option("--out", o.out, "vanilla proofs (JSON array of base64)");
  vanilla->add_option("--public", o.public_path, "verify info (WindowPoStVerifyInfo JSON)");
  vanilla->callback([&] { o.action = A::kVanilla; });

  const auto add_inputs = [&](CLI::App* c) {
    c->add_option("--proof", o.proof, "winning or window (checked against --public)");
    c->add_option("--vanilla", o.vanilla_path, "vanilla proofs: JSON array of base64, or a .vproof")
        ->check(CLI::ExistingFile);
    c->add_option("--public", o.public_path, "verify info (WindowPoStVerifyInfo JSON)")
        ->check(CLI::ExistingFile);
    c->add_option("--partition", o.partition, "WindowPoSt partition index (default 0)");
  };
  CLI::App* satisfy = g->add_subcommand(
      "satisfy", "Check the circuit of vanilla proofs (exit 1 naming the first bad constraint)");
  add_inputs(satisfy);
  satisfy->callback([&] { o.action = A::kSatisfy; });

  CLI::App* prove = g->add_subcommand("prove", "Prove one partition (192 bytes, self-verified)");
  add_inputs(prove);
  prove->add_option("--params", o.params_dir, kParamsDirHelp);
  prove->add_option("--out", o.out, "output: the partition proof")->required();
  prove->add_option("--backend", o.backend, "cpu, gpu[:N] or auto");
  add_allow_insecure_flag(prove, o.allow_insecure, false);
  add_trusted_params_flag(prove, o.trusted_params);
  prove->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  prove->callback([&] { o.action = A::kProve; });

  CLI::App* verify = g->add_subcommand("verify", "Verify a partition proof (exit 0 only if valid)");
  verify->add_option("--proof", o.proof, "winning or window (checked against --public)");
  verify->add_option("--public", o.public_path, "verify info (WindowPoStVerifyInfo JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  verify->add_option("--proof-file", o.proof_path, "proof bytes (default: its ProofBytes)")
      ->check(CLI::ExistingFile);
  verify->add_option("--partition", o.partition, "WindowPoSt partition index (default 0)");
  verify->add_option("--params", o.params_dir, kParamsDirHelp);
  add_allow_insecure_flag(verify, o.allow_insecure, true);
  verify->callback([&] { o.action = A::kVerify; });
}

}  // namespace cuzk::app
