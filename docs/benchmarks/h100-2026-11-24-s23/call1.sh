set -u
nvidia-smi -L; nvidia-smi --query-gpu=clocks.max.sm,clocks.sm,power.limit --format=csv
export LD_LIBRARY_PATH=$PWD/.carry/lib:${LD_LIBRARY_PATH:-}
timeout 200 .carry/chain_probe 8 2>&1 | tee $OUT/chain8.txt
for m in 1 2; do
  BSRFLOW_EXP_PDL=$m timeout 120 .carry/bsrflow_tests "[skinny]" > $OUT/skinny_pdl$m.log 2>&1; echo "skinny tests pdl=$m rc=$? $(tail -3 $OUT/skinny_pdl$m.log | grep -E 'passed|failed')"
done
BSRFLOW_EXP_PDL=2 timeout 120 compute-sanitizer --tool racecheck .carry/bsrflow_tests "[skinnysmall]" > $OUT/race2.log 2>&1; echo "racecheck pdl2 rc=$? $(grep -E 'ERROR SUMMARY|hazard' $OUT/race2.log | tail -2)"
BSRFLOW_EXP_PDL=2 timeout 120 compute-sanitizer --tool memcheck .carry/bsrflow_tests "[skinnysmall]" > $OUT/mem2.log 2>&1; echo "memcheck pdl2 rc=$? $(grep -E 'ERROR SUMMARY' $OUT/mem2.log | tail -1)"
timeout 100 .carry/chain_probe 16 2>&1 | tee $OUT/chain16.txt | grep -E "pdl|read"
