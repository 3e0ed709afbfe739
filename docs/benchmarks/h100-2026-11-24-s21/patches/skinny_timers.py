import sys, statistics as st
for f in sys.argv[1:]:
    rows=[list(map(int,l.split())) for l in open(f)]
    T=[r[1:] for r in rows]
    t0=min(r[0] for r in T if r[0])
    def rel(k): return [ (r[k]-t0)/1000 for r in T if r[k] ]
    def q(v): 
        if not v: return "-"
        v=sorted(v); return f"min {v[0]:6.2f} p50 {v[len(v)//2]:6.2f} max {v[-1]:6.2f} (n {len(v)})"
    print(f"== {f}: {len(T)} CTAs")
    names=['entry','prologue done','producer 1st stage issued','1st data in','main loop done','C / ticket done','row sum done']
    for k,n in enumerate(names): 
        v=rel(k)
        if v: print(f"  {n:26s} {q(v)}")
    # per-CTA durations
    def d(a,b): return [ (r[b]-r[a])/1000 for r in T if r[a] and r[b] ]
    print("  prologue (1-0)       ", q(d(0,1)))
    print("  first data (3-1)     ", q(d(1,3)))
    print("  main loop (4-3)      ", q(d(3,4)))
    print("  epilogue (5-4)       ", q(d(4,5)))
    if d(5,6): print("  row sum (6-5)        ", q(d(5,6)))
    end=[max(r[4],r[5],r[6])-t0 for r in T]
    print(f"  span: last end {max(end)/1000:.2f} us")
