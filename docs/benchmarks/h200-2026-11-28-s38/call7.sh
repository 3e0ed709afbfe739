#!/bin/bash
# Session 38 call 7 (H200): call 6's timers put the N = 64 cases' end on the SMs that hold one CTA
# more than the others (11008 x 64 x 4096, 32 x 32, 50%: 3-CTA SMs' main loops end 17.5 us
# median, 2-CTA SMs' 14.5; 64 x 64: 2-CTA SMs 19.5, 1-CTA SMs 15.5). Does cutting every row into
# k pieces - more, smaller CTAs that the hardware hands to whichever SM has room - even that out
# for more than the split rows' partial tiles and sums cost? Experiment binary = the landed tree +
# patches/exp_pieces.patch (BSRFLOW_EXP_PIECES=k: every row in k pieces, no last-wave cut).
# Variants k1 (whole rows), k2, k3, k4 against the landed binary (bsr_bench), two rounds.
R=$PWD/.carry
export LD_LIBRARY_PATH=$R/lib
C=$(BSRFLOW_GPU_BIN=/tmp/carry bash tests/gpu_machine.sh unpack)
source tests/ab_bench.sh
W=/tmp/w7; mkdir -p $W
(cd $W && ab_device > device.txt; cat device.txt)
SECONDS=0
cd $W
AB_BIN_DIR=$C AB_BUDGET_S=300 AB_COMMON="" AB_SYSTEMS="--systems bsrflow_skinny"
for k in 1 2 3 4; do ab_variant k$k bsr_bench_pieces BSRFLOW_EXP_PIECES=$k; done
for b in 32 64; do
  for d in 25 50; do ab_case "m11008n64b${b}d$d" --m 11008 --n 64 --k 4096 --block $b --density 0.$d; done
  ab_case "m4096n64b${b}d50" --m 4096 --n 64 --k 11008 --block $b --density 0.5
  ab_case "m11008n16b${b}d50" --m 11008 --n 16 --k 4096 --block $b --density 0.5
done
ab_run 2 bsr_bench k1 k2 k3 k4
ab_summary > summary.txt
rm -f b_*.json
echo "A/B done (${SECONDS}s)"
cd /tmp && tar czf $OUT/results.tgz w7
grep -v "^rc=0 " $W/runs.txt | head
echo "wrong records: $(grep -ci wrong $W/summary.txt)"
grep gain $W/summary.txt | awk '{print $1, $3, $5}' | paste - - - -
