// The arena a capped front keeps across partitions (gpu/device/device_arena.hpp): buffers made
// inside its scope take their bytes from its one block (charged to the cap once) until it has
// no room, then fall back to cudaMalloc; its block is handed out again only after reset(), which
// refuses while a buffer taken from it is alive; and what a buffer holds there is what it was
// given (uploaded and read back).
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "gpu/device/device_arena.hpp"
#include "gpu/device/device_buffer.hpp"
#include "gpu/device/device_memory_cap.hpp"
#include "gpu_test_util.hpp"

namespace cuzk::gpu {
namespace {

using DeviceArenaTest = testing::GpuTest;

TEST_F(DeviceArenaTest, BuffersTakeFromTheBlockUntilItIsFullAndItIsChargedOnce) {
  DeviceMemoryCap cap(64 << 20);
  DeviceMemoryCap::Scope charged(cap);
  DeviceArena arena;
  arena.reserve(4 << 20);
  EXPECT_EQ(cap.in_use(), 4u << 20);
  {
    DeviceArena::Scope in_arena(&arena);
    DeviceBuffer<uint8_t> a(1 << 20), b((1 << 20) + 1), c(1 << 20);
    EXPECT_EQ(cap.in_use(), 4u << 20);  // all three in the block
    EXPECT_EQ(arena.live(), 3u);
    // 256-byte aligned, one after another.
    EXPECT_EQ(b.get() - a.get(), 1 << 20);
    EXPECT_EQ(c.get() - b.get(), (1 << 20) + 256);
    DeviceBuffer<uint8_t> d(2 << 20);  // no room left: cudaMalloc, charged
    EXPECT_EQ(cap.in_use(), 6u << 20);
    EXPECT_EQ(arena.live(), 3u);
    // A buffer's bytes are its own: written and read back.
    std::vector<uint8_t> want(1 << 20), got(1 << 20);
    std::iota(want.begin(), want.end(), uint8_t{7});
    c.upload(want, nullptr);
    c.download(got, nullptr);
    CUZK_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(got, want);
    EXPECT_THROW(arena.reset(), std::logic_error);
    EXPECT_THROW(arena.release(), std::logic_error);
  }
  EXPECT_EQ(arena.live(), 0u);
  EXPECT_EQ(cap.in_use(), 4u << 20);
  // Taken from the start again after a reset; not before.
  {
    DeviceArena::Scope in_arena(&arena);
    DeviceBuffer<uint8_t> late(1 << 20);
    EXPECT_EQ(cap.in_use(), 5u << 20);  // the block's room was not handed back without a reset
  }
  arena.reset();
  {
    DeviceArena::Scope in_arena(&arena);
    DeviceBuffer<uint8_t> first(1 << 20);
    DeviceArena::Scope none(nullptr);
    DeviceBuffer<uint8_t> outside(1 << 20);
    EXPECT_EQ(cap.in_use(), 5u << 20);  // `first` from the block, `outside` by cudaMalloc
  }
  arena.release();
  EXPECT_EQ(cap.in_use(), 0u);
  EXPECT_EQ(arena.bytes(), 0u);
}

TEST_F(DeviceArenaTest, ABlockMadeAgainRefusesWhileItsBuffersLive) {
  DeviceArena arena;
  arena.reserve(1 << 20);
  DeviceArena::Scope in_arena(&arena);
  DeviceBuffer<uint8_t> a(1 << 10);
  EXPECT_THROW(arena.reserve(2 << 20), std::logic_error);
  arena.reserve(1 << 19);  // already large enough: nothing made
  a.release();
  arena.reserve(2 << 20);
  EXPECT_EQ(arena.bytes(), 2u << 20);
}

// The top end: buffers taken downward from the block's end, beside the bottom's; a bottom reset
// leaves them (and their bytes) alone, and refuses only while a bottom buffer lives.
TEST_F(DeviceArenaTest, TheTopEndOutlivesABottomReset) {
  DeviceMemoryCap cap(64 << 20);
  DeviceMemoryCap::Scope charged(cap);
  DeviceArena arena;
  arena.reserve(4 << 20);
  std::vector<uint8_t> want(1 << 20), got(1 << 20);
  std::iota(want.begin(), want.end(), uint8_t{3});
  DeviceBuffer<uint8_t> top;
  {
    DeviceArena::Scope at_top(&arena, DeviceArena::End::kTop);
    top.allocate(1 << 20);
  }
  EXPECT_EQ(arena.live(DeviceArena::End::kTop), 1u);
  EXPECT_EQ(cap.in_use(), 4u << 20);
  top.upload(want, nullptr);
  {
    DeviceArena::Scope in_arena(&arena);
    DeviceBuffer<uint8_t> bottom(3 << 20);  // exactly the room below the top's buffer
    EXPECT_EQ(cap.in_use(), 4u << 20);
    EXPECT_EQ(top.get() - bottom.get(), 3 << 20);
    EXPECT_THROW(arena.reset_bottom(), std::logic_error);
    DeviceBuffer<uint8_t> over(1);  // no room between the ends: cudaMalloc
    EXPECT_EQ(cap.in_use(), (4u << 20) + 1);
  }
  EXPECT_THROW(arena.reset(), std::logic_error);  // the top's buffer lives
  arena.reset_bottom();
  {
    DeviceArena::Scope in_arena(&arena);
    DeviceBuffer<uint8_t> again(2 << 20);
    EXPECT_EQ(cap.in_use(), 4u << 20);  // from the bottom again, below the top's buffer
    EXPECT_LT(again.get() + (2 << 20), top.get() + 1);
    CUZK_CUDA_CHECK(cudaMemset(again.get(), 0, 2 << 20));
  }
  top.download(got, nullptr);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(got, want);  // untouched by the bottom's reuse
  top.release();
  EXPECT_EQ(arena.live(), 0u);
  arena.reset();
  arena.release();
  EXPECT_EQ(cap.in_use(), 0u);
}

}  // namespace
}  // namespace cuzk::gpu
