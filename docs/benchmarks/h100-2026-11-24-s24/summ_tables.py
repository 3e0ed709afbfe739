# Session 24: the figures of a standard-suite JSON that the docs/benchmarks/<gpu>.md summary quotes.
import json, sys
recs = json.load(open(sys.argv[1]))
recs = recs["records"] if isinstance(recs, dict) else recs
def get(case, s):
    for r in recs:
        if r.get('case') == case and r.get('system') == s and r.get('status') in ('ok', 'probe'): return r
cb = [get(f'8192^3 {b}x{b} 12.5% uniform f16', 'cublas_dense')['eff_tflops'] for b in (16, 32, 64, 128)]
cb += [get(f'8192^3 {b}x{b} 12.5% uniform bf16', 'cublas_dense')['eff_tflops'] for b in (16, 32, 64, 128)]
print('cuBLAS at 12.5%% uniform: %.0f-%.0f' % (min(cb), max(cb)))
for b in (16, 32, 64, 128):
    u = f'8192^3 {b}x{b} 12.5% uniform f16'
    k, p, c = get(u, 'bsrflow_sm90'), get(u, 'bsrflow_sm90_copy_probe'), get(u, 'cublas_dense')
    pl = get(f'8192^3 {b}x{b} 12.5% powerlaw f16', 'bsrflow_sm90')
    bf = get(f'8192^3 {b}x{b} 12.5% uniform bf16', 'bsrflow_sm90')
    print('%3d: %s %.0f TF, of cuBLAS %.3f, probe of cuBLAS %.3f, of probe %.2f, pl/u %.2f (pl %.0f), bf16/f16 %.3f' % (
        b, k['config'], k['eff_tflops'], k['eff_tflops'] / c['eff_tflops'], p['eff_tflops'] / c['eff_tflops'],
        k['eff_tflops'] / p['eff_tflops'], pl['eff_tflops'] / k['eff_tflops'], pl['eff_tflops'], bf['eff_tflops'] / k['eff_tflops']))
for dt in ('f16', 'bf16'):
    c = f'8192^3 128x128 50% uniform {dt}'
    k, d = get(c, 'bsrflow_sm90'), get(c, 'cublas_dense')
    print('128 50%% %s: %.0f TF = %.3f of cuBLAS (%.0f)' % (dt, k['eff_tflops'], k['eff_tflops'] / d['eff_tflops'], d['eff_tflops']))
worst = (9, '')
for c in sorted(set(r['case'] for r in recs)):
    k = get(c, 'bsrflow_sm90')
    peers = [r for r in recs if r.get('case') == c and r.get('system_kind') == 'sparse_peer' and r.get('status') == 'ok']
    if k and peers:
        bp = max(peers, key=lambda r: r['eff_tflops'])
        if k['eff_tflops'] / bp['eff_tflops'] < worst[0]: worst = (k['eff_tflops'] / bp['eff_tflops'], c + ' ' + bp['system'])
print('min vs best peer: %.2f %s' % worst)
mhz = [r['sm_mhz'] for r in recs if r.get('sm_mhz')]
print('NVML MHz %.0f-%.0f' % (min(mhz), max(mhz)))
