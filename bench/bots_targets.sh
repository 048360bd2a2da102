#!/bin/sh
# The arena runs behind the figures in docs/bots.md ("Results"). Long: run in the
# background, at most two at once on a 2-core machine. Output: bench/results/bots_*.out
set -e
cd "$(dirname "$0")/.."
mkdir -p bench/results
spades arena --a beginner --b random --deals 500 --jobs 1 --seed 7 --json --quiet > bench/results/bots_beginner_vs_random_cardems.out
spades arena --a intermediate --b beginner --deals 500 --jobs 1 --seed 7 --json --quiet > bench/results/bots_intermediate_vs_beginner_cardems.out
spades arena --a intermediate --b beginner --deals 200 --matches --jobs 1 --seed 5 --json --quiet > bench/results/bots_intermediate_vs_beginner_matches.out
spades arena --a expert --b intermediate --deals 200 --jobs 2 --seed 11 --json > bench/results/bots_expert_vs_intermediate_cardems.out
# Equal time against ismcts, seeds 13, 29, 41 and 53: the previous expert (before rescored bids,
# commit 2e06a39 and earlier); rerunning them now measures the current one.
spades arena --a expert:0.1s --b ismcts:0.1s --deals 200 --jobs 1 --seed 13 --json > bench/results/bots_expert_vs_ismcts_equal_time.out
spades arena --a expert:0.1s --b ismcts:0.1s --deals 120 --jobs 1 --seed 29 --json > bench/results/bots_expert_vs_ismcts_equal_time_seed29.out
spades arena --a expert --b intermediate --rules race400 --players 3 --deals 200 --jobs 2 --seed 17 --json > bench/results/bots_expert_vs_intermediate_race400_3p.out
spades arena --a expert --b intermediate --rules race400 --players 6 --deals 100 --jobs 2 --seed 19 --json > bench/results/bots_expert_vs_intermediate_race400_6p.out
spades arena --a expert --b intermediate --rules cards4net --deals 100 --jobs 2 --seed 23 --json > bench/results/bots_expert_vs_intermediate_cards4net.out
# Fourth equal-time run, decided before its result was known (started 2026-11-29 19:54 UTC):
# 800 deals, seed 53, same code as the runs above. The target counts as shown if this run's
# 95% interval is above zero; the pooled estimate over seeds 13, 29, 41 and 53 (1,320 deals,
# weighted by deals, interval from each run's standard error) is reported alongside.
spades arena --a expert:0.1s --b ismcts:0.1s --deals 800 --jobs 2 --seed 53 --json > bench/results/bots_expert_vs_ismcts_equal_time_seed53.out
# After the expert's bids moved to rescoring (one play-out per sampled deal scores every
# number bid, estimate ± 3), decided before its result was known: 500 deals, seed 61. The target counts as
# shown for this code if the 95% interval is above zero.
spades arena --a expert:0.1s --b ismcts:0.1s --deals 500 --jobs 2 --seed 61 --json > bench/results/bots_expert_vs_ismcts_equal_time_rescored_seed61.out
# Issue 12: the adapting partner, decided before the runs started and committed before them:
# whole matches (--matches, so there is a match's history to adapt to), seed 71, the adapting
# CPU at the `hard` strength (expert:12): the default expert (100 deals per decision) costs
# about 80 s of CPU per duplicate match, far too slow for 300 x 5 on this shared machine in
# the time there was. History of this plan, all disclosed: registered at 60 deals per pairing
# (18:40 UTC), stopped after 1 deal (+223.5) as too slow; re-registered at 24 deals, run one
# pairing after another at --jobs 2 (18:42), stopped after 1 deal (+311.5) because under nice
# 10 on the loaded machine each worker got about 6% of a core, and because the cover count
# was then corrected (commit 7945543: trumping over a winning Nil partner, not following
# suit). Final plan (18:45 UTC): the code of the commit that adds this text, 16 deals per
# pairing, the five pairings at once at --jobs 1 each (bench/adapt_runs.sh 71 16), each
# result read by its own 95% interval:
for h in over nilhappy nocover under; do
  nice -n 10 spades arena --a "human:$h/hard" --b "human:$h/hard:noadapt" --matches --deals 16 --seed 71 --jobs 1 --json > "bench/results/bots_adapt_human_${h}_hard_seed71.out" &
done
nice -n 10 spades arena --a "hard/hard" --b "hard:noadapt/hard:noadapt" --matches --deals 16 --seed 71 --jobs 1 --json > bench/results/bots_adapt_hard_pair_seed71.out &
wait
# Issue 12's ceiling, decided before the runs (19:53 UTC, committed before them): the
# all-seeing expert (its sampled deals are the real hands; arena only) and the expert, each
# against intermediate on the same 300 deals (seed 11) at the default budget; reported with
# both intervals and the expert's share of the all-seeing edge (target: at least 60%).
nice -n 10 spades arena --a allseeing --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_allseeing_vs_intermediate_seed11.out
nice -n 10 spades arena --a expert --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_expert_vs_intermediate_seed11.out
# The expert's ceiling run above was stopped at 19:53 UTC after 5 of its 300 deals (+56.8 so
# far), for time only: it would not have finished before the deadline. Its deals 0-199 are
# those of bots_expert_vs_intermediate_cardems.out (seed 11, the same expert in single hands:
# adaptation changes nothing there), which stands in for it, disclosed as such in docs/bots.md.
# 2026-12-01 03:10 UTC, before the runs: the registered ceiling runs above are run as they
# stand on the code of the commit that adds these lines (both again, so that the two are over
# the identical 300 deals and the same code), without nice, at --jobs 2, one after the other;
# read as registered: both intervals and the expert's share of the all-seeing edge (target 60%).
spades arena --a expert --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_expert_vs_intermediate_seed11.out
spades arena --a allseeing --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_allseeing_vs_intermediate_seed11.out
# Issue 12, after the expert's default became 200 sampled deals (commit before this one;
# chosen on a 100-deal pilot with seed 12, bench/results/bots_pilot_*_seed12.out, not on the
# ceiling's deals), decided before the runs (2026-12-01 03:40 UTC) and committed before them.
# The runs use the code of the commit that adds these lines, compiled (a clone of it in
# /work/runs/code, so that work on main cannot change them), at --jobs 2, one after another in
# the order below; each with --results so that a stopped run continues where it stopped (the
# results files are kept outside git, in /work/runs/; the summaries go to bench/results/).
# 1. The ceiling at the new default budget: both against intermediate on the same 300 deals
#    (seed 11) as the runs above; read as registered: both intervals, and the expert's share
#    of the all-seeing edge (target: at least 60%).
spades arena --a expert --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_expert200_vs_intermediate_seed11.out
spades arena --a allseeing --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_allseeing200_vs_intermediate_seed11.out
# 2. The adapting partner at the default expert, replacing the `hard` plan above for the
#    target: whole matches (--matches), seed 73 (not used before), 300 duplicate matches per
#    pairing, the adapting `expert` beside the same model of a person on both sides against
#    `expert:noadapt` beside it, and both seats adapting against neither. Each result is read
#    by its own 95% interval: above zero beside each model of a person; including or above
#    zero for both adapting vs neither. Nothing is pooled or dropped.
for h in over under nilhappy nocover; do
  spades arena --a "human:$h/expert" --b "human:$h/expert:noadapt" --matches --deals 300 --seed 73 --jobs 2 \
    --results "/work/runs/adapt_${h}_expert_seed73.jsonl" --json > "bench/results/bots_adapt_human_${h}_expert_seed73.out"
done
spades arena --a "expert/expert" --b "expert:noadapt/expert:noadapt" --matches --deals 300 --seed 73 --jobs 2 \
  --results /work/runs/adapt_pair_expert_seed73.jsonl --json > bench/results/bots_adapt_expert_pair_seed73.out
# 3. The ladder's top step under the other profiles at the new default (registered 03:40 UTC
#    with the runs above, run beside them at nice 5 from the same clone): the same commands
#    and seeds as the results in docs/bots.md, each read by its own interval (above zero).
spades arena --a expert --b intermediate --rules race400 --players 3 --deals 200 --jobs 2 --seed 17 --json > bench/results/bots_expert200_vs_intermediate_race400_3p.out
spades arena --a expert --b intermediate --rules race400 --players 6 --deals 100 --jobs 2 --seed 19 --json > bench/results/bots_expert200_vs_intermediate_race400_6p.out
spades arena --a expert --b intermediate --rules cards4net --deals 100 --jobs 2 --seed 23 --json > bench/results/bots_expert200_vs_intermediate_cards4net.out
# What happened to the runs registered at 03:40:
# the ceiling at 200 deals ran (expert +45.7 [+39.2, +52.2], no better than +45.9 at 100;
# the all-seeing expert's play does not depend on its budget: every sampled deal is the real
# one). So the default went back to 100 (commit before this one) and the adaptation runs at
# 200, which had not started, were dropped unstarted; the race400 3-player run at 200 was
# stopped after 52 of 200 deals (+10.4 [+2.7, +18.0] so far; result file kept) and the other
# profile runs at 200 never started. The per-profile results at 100 in docs/bots.md stand:
# the expert's single-hand decisions have not changed since (compiled = pure, checked).
# Registered now (2026-12-01 03:45 UTC), before they run, on the code of the commit that adds
# these lines, from a clone of it (/work/runs/code100), one after another at --jobs 2, each
# resumable with --results (files kept outside git in /work/runs/): the adapting partner at
# the default expert (100 deals per decision), whole matches, seed 73, 300 duplicate matches
# per pairing; each read by its own 95% interval: above zero beside each model of a person,
# including or above zero for both adapting vs neither. Nothing pooled or dropped.
for h in over under nilhappy nocover; do
  spades arena --a "human:$h/expert" --b "human:$h/expert:noadapt" --matches --deals 300 --seed 73 --jobs 2 \
    --results "/work/runs/adapt100_${h}_seed73.jsonl" --json > "bench/results/bots_adapt_human_${h}_expert_seed73.out"
done
spades arena --a "expert/expert" --b "expert:noadapt/expert:noadapt" --matches --deals 300 --seed 73 --jobs 2 \
  --results /work/runs/adapt100_pair_seed73.jsonl --json > bench/results/bots_adapt_expert_pair_seed73.out
# What became of the runs registered at 03:45: the adaptation run beside human:over was
# stopped after 10 of 300 matches (mean +62.9 so far; the file is kept in /work/runs/), the
# others never started, because the expert changed: it now reads the other seats' plays
# (commit 945e224, PLAY_WEIGHT 0.5), chosen on pilot runs that are not the registered deals
# (bench/results/bots_pilot_*: paired against the expert before, +4.8 [-0.9, +10.6] over 300
# deals with seed 14, +3.4 over 100 deals with seed 12; 0.2 did worse on seed 12).
# Registered now (2026-12-01 04:05 UTC), before any of them runs, on the code of the commit
# that adds these lines, run from a clone of it (/work/runs/code_pw), one after another at
# --jobs 2 with --results (files outside git in /work/runs/), in this order, each read by
# its own 95% interval, nothing pooled or dropped:
# 1. the ceiling: the expert against intermediate on the 300 deals of seed 11 (the all-seeing
#    expert's +77.2 [+70.6, +83.7] on them does not depend on the expert's sampling); target:
#    at least 60% of the all-seeing edge;
spades arena --a expert --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_expert_pw_vs_intermediate_seed11.out
# 2. the other profiles, the same commands and seeds as before (interval above zero);
spades arena --a expert --b intermediate --rules race400 --players 3 --deals 200 --jobs 2 --seed 17 --json > bench/results/bots_expert_pw_vs_intermediate_race400_3p.out
spades arena --a expert --b intermediate --rules race400 --players 6 --deals 100 --jobs 2 --seed 19 --json > bench/results/bots_expert_pw_vs_intermediate_race400_6p.out
spades arena --a expert --b intermediate --rules cards4net --deals 100 --jobs 2 --seed 23 --json > bench/results/bots_expert_pw_vs_intermediate_cards4net.out
# 3. the adapting partner at the default expert, whole matches, seed 73, 300 duplicate
#    matches per pairing: above zero beside each model of a person; including or above zero
#    for both adapting vs neither.
for h in over under nilhappy nocover; do
  spades arena --a "human:$h/expert" --b "human:$h/expert:noadapt" --matches --deals 300 --seed 73 --jobs 2 \
    --results "/work/runs/adapt_pw_${h}_seed73.jsonl" --json > "bench/results/bots_adapt_human_${h}_expert_seed73.out"
done
spades arena --a "expert/expert" --b "expert:noadapt/expert:noadapt" --matches --deals 300 --seed 73 --jobs 2 \
  --results /work/runs/adapt_pw_pair_seed73.jsonl --json > bench/results/bots_adapt_expert_pair_seed73.out
# Registered now (2026-12-01 06:16 UTC), before either runs: the expert against ismcts at equal
# time, budgets in CPU seconds of the deciding thread (fair while other runs share the
# machine), 500 duplicate deals each, cardems, new seeds; run from the clone of 96c2fc0
# (/work/runs/code_pw: the bots' code there is this commit's, only arena --help text changed
# since), --jobs 2, resumable with --results (files outside git in /work/runs/). Each read by
# its own 95% interval: above zero at 0.25 s; above zero with the mean at least +15 at 0.5 s.
# Nothing pooled or dropped. The 0.25 s run starts now beside the adaptation runs above; the
# 0.5 s run after it.
spades arena --a expert:0.25cpu --b ismcts:0.25cpu --deals 500 --jobs 2 --seed 101 \
  --results /work/runs/eq025_seed101.jsonl --json > bench/results/bots_expert_vs_ismcts_025cpu_seed101.out
spades arena --a expert:0.5cpu --b ismcts:0.5cpu --deals 500 --jobs 2 --seed 103 \
  --results /work/runs/eq05_seed103.jsonl --json > bench/results/bots_expert_vs_ismcts_05cpu_seed103.out
# What became of the equal-time runs registered at 06:16: the 0.25 s run was stopped after
# 123 of 500 deals (06:49 UTC), its interval already below zero (-10.5 [-20.7, -0.3]; the
# expert's nils made 46 of 87, ismcts's 53 of 73), to give the machine to the adaptation
# runs, which stay valid while the expert with a time budget changes; not read as a result.
# The 0.5 s run never started. Both are to be registered anew for the expert that changes.
# 2026-12-01 10:45 UTC. What became of the adaptation runs registered at 04:05 beside
# human:nilhappy, human:nocover and the pair: their --results files were in /work/runs/, outside
# git, and did not survive the end of that session (the machine was new at 10:28). Beside
# human:nilhappy 247 of 300 matches had been played (-1.0 [-31.9, +30.0], progress, never read
# as a result); nocover and the pair had not started. They start again from match 1 with the
# same commands, seeds and code (the bots' code is 96c2fc0's: only arena --help text changed
# since; run from a clone of 8e4a7ba with its own compiled build), one after another in the
# order below. Their --results files are now in git (bench/results/runs/), committed with
# whatever is played when a session ends, so the next session resumes them (a resumed run
# replays the committed matches and plays the rest: the same matches, the same result).
for h in nilhappy nocover; do
  spades arena --a "human:$h/expert" --b "human:$h/expert:noadapt" --matches --deals 300 --seed 73 --jobs 2 \
    --results "bench/results/runs/adapt_pw_${h}_seed73.jsonl" --json > "bench/results/bots_adapt_human_${h}_expert_seed73.out"
done
spades arena --a "expert/expert" --b "expert:noadapt/expert:noadapt" --matches --deals 300 --seed 73 --jobs 2 \
  --results bench/results/runs/adapt_pw_pair_seed73.jsonl --json > bench/results/bots_adapt_expert_pair_seed73.out
# 2026-12-01 11:50 UTC: the expert with a budget in seconds changed (b4fcbf0: the cards before
# the last four tricks by a tree search), so the equal-time runs registered at 06:16 (seeds 101
# and 103) are void; they are to be registered anew, with new seeds, once the time-budget
# expert is settled (pilots in bench/results/bots_pilot_tree_025cpu.md). Budgets in deals (the
# default expert, hard, and every run above that uses them) did not change.
# Registered 2026-12-01 21:06 UTC, before either starts: the expert against ismcts at equal
# time, for the time-budget expert of this commit (every card by the tree to the end of the
# hand, deals read by bids only; docs/bots.md "Adopted for budgets in seconds"). Budgets in CPU
# seconds of the deciding thread, 500 duplicate deals each, cardems, new seeds 107 and 109,
# --jobs 2, resumable: the --results files are committed (gzipped) with whatever is played when
# a session ends, and a later session gunzips and resumes them with the same command. Each read
# by its own 95% interval: above zero at 0.25 s; above zero with the mean at least +15 at 0.5 s.
# Nothing pooled or dropped. The 0.25 s run first, then the 0.5 s run.
spades arena --a expert:0.25cpu --b ismcts:0.25cpu --deals 500 --jobs 2 --seed 107 \
  --results bench/results/runs/eq025_seed107.jsonl --json > bench/results/bots_expert_vs_ismcts_025cpu_seed107.out
spades arena --a expert:0.5cpu --b ismcts:0.5cpu --deals 500 --jobs 2 --seed 109 \
  --results bench/results/runs/eq05_seed109.jsonl --json > bench/results/bots_expert_vs_ismcts_05cpu_seed109.out
# 2026-12-01 22:35 UTC: the 0.25 s run (seed 107) finished: -5.8 [-10.2, -1.4] over 500 deals,
# not met. The 0.5 s run (seed 109) was withdrawn before it played a deal (it was stopped seconds
# after it started, with only its header written), because the 0.25 s result puts the +15 it
# asks for out of reach; the time-budget expert is to change again, and 0.5 s is to be
# registered anew for it, with a new seed.
# Registered 2026-12-02 00:35 UTC (commit bc08e27), before either starts, for the time-budget expert of this
# commit: every card by the tree (as for seeds 107/109), and number bids scored over the spread
# of real play around a play-out (ExpertBot trick_noise=1, TRICK_SPREAD measured by
# bench/trick_spread.py on 150 hands; pilots in bench/results/bots_pilot_tree_025cpu.md).
# Same protocol as the seeds 107/109 runs: CPU seconds of the deciding thread, 500 duplicate
# deals each, cardems, --jobs 2, new seeds 111 and 113, resumable (the --results files are
# committed gzipped with whatever is played when a session ends; a later session gunzips them
# and resumes with the same command and code). Each read by its own 95% interval: above zero
# at 0.25 s; above zero with the mean at least +15 at 0.5 s. Nothing pooled or dropped. The
# 0.25 s run first, then the 0.5 s run.
spades arena --a expert:0.25cpu --b ismcts:0.25cpu --deals 500 --jobs 2 --seed 111 \
  --results bench/results/runs/eq025_seed111.jsonl --json > bench/results/bots_expert_vs_ismcts_025cpu_seed111.out
spades arena --a expert:0.5cpu --b ismcts:0.5cpu --deals 500 --jobs 2 --seed 113 \
  --results bench/results/runs/eq05_seed113.jsonl --json > bench/results/bots_expert_vs_ismcts_05cpu_seed113.out
# 2026-12-02 02:11 UTC: the 0.25 s run (seed 111) finished: -1.5 [-5.6, +2.6] over 500 deals,
# not met (the interval includes zero). The 0.5 s run (seed 113) is withdrawn before it starts
# (no deal played, no --results file): at 0.25 s the expert is level with ismcts, so the +15 at
# 0.5 s is out of reach of this expert; 0.5 s is to be registered anew, with a new seed, for an
# expert that changes.
# Registered 2026-12-02 03:15 UTC, before any of them starts: the adapting partner, for the
# expert of commit d8e0e0e (read_spread on by default: each seat's bids read by its own
# spread, and moved in play-outs by its habit on average; chosen on bench/bid_reading_probe.py
# and a 40-match pilot beside human:under with seed 301, not on these deals). Whole matches,
# new seed 307, 300 duplicate matches per pairing, the same pairings as seed 73, run from a
# clone of this commit with its own compiled build, one after another at --jobs 2 in this
# order, resumable (the --results files are committed gzipped with whatever is played when a
# session ends; a later session gunzips them and resumes with the same command and code).
# Each read by its own 95% interval: above zero beside each model of a person; including or
# above zero for both adapting vs neither. Nothing pooled or dropped; these replace the seed-73
# results for the expert of this commit.
spades arena --a "human:under/expert" --b "human:under/expert:noadapt" --matches --deals 300 --seed 307 --jobs 2 \
  --results bench/results/runs/adapt_rs_under_seed307.jsonl --json > bench/results/bots_adapt_human_under_expert_seed307.out
spades arena --a "expert/expert" --b "expert:noadapt/expert:noadapt" --matches --deals 300 --seed 307 --jobs 2 \
  --results bench/results/runs/adapt_rs_pair_seed307.jsonl --json > bench/results/bots_adapt_expert_pair_seed307.out
for h in nilhappy over nocover; do
  spades arena --a "human:$h/expert" --b "human:$h/expert:noadapt" --matches --deals 300 --seed 307 --jobs 2 \
    --results "bench/results/runs/adapt_rs_${h}_seed307.jsonl" --json > "bench/results/bots_adapt_human_${h}_expert_seed307.out"
done
# 2026-12-02 03:26 UTC: the seed-307 runs registered at 03:15 are withdrawn. The run beside
# human:under was stopped after 56 of 300 matches (-1.7 [-37.1, +33.6] so far; never read as a
# result; the others had not started) because a defect was found in the expert's candidate
# cards (commit 17616dd): distinct_cards counted a card on the table in the open trick as
# gone, so it merged two held cards on either side of it (holding the ace and the 5 of clubs
# with the jack and 7 on the table, only the 5 was a candidate). In 236 of 5,775 mid-trick
# choices of intermediate play (200 deals) a card that would win the trick was dropped. It
# changes the default expert, so these runs are to be registered anew for the fixed one.
# Registered 2026-12-02 03:43 UTC, before any of them starts: the adapting partner, for the
# expert of commit 17616dd (read_spread on by default, and the candidate-card defect fixed).
# The same protocol as the withdrawn seed-307 runs: whole matches, new seed 311, 300 duplicate
# matches per pairing, run from a clone of this commit with its own compiled build, one after
# another at --jobs 2 in this order, resumable (the --results files are committed gzipped with
# whatever is played when a session ends; a later session gunzips them and resumes with the
# same command and code). Each read by its own 95% interval: above zero beside each model of a
# person; including or above zero for both adapting vs neither. Nothing pooled or dropped;
# these replace the seed-73 results for the expert of this commit.
spades arena --a "human:under/expert" --b "human:under/expert:noadapt" --matches --deals 300 --seed 311 --jobs 2 \
  --results bench/results/runs/adapt_fx_under_seed311.jsonl --json > bench/results/bots_adapt_human_under_expert_seed311.out
spades arena --a "expert/expert" --b "expert:noadapt/expert:noadapt" --matches --deals 300 --seed 311 --jobs 2 \
  --results bench/results/runs/adapt_fx_pair_seed311.jsonl --json > bench/results/bots_adapt_expert_pair_seed311.out
for h in nilhappy over nocover; do
  spades arena --a "human:$h/expert" --b "human:$h/expert:noadapt" --matches --deals 300 --seed 311 --jobs 2 \
    --results "bench/results/runs/adapt_fx_${h}_seed311.jsonl" --json > "bench/results/bots_adapt_human_${h}_expert_seed311.out"
done
# 2026-12-02 05:34 UTC: the seed-311 run beside human:under finished (+24.5 [+7.5, +41.4], met).
# The pair run was stopped at the end of the session after 138 of 300 matches (its records in
# bench/results/runs/adapt_fx_pair_seed311.jsonl.gz); it goes on with the same command and
# code (a clone of 411d34d), then nilhappy, over, nocover as registered.
# 2026-12-02 06:58 UTC: the seed-311 pair run finished (+2.3 [-16.0, +20.7], met: includes zero);
# the run beside human:nilhappy started at once with the same code.
# 2026-12-02 08:31 UTC: the seed-311 run beside human:nilhappy finished (-4.7 [-36.0, +26.6],
# not met); the run beside human:over started at once with the same code.
# 2026-12-02 08:47 UTC: the run beside human:over was stopped at the end of the session after 88
# of 300 matches (its records in bench/results/runs/adapt_fx_over_seed311.jsonl.gz); it goes on
# with the same command and code (a clone of 411d34d), then nocover as registered.
# Registered 2026-12-02 10:20 UTC, before any of them starts: the ceiling, the ladder's top rung
# and the per-profile results, measured again for the expert with the candidate-card defect
# fixed (commit 17616dd; the bots of this commit are the same). The same commands, deals and
# seeds as the runs they replace, on the code of the commit that adds these lines, one after
# another at --jobs 2 once the seed-311 adaptation runs above have finished. Read as before:
# the ceiling by both intervals and the expert's share of the all-seeing edge (target at least
# 60%), the others by their own 95% interval (above zero). Nothing pooled or dropped.
spades arena --a expert --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_expert_fx_vs_intermediate_seed11.out
spades arena --a allseeing --b intermediate --deals 300 --jobs 2 --seed 11 --json > bench/results/bots_ceiling_allseeing_fx_vs_intermediate_seed11.out
spades arena --a expert --b intermediate --rules race400 --players 3 --deals 200 --jobs 2 --seed 17 --json > bench/results/bots_expert_fx_vs_intermediate_race400_3p.out
spades arena --a expert --b intermediate --rules race400 --players 6 --deals 100 --jobs 2 --seed 19 --json > bench/results/bots_expert_fx_vs_intermediate_race400_6p.out
spades arena --a expert --b intermediate --rules cards4net --deals 100 --jobs 2 --seed 23 --json > bench/results/bots_expert_fx_vs_intermediate_cards4net.out
# 2026-12-02 10:21 UTC: the seed-311 run beside human:over finished (+30.0 [+9.7, +50.2] over 300
# matches, met; 88 played last session, 212 this one from the stored records, same code, a clone
# of 411d34d); the run beside human:nocover started at once with the same code.
# 2026-12-02 10:55 UTC: the seed-311 run beside human:nocover finished (+73.3 [+48.5, +98.2] over
# 300 matches, met). All five seed-311 runs are done: under, pair, over, nocover met; nilhappy not.
# Registered 2026-12-02 11:05 UTC, before it starts: equal time against ismcts at 0.25 s of CPU
# for the expert with the candidate-card defect fixed (commit 17616dd; the search of this commit
# is the same), whose seed-111 result above was measured with the defect. Same protocol as the
# seed-111 run: CPU seconds of the deciding thread, 500 duplicate deals, cardems, --jobs 2, new
# seed 115, resumable (the --results file is committed gzipped with whatever is played when a
# session ends; a later session gunzips it and resumes with the same command and code). Read by
# its own 95% interval (above zero). Nothing pooled or dropped. 0.5 s stays unregistered until
# an expert change makes +15 there plausible.
spades arena --a expert:0.25cpu --b ismcts:0.25cpu --deals 500 --jobs 2 --seed 115 \
  --results bench/results/runs/eq025_fx_seed115.jsonl --json > bench/results/bots_expert_vs_ismcts_025cpu_seed115.out
# The times written into the two registrations above were ahead of the clock: the ceiling and
# per-profile registration is commit 95e2167 (10:03 UTC; its runs started at 10:55) and the
# 0.25 s one commit 9492f95 (11:01 UTC; the run started at 11:02). Both before their runs.
# Registered 2026-12-02 11:05 UTC (the commit that adds these lines), before they start: the two
# profiles no expert-vs-intermediate result had been measured for, with the expert of this
# commit, the same protocol as the other per-profile runs (100 duplicate deals, read by their
# own 95% interval: above zero); --jobs 1 each, beside the 0.25 s run above.
spades arena --a expert --b intermediate --rules cardgames-club --deals 100 --jobs 1 --seed 25 --json > bench/results/bots_expert_fx_vs_intermediate_cardgames_club.out
spades arena --a expert --b intermediate --rules game93 --deals 100 --jobs 1 --seed 27 --json > bench/results/bots_expert_fx_vs_intermediate_game93.out
# 2026-12-02 11:09 UTC: the re-measured runs are done. Ceiling: expert +53.6 [+47.3, +60.0],
# all-seeing +84.8 [+78.8, +90.9], share 63.2% (met). Per profile: race400 3p +8.0 [+4.6, +11.4],
# 6p +17.7 [+11.9, +23.5], cards4net +42.7 [+30.4, +55.1], cardgames-club +52.1 [+38.9, +65.3],
# game93 +58.9 [+47.6, +70.3]: all above zero.
# 2026-12-02 12:36 UTC: the 0.25 s run (seed 115) finished: +1.1 [-3.0, +5.2] over 500 deals, not
# met (the interval includes zero): the fixed expert is level with ismcts at 0.25 s.
# Registered 2026-12-02 13:32 UTC (the commit that adds these lines; the real commit time is
# in git), before it starts: equal time against ismcts at 0.5 s of CPU, never measured for any
# expert (withdrawn twice before a deal was played). The expert of this commit: its search is
# that of 17616dd (the tree's guide, added in 7310387, is off by default), the expert of the
# seed-115 run at 0.25 s (+1.1 [-3.0, +5.2]). Same protocol as the 0.25 s runs: CPU seconds of
# the deciding thread, 500 duplicate deals, cardems, --jobs 2, new seed 117, resumable (the
# --results file is committed gzipped with whatever is played when a session ends; a later
# session gunzips it and resumes with the same command, from a clone of this commit with its
# own compiled build). Read by its own 95% interval (above zero) and its mean (at least +15 per
# deal). Nothing pooled or dropped. It is expected not to meet the +15: it is run to measure,
# as the issue asks, not because a change makes +15 plausible.
spades arena --a expert:0.5cpu --b ismcts:0.5cpu --deals 500 --jobs 2 --seed 117 \
  --results bench/results/runs/eq05_fx_seed117.jsonl --json > bench/results/bots_expert_vs_ismcts_05cpu_seed117.out
# 2026-12-02 15:41 UTC: the 0.5 s run (seed 117) was stopped at the end of the session after 337
# of 500 deals (its records in bench/results/runs/eq05_fx_seed117.jsonl.gz, its progress lines
# in bench/results/bots_expert_vs_ismcts_05cpu_seed117.progress.txt; the running figure then was
# -0.0 [-4.8, +4.8], not read as a result). It goes on with the same command and code (a clone
# of ad0add0 with its own compiled build, the records gunzipped to the --results path).
# 2026-12-02 17:03 UTC: the 0.5 s run (seed 117) finished, resumed at deal 337 with the same
# command from the clone of ad0add0: +0.5 [-3.6, +4.6] over 500 deals, not met (the interval
# includes zero; the mean is far under +15). Records in bench/results/runs/eq05_fx_seed117.jsonl.gz.
# Registered 2026-12-02 16:50 UTC (the commit that adds these lines), before it starts; exploratory,
# no target of the issue is read from it: how much doubling the time is worth to ismcts itself,
# to put in scale the +15 per deal that the issue asks of the expert at 0.5 s. ismcts at 0.5 s of
# CPU against ismcts at 0.25 s, 200 duplicate deals, cardems, --jobs 2, new seed 119, resumable
# as above, from main with its compiled build (ismcts has not changed since the runs above).
# Read by its own 95% interval; nothing pooled or dropped.
spades arena --a ismcts:0.5cpu --b ismcts:0.25cpu --deals 200 --jobs 2 --seed 119 \
  --results bench/results/runs/ismcts_05_vs_025_seed119.jsonl --json > bench/results/bots_ismcts_05cpu_vs_025cpu_seed119.out
# 2026-12-02 19:21 UTC: done: ismcts at 0.5 s against ismcts at 0.25 s, -0.1 [-6.0, +5.9] over
# 200 deals (records in bench/results/runs/ismcts_05_vs_025_seed119.jsonl.gz).
# Registered 2026-12-03 08:30 UTC (the commit that adds these lines), before it starts: equal time
# against ismcts at 0.25 s of CPU for the expert whose tree solves the last two tricks exactly
# (TREE_EXACT = 2, new in this commit's parent and on by default for budgets in seconds; pilot
# against the expert without it, 100 deals, seed 903, not registered: +8.1 [-0.8, +16.9], nils
# made 73% against 57%). Same protocol as the runs above: CPU seconds of the deciding thread,
# 500 duplicate deals, cardems, --jobs 2, new seed 121, resumable (the --results file committed
# gzipped with whatever is played when a session ends; a later session gunzips it and resumes
# with the same command from a clone of this commit with its own compiled build). Read by its
# own 95% interval (above zero); nothing pooled or dropped.
spades arena --a expert:0.25cpu --b ismcts:0.25cpu --deals 500 --jobs 2 --seed 121 \
  --results bench/results/runs/eq025_x2_seed121.jsonl --json > bench/results/bots_expert_vs_ismcts_025cpu_seed121.out
# 2026-12-03 09:58 UTC: the 0.25 s run (seed 121) finished: +5.3 [+1.5, +9.0] over 500 deals, met
# (the interval is above zero). Records in bench/results/runs/eq025_x2_seed121.jsonl.gz.
# Registered 2026-12-03 09:58 UTC (the commit that adds these lines), before it starts: equal
# time against ismcts at 0.5 s of CPU for the same expert (TREE_EXACT = 2; the code of the seed-121
# run, commit 2ae0ba6's search). Same protocol: CPU seconds of the deciding thread, 500 duplicate
# deals, cardems, --jobs 2, new seed 123, resumable as above (a clone of this commit with its own
# compiled build). Read by its own 95% interval (above zero) and its mean (at least +15 per deal);
# nothing pooled or dropped.
spades arena --a expert:0.5cpu --b ismcts:0.5cpu --deals 500 --jobs 2 --seed 123 \
  --results bench/results/runs/eq05_x2_seed123.jsonl --json > bench/results/bots_expert_vs_ismcts_05cpu_seed123.out
# 2026-12-03 10:27 UTC: the 0.5 s run (seed 123) was stopped at the end of the session after 79 of
# 500 deals (records in bench/results/runs/eq05_x2_seed123.jsonl.gz, progress lines in
# bench/results/bots_expert_vs_ismcts_05cpu_seed123.progress.txt; the running figure, not read as a
# result, was -1.4 [-9.8, +7.0]). It goes on with the same command and code (a clone of 30c8c12
# with its own compiled build, the records gunzipped to the --results path).
# 2026-12-03 13:58 UTC: finished (resumed at 11:30 from the 79 stored deals, same command and code):
# -0.1 [-3.8, +3.6] over 500 deals, not met (level with ismcts; the +15 asked is far).
