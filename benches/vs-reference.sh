#!/usr/bin/env bash
# Runs outflank and the hand-written reference engine (benches/reference-othello.c, standard
# Othello on 64-bit boards) side by side, alternating, so that machine noise hits both alike.
# Prints each round and the ratios of the medians. Both count perft the same way: the last ply
# by the number of generated moves ("bulk"), every interior node generated and played; the
# two leaf counts must agree, or the run stops.
# Usage: benches/vs-reference.sh [ROUNDS] [SECONDS] [PERFT_DEPTH]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
seconds=${2:-2}
depth=${3:-11}
ref_src=benches/reference-othello.c
ref_bin=target/reference-othello
mkdir -p target
# Built for this machine: outflank's dist build takes this machine's AVX2 and bit
# instructions at run time in the loops this measures (docs/PERFORMANCE.md, "Build").
cc -O3 -march=native -Wno-psabi -o "$ref_bin" "$ref_src"
cargo build --profile dist --quiet
ours=() theirs=() ours_perft=() theirs_perft=()
for i in $(seq "$rounds"); do
  o=$(./target/dist/outflank bench games/othello.rules --seconds "$seconds" --json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["games"][0]["playouts_per_second"])')
  perft_json=$(./target/dist/outflank perft games/othello.rules --depth "$depth" --json)
  op=$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print(r["leaves"] / r["seconds"])' "$perft_json")
  ol=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["leaves"])' "$perft_json")
  # The wall-clock rates: outflank's are wall-clock too (on a machine that loses time to
  # others, CPU time and wall time part).
  t=$("$ref_bin" playouts "$seconds" | sed -n 's/.* \([0-9.]*\) playouts\/s (wall).*/\1/p')
  ref_perft=$("$ref_bin" perft "$depth")
  p=$(sed -n 's/.* \([0-9.]*\) M leaves\/s (wall).*/\1/p' <<<"$ref_perft")
  rl=$(sed -n 's/.*perft [0-9]* = \([0-9]*\) leaves.*/\1/p' <<<"$ref_perft")
  [ "$ol" = "$rl" ] || { echo "perft $depth: outflank counts $ol leaves, the reference $rl" >&2; exit 1; }
  tp=$(python3 -c "print($p * 1e6)")
  ours+=("$o") ours_perft+=("$op") theirs+=("$t") theirs_perft+=("$tp")
  echo "round $i: outflank $o playouts/s, $op perft-$depth leaves/s; reference $t playouts/s, $tp perft-$depth leaves/s"
done
python3 - "${ours[*]}" "${theirs[*]}" "${ours_perft[*]}" "${theirs_perft[*]}" <<'PY'
import statistics, sys
o, t, op, tp = ([float(x) for x in a.split()] for a in sys.argv[1:5])
m = statistics.median
print(f"playouts: outflank {m(o):.0f}/s, reference {m(t):.0f}/s, ratio {m(o)/m(t):.3f}")
print(f"perft:    outflank {m(op):.0f} leaves/s, reference {m(tp):.0f} leaves/s (both bulk), ratio {m(op)/m(tp):.3f}")
PY
