// The command line of `cuzk update`: its subcommands and options (run in update_cmd.cpp). Each
// subcommand lists its options in --help order; the lists look alike line by line (here and in
// filecoin_cmd.cpp) but bind different fields with different help.
#include <CLI/CLI.hpp>

#include "parameter_flags.hpp"
#include "update_cmd.hpp"

namespace cuzk::app {

void add_update_commands(CLI::App& app, UpdateOptions& o) {
  using A = UpdateOptions::Action;
  CLI::App* g = app.add_subcommand(
      "update", "SnapDeals (EmptySectorUpdate): encode, vanilla proofs, parameters, prove, verify");
  g->require_subcommand(1);
  const auto sector_files = [&](CLI::App* c) {
    c->add_option("--sector-key", o.sector_key, "the sealed replica (`cuzk seal`'s sealed file)")
        ->required();
    c->add_option("--sector-key-cache", o.sector_key_cache, "its cache directory")->required();
    c->add_option("--replica", o.replica, "the updated replica")->required();
    c->add_option("--replica-cache", o.replica_cache, "its cache directory")->required();
    c->add_option("--sector-size", o.sector_size, "check the sector size (default: the file's)");
    c->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  };

  CLI::App* info = g->add_subcommand(
      "info", "Count one partition circuit with the metric CS (partitions, constraints, inputs)");
  info->add_option("--sector-size", o.sector_size,
                   "1KiB ... 32KiB, 8MiB, 16MiB, 512MiB, 32GiB, 64GiB")
      ->required();
  info->add_flag("--poseidon", o.poseidon, "the EmptySectorUpdate-Poseidon variant");
  info->add_flag("--density", o.density, "also the A/B density bitmaps");
  info->add_option("--params", o.params_dir, kParamsDirHelp);
  info->callback([&] { o.action = A::kInfo; });

  CLI::App* params = g->add_subcommand(
      "params", "INSECURE test parameters (.params/.vk/.meta under Filecoin's names)");
  params->add_option("--sector-size", o.sector_size, "2KiB, 8MiB (512MiB ... with --allow-large)")
      ->required();
  params->add_flag("--poseidon", o.poseidon, "the EmptySectorUpdate-Poseidon variant");
  params->add_option("--out", o.out,
                     "output directory (required: never the real parameter cache by default)");
  params->add_option("--seed", o.setup_seed, "seed of the toxic waste (recorded in the .meta)");
  params->add_flag("--force", o.force, "replace files that exist");
  params->add_flag("--allow-large", o.allow_large,
                   "allow 512 MiB and larger on the cpu (tens of GiB of memory)");
  params->add_option("--backend", o.backend, "cpu (default) or gpu (from the recording)");
  params->add_option("--pce-dir", o.pce_dir,
                     "--backend gpu: load (or record and save) the circuit's recording here");
  params->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  params->callback([&] { o.action = A::kParams; });

  CLI::App* enc = g->add_subcommand(
      "encode", "Encode new data into a sealed sector: the new replica and its cache directory");
  sector_files(enc);
  enc->add_option("--data", o.data, "the new data: a staged sector (Fr32-padded; zero-extended)")
      ->required();
  enc->add_flag("--unpadded", o.unpadded, "--data holds raw bytes; Fr32-pad them first");
  enc->add_flag("--force", o.force, "replace an existing replica and its cache files");
  enc->callback([&] { o.action = A::kEncode; });

  CLI::App* pv = g->add_subcommand(
      "prove-vanilla", "The vanilla partition proofs of an update -> an update vanilla file");
  sector_files(pv);
  pv->add_option("--out", o.out, "the update vanilla file (JSON)")->required();
  pv->add_flag("--force", o.force, "replace existing output files");
  pv->add_option("--vanilla-proofs-out", o.vanilla_proofs_out,
                 "also the partition proofs alone as Curio stores them (JSON array of base64)");
  pv->callback([&] { o.action = A::kProveVanilla; });

  CLI::App* syn = g->add_subcommand(
      "synthetic", "A verifying update vanilla file of a registered size, without a sector");
  syn->add_option("--sector-size", o.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
  syn->add_option("--seed", o.synthetic_seed, "64-bit seed everything derives from");
  syn->add_option("--out", o.out, "the update vanilla file (JSON)")->required();
  syn->add_flag("--force", o.force, "replace existing output files");
  syn->add_option("--vanilla-proofs-out", o.vanilla_proofs_out,
                  "also the partition proofs alone as Curio stores them (JSON array of base64)");
  syn->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  syn->callback([&] { o.action = A::kSynthetic; });

  CLI::App* vv = g->add_subcommand(
      "verify-vanilla",
      "Verify the vanilla proofs of an update vanilla file (exit 0 only if valid)");
  vv->add_option("--vanilla", o.vanilla, "update vanilla file")
      ->required()
      ->check(CLI::ExistingFile);
  vv->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  vv->callback([&] { o.action = A::kVerifyVanilla; });

  // The proving options of porep c2 (porep_cmd.cpp) and post prove (post_cli.cpp), in the same
  // wording (parameter_flags.hpp), but each list puts its own among them (--force here,
  // --verify-digests in c2) in the order --help shows, so they are not one call.
  CLI::App* prove = g->add_subcommand(
      "prove", "Prove every partition of an update vanilla file (ProveReplicaUpdate2)");
  prove->add_option("--vanilla", o.vanilla, "update vanilla file")
      ->required()
      ->check(CLI::ExistingFile);
  prove->add_option("--params", o.params_dir, kParamsDirHelp);
  prove->add_option("--out", o.out, "output: the partition proofs concatenated")->required();
  prove->add_flag("--force", o.force, "replace an existing proof file");
  prove->add_option("--backend", o.backend, "cpu, gpu[:N] or auto");
  add_allow_insecure_flag(prove, o.allow_insecure, false);
  add_trusted_params_flag(prove, o.trusted_params);
  prove->add_option("--threads", o.threads, "worker threads (0 = all cores)");
  prove->callback([&] { o.action = A::kProve; });

  CLI::App* verify =
      g->add_subcommand("verify", "Verify update proof bytes (exit 0 only if valid)");
  verify->add_option("--vanilla", o.vanilla, "take the commitments from this vanilla file")
      ->check(CLI::ExistingFile);
  verify->add_option("--sector-size", o.sector_size, "without --vanilla: the sector size");
  verify->add_option("--comm-r-old", o.comm_r_old, "64 hex digits (stored bytes)");
  verify->add_option("--comm-r-new", o.comm_r_new, "64 hex digits (stored bytes)");
  verify->add_option("--comm-d-new", o.comm_d_new, "64 hex digits (stored bytes)");
  add_verify_file_options(verify, o.params_dir, o.allow_insecure, o.proof_path);
  verify->callback([&] { o.action = A::kVerify; });
}

}  // namespace cuzk::app
