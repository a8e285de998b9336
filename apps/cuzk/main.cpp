// cuzk: the offline toolbox. No daemon needed. It also starts the daemon as the Rust cuzk's
// documentation does (`cuzk`, `cuzk --config F`, `cuzk --listen A`, `cuzk --log-level L`), and
// as `cuzk daemon [options]`: those run cuzk-daemon from the same directory.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include "filecoin_cmd.hpp"
#include "groth16_cmd.hpp"
#include "oracle/bls_vectors.hpp"
#include "pce_cmd.hpp"
#include "porep_cmd.hpp"
#include "post_cmd.hpp"
#include "selfcheck.hpp"
#include "update_cmd.hpp"

namespace {

// Whether this command line is the daemon's: none at all, `daemon ...`, or one that begins with
// an option of cuzk-daemon (the Rust cuzk binary was the daemon).
bool is_daemon_command_line(int argc, char** argv) {
  if (argc < 2) return true;
  const std::string_view first = argv[1];
  if (first == "daemon") return true;
  for (std::string_view option : {"-c", "--config", "-l", "--listen", "--log-level"}) {
    if (first == option ||
        (option.starts_with("--") && first.starts_with(std::string(option) + "=")))
      return true;
  }
  return first == "--print-config";
}

// Replaces this process with cuzk-daemon from this program's directory (the same build).
int exec_daemon(int argc, char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path daemon =
      (ec ? std::filesystem::path(argv[0]).parent_path() : self.parent_path()) / "cuzk-daemon";
  std::vector<char*> args = {const_cast<char*>("cuzk-daemon")};
  const int first = argc >= 2 && std::string_view(argv[1]) == "daemon" ? 2 : 1;
  for (int i = first; i < argc; ++i)
    args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(daemon.c_str(), args.data());
  std::fprintf(stderr, "error: cannot run %s: %s\n", daemon.c_str(), std::strerror(errno));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (is_daemon_command_line(argc, argv)) return exec_daemon(argc, argv);
  // A log or a pipe sees each line when it is written, not when the command ends.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);

  CLI::App app{"cuzk: Groth16 proving engine for Filecoin (offline toolbox)"};
  app.set_version_flag("--version", CUZK_VERSION);
  app.require_subcommand(1);
  app.footer(
      "The daemon: `cuzk daemon [options]` (or `cuzk` alone, or `cuzk --config FILE`, "
      "`--listen`, `--log-level`, as the Rust cuzk daemon is started) runs cuzk-daemon; "
      "`cuzk daemon --help` lists its options.");
  // Listed in the help; the command line never reaches it (exec_daemon above).
  app.add_subcommand("daemon", "Run the proving daemon (cuzk-daemon) with the options that follow");

  cuzk::app::SelfcheckOptions selfcheck;
  selfcheck.vectors_dir = cuzk::oracle::default_vectors_dir();
  bool no_bench = false;
  CLI::App* sc = app.add_subcommand(
      "selfcheck", "Check the BLS12-381 arithmetic against vector files, then time it");
  sc->add_option("--vectors", selfcheck.vectors_dir,
                 "Vector directory (default: $CUZK_VECTORS_DIR or ../shared/vectors/bls12_381)");
  sc->add_flag("--no-bench", no_bench, "Skip the timing table");

  // One options struct per command family, each its own type, each filled by the parse: the
  // pairs of lines below repeat in shape only. The family that ran is the one whose action is
  // not kNone (groth16 last: run_groth16 answers a parse that chose none).
  cuzk::app::Groth16Options groth16;
  cuzk::app::add_groth16_commands(app, groth16);

  cuzk::app::FilecoinOptions filecoin;
  cuzk::app::add_filecoin_commands(app, filecoin);

  cuzk::app::PorepOptions porep;
  cuzk::app::add_porep_commands(app, porep);

  cuzk::app::PceOptions pce;
  cuzk::app::add_pce_commands(app, pce);

  cuzk::app::PostOptions post;
  cuzk::app::add_post_commands(app, post);

  cuzk::app::UpdateOptions update;
  cuzk::app::add_update_commands(app, update);

  CLI11_PARSE(app, argc, argv);
  if (sc->parsed()) {
    selfcheck.bench = !no_bench;
    return cuzk::app::run_selfcheck(selfcheck);
  }
  if (filecoin.action != cuzk::app::FilecoinOptions::Action::kNone) {
    return cuzk::app::run_filecoin(filecoin);
  }
  if (pce.action != cuzk::app::PceOptions::Action::kNone) return cuzk::app::run_pce(pce);
  if (porep.action != cuzk::app::PorepOptions::Action::kNone) {
    return cuzk::app::run_porep(porep);
  }
  if (post.action != cuzk::app::PostOptions::Action::kNone) {
    return cuzk::app::run_post(post);
  }
  if (update.action != cuzk::app::UpdateOptions::Action::kNone) {
    return cuzk::app::run_update(update);
  }
  return cuzk::app::run_groth16(groth16);
}
