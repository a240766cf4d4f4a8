#!/usr/bin/env bash
# An `outflank analyse` series in shards over machines reached by ssh, with GNU parallel
# (docs/SCALING.md). Each host needs outflank and the rules file at the same paths; the shards
# come back to this machine, into OUT, and are merged there.
#
#   HOSTS=8/alice,8/bob SHARDS=64 deploy/parallel/analyse.sh
#
# Settings, from the environment:
#   HOSTS     ssh logins, comma-separated, as parallel's --sshlogin takes them ("8/host" runs
#             8 shards at once there; ":" is this machine, without ssh)   (default :)
#   SHARDS    shards to split the series into                    (default 8)
#   RULES, GAMES, SEED, AGENTS, ANALYSE, OUTFLANK   as in deploy/slurm/analyse.sbatch
#   OUT       the folder the shards go to                        (default results)
set -euo pipefail

hosts=${HOSTS:-:}
shards=${SHARDS:-8}
rules=${RULES:-games/reversi-go-9x9.rules}
games=${GAMES:-8000}
seed=${SEED:-1}
agents=${AGENTS:-mcts:200,mcts:200}
out=${OUT:-results}
outflank=${OUTFLANK:-outflank}

mkdir -p "$out"
# One job per shard, each a single thread; parallel runs as many at once per host as it has
# cores (or as "N/host" says), and brings each job's standard output back to this machine as
# its shard file (its standard error beside it, as .err). A failed shard stops the run; a
# shard cut short has no last line, which merge refuses.
seq 1 "$shards" | parallel --sshlogin "$hosts" --halt now,fail=1 --results "$out/shard-{}.jsonl" \
  "$outflank analyse $rules --games $games --seed $seed --agents $agents --jobs 1 ${ANALYSE:-} --shard {}/$shards" \
  > /dev/null
"$outflank" merge "$out"/shard-*.jsonl
