#!/usr/bin/env bash
# Two builds of outflank side by side: `outflank bench` run alternately with each, so machine
# noise hits both, and each game's playout and perft rates printed as the range over the rounds.
#
#   benches/compare-builds.sh OLD_BINARY NEW_BINARY [ROUNDS] [SECONDS] [FILE...]
#
# Build the old one from a commit first, e.g.
#   git worktree add /tmp/old COMMIT && (cd /tmp/old && cargo build --profile dist)
#   benches/compare-builds.sh /tmp/old/target/dist/outflank target/dist/outflank 3 2
# (the dist profile, which benches measure: Cargo.toml; a commit before it, --release)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_BINARY NEW_BINARY [ROUNDS] [SECONDS] [FILE...]" >&2
  exit 2
fi
old=$1 new=$2 rounds=${3:-3} seconds=${4:-2}
shift $(( $# < 4 ? $# : 4 ))
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(games/*.rules)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Which build goes first alternates by round, so that neither always runs second. Noise between
# runs of one binary reaches 5% on some games: read ratios within that as equal.
for r in $(seq 1 "$rounds"); do
  sides=(old new)
  [ $((r % 2)) -eq 0 ] && sides=(new old)
  for side in "${sides[@]}"; do
    bin=$old
    [ "$side" = new ] && bin=$new
    "$bin" bench "${files[@]}" --seconds "$seconds" --json >"$out/$side-$r.json"
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, sys
out, rounds = sys.argv[1], int(sys.argv[2])
# Builds before schema_version 1 wrote a bare list of games.
def rows(doc):
    return doc["games"] if isinstance(doc, dict) else doc
runs = {side: [rows(json.load(open(f"{out}/{side}-{r}.json"))) for r in range(1, rounds + 1)]
        for side in ("old", "new")}
def span(side, i, key):
    vals = [run[i][key] for run in runs[side]]
    return min(vals), max(vals)
print(f"{'game':<34} {'playouts/s old':>19} {'new':>19} {'ratio':>6}   "
      f"{'perft/s old':>23} {'new':>23} {'ratio':>6}")
for i, row in enumerate(runs["new"][0]):
    line = f"{row['game']:<34}"
    for key in ("playouts_per_second", "perft_leaves_per_second"):
        o, n = span("old", i, key), span("new", i, key)
        mid = lambda r: (r[0] + r[1]) / 2
        ratio = mid(n) / mid(o) if mid(o) else float("nan")
        line += f" {o[0]:>9.0f}-{o[1]:<9.0f} {n[0]:>9.0f}-{n[1]:<9.0f} {ratio:>6.2f}  "
    print(line)
print("perft depths differ where a build reaches deeper in the time; leaves/s compare anyway.")
PY
