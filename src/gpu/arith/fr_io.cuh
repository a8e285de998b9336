// 16-byte vector loads and stores of 32-byte Fr elements (cudaMalloc'd arrays and the shared
// tiles are 16-byte aligned): two LDG.128 per element instead of four 64-bit loads.
#pragma once

#include "gpu/arith/fields.cuh"
#include "gpu/device/grid.hpp"

namespace cuzk::gpu {

__device__ __forceinline__ FrD load_fr(const FrD* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = q[0], b = q[1];
  FrD r;
  r.l[0] = a.x, r.l[1] = a.y, r.l[2] = a.z, r.l[3] = a.w;
  r.l[4] = b.x, r.l[5] = b.y, r.l[6] = b.z, r.l[7] = b.w;
  return r;
}

__device__ __forceinline__ void store_fr(FrD* p, const FrD& v) {
  uint4* q = reinterpret_cast<uint4*>(p);
  q[0] = make_uint4(v.l[0], v.l[1], v.l[2], v.l[3]);
  q[1] = make_uint4(v.l[4], v.l[5], v.l[6], v.l[7]);
}

}  // namespace cuzk::gpu
