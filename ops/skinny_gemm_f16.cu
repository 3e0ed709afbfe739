// Skinny BSR GEMM instantiations for f16 inputs (skinny_instantiate.cuh lists them).
#include "bsrflow/ops/skinny_instantiate.cuh"

namespace bsrflow::skinny {

template void launch_for<__half>(const Params&, bool, bool, int, int, int, int, bool, cudaStream_t);
template int resident_per_sm<__half>(bool, bool, int, int, int);

}  // namespace bsrflow::skinny
