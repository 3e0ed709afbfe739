// Skinny BSR GEMM instantiations for bf16 inputs (skinny_instantiate.cuh lists them).
#include "bsrflow/ops/skinny_instantiate.cuh"

namespace bsrflow::skinny {

template void launch_for<__nv_bfloat16>(const Params&, bool, bool, int, int, int, int, bool, cudaStream_t);
template int resident_per_sm<__nv_bfloat16>(bool, bool, int, int, int);

}  // namespace bsrflow::skinny
