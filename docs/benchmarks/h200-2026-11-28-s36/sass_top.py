import csv, sys, collections
f = sys.argv[1]
rows = list(csv.reader(open(f)))
hdr = rows[1]
idx = {h:i for i,h in enumerate(hdr)}
data = rows[2:]
def num(x):
    try: return float(x.replace(',',''))
    except: return 0.0
tot_exec = sum(num(r[idx["Instructions Executed"]]) for r in data)
tot_samp = sum(num(r[idx["Warp Stall Sampling (All Samples)"]]) for r in data)
print("total executed", tot_exec, "samples", tot_samp)
# group by opcode
ops = collections.Counter(); samp = collections.Counter()
for r in data:
    op = r[idx["Source"]].strip().split()
    if not op: continue
    o = op[0]
    if o.startswith('@'): o = op[1]
    o = o.split('.')[0]
    ops[o] += num(r[idx["Instructions Executed"]]); samp[o] += num(r[idx["Warp Stall Sampling (All Samples)"]])
for o, c in ops.most_common(25):
    print("%-10s %10.0f %5.1f%%  samples %5.1f%%" % (o, c, 100*c/tot_exec, 100*samp[o]/tot_samp))
# top stall lines
stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
print("top lines by samples:")
for r in sorted(data, key=lambda r: -num(r[idx["Warp Stall Sampling (All Samples)"]]))[:25]:
    s = sorted(((num(r[idx[h]]), h) for h in stalls), reverse=True)[:2]
    print("%s %-60s exec %8.0f samp %6.0f  %s" % (r[0], r[1][:60], num(r[idx["Instructions Executed"]]), num(r[idx["Warp Stall Sampling (All Samples)"]]), s))
