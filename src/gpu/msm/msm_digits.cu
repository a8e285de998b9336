// The scalar side of the device Pippenger: signed digits, a sort by bucket (counting-sort scatter,
// or CUB's radix sort per window from msm_radix_sort's size), tasks.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "gpu/device/cuda_check.hpp"
#include "gpu/msm/msm_device.hpp"
#include "gpu/msm/msm_digit_kernels.cuh"
#include "gpu/msm/msm_window.hpp"

namespace cuzk::gpu::msm_detail {

namespace {
constexpr unsigned kThreads = 256;
// Tasks a precomputed table's MSM is cut into at least: 4x the H200's 132 SMs x 2048 threads.
constexpr size_t kMinTableTasks = size_t{1} << 20;
}  // namespace

void exclusive_scan(const uint32_t* d_in, uint32_t* d_out, size_t m, MsmWorkspace& ws,
                    cudaStream_t s) {
  size_t temp = 0;
  CUZK_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(nullptr, temp, d_in, d_out, static_cast<int>(m), s));
  ws.cub_temp.reserve(std::max<size_t>(temp, 1));
  CUZK_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(ws.cub_temp.get(), temp, d_in, d_out, static_cast<int>(m), s));
}

namespace {

// Sorts each bucket set's digits (keys, in place of ws.digits: the set's copies windows lie
// together) with their table indices by bits [1, c + 1), the magnitude (the sign bit rides along
// in the key), and places the non-zero ones as that set's entries. False, with nothing done,
// where CUB's scratch would exceed what the memory plan gave it (msm_radix_sort_temp_bytes).
bool radix_sort_sets(const uint32_t* d_index, size_t n, unsigned c, TableShape table,
                     const BucketPlan& plan, MsmWorkspace& ws, cudaStream_t s) {
  const size_t items = n * table.copies;  // < 2^31 (msm.cpp)
  const int end_bit = static_cast<int>(c) + 1;
  ws.sort_keys.reserve(items);
  ws.sort_vals.reserve(2 * items);
  uint32_t* const vals = ws.sort_vals.get();
  size_t temp = 0;
  cub::DoubleBuffer<uint32_t> keys0(ws.digits.get(), ws.sort_keys.get()), vals0(vals, vals + items);
  CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp, keys0, vals0,
                                                  static_cast<int>(items), 1, end_bit, s));
  if (temp > msm_radix_sort_temp_bytes(items)) return false;
  ws.cub_temp.reserve(std::max<size_t>(temp, 1));
  const size_t m = size_t{plan.sets} * plan.buckets_per_set;
  for (unsigned g = 0; g < plan.sets; ++g) {
    base_index_kernel<<<grid_for(items, kThreads), kThreads, 0, s>>>(d_index, n, table.copies,
                                                                     table.stride, vals);
    CUZK_CUDA_CHECK_LAUNCH();
    cub::DoubleBuffer<uint32_t> keys(ws.digits.get() + g * items, ws.sort_keys.get());
    cub::DoubleBuffer<uint32_t> payload(vals, vals + items);
    CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ws.cub_temp.get(), temp, keys, payload,
                                                    static_cast<int>(items), 1, end_bit, s));
    place_sorted_kernel<<<grid_for(items, kThreads), kThreads, 0, s>>>(
        keys.Current(), payload.Current(), items, g, plan.buckets_per_set, m, ws.offsets.get(),
        ws.counts.get(), ws.entries.get());
    CUZK_CUDA_CHECK_LAUNCH();
  }
  return true;
}

// A warp runs as long as its longest task: tasks of Poisson-distributed lengths (mean 256,
// sd 16) in warps of 32 waste ~11%. Sorted by length, longest first, a warp's tasks are alike.
// H200, same binary with and without (2026-12-02, two rounds, CUDA-event medians): accumulate
// G1 2^27 862 -> 754 ms, 2^26 461 -> 384, 2^24 127.5 -> 114.6, 2^20 11.1 -> 7.6; G2 2^24 412 ->
// 372, 2^20 33.6 -> 23.0. Smaller sizes were not measured, so they keep the plain order.
constexpr size_t kOrderTasksFrom = size_t{1} << 20;

// Sets plan.task_order (the task of accumulation thread j) and plan.task_bucket (the bucket of
// task t), both in ws.task_order.
void order_tasks_by_length(BucketPlan& plan, size_t m, MsmWorkspace& ws, cudaStream_t s) {
  const size_t t = plan.num_tasks;
  ws.task_order.reserve(4 * t);
  uint32_t* const b = ws.task_order.get();
  task_length_kernel<<<grid_for(m, kThreads), kThreads, 0, s>>>(
      ws.counts.get(), ws.task_offsets.get(), ws.task_counts.get(), m, plan.task_len, b, b + 2 * t);
  CUZK_CUDA_CHECK_LAUNCH();
  cub::DoubleBuffer<uint32_t> keys(b, b + t), vals(b + 2 * t, b + 3 * t);
  const int end_bit = 32 - __builtin_clz(plan.task_len);
  size_t temp = 0;
  CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, temp, keys, vals,
                                                            static_cast<int>(t), 0, end_bit, s));
  ws.cub_temp.reserve(std::max<size_t>(temp, 1));
  CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(ws.cub_temp.get(), temp, keys, vals,
                                                            static_cast<int>(t), 0, end_bit, s));
  plan.task_order = vals.Current();  // b + 2t or b + 3t: the keys' room [b, b + 2t) is free
  task_bucket_kernel<<<grid_for(m, kThreads), kThreads, 0, s>>>(ws.task_offsets.get(),
                                                                ws.task_counts.get(), m, b);
  CUZK_CUDA_CHECK_LAUNCH();
  plan.task_bucket = b;
}

}  // namespace

BucketPlan sort_into_buckets(const Fr* d_scalars, const uint32_t* d_index, size_t n, unsigned c,
                             TableShape table, MsmWorkspace& ws, cudaStream_t s) {
  BucketPlan plan;
  const unsigned windows = msm_windows(c);
  plan.sets = (windows + table.copies - 1) / table.copies;
  plan.buckets_per_set = 1u << (c - 1);
  const size_t m = size_t{plan.sets} * plan.buckets_per_set;
  const size_t items = n * table.copies;  // digits per set
  ws.digits.reserve(plan.sets * items);
  ws.entries.reserve(plan.sets * items);
  ws.counts.reserve(m);
  ws.offsets.reserve(m);
  ws.cursor.reserve(m);
  ws.task_counts.reserve(m);
  ws.task_offsets.reserve(m);
  ws.counts.zero(s, 0, m);
  digits_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(reinterpret_cast<const FrD*>(d_scalars),
                                                           n, c, windows, table.copies, plan.sets,
                                                           ws.digits.get(), ws.counts.get());
  CUZK_CUDA_CHECK_LAUNCH();
  exclusive_scan(ws.counts.get(), ws.offsets.get(), m, ws, s);
  plan.radix_sorted = msm_radix_sort(items) && radix_sort_sets(d_index, n, c, table, plan, ws, s);
  if (!plan.radix_sorted) {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(ws.cursor.get(), ws.offsets.get(), m * sizeof(uint32_t),
                                    cudaMemcpyDeviceToDevice, s));
    scatter_kernel<<<grid_for(n, kThreads), kThreads, 0, s>>>(ws.digits.get(), d_index, n, c,
                                                              windows, table.copies, table.stride,
                                                              ws.cursor.get(), ws.entries.get());
    CUZK_CUDA_CHECK_LAUNCH();
  }

  // Tasks of at most L entries: twice the mean bucket size, so that typical buckets are one task
  // and only buckets swollen by repeated scalars are split.
  // A table's few sets of full buckets (copies n / B entries each) would leave too few tasks to
  // fill the device (2^24 scalars, 16 copies at c = 16: one set, 2^15 tasks), so there L is
  // capped to give about kMinTableTasks tasks.
  const size_t mean = (items + plan.buckets_per_set - 1) / plan.buckets_per_set;
  size_t task_len = std::max<size_t>(16, 2 * mean);
  if (table.copies > 1)
    task_len = std::min(task_len, std::max<size_t>(16, plan.sets * items / kMinTableTasks));
  plan.task_len = static_cast<uint32_t>(task_len);
  ws.task_max.reserve(1);
  ws.task_max.zero(s, 0, 1);
  task_count_kernel<<<grid_for(m, kThreads), kThreads, 0, s>>>(
      ws.counts.get(), m, plan.task_len, ws.task_counts.get(), ws.task_max.get());
  CUZK_CUDA_CHECK_LAUNCH();
  exclusive_scan(ws.task_counts.get(), ws.task_offsets.get(), m, ws, s);
  uint32_t last[3];
  CUZK_CUDA_CHECK(cudaMemcpyAsync(&last[0], ws.task_offsets.get() + m - 1, sizeof(uint32_t),
                                  cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_CHECK(cudaMemcpyAsync(&last[1], ws.task_counts.get() + m - 1, sizeof(uint32_t),
                                  cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_CHECK(
      cudaMemcpyAsync(&last[2], ws.task_max.get(), sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  plan.num_tasks = last[0] + last[1];
  plan.max_tasks = last[2];
  if (items >= kOrderTasksFrom && plan.num_tasks > 1) order_tasks_by_length(plan, m, ws, s);
  return plan;
}

}  // namespace cuzk::gpu::msm_detail
