import sys, collections
sys.path.insert(0,'/work/main/docs/benchmarks/h100-2026-11-24-s18/patches')
import tile_timers as T
for path in sys.argv[1:]:
    by = T.tiles(T.load(path))
    ns=[]; es=[]; ends=[]
    for k,ts in by.items():
        sp=[r for r in ts if r['slot']>=0]
        ns.append(len(sp)); es.append(sum(r['epi_end']-r['loop_end'] for r in sp)); ends.append(ts[-1]['epi_end'])
    print(path.split('/')[-1], 'CTAs',len(by),'split pieces total',sum(ns),'per CTA hist',sorted(collections.Counter(ns).items()),
          'split epi us per CTA mean %.1f max %.1f'%(sum(es)/len(es),max(es)))
    # correlation: end vs number of split pieces
    byn=collections.defaultdict(list)
    for n,e in zip(ns,ends): byn[n].append(e)
    print('  end by #split:', {n: round(sum(v)/len(v),1) for n,v in sorted(byn.items())})
    # last-ending CTAs: their last tile
    last=sorted(by.items(), key=lambda kv:-kv[1][-1]['epi_end'])[:8]
    for k,ts in last:
        r=ts[-1]; print('  ',k,'end %.1f'%r['epi_end'],'last tile blocks',int(T.blocks(r)),'split',r['slot']>=0,'group',int(r['group']),'ntiles',len(ts))
