import sys
root=sys.argv[1]
def edit(path, old, new):
    p=root+'/'+path; s=open(p).read(); assert old in s, (path, old[:60]); s=s.replace(old,new,1); open(p,'w').write(s)
edit('ops/sm90_gemm_params.hpp',"  int publish_lead;\n","  int publish_lead;\n  unsigned long long* prof;      // EXPERIMENT ONLY\n  unsigned long long* prof_cta;  // EXPERIMENT ONLY\n")
edit('ops/sm90_consumer.cuh',"""    if (iters > 0 && releaser) release_stage(ring.empty(prev_stage), p.cluster, rank);
""","""    if (iters > 0 && releaser) release_stage(ring.empty(prev_stage), p.cluster, rank);
    unsigned long long prof_loop = 0;  // EXPERIMENT ONLY
    if (p.prof != nullptr && releaser && wg == 0) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(prof_loop));
""")
edit('ops/sm90_consumer.cuh',"""    pending_split = split_here;  // a phantom""","""    if (p.prof != nullptr && releaser && wg == 0 && pos - 2 < 512) {  // EXPERIMENT ONLY
      unsigned long long now;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
      unsigned long long* r = p.prof + 8 * ((static_cast<long long>(blockIdx.x / p.cluster) * 512 + (pos - 2)) * p.cluster + rank);
      r[0] = w.row; r[1] = w.kb_begin; r[2] = w.kb_end; r[3] = static_cast<unsigned long long>(w.slot + 1);
      r[4] = w.swath; r[5] = w.reverse; r[6] = prof_loop; r[7] = now;
    }
    pending_split = split_here;  // a phantom""")
edit('ops/sm90_gemm_kernel.cuh',"""  if (threadIdx.x == 0) {
    tma_prefetch_map""","""  if (threadIdx.x == 0 && p.prof_cta != nullptr) {  // EXPERIMENT ONLY
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    p.prof_cta[blockIdx.x] = now;
  }
  if (threadIdx.x == 0) {
    tma_prefetch_map""")
# gemm_plan: take the v1 prof hunks textually
pl=open('/tmp/s18/patches/prof_on_v1.patch').read()
edit('ops/gemm_plan.cu',"""    sm90::launch_kernel(*p.entry, params, p.ctas, stream);
""","""    // EXPERIMENT ONLY: BSRFLOW_EXP_PROF=k times the k-th run's tiles into BSRFLOW_EXP_PROF_FILE.
    static int prof_left = std::getenv("BSRFLOW_EXP_PROF") ? std::atoi(std::getenv("BSRFLOW_EXP_PROF")) : 0;
    unsigned long long* prof = nullptr;
    const long long prof_n = 8ll * 512 * p.ctas;
    cudaEvent_t ev[3];
    if (prof_left > 1) --prof_left;
    else if (prof_left == 1) {
      cudaMalloc(&prof, (prof_n + p.ctas) * sizeof(unsigned long long));
      cudaMemset(prof, 0, (prof_n + p.ctas) * sizeof(unsigned long long));
      params.prof = prof;
      params.prof_cta = prof + prof_n;
      for (auto& e : ev) cudaEventCreate(&e);
      cudaEventRecord(ev[0], stream);
    }
    sm90::launch_kernel(*p.entry, params, p.ctas, stream);
    if (prof != nullptr) cudaEventRecord(ev[1], stream);
""")
edit('ops/gemm_plan.cu',"""      sm90::launch_split_fixup(f, stream);
    }
  }
}
""","""      sm90::launch_split_fixup(f, stream);
    }
    if (prof != nullptr) {  // EXPERIMENT ONLY
      prof_left = 0;
      cudaEventRecord(ev[2], stream);
      cudaStreamSynchronize(stream);
      std::vector<unsigned long long> h(prof_n + p.ctas);
      cudaMemcpy(h.data(), prof, h.size() * 8, cudaMemcpyDeviceToHost);
      cudaFree(prof);
      float k_ms = 0, f_ms = 0;
      cudaEventElapsedTime(&k_ms, ev[0], ev[1]);
      cudaEventElapsedTime(&f_ms, ev[1], ev[2]);
      unsigned long long t0 = ~0ull;
      for (int i = 0; i < p.ctas; ++i) t0 = std::min(t0, h[prof_n + i]);
      const char* path = std::getenv("BSRFLOW_EXP_PROF_FILE");
      FILE* out = std::fopen(path ? path : "prof.csv", "w");
      std::fprintf(out, "# %s kernel_us %.2f fixup_us %.2f ctas %d cluster %d\\n", cfg.name().c_str(), k_ms * 1e3,
                   f_ms * 1e3, p.ctas, cfg.cluster);
      std::fprintf(out, "cluster,rank,seq,row,kb_begin,kb_end,slot,group,reverse,cta_start,loop_end,epi_end\\n");
      const int clusters = p.ctas / cfg.cluster;
      for (int c = 0; c < clusters; ++c)
        for (int r = 0; r < cfg.cluster; ++r)
          for (int q = 0; q < 512; ++q) {
            const unsigned long long* x = h.data() + 8 * ((static_cast<long long>(c) * 512 + q) * cfg.cluster + r);
            if (x[7] == 0) break;
            std::fprintf(out, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f\\n", c, r, q, static_cast<int>(x[0]),
                         static_cast<int>(x[1]), static_cast<int>(x[2]), static_cast<int>(x[3]) - 1,
                         static_cast<int>(x[4]) / cfg.cluster, static_cast<int>(x[5]),
                         (h[prof_n + c * cfg.cluster + r] - t0) * 1e-3, (x[6] - t0) * 1e-3, (x[7] - t0) * 1e-3);
          }
      std::fclose(out);
      for (auto& e : ev) cudaEventDestroy(e);
    }
  }
}
""")
