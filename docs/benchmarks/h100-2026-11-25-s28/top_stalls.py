# Stall samples per SASS instruction from `ncu --page source --csv --print-source sass`:
# python3 top_stalls.py FILE.csv [FROM_HEX TO_HEX [N]] - totals by reason in the address range
# (offsets from the first instruction) and the N instructions with the most samples.
import csv, sys, collections
rows=list(csv.reader(open(sys.argv[1])))
hdr=rows[1]; data=rows[2:]
ix={h:i for i,h in enumerate(hdr)}
reasons=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
tot=collections.Counter(); total=0
lo=int(sys.argv[2],16) if len(sys.argv)>2 else 0; hi=int(sys.argv[3],16) if len(sys.argv)>3 else 1<<62
base=int(data[0][0],16)
per=[]
for r in data:
    a=int(r[0],16)-base
    s=int(r[ix['Warp Stall Sampling (All Samples)']] or 0); total+=s
    ex=int(r[ix['Instructions Executed']] or 0)
    if lo<=a<hi:
        for h in reasons: tot[h]+=int(r[ix[h]] or 0)
        per.append((s,a,ex,r[1].strip(),{h[6:]:int(r[ix[h]] or 0) for h in reasons if int(r[ix[h]] or 0)>0.15*max(s,1)}))
print('total samples',total,'in range',sum(p[0] for p in per))
for h,v in tot.most_common(12): print('  %-26s %7d %5.1f%%'%(h,v,100*v/max(1,sum(tot.values()))))
per.sort(reverse=True)
for s,a,ex,src,rs in per[:int(sys.argv[4]) if len(sys.argv)>4 else 40]:
    print('%6x %6d %5.1f%% %9d  %-58s %s'%(a,s,100*s/total,ex,src[:58],rs))
