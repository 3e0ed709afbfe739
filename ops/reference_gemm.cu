// placeholder until the reference GEMM lands
