#include "gpu/device/device_arena.hpp"

#include <stdexcept>
#include <string>

#include "gpu/device/cuda_check.hpp"
#include "gpu/device/device_buffer.hpp"

namespace cuzk::gpu {

namespace {
// The arena of the backend call running on this thread, and its end (set by Scope only).
thread_local DeviceArena* t_arena = nullptr;
thread_local DeviceArena::End t_end = DeviceArena::End::kBottom;
constexpr size_t kAlign = 256;
}  // namespace

DeviceArena::DeviceArena() : block_(std::make_unique<DeviceBuffer<uint8_t>>()) {}

DeviceArena::~DeviceArena() = default;

void DeviceArena::check_none_live(const char* what, size_t live) const {
  if (live != 0) {
    throw std::logic_error(std::string("device arena: ") + what + " while " + std::to_string(live) +
                           " buffers taken from it are alive");
  }
}

void DeviceArena::reserve(size_t bytes) {
  if (bytes <= block_->size()) return;
  check_none_live("made again", live());
  const Scope none(nullptr);  // the block itself by cudaMalloc
  block_->allocate(bytes);
  bottom_ = 0;
  top_ = block_->size();
}

void DeviceArena::release() {
  check_none_live("freed", live());
  block_->release();
  bottom_ = top_ = 0;
}

size_t DeviceArena::bytes() const {
  return block_->size();
}

void* DeviceArena::take(size_t bytes, End end) noexcept {
  if (block_->get() == nullptr || bytes > top_) return nullptr;
  size_t at = 0;
  if (end == End::kBottom) {
    at = (bottom_ + kAlign - 1) / kAlign * kAlign;
    if (at > top_ || bytes > top_ - at) return nullptr;
    bottom_ = at + bytes;
  } else {
    at = (top_ - bytes) / kAlign * kAlign;
    if (at < bottom_) return nullptr;
    top_ = at;
  }
  ++live_[index(end)];
  return block_->get() + at;
}

void DeviceArena::reset() {
  check_none_live("reset", live());
  // Work queued on any stream may still read what the block held, as a cudaFree waits for it.
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  bottom_ = 0;
  top_ = block_->size();
}

void DeviceArena::reset_bottom() {
  check_none_live("reset at its bottom", live(End::kBottom));
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  bottom_ = 0;
}

DeviceArena* DeviceArena::current() {
  return t_arena;
}

DeviceArena::End DeviceArena::current_end() {
  return t_end;
}

DeviceArena::Scope::Scope(DeviceArena* arena, End end) : previous_(t_arena), previous_end_(t_end) {
  t_arena = arena;
  t_end = end;
}

DeviceArena::Scope::~Scope() {
  t_arena = previous_;
  t_end = previous_end_;
}

}  // namespace cuzk::gpu
