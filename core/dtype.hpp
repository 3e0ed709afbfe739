// Element types bsrflow moves and computes with, and the map from C++ types to them.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace bsrflow {

// Room is left for fp8 (e4m3, e5m2): their enumerators are reserved but no path accepts them yet.
enum class DType : std::uint8_t { f16, bf16, f32, f64, fp8_e4m3, fp8_e5m2 };

constexpr std::size_t dtype_size(DType t) noexcept {
  switch (t) {
    case DType::f16: return 2;
    case DType::bf16: return 2;
    case DType::f32: return 4;
    case DType::f64: return 8;
    case DType::fp8_e4m3: return 1;
    case DType::fp8_e5m2: return 1;
  }
  return 0;
}

constexpr std::string_view dtype_name(DType t) noexcept {
  switch (t) {
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
    case DType::f32: return "f32";
    case DType::f64: return "f64";
    case DType::fp8_e4m3: return "fp8_e4m3";
    case DType::fp8_e5m2: return "fp8_e5m2";
  }
  return "?";
}

// Parses "f16", "bf16", "f32", "f64" (and the fp8 names); throws Error(invalid_argument) otherwise.
DType parse_dtype(std::string_view name);

template <class T> struct dtype_of;
template <> struct dtype_of<__half> { static constexpr DType value = DType::f16; };
template <> struct dtype_of<__nv_bfloat16> { static constexpr DType value = DType::bf16; };
template <> struct dtype_of<float> { static constexpr DType value = DType::f32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::f64; };
template <class T> inline constexpr DType dtype_of_v = dtype_of<std::remove_cv_t<T>>::value;

// Accumulation type: f32 for the 16-bit and 32-bit types, f64 for f64.
template <class T> struct accumulator_of { using type = float; };
template <> struct accumulator_of<double> { using type = double; };
template <class T> using accumulator_t = typename accumulator_of<std::remove_cv_t<T>>::type;

// Conversions usable on host and device for every value type (the CUDA 16-bit types convert
// through float).
template <class T> __host__ __device__ inline double to_double(T v) { return static_cast<double>(v); }
template <> __host__ __device__ inline double to_double(__half v) { return static_cast<double>(__half2float(v)); }
template <> __host__ __device__ inline double to_double(__nv_bfloat16 v) { return static_cast<double>(__bfloat162float(v)); }

template <class T> __host__ __device__ inline T from_double(double v) { return static_cast<T>(v); }
template <> __host__ __device__ inline __half from_double<__half>(double v) { return __float2half_rn(static_cast<float>(v)); }
template <> __host__ __device__ inline __nv_bfloat16 from_double<__nv_bfloat16>(double v) { return __float2bfloat16_rn(static_cast<float>(v)); }

// Value type -> accumulator type, exact (every f16 / bf16 value is a float), and accumulator ->
// value type, rounded to nearest even: what the GEMM kernels read and write C with.
__host__ __device__ inline float widen(__half v) { return __half2float(v); }
__host__ __device__ inline float widen(__nv_bfloat16 v) { return __bfloat162float(v); }
__host__ __device__ inline float widen(float v) { return v; }
__host__ __device__ inline double widen(double v) { return v; }

template <class T, class Acc>
__host__ __device__ inline T narrow(Acc v) {
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(v);
  else return static_cast<T>(v);
}

}  // namespace bsrflow
