#include "gpu/setup/setup.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <vector>

#include "ec/fixed_base.hpp"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/setup/setup_device.hpp"
#include "gpu/spmv/spmv.hpp"
#include "groth16/bellperson_format.hpp"

namespace cuzk::gpu {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Points per chunk: 4 Mi (384 MB of G1 or 768 MB of G2 bytes per buffer, two of each).
constexpr size_t kChunkPoints = size_t{1} << 22;

// Device memory the generator holds, for the timing report.
class Peak {
 public:
  void add(uint64_t b) { peak_ = std::max(peak_, now_ += b); }
  void sub(uint64_t b) { now_ -= b; }
  uint64_t peak() const { return peak_; }

 private:
  uint64_t now_ = 0, peak_ = 0;
};

// Fixed-base products of device scalars, encoded on the device and written to the sink in
// order; the write of chunk i runs while chunk i + 1 is computed.
class PointWriter {
 public:
  PointWriter(ParamsSink& sink, cudaStream_t s, size_t max_points, Peak& peak)
      : sink_(sink), s_(s) {
    const size_t points = std::max<size_t>(1, std::min(max_points, kChunkPoints));
    for (int b = 0; b < 2; ++b) {
      device_[b].allocate(points * kG2UncompressedBytes);
      host_[b] = PinnedBuffer<uint8_t>(points * kG2UncompressedBytes);
      peak.add(device_[b].bytes());
    }
    chunk_points_ = points;
  }
  ~PointWriter() {
    if (pending_.valid()) pending_.wait();
  }

  template <class Curve>
  void write(const char* phase, const Affine<Curve>* d_table, const Fr* d_scalars, size_t n,
             const SetupProgress& progress) {
    wait_pending();
    if (n > UINT32_MAX) throw std::length_error("parameter vector longer than 2^32 - 1");
    const uint8_t len[4] = {static_cast<uint8_t>(n >> 24), static_cast<uint8_t>(n >> 16),
                            static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(n)};
    sink_.write(len);
    constexpr size_t record =
        std::is_same_v<Curve, G1Curve> ? kG1UncompressedBytes : kG2UncompressedBytes;
    for (size_t done = 0, i = 0; done < n; done += chunk_points_, ++i) {
      const size_t count = std::min(chunk_points_, n - done);
      const int b = static_cast<int>(i % 2);
      if constexpr (std::is_same_v<Curve, G1Curve>) {
        setup_detail::fixed_base_encode_g1(d_table, d_scalars + done, count, device_[b].get(), s_);
      } else {
        setup_detail::fixed_base_encode_g2(d_table, d_scalars + done, count, device_[b].get(), s_);
      }
      CUZK_CUDA_CHECK(cudaMemcpyAsync(host_[b].get(), device_[b].get(), count * record,
                                      cudaMemcpyDeviceToHost, s_));
      CUZK_CUDA_CHECK(cudaStreamSynchronize(s_));
      wait_pending();  // chunk i - 1 is on its way out in the other buffer
      const std::span<const uint8_t> bytes(host_[b].get(), count * record);
      pending_ = std::async(std::launch::async, [this, bytes] { sink_.write(bytes); });
      if (progress) progress(phase, done + count, n);
    }
    wait_pending();
  }

 private:
  void wait_pending() {
    if (pending_.valid()) pending_.get();  // rethrows a failed write
  }

  ParamsSink& sink_;
  cudaStream_t s_;
  size_t chunk_points_ = 0;
  DeviceBuffer<uint8_t> device_[2];
  PinnedBuffer<uint8_t> host_[2];
  std::future<void> pending_;
};

}  // namespace

groth16::VerifyingKey generate_parameters_on_device(const pce::RecordedCircuit& rc,
                                                    const groth16::ToxicWaste& tw, ParamsSink& sink,
                                                    ThreadPool& pool, const SetupProgress& progress,
                                                    DeviceSetupTiming* timing) {
  const auto t_start = Clock::now();
  DeviceSetupTiming local;
  DeviceSetupTiming& t = timing != nullptr ? *timing : local;
  Peak peak;
  const groth16::SetupScalars sc = groth16::setup_scalars(rc.num_rows, tw);
  const size_t m = size_t{1} << sc.log_m;
  const size_t vars = rc.num_columns(), inputs = rc.num_inputs, aux = rc.num_aux;
  Stream stream;
  const cudaStream_t s = stream.get();

  // u, v, w of every variable (the matrices and the Lagrange basis are freed afterwards).
  DeviceBuffer<Fr> uvw[3];
  {
    auto t0 = Clock::now();
    DeviceCircuit dc;
    dc.upload(rc, s);
    peak.add(dc.bytes());
    t.upload_s = since(t0);
    t0 = Clock::now();
    DeviceBuffer<Fr> lagrange(m);
    peak.add(lagrange.bytes());
    setup_detail::lagrange(lagrange.get(), m, tw.tau, sc.omega, sc.lagrange_scale, s);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
    t.lagrange_s = since(t0);
    t0 = Clock::now();
    setup_detail::TransposeScratch scratch;
    for (int k = 0; k < 3; ++k) {
      uvw[k].allocate(vars);
      peak.add(uvw[k].bytes());
      const size_t nnz = (k == 0 ? rc.a : k == 1 ? rc.b : rc.c).nnz();
      setup_detail::transposed_product(dc.row_ptr[k].get(), dc.cols[k].get(), dc.coeffs[k].get(),
                                       rc.num_rows, nnz, dc.coefficients.get(), lagrange.get(),
                                       vars, uvw[k].get(), scratch, s);
      if (k == 0) {
        peak.add(scratch.offsets.bytes() + scratch.cursor.bytes() + scratch.rows.bytes() +
                 scratch.coeffs.bytes() + scratch.heavy.bytes());
      }
    }
    t.qap_s = since(t0);
    peak.sub(dc.bytes() + lagrange.bytes());
  }

  // The verifying key: IC from the inputs' scalars (a few hundred points, on the host).
  auto t0 = Clock::now();
  DeviceBuffer<Fr> ic(std::max<size_t>(1, inputs)), l(std::max<size_t>(1, aux));
  peak.add(ic.bytes() + l.bytes());
  setup_detail::combine(uvw[0].get(), uvw[1].get(), uvw[2].get(), vars, inputs, tw.alpha, tw.beta,
                        sc.gamma_inv, sc.delta_inv, ic.get(), l.get(), s);
  std::vector<Fr> ic_s(inputs);
  ic.download(ic_s, s);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  const FixedBaseTable<G1Curve> g1(G1Jacobian::generator());
  const FixedBaseTable<G2Curve> g2(G2Jacobian::generator());
  groth16::VerifyingKey vk;
  vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
  vk.beta_g1 = g1.mul(tw.beta).to_affine();
  vk.beta_g2 = g2.mul(tw.beta).to_affine();
  vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
  vk.delta_g1 = g1.mul(tw.delta).to_affine();
  vk.delta_g2 = g2.mul(tw.delta).to_affine();
  vk.ic.resize(inputs);
  g1.mul_batch(ic_s, vk.ic, pool);
  sink.write(groth16::serialize_verifying_key(vk));
  t.vk_s = since(t0);

  DeviceBuffer<G1Affine> d_g1(g1.points().size());
  DeviceBuffer<G2Affine> d_g2(g2.points().size());
  d_g1.upload(g1.points(), s);
  d_g2.upload(g2.points(), s);
  PointWriter out(sink, s, std::max(m, vars), peak);

  // h: tau^i Z(tau) / delta, i < m - 1.
  t0 = Clock::now();
  {
    DeviceBuffer<Fr> h(m - 1);
    peak.add(h.bytes());
    setup_detail::scaled_powers(h.get(), m - 1, tw.tau, sc.z_tau * sc.delta_inv, s);
    out.write<G1Curve>("h", d_g1.get(), h.get(), m - 1, progress);
    peak.sub(h.bytes());
  }
  t.h_s = since(t0);
  t0 = Clock::now();
  out.write<G1Curve>("l", d_g1.get(), l.get(), aux, progress);
  t.l_s = since(t0);
  peak.sub(l.bytes());
  l.release();
  // a, b: the non-zero u and v (bellperson drops the identity points of the queries).
  DeviceBuffer<uint8_t> cub_temp;
  DeviceBuffer<uint32_t> count;
  DeviceBuffer<Fr> query(vars);
  peak.add(query.bytes());
  t0 = Clock::now();
  const size_t a_count =
      setup_detail::select_nonzero(uvw[0].get(), vars, query.get(), cub_temp, count, s);
  out.write<G1Curve>("a", d_g1.get(), query.get(), a_count, progress);
  t.a_s = since(t0);
  t0 = Clock::now();
  const size_t b_count =
      setup_detail::select_nonzero(uvw[1].get(), vars, query.get(), cub_temp, count, s);
  out.write<G1Curve>("b_g1", d_g1.get(), query.get(), b_count, progress);
  t.b_g1_s = since(t0);
  t0 = Clock::now();
  out.write<G2Curve>("b_g2", d_g2.get(), query.get(), b_count, progress);
  t.b_g2_s = since(t0);
  t.device_peak_bytes = peak.peak();
  t.total_s = since(t_start);
  return vk;
}

}  // namespace cuzk::gpu
