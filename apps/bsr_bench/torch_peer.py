#!/usr/bin/env python3
"""PyTorch's BSR path as one more bsr_bench peer (system "torch_bsr").

Reads a bsr_bench JSON file, runs `A.to_sparse_bsr(...) @ B` (PyTorch picks its kernel:
Triton for f16/bf16 where it can) on the same case shapes, block shapes, densities and
pattern kinds and chains (--chain), timed like bsr_bench (CUDA events, warm-up, median of N runs, L2 flushed before
each timed run: 2x its size written, then another 2x read so that L2 holds no dirty line - bsr_bench
discards the written lines instead, which PyTorch cannot; a plain read of 23 / 46 / 92 MB ran 5 /
5 / 8% slower after this flush than after bsr_bench's: docs/perf_log.md entry 59), and appends one
record per case to the file.

The pattern is regenerated here with the same kind, density and block count (uniform rows,
power-law rows with the uniform total, band, clusters), not the very same columns. Every
output is first compared with an fp32 dense product of the same inputs; a result outside
the bsr_bench tolerance is recorded as "wrong" and not timed; an exception from PyTorch is
recorded as "unsupported" with its message.

Usage (on the GPU machine):  python3 torch_peer.py results.json [--iters 20] [--warmup 3]
                                                  [--output merged.json]
"""

import argparse
import datetime
import json
import math
import random
import statistics
import sys

TOLERANCE = {"f16": 5e-3, "bf16": 1e-2}  # same bounds as bsr_bench (metrics.cpp)
CASE_FIELDS = ("case", "m", "n", "k", "block_r", "block_c", "density", "pattern", "dtype",
               "b_layout", "c_layout", "seed", "skinny", "chain")


# ---- block patterns (pure Python, mirror apps/bsr_bench/block_patterns.cpp) -------------------

def uniform_row_length(block_cols, density):
    return min(max(int(round(density * block_cols)), 1), block_cols)


def powerlaw_row_lengths(rows, cap, total, exponent, rng):
    """Lengths summing to exactly `total`, each <= cap, proportional to (rank+1)^-exponent."""
    if total > rows * cap:
        raise ValueError(f"{total} blocks do not fit in {rows} rows of at most {cap}")
    weight = [(r + 1) ** -exponent for r in range(rows)]
    rng.shuffle(weight)
    order = sorted(range(rows), key=lambda r: -weight[r])
    length = [0] * rows
    left, pool, first_free = total, sum(weight), 0
    while first_free < rows and left * weight[order[first_free]] / pool >= cap:  # water-filling
        r = order[first_free]
        length[r], left, pool = cap, left - cap, pool - weight[r]
        first_free += 1
    fractions, given = [], 0
    for r in order[first_free:]:
        share = left * weight[r] / pool if pool > 0 else 0.0
        length[r] = min(cap, math.floor(share))
        given += length[r]
        fractions.append((share - math.floor(share), r))
    fractions.sort(key=lambda f: -f[0])
    i = 0
    while given < left and fractions:
        r = fractions[i % len(fractions)][1]
        if length[r] < cap:
            length[r] += 1
            given += 1
        i += 1
    return length


def block_pattern(kind, block_rows, block_cols, density, seed=1, cluster=8):
    """List of sorted column lists, one per block row."""
    rng = random.Random(seed)
    per_row = uniform_row_length(block_cols, density)
    if kind == "uniform":
        return [sorted(rng.sample(range(block_cols), per_row)) for _ in range(block_rows)]
    if kind == "powerlaw":
        lengths = powerlaw_row_lengths(block_rows, block_cols, block_rows * per_row, 1.0, rng)
        return [sorted(rng.sample(range(block_cols), n)) for n in lengths]
    if kind == "banded":
        rows = []
        for i in range(block_rows):
            diagonal = int((i + 0.5) * block_cols / block_rows)
            start = min(max(diagonal - per_row // 2, 0), block_cols - per_row)
            rows.append(list(range(start, start + per_row)))
        return rows
    if kind == "clustered":
        s = max(1, min(cluster, block_cols, max(block_rows, 1)))
        windows = (block_cols + s - 1) // s
        per_group = min(max(int(round(density * block_cols / s)), 1), windows)
        rows = []
        for group in range(0, block_rows, s):
            cols = [c for w in sorted(rng.sample(range(windows), per_group))
                    for c in range(w * s, min(block_cols, w * s + s))]
            rows.extend([list(cols) for _ in range(group, min(block_rows, group + s))])
        return rows
    raise ValueError(f"unknown pattern '{kind}'")


# ---- the PyTorch side -------------------------------------------------------------------------

def random_nonzero(torch, shape, dtype, generator):
    """+-[0.25, 1]: never zero, like bsr_bench's data."""
    magnitude = 0.25 + 0.75 * torch.rand(shape, device="cuda", generator=generator)
    sign = torch.where(torch.rand(shape, device="cuda", generator=generator) < 0.5, -1.0, 1.0)
    return (magnitude * sign).to(dtype)


def l2_flusher(torch, l2_bytes):
    """A function that flushes L2 leaving no dirty line: 2x L2 written (evicts the previous run's
    lines), then 2x L2 of another buffer read (the written lines leave, written back)."""
    written = torch.empty(2 * l2_bytes // 4, dtype=torch.float32, device="cuda")
    clean = torch.zeros(2 * l2_bytes // 4, dtype=torch.float32, device="cuda")
    sink = torch.empty((), dtype=torch.float32, device="cuda")

    def flush():
        written.add_(1)
        torch.sum(clean, dim=0, out=sink)

    return flush


def time_runs(torch, fn, iters, warmup, flush):
    for _ in range(warmup):
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for i in range(iters):
        flush()  # outside the timed region
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in zip(starts, ends)]


def percentile(sorted_ms, p):
    rank = p / 100 * (len(sorted_ms) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(sorted_ms) - 1)
    return sorted_ms[lo] + (sorted_ms[hi] - sorted_ms[lo]) * (rank - lo)


def run_case(torch, case, iters, warmup, flush):
    m, n, k, R, C = (int(case[f]) for f in ("m", "n", "k", "block_r", "block_c"))
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[case["dtype"]]
    rows = block_pattern(case["pattern"], m // R, k // C, float(case["density"]))
    crow = [0]
    for cols in rows:
        crow.append(crow[-1] + len(cols))
    nnzb = crow[-1]
    record = {f: case[f] for f in CASE_FIELDS if f in case}
    record.update({"nnzb": nnzb, "longest_row": max((len(c) for c in rows), default=0),
                   "actual_density": nnzb / max(1, (m // R) * (k // C)),
                   "system": "torch_bsr", "system_kind": "sparse_peer", "status": "ok",
                   "correct": False, "tolerance": TOLERANCE[case["dtype"]],
                   "note": f"torch {torch.__version__}; own pattern of the same kind and block count; "
                           "output row-major (PyTorch's choice)"})
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    try:
        crow_t = torch.tensor(crow, dtype=torch.int64, device="cuda")
        col_t = torch.tensor([c for cols in rows for c in cols], dtype=torch.int64, device="cuda")
        values = random_nonzero(torch, (nnzb, R, C), dtype, gen)
        A = torch.sparse_bsr_tensor(crow_t, col_t, values, size=(m, k), dtype=dtype, device="cuda")
        if case.get("b_layout") == "col":
            B = random_nonzero(torch, (n, k), dtype, gen).t()  # column-major k x n
        else:
            B = random_nonzero(torch, (k, n), dtype, gen)
        reference = A.to_dense().float() @ B.float()
        out = A @ B
        torch.cuda.synchronize()
        rel = (torch.linalg.vector_norm(out.float() - reference) / torch.linalg.vector_norm(reference)).item()
        record["rel_error"] = rel if math.isfinite(rel) else None
        record["correct"] = math.isfinite(rel) and rel <= TOLERANCE[case["dtype"]]
        if not record["correct"]:
            record["status"] = "wrong"
            return record
        del reference
        # bsr_bench --chain L: L products back to back, each on its own weights (the case's own
        # last), timed as one run; figures per product.
        chain = int(case.get("chain", 1))
        weights = [torch.sparse_bsr_tensor(crow_t, col_t, random_nonzero(torch, (nnzb, R, C), dtype, gen),
                                           size=(m, k), dtype=dtype, device="cuda") for _ in range(chain - 1)] + [A]
        ms = sorted(t / chain for t in time_runs(torch, lambda: [w @ B for w in weights], iters, warmup, flush))
        median = statistics.median(ms)
        record.update({"ms": median, "ms_min": ms[0], "ms_p10": percentile(ms, 10),
                       "ms_p90": percentile(ms, 90), "ms_max": ms[-1], "runs": len(ms)})
        record["eff_tflops"] = 2.0 * nnzb * R * C * n / (median * 1e-3) / 1e12
        # metrics.hpp: A's values and indices, B's rows under touched block columns, C once.
        elem = 2
        touched = len({c for cols in rows for c in cols})
        min_bytes = nnzb * R * C * elem + nnzb * 4 + (m // R + 1) * 4 + touched * C * n * elem + m * n * elem
        record.update({"touched_block_cols": touched, "min_bytes": min_bytes})
        record["gbps"] = min_bytes / (median * 1e-3) / 1e9
    except Exception as e:  # PyTorch rejects the case (dtype, block shape, layout, ...)
        record["status"] = "unsupported"
        record["note"] = f"torch {torch.__version__}: {type(e).__name__}: {e}".splitlines()[0]
    return record


def add_comparisons(records):
    """Recompute the cross-system fields of every case that gained a torch_bsr record."""
    by_case = {}
    for r in records:
        by_case.setdefault(r.get("case"), []).append(r)
    for group in by_case.values():
        if not any(r.get("system") == "torch_bsr" for r in group):
            continue
        ok = [r for r in group if r.get("status") == "ok" and r.get("eff_tflops") is not None]
        dense = next((r for r in ok if r.get("system_kind") == "dense_baseline"), None)
        dense_random = next((r for r in ok if r.get("system_kind") == "dense_random"), None)
        peers = [r for r in ok if r.get("system_kind") == "sparse_peer"]
        best = max(peers, key=lambda r: r["eff_tflops"]) if peers else None
        # The case's SOL (bsr_bench's add_comparisons): the same in every bsr_bench record.
        sol = next((r.get("sol_tflops") for r in group if r.get("sol_tflops") is not None), None)
        source = next((r.get("sol_source") for r in group if r.get("sol_source") is not None), None)
        copy = next((r.get("copy_gbps") for r in group if r.get("copy_gbps") is not None), None)
        for r in group:
            eff = r.get("eff_tflops") if r in ok else None
            r["best_peer"] = best["system"] if best else ""
            if r.get("system_kind") not in ("dense_baseline", "dense_random", "sol_probe"):  # the denominators
                r["ratio_to_best_peer"] = eff / best["eff_tflops"] if eff and best else None
            if r.get("system") != "torch_bsr":
                continue
            r["ratio_to_dense"] = eff / dense["eff_tflops"] if eff and dense else None
            r["ratio_to_dense_random"] = eff / dense_random["eff_tflops"] if eff and dense_random else None
            r["speedup_vs_dense"] = dense["ms"] / r["ms"] if eff and dense else None
            r["sol_tflops"] = sol
            r["sol_source"] = source
            r["copy_gbps"] = copy
            gbps = r.get("gbps")
            r["pct_copy_bw"] = gbps / copy if gbps and copy else None
            if r.get("skinny"):
                r["pct_sol"] = r["pct_copy_bw"]
            else:
                r["pct_sol"] = eff / sol if eff and sol else None


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", help="bsr_bench JSON results (records are appended)")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--output", help="write here instead of overwriting the input")
    args = parser.parse_args(argv)
    if args.iters < 1 or args.warmup < 0:
        parser.error("--iters must be >= 1 and --warmup >= 0")

    import torch  # imported late so --help works without it
    if not torch.cuda.is_available():
        print("torch_peer: no CUDA GPU found; this benchmark needs an NVIDIA GPU (H100/H200)", file=sys.stderr)
        return 2
    with open(args.json) as f:
        records = json.load(f)
    records = [r for r in records if r.get("system") != "torch_bsr"]  # re-running replaces them
    cases, seen = [], set()
    for r in records:
        if r.get("case") not in seen:
            seen.add(r.get("case"))
            cases.append(r)
    props = torch.cuda.get_device_properties(0)
    flush = l2_flusher(torch, props.L2_cache_size)
    device = records[0].get("device", props.name) if records else props.name
    commit = records[0].get("commit", "unknown") if records else "unknown"
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for i, case in enumerate(cases):
        print(f"[{i + 1}/{len(cases)}] {case.get('case')}", file=sys.stderr)
        record = run_case(torch, case, args.iters, args.warmup, flush)
        record.update({"copy_gbps": case.get("copy_gbps"), "l2_gbps": case.get("l2_gbps"),
                       "device": device, "date": date, "commit": commit})
        print(f"  torch_bsr: {record['status']}" + (f", {record['ms']:.3f} ms" if "ms" in record else ""),
              file=sys.stderr)
        records.append(record)
    add_comparisons(records)
    with open(args.output or args.json, "w") as f:
        f.write("[\n" + ",\n".join("  " + json.dumps(r, allow_nan=False) for r in records) + "\n]\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
