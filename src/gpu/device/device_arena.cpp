#include "gpu/device/device_arena.hpp"

#include <stdexcept>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"

namespace cuzk::gpu {

namespace {
// The arena of the backend call running on this thread (set by Scope only).
thread_local DeviceArena* t_arena = nullptr;
constexpr size_t kAlign = 256;
}  // namespace

DeviceArena::DeviceArena() : block_(std::make_unique<DeviceBuffer<uint8_t>>()) {}

DeviceArena::~DeviceArena() = default;

void DeviceArena::check_none_live(const char* what) const {
  if (live_.load() != 0) {
    throw std::logic_error(std::string("device arena: ") + what + " while " +
                           std::to_string(live_.load()) + " buffers taken from it are alive");
  }
}

void DeviceArena::reserve(size_t bytes) {
  if (bytes <= block_->size()) return;
  check_none_live("made again");
  const Scope none(nullptr);  // the block itself by cudaMalloc
  block_->allocate(bytes);
  offset_ = 0;
}

void DeviceArena::release() {
  check_none_live("freed");
  block_->release();
  offset_ = 0;
}

size_t DeviceArena::bytes() const {
  return block_->size();
}

void* DeviceArena::take(size_t bytes) noexcept {
  const size_t at = (offset_ + kAlign - 1) / kAlign * kAlign;
  if (block_->get() == nullptr || at > block_->size() || bytes > block_->size() - at)
    return nullptr;
  offset_ = at + bytes;
  live_.fetch_add(1);
  return block_->get() + at;
}

void DeviceArena::reset() {
  check_none_live("reset");
  // Work queued on any stream may still read what the block held, as a cudaFree waits for it.
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  offset_ = 0;
}

DeviceArena* DeviceArena::current() {
  return t_arena;
}

DeviceArena::Scope::Scope(DeviceArena* arena) : previous_(t_arena) {
  t_arena = arena;
}

DeviceArena::Scope::~Scope() {
  t_arena = previous_;
}

}  // namespace cuzk::gpu
