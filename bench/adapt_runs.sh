#!/bin/sh
# Issue 12's adaptation runs (the pre-registered lines at the end of bench/bots_targets.sh),
# the five pairings at once, one process each, for running in the background:
#   sh bench/adapt_runs.sh SEED DEALS
# Output: bench/results/bots_adapt_*_seedSEED.out (progress lines, then the JSON summary).
cd "$(dirname "$0")/.."
seed=${1:-71}
deals=${2:-16}
for h in over nilhappy nocover under; do
  nice -n 10 python3 -m spades arena --a "human:$h/hard" --b "human:$h/hard:noadapt" --matches \
    --deals "$deals" --seed "$seed" --jobs 1 --json > "bench/results/bots_adapt_human_${h}_hard_seed${seed}.out" 2>&1 &
done
nice -n 10 python3 -m spades arena --a "hard/hard" --b "hard:noadapt/hard:noadapt" --matches \
  --deals "$deals" --seed "$seed" --jobs 1 --json > "bench/results/bots_adapt_hard_pair_seed${seed}.out" 2>&1 &
wait
