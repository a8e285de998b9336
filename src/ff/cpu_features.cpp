#include "ff/cpu_features.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace cuzk::ff {

bool cpu_has_bmi2_adx() {
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) return false;
  const bool bmi2 = (ebx >> 8) & 1;
  const bool adx = (ebx >> 19) & 1;
  return bmi2 && adx;
#else
  return false;
#endif
}

bool detect_use_adx() {
  const char* force = std::getenv("CUZK_FF_PORTABLE");
  if (force != nullptr && std::strcmp(force, "") != 0 && std::strcmp(force, "0") != 0) return false;
  return cpu_has_bmi2_adx();
}

}  // namespace cuzk::ff
