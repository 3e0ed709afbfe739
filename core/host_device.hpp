// Lets headers shared by host-only (g++) and CUDA (nvcc) translation units mark functions that
// also run on the device.
#pragma once

#if defined(__CUDACC__)
#define BSRFLOW_HD __host__ __device__
#else
#define BSRFLOW_HD
#endif
