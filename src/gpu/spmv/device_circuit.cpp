// DeviceCircuit::upload and bytes (gpu/spmv/spmv.hpp).
#include "gpu/spmv/spmv.hpp"

#include <algorithm>

namespace cuzk::gpu {

void DeviceCircuit::upload(const pce::RecordedCircuit& rc, cudaStream_t s) {
  *this = DeviceCircuit();
  rows = rc.num_rows;
  inputs = rc.num_inputs;
  aux = rc.num_aux;
  coefficients.allocate(rc.coefficients.size());
  coefficients.upload(rc.coefficients, s);
  const pce::CsrMatrix* m[3] = {&rc.a, &rc.b, &rc.c};
  for (int k = 0; k < 3; ++k) {
    row_ptr[k].allocate(m[k]->row_ptr.size());
    row_ptr[k].upload(m[k]->row_ptr, s);
    cols[k].allocate(std::max<size_t>(1, m[k]->cols.size()));
    cols[k].upload(m[k]->cols, s);
    coeffs[k].allocate(std::max<size_t>(1, m[k]->coeffs.size()));
    coeffs[k].upload(m[k]->coeffs, s);
  }
  const std::pair<DeviceBuffer<uint64_t>*, const DensityTracker*> d[3] = {
      {&a_aux_density, &rc.a_aux_density},
      {&b_input_density, &rc.b_input_density},
      {&b_aux_density, &rc.b_aux_density}};
  for (const auto& [dst, src] : d) {
    dst->allocate(std::max<size_t>(1, src->words().size()));
    dst->upload(src->words(), s);
  }
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  source = rc.storage.get();
}

uint64_t DeviceCircuit::bytes() const {
  uint64_t b = coefficients.bytes() + a_aux_density.bytes() + b_input_density.bytes() +
               b_aux_density.bytes();
  for (int k = 0; k < 3; ++k)
    b += row_ptr[k].bytes() + cols[k].bytes() + coeffs[k].bytes();
  return b;
}

uint64_t DeviceCircuit::bytes_for(const pce::RecordedCircuit& rc) {
  const auto words = [](const DensityTracker& d) {
    return std::max<uint64_t>(1, d.words().size()) * sizeof(uint64_t);
  };
  uint64_t b = rc.coefficients.size() * sizeof(Fr) + words(rc.a_aux_density) +
               words(rc.b_input_density) + words(rc.b_aux_density);
  for (const pce::CsrMatrix* m : {&rc.a, &rc.b, &rc.c}) {
    b += m->row_ptr.size() * sizeof(uint32_t) +
         std::max<uint64_t>(1, m->cols.size()) * sizeof(uint32_t) +
         std::max<uint64_t>(1, m->coeffs.size()) * sizeof(pce::CoefficientIndex);
  }
  return b;
}

}  // namespace cuzk::gpu
