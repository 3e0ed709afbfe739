// Skinny BSR GEMM instantiations for f16 inputs (skinny_instantiate.cuh lists them).
#include "bsrflow/ops/skinny_instantiate.cuh"

namespace bsrflow::skinny {

template void launch_for<__half>(const Params&, bool, bool, int, int, int, cudaStream_t);

}  // namespace bsrflow::skinny
