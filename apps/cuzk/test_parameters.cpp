#include "test_parameters.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>

#include "backend/backend_factory.hpp"
#include "command_clock.hpp"
#include "engine/handlers/circuit_handler.hpp"
#include "engine/resources/pce_loader.hpp"
#include "pce_cmd.hpp"
#include "util/progress.hpp"

#if defined(CUZK_HAVE_CUDA)
#include "gpu/device/device_info.hpp"
#include "gpu/setup/setup.hpp"
#endif

namespace cuzk::app {
namespace {

#if defined(CUZK_HAVE_CUDA)
std::shared_ptr<const pce::RecordedCircuit> recorded_circuit(const DeviceParameterRequest& r,
                                                             ThreadPool& pool) {
  const engine::BlankCircuit blank =
      engine::find_blank_circuit(engine::default_handlers(), r.circuit_id);
  if (r.pce_dir.empty()) {
    return std::make_shared<const pce::RecordedCircuit>(record_blank_circuit(blank));
  }
  auto rc = engine::load_or_record_pce(
      blank, r.pce_dir, pool, [](const std::string& event, const std::string& message) {
        std::fprintf(stderr, "%s: %s\n", event.c_str(), message.c_str());
      });
  if (!rc) throw std::runtime_error(r.circuit_id + ": the circuit could not be recorded");
  return rc;
}

// The device generator's .params bytes into the temporary file of the set.
class WriterSink final : public gpu::ParamsSink {
 public:
  explicit WriterSink(AtomicFileWriter& w) : w_(w) {}
  void write(std::span<const uint8_t> bytes) override { w_.write(bytes); }

 private:
  AtomicFileWriter& w_;
};
#endif

}  // namespace

void write_test_parameters_on_device(const DeviceParameterRequest& r,
                                     const filecoin::ParameterFiles& files, Overwrite mode,
                                     ThreadPool& pool) {
#if defined(CUZK_HAVE_CUDA)
  if (!gpu::device_available()) throw std::invalid_argument("--backend gpu: no CUDA device");
  if (mode == Overwrite::kRefuse) refuse_existing_parameter_files(files);
  auto t0 = Clock::now();
  const std::shared_ptr<const pce::RecordedCircuit> rc = recorded_circuit(r, pool);
  const double t_record = seconds_since(t0);
  std::printf("%s: %llu rows with input rows, %llu inputs, %llu aux\n", r.circuit_id.c_str(),
              static_cast<unsigned long long>(rc->num_rows),
              static_cast<unsigned long long>(rc->num_inputs),
              static_cast<unsigned long long>(rc->num_aux));
  std::fflush(stdout);
  std::unique_ptr<Progress> progress;  // one per phase: h, l, a, b_g1, b_g2
  std::string phase;
  uint64_t reported = 0;
  const gpu::SetupProgress on_progress = [&](const char* p, uint64_t done, uint64_t total) {
    if (phase != p) {
      if (progress) progress->finish();
      phase = p;
      reported = 0;
      progress = std::make_unique<Progress>("params " + phase, total, "points");
    }
    progress->add(done - reported);
    reported = done;
  };
  gpu::DeviceSetupTiming dt;
  t0 = Clock::now();
  filecoin::write_parameter_set(files, r.meta, mode, [&](AtomicFileWriter& w) {
    WriterSink sink(w);
    return gpu::generate_parameters_on_device(
        *rc, groth16::ToxicWaste::insecure_from_seed(r.meta.seed), sink, pool, on_progress, &dt);
  });
  if (progress) progress->finish();
  std::printf(
      "time (s): recording %.2f | device: upload %.2f, lagrange %.2f, qap %.2f, vk %.2f, h %.2f, "
      "l %.2f, a %.2f, b_g1 %.2f, b_g2 %.2f, total %.2f | with the files %.2f | peak memory "
      "%.2f GiB host, %.2f GiB device\n",
      t_record, dt.upload_s, dt.lagrange_s, dt.qap_s, dt.vk_s, dt.h_s, dt.l_s, dt.a_s, dt.b_g1_s,
      dt.b_g2_s, dt.total_s, seconds_since(t0), peak_rss_gib(),
      static_cast<double>(dt.device_peak_bytes) / (1024.0 * 1024.0 * 1024.0));
#else
  (void)r, (void)files, (void)mode, (void)pool;
  throw std::invalid_argument("--backend gpu: this cuzk was built without CUDA");
#endif
}

void refuse_existing_parameter_files(const filecoin::ParameterFiles& files) {
  for (const auto& f : {files.params, files.vk, files.meta}) {
    if (std::filesystem::exists(f)) throw FileExistsError(f);
  }
}

void print_parameter_files(const filecoin::ParameterFiles& files) {
  for (const auto& f : {files.params, files.vk, files.meta}) {
    const uint64_t size = std::filesystem::file_size(f);
    const std::string digest = size <= 4'000'000'000ull ? filecoin::parameter_file_digest(f)
                                                        : "(digest: b2sum FILE | cut -c1-32)";
    std::printf("%s  %s (%llu bytes)\n", digest.c_str(), f.string().c_str(),
                static_cast<unsigned long long>(size));
  }
}

bool test_parameters_on_device(const std::string& backend, const std::string& out) {
  const bool on_device = backend == "gpu";
  if (!on_device && backend != "cpu") {
    throw std::invalid_argument("--backend " + backend + ": params are made on the cpu or the gpu");
  }
  if (out.empty()) {
    throw std::invalid_argument(
        "give --out DIR: params needs --out (test parameters are INSECURE and carry Filecoin's "
        "file names, so they are never written into a parameter cache by default)");
  }
  return on_device;
}

int write_test_parameters(const TestParameterCircuit& circuit, const TestParameterOutput& out) {
  const filecoin::ParameterFiles names = filecoin::parameter_files(out.dir, circuit.set.cache_id);
  if (out.on_device) groth16::require_backend("gpu");  // before anything is recorded
  const Overwrite mode = out.force ? Overwrite::kForce : Overwrite::kRefuse;
  if (mode == Overwrite::kRefuse) refuse_existing_parameter_files(names);
  ThreadPool pool(out.threads);
  std::fprintf(stderr,
               "warning: test parameters from a known seed; INSECURE, never use them in "
               "production (their .meta marks them; loading them needs --allow-insecure-params "
               "or [srs] allow_insecure_params = true)\n");
  if (out.on_device) {
    write_test_parameters_on_device(
        {circuit.circuit_id, out.pce_dir, {circuit.set.sector_size, true, out.seed}}, names, mode,
        pool);
    print_parameter_files(names);
    return 0;
  }
  groth16::SetupTiming st;
  groth16::Parameters params;
  {
    PhasedProgress shown("points");
    params = circuit.generate(pool, &st, std::ref(shown));
  }
  const auto t0 = Clock::now();
  const filecoin::ParameterFiles files =
      filecoin::write_test_parameter_files(out.dir, circuit.set, params, out.seed, mode);
  const double t_write = seconds_since(t0);
  std::printf("%s: %zu constraints with input rows, %zu inputs, %zu aux\n", circuit.label.c_str(),
              st.constraints, st.inputs, st.aux);
  std::printf("time (s): synthesis %.2f | setup %.2f | write %.2f | peak memory %.2f GiB\n",
              st.synthesis_s, st.setup_s, t_write, peak_rss_gib());
  print_parameter_files(files);
  return 0;
}

}  // namespace cuzk::app
