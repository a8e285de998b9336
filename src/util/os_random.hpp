// Bytes from the operating system's CSPRNG (getrandom(2)); throws if it is unavailable.
#pragma once

#include <cstdint>
#include <span>

namespace cuzk {

void os_random_bytes(std::span<uint8_t> out);

}  // namespace cuzk
