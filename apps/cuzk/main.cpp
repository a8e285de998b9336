// cuzk: the offline toolbox. No daemon needed.
#include <CLI/CLI.hpp>

#include "filecoin_cmd.hpp"
#include "groth16_cmd.hpp"
#include "oracle/bls_vectors.hpp"
#include "pce_cmd.hpp"
#include "porep_cmd.hpp"
#include "post_cmd.hpp"
#include "selfcheck.hpp"
#include "update_cmd.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk: Groth16 proving engine for Filecoin (offline toolbox)"};
  app.require_subcommand(1);

  cuzk::app::SelfcheckOptions selfcheck;
  selfcheck.vectors_dir = cuzk::oracle::default_vectors_dir();
  bool no_bench = false;
  CLI::App* sc = app.add_subcommand(
      "selfcheck", "Check the BLS12-381 arithmetic against vector files, then time it");
  sc->add_option("--vectors", selfcheck.vectors_dir,
                 "Vector directory (default: $CUZK_VECTORS_DIR or ../shared/vectors/bls12_381)");
  sc->add_flag("--no-bench", no_bench, "Skip the timing table");

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
