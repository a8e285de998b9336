// Software prefetch of a whole object. Bucket updates jump around a bucket array that outgrows
// L2 at the window widths large MSMs use; fetching the next point's bucket while the current
// addition (hundreds of ns) runs hides that latency.
#pragma once

#include <cstddef>

namespace cuzk {

template <class T>
inline void prefetch_object(const T* p) {
  const char* c = reinterpret_cast<const char*>(p);
  for (size_t off = 0; off < sizeof(T); off += 64)
    __builtin_prefetch(c + off, 1, 3);
}

}  // namespace cuzk
