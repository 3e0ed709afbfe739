# Session 23: issue 4's figures from a bsr_bench JSON, with the SM clock (sm_mhz) of each series.
import json, sys
d = json.load(open(sys.argv[1]))
recs = d["records"] if isinstance(d, dict) else d
def get(case, s):
    for r in recs:
        if r.get('case') == case and r.get('system') == s and r.get('status') in ('ok', 'probe'): return r
    return None
def mhz(r): return '%.0f' % r['sm_mhz'] if r and r.get('sm_mhz') else '-'
print('device', recs[0].get('device'), recs[0].get('commit'))
for b in ['16x16', '32x32', '64x64', '128x128']:
    u = f'8192^3 {b} 12.5% uniform f16'; p = f'8192^3 {b} 12.5% powerlaw f16'; bf = f'8192^3 {b} 12.5% uniform bf16'
    k = get(u, 'bsrflow_sm90'); pr = get(u, 'bsrflow_sm90_copy_probe'); pl = get(p, 'bsrflow_sm90'); kb = get(bf, 'bsrflow_sm90'); cb = get(u, 'cublas_dense')
    print(b, 'T=%.0f ratio=%.3f probe/dense=%.3f of_probe=%.2f pl/u=%.2f bf16/f16=%.3f cublas=%.0f | MHz f16 %s bf16 %s pl %s probe %s cublas %s' % (
        k['eff_tflops'], k['ratio_to_dense'], pr['eff_tflops'] / cb['eff_tflops'], k['pct_sol'], pl['eff_tflops'] / k['eff_tflops'],
        kb['eff_tflops'] / k['eff_tflops'], cb['eff_tflops'], mhz(k), mhz(kb), mhz(pl), mhz(pr), mhz(cb)))
for dt in ['f16', 'bf16']:
    c = f'8192^3 128x128 50% uniform {dt}'; k = get(c, 'bsrflow_sm90'); print('128 50%', dt, '%.0f %.3f MHz %s' % (k['eff_tflops'], k['ratio_to_dense'], mhz(k)))
print('tuned vs heuristic where the configuration is the same but the rates differ by > 2%:')
for r in recs:
    if r.get('system') != 'bsrflow_sm90_tuned' or r.get('status') != 'ok': continue
    h = get(r['case'], 'bsrflow_sm90')
    if h and r.get('config') == h.get('config') and abs(r['eff_tflops'] / h['eff_tflops'] - 1) > 0.02:
        print('  %-40s heuristic %.0f TFLOPS @ %s MHz, tuned %.0f @ %s MHz (%s W vs %s W)' % (
            r['case'], h['eff_tflops'], mhz(h), r['eff_tflops'], mhz(r), h.get('power_w'), r.get('power_w')))
worst = (9, None)
for c in sorted(set(r['case'] for r in recs)):
    k = get(c, 'bsrflow_sm90')
    peers = [r for r in recs if r.get('case') == c and r.get('system_kind') == 'sparse_peer' and r.get('status') == 'ok']
    if not k or not peers: continue
    bp = max(peers, key=lambda r: r['eff_tflops'])
    if k['eff_tflops'] / bp['eff_tflops'] < worst[0]: worst = (k['eff_tflops'] / bp['eff_tflops'], c + ' ' + bp['system'])
print('min vs best peer: %.2f %s' % worst)
lim = sorted(set(r.get('clock_limits') for r in recs if r.get('clock_limits')))
print('clock limits seen:', lim)
