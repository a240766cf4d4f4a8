#!/usr/bin/env bash
# Runs outflank and the hand-written reference engine (../shared/bench/ref-othello.c) side by
# side on standard Othello, alternating, so that machine noise hits both alike. Prints each
# round and the ratios of the medians. Usage: benches/vs-reference.sh [ROUNDS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
seconds=${2:-2}
ref_src=../shared/bench/ref-othello.c
ref_bin=target/ref-othello
[ -f "$ref_src" ] || { echo "no $ref_src beside this repository" >&2; exit 1; }
mkdir -p target
gcc -O2 -march=native -o "$ref_bin" "$ref_src"
cargo build --release --quiet
ours=() theirs=() ours_perft=() theirs_perft=()
for i in $(seq "$rounds"); do
  o=$(./target/release/outflank bench games/othello.rules --seconds "$seconds" --json |
      python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; print(r["playouts_per_second"], r["perft_leaves_per_second"])')
  t=$("$ref_bin" playouts "$seconds" | sed -n 's/.* \([0-9.]*\) playouts\/s (cpu).*/\1/p')
  p=$("$ref_bin" perft 10 --no-bulk | sed -n 's/.* \([0-9.]*\) M leaves\/s (cpu).*/\1/p')
  ours+=("${o% *}") ours_perft+=("${o#* }") theirs+=("$t") theirs_perft+=("$(python3 -c "print($p * 1e6)")")
  echo "round $i: outflank ${o% *} playouts/s, ${o#* } perft leaves/s; reference $t playouts/s, ${theirs_perft[-1]} perft leaves/s (no bulk)"
done
python3 - "${ours[*]}" "${theirs[*]}" "${ours_perft[*]}" "${theirs_perft[*]}" <<'PY'
import statistics, sys
o, t, op, tp = ([float(x) for x in a.split()] for a in sys.argv[1:5])
m = statistics.median
print(f"playouts: outflank {m(o):.0f}/s, reference {m(t):.0f}/s, ratio {m(o)/m(t):.4f}")
print(f"perft:    outflank {m(op):.0f} leaves/s, reference {m(tp):.0f} leaves/s (no bulk), ratio {m(op)/m(tp):.4f}")
PY
