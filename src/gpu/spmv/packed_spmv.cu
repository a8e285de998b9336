// Kernel of gpu/spmv/packed_spmv.hpp.
#include "gpu/arith/fields.cuh"
#include "gpu/arith/fr_io.cuh"
#include "gpu/device/cuda_check.hpp"
#include "gpu/device/grid.hpp"
#include "gpu/spmv/packed_spmv.hpp"
#include "pce/packed_matrix.hpp"

namespace cuzk::gpu {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kAllLanes = 0xffffffffu;
static_assert(pce::kPackedGroupRows == 32, "a warp decodes a group, a lane a row");

// A LEB128 varint at p (advanced past it). The packer made the bytes: no bound is checked here
// (pce::unpack_group checks them on the host).
__device__ __forceinline__ uint64_t read_varint(const uint8_t*& p) {
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    const uint8_t b = *p++;
    v |= uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80u) == 0) return v;
  }
}

__device__ __forceinline__ uint32_t read_u16(const uint8_t*& p) {
  const uint32_t v = p[0] | (uint32_t{p[1]} << 8);
  p += 2;
  return v;
}

// acc += the coefficient of `tag` (index 0: 1, 1: -1, else the index that follows) times w[col],
// the field operations of the CSR kernel's row_value (spmv.cu).
__device__ __forceinline__ void accumulate(FrD& acc, uint64_t tag, const uint8_t*& p, uint32_t col,
                                           const FrD* __restrict__ table,
                                           const FrD* __restrict__ w) {
  const FrD x = load_fr(w + col);
  if (tag == 0) {
    acc += x;
  } else if (tag == 1) {
    acc -= x;
  } else {
    acc += load_fr(table + read_u16(p)) * x;
  }
}

__global__ void packed_spmv_kernel(const uint64_t* __restrict__ offsets,
                                   const uint8_t* __restrict__ bytes, size_t groups, size_t rows,
                                   const FrD* __restrict__ table, const FrD* __restrict__ w,
                                   FrD* __restrict__ out) {
  const unsigned lane = threadIdx.x & 31u;
  const size_t warps = (size_t{gridDim.x} * blockDim.x) / 32;
  // g is the same for the warp's lanes: the shuffles below see all 32.
  for (size_t g = (blockIdx.x * size_t{blockDim.x} + threadIdx.x) / 32; g < groups; g += warps) {
    const uint8_t* head = bytes + (offsets[g] - offsets[0]);
    uint32_t len = head[lane];
    const bool long_row = len == pce::kPackedLongRow;
    const unsigned long_rows = __ballot_sync(kAllLanes, long_row);
    if (long_row) {
      const uint8_t* q = head + 32 + 4 * __popc(long_rows & ((1u << lane) - 1));
      len = q[0] | (uint32_t{q[1]} << 8) | (uint32_t{q[2]} << 16) | (uint32_t{q[3]} << 24);
    }
    uint32_t end = len;  // inclusive prefix sum of the rows' lengths
    for (unsigned d = 1; d < 32; d <<= 1) {
      const uint32_t t = __shfl_up_sync(kAllLanes, end, d);
      if (lane >= d) end += t;
    }
    const uint8_t* p = head + 32 + 4 * __popc(long_rows) + (end - len);
    const uint8_t* const stop = p + len;
    uint64_t first = 0;
    if (len != 0) first = read_varint(p);
    // The row's first column: the prefix sum of the first entries' zigzag deltas (empty rows 0).
    const uint64_t zz = first >> 2;
    long long col = static_cast<long long>(zz >> 1) ^ -static_cast<long long>(zz & 1);
    for (unsigned d = 1; d < 32; d <<= 1) {
      const long long t = __shfl_up_sync(kAllLanes, col, d);
      if (lane >= d) col += t;
    }
    const size_t r = g * 32 + lane;
    if (r < rows) {  // (the lanes past a matrix's last row have len 0)
      FrD acc = FrD::zero();
      if (len != 0) {
        uint32_t c = static_cast<uint32_t>(col);
        accumulate(acc, first & 3, p, c, table, w);
        while (p < stop) {
          const uint64_t v = read_varint(p);
          c += static_cast<uint32_t>(v >> 2);
          accumulate(acc, v & 3, p, c, table, w);
        }
      }
      store_fr(out + r, acc);
    }
  }
}

}  // namespace

void spmv_packed_rows(const PackedRowBlock& block, const Fr* d_coefficients, const Fr* d_w,
                      Fr* d_out, cudaStream_t s) {
  if (block.rows == 0) return;
  packed_spmv_kernel<<<grid_for(block.groups * 32, kThreads), kThreads, 0, s>>>(
      block.group_offsets, block.bytes, block.groups, block.rows,
      reinterpret_cast<const FrD*>(d_coefficients), reinterpret_cast<const FrD*>(d_w),
      reinterpret_cast<FrD*>(d_out));
  CUZK_CUDA_CHECK_LAUNCH();
}

}  // namespace cuzk::gpu
