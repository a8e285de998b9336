// make_backend in either configuration: "cpu" always, "auto" falls back to the CPU without CUDA
// or without a device, unknown names are rejected. Needs no device (built without CUDA too).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "backend/backend_factory.hpp"

namespace cuzk::groth16 {
namespace {

TEST(BackendFactory, CpuAutoAndBadNames) {
  ThreadPool pool(1);
  std::string note;
  EXPECT_EQ(make_backend("cpu", pool, &note)->name(), "cpu");
  EXPECT_FALSE(note.empty());
  const auto chosen = make_backend("auto", pool, &note);
  EXPECT_FALSE(note.empty());
  if (!gpu_backend_compiled()) {
    EXPECT_EQ(chosen->name(), "cpu");
    EXPECT_THROW(make_backend("gpu", pool), std::runtime_error);
  }
  EXPECT_THROW(make_backend("tpu", pool), std::invalid_argument);
  EXPECT_THROW(make_backend("gpu:x", pool), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::groth16
