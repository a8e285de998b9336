// CUZK_HD marks functions that compile for both the host and a CUDA device.
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__
#else
#define CUZK_HD
#endif
